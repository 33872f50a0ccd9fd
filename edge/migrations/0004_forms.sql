-- Forms and online reservations (issue 10).

-- Two columns of the payload a dealer filters leads by, kept beside it.
ALTER TABLE leads ADD COLUMN subcategory TEXT;
ALTER TABLE leads ADD COLUMN car_id TEXT;
CREATE INDEX leads_dealer_car ON leads (dealer, car_id) WHERE car_id IS NOT NULL;

-- Online reservations (POST /api/checkout/hold). A hold is 'pending' while
-- the shopper pays (until expires_at: the payment window and a few
-- minutes' grace), then 'reserved' (until expires_at: paid_at +
-- hold_hours), or 'released' (the payment session expired), 'expired'
-- (the window passed; cron), 'ended' (the reservation's time passed;
-- cron) or 'refund_needed' (paid after lapsing while another shopper held
-- the car). Times are unix seconds.
CREATE TABLE checkout_holds (
    id TEXT PRIMARY KEY NOT NULL,
    dealer TEXT NOT NULL,
    car_slug TEXT NOT NULL,
    car_id TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'reserved', 'released', 'expired', 'ended', 'refund_needed')),
    -- The shopper's e-mail (the same shopper asking again gets their hold back).
    email TEXT NOT NULL,
    -- dealer_edge_core::checkout::HoldDetails: the contact and the car as
    -- the stock had it, for the reservation lead.
    contact TEXT NOT NULL CHECK (json_valid(contact)),
    amount_cents INTEGER NOT NULL,
    session_id TEXT,
    checkout_url TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    paid_at INTEGER,
    lead_id TEXT
);
-- At most one active hold per car: of two shoppers holding the same car at
-- the same moment, the second insert conflicts and is refused.
CREATE UNIQUE INDEX checkout_holds_one_active ON checkout_holds (dealer, car_slug)
    WHERE state IN ('pending', 'reserved');
-- The cron's work list.
CREATE INDEX checkout_holds_due ON checkout_holds (expires_at)
    WHERE state IN ('pending', 'reserved');

-- Payment provider events already handled (webhooks are retried and may
-- repeat); kept 30 days.
CREATE TABLE payment_events (
    dealer TEXT NOT NULL,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    outcome TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    PRIMARY KEY (dealer, event_id)
);

-- Form posts whose honeypot field was filled in (answered with a fake
-- success, nothing stored), counted per dealer, day and route.
CREATE TABLE honeypot_hits (
    dealer TEXT NOT NULL,
    day TEXT NOT NULL,
    route TEXT NOT NULL,
    hits INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dealer, day, route)
);
