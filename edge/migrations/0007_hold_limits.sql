-- Holds a stranger cannot take (edge/core/src/checkout.rs INSERT_HOLD): the
-- shopper's phone (national format) and client key (a keyed hash of the
-- network, as the rate limits use) beside each hold, so one shopper has one
-- active hold at a dealer. Holds made before this have neither.
ALTER TABLE checkout_holds ADD COLUMN phone TEXT;
ALTER TABLE checkout_holds ADD COLUMN client TEXT;
CREATE INDEX checkout_holds_active_phone ON checkout_holds (dealer, phone)
    WHERE state IN ('pending', 'reserved');
CREATE INDEX checkout_holds_active_client ON checkout_holds (dealer, client)
    WHERE state IN ('pending', 'reserved');
