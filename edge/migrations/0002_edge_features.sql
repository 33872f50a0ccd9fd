-- Everything the worker stores besides the leads themselves. Every table
-- carries the dealer slug (derived from the request Origin), and every query
-- filters on it: no call can read or change another dealer's rows.

-- Lead delivery: one row per lead and target ('email' | 'webhook'), so a
-- target that already has the lead is never sent it again while another is
-- retried.
ALTER TABLE leads ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
-- Unix seconds of the next scheduled retry (NULL: not yet tried).
ALTER TABLE leads ADD COLUMN next_attempt_at INTEGER;
-- A delivery run holds the lead until this unix second, so two runs (queue
-- retry and cron re-drive) never send the same lead at the same time.
ALTER TABLE leads ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
ALTER TABLE leads ADD COLUMN last_error TEXT;
ALTER TABLE leads ADD COLUMN delivered_at TEXT;

CREATE TABLE lead_deliveries (
    lead_id TEXT NOT NULL REFERENCES leads (id),
    target TEXT NOT NULL,
    destination TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    last_status INTEGER,
    last_error TEXT,
    delivered_at TEXT,
    PRIMARY KEY (lead_id, target)
);

-- Extra data attached to a lead by POST /api/miscellaneous (valuation).
CREATE TABLE miscellaneous (
    id TEXT PRIMARY KEY NOT NULL,
    dealer TEXT NOT NULL,
    column_name TEXT NOT NULL,
    lead_id TEXT,
    payload TEXT NOT NULL CHECK (json_valid(payload)),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- GET /api/cars/{slug}/view.json counts here.
CREATE TABLE car_views (
    dealer TEXT NOT NULL,
    slug TEXT NOT NULL,
    views INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dealer, slug)
);

-- Every phone reveal. client_key is a keyed hash of the client address,
-- never the address itself.
CREATE TABLE phone_reveals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    dealer TEXT NOT NULL,
    car_id TEXT NOT NULL,
    dealership_id INTEGER,
    website_id TEXT NOT NULL,
    location_id TEXT NOT NULL,
    client_key TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Fixed-window counters: key = '<bucket>@<window start>'. Rows past
-- expires_at are deleted by the cron run.
CREATE TABLE rate_limits (
    key TEXT PRIMARY KEY NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    expires_at INTEGER NOT NULL
);

-- The current sign-in code per dealer and phone, hashed (HMAC-SHA256).
CREATE TABLE sign_in_codes (
    dealer TEXT NOT NULL,
    phone TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dealer, phone)
);

CREATE TABLE watchlist (
    dealer TEXT NOT NULL,
    phone TEXT NOT NULL,
    car_id TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (dealer, phone, car_id)
);

-- Answers of upstream quote providers, per dealer and request.
CREATE TABLE quote_cache (
    key TEXT PRIMARY KEY NOT NULL,
    response TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);

-- Analytics events of dealers with the sink switched on.
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    dealer TEXT NOT NULL,
    event_id INTEGER NOT NULL,
    car_id TEXT,
    url TEXT,
    data TEXT,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX events_dealer_created ON events (dealer, created_at);
