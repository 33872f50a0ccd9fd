-- Popular searches (edge/src/search.rs, rules in edge/core/src/search_queries.rs).
-- One row per dealer, day (days since 1970-01-01, UTC) and normalised query:
-- how often it was searched, how many of those searches found cars, and how
-- many distinct visitors searched it that day. No visitor is stored here.
CREATE TABLE search_queries (
    dealer TEXT NOT NULL,
    day INTEGER NOT NULL,
    query TEXT NOT NULL,
    searches INTEGER NOT NULL,
    with_hits INTEGER NOT NULL,
    visitors INTEGER NOT NULL,
    PRIMARY KEY (dealer, day, query)
);

-- The current day's visitors of each query, to count them once: a keyed
-- hash of the client's network and the day (a new one every day, so days
-- cannot be linked). Rows of past days are deleted by the cron run.
CREATE TABLE search_query_visitors (
    dealer TEXT NOT NULL,
    day INTEGER NOT NULL,
    query TEXT NOT NULL,
    visitor TEXT NOT NULL,
    PRIMARY KEY (dealer, day, query, visitor)
);
