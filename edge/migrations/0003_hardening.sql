-- Sliding-window rate-limit counters (edge/core/src/rate_limit.rs): one row
-- per counter key ('<route>/<window>:<dealer>:c:<client hash>' or
-- '...:d' for the dealer), the hits of the current fixed window and of the
-- one before. Updated by one atomic upsert per hit; rows past expires_at
-- are deleted by the cron run. Replaces the fixed-window rate_limits.
CREATE TABLE rate_counters (
    key TEXT PRIMARY KEY NOT NULL,
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL,
    prev_count INTEGER NOT NULL DEFAULT 0,
    expires_at INTEGER NOT NULL
);
DROP TABLE rate_limits;

-- Sessions: the cookie carries a random id signed for the dealer; the row
-- is stored under a keyed hash of that id. Signing out deletes the row.
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY NOT NULL,
    dealer TEXT NOT NULL,
    phone TEXT NOT NULL,
    -- Unix seconds.
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_dealer_phone ON sessions (dealer, phone);

-- When the current code was sent (unix seconds): a new code for the number
-- only after the dealer's cooldown.
ALTER TABLE sign_in_codes ADD COLUMN sent_at INTEGER NOT NULL DEFAULT 0;
