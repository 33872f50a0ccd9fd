//! Sliding-window rate limits. Every rate-limited route counts each call
//! twice: against the calling client's address and against the dealer, each
//! with the limits of the dealer's configuration ([`RouteLimit`]).
//!
//! A counter keeps the hits of the current fixed window and of the one
//! before it; the sliding estimate weighs the previous window by the part of
//! it still inside the last `window` seconds. So "20 an hour" means 20 in
//! any hour, not 40 across a window boundary, and the state is two numbers
//! per counter, updated in one atomic statement (D1) or one single-threaded
//! step (the per-dealer Durable Object): [`Counter::hit`] is that update.
//!
//! Only admitted calls count: a refused call changes no counter, so a
//! client that retries before `Retry-After` does not push its own wait
//! further out, and junk that is turned away spends nobody's budget.
//! [`retry_after`] is the real time until one more call would be admitted
//! (if no other call comes first), which the worker sends as `Retry-After`;
//! it stays true for a client that retries early.

use dealer_rules::edge_config::{EdgeRateLimits, LimitGroup, RouteLimit};

use crate::http::Aggregate;

/// Longest window honoured (a day); longer configured windows are cut.
pub const MAX_WINDOW_SECS: u64 = 24 * 3600;

/// At most `max` hits in any `window_secs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub max: u64,
    pub window_secs: u64,
}

impl Limit {
    /// A limit as configured, made safe: at least one hit, a window of 1 s
    /// to a day.
    pub fn new(max: u32, window_secs: u32) -> Self {
        Limit {
            max: u64::from(max.max(1)),
            window_secs: u64::from(window_secs).clamp(1, MAX_WINDOW_SECS),
        }
    }

    /// Start of the fixed window `now` falls in (aligned, so every worker
    /// instance agrees on it without coordination).
    pub fn window_start(&self, now: u64) -> u64 {
        now - now % self.window_secs
    }
}

/// The groups of routes, each with its own limits in [`EdgeRateLimits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Leads,
    SaveValuation,
    Events,
    Views,
    Quotes,
    PhoneReveal,
    SignIn,
    Verify,
    Watchlist,
    LeadStatus,
    Checkout,
    CarStatus,
    Valuation,
    PaymentWebhook,
    /// `POST /api/search/queries`: counted apart, with the `events` limits
    /// (a search report is an analytics event).
    SearchQueries,
    /// `GET /api/search/popular`: counted apart, with the `car_status`
    /// limits (a cacheable read a page makes).
    PopularSearches,
}

/// Where a route's counters live. Routes that write a row to D1 anyway
/// (leads, valuations, events, reveals, sign-in) count in D1, one atomic
/// upsert per counter; the routes a page view calls (views, quotes, who am
/// I and the watchlist, lead status) count in the dealer's Durable Object,
/// so that page traffic never turns into D1 writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Store {
    D1,
    DurableObject,
}

impl Route {
    pub const ALL: [Route; 16] = [
        Route::Leads,
        Route::SaveValuation,
        Route::Events,
        Route::Views,
        Route::Quotes,
        Route::PhoneReveal,
        Route::SignIn,
        Route::Verify,
        Route::Watchlist,
        Route::LeadStatus,
        Route::Checkout,
        Route::CarStatus,
        Route::Valuation,
        Route::PaymentWebhook,
        Route::SearchQueries,
        Route::PopularSearches,
    ];

    /// The group whose limits the route has (its YAML key under
    /// `edge.rate_limits`). Two routes are counted apart with another
    /// group's numbers: the search reports with `events`, the popular
    /// searches with `car_status`.
    pub fn group(self) -> LimitGroup {
        match self {
            Route::Leads => LimitGroup::Leads,
            Route::SaveValuation => LimitGroup::SaveValuation,
            Route::Events | Route::SearchQueries => LimitGroup::Events,
            Route::Views => LimitGroup::Views,
            Route::Quotes => LimitGroup::Quotes,
            Route::PhoneReveal => LimitGroup::PhoneReveal,
            Route::SignIn => LimitGroup::SignIn,
            Route::Verify => LimitGroup::Verify,
            Route::Watchlist => LimitGroup::Watchlist,
            Route::LeadStatus => LimitGroup::LeadStatus,
            Route::Checkout => LimitGroup::Checkout,
            Route::CarStatus | Route::PopularSearches => LimitGroup::CarStatus,
            Route::Valuation => LimitGroup::Valuation,
            Route::PaymentWebhook => LimitGroup::PaymentWebhook,
        }
    }

    /// Name in counter keys and logs: its group's, but for the two routes
    /// counted apart from their group.
    pub fn name(self) -> &'static str {
        match self {
            Route::SearchQueries => "search_queries",
            Route::PopularSearches => "popular_searches",
            _ => self.group().name(),
        }
    }

    pub fn config(self, limits: &EdgeRateLimits) -> RouteLimit {
        limits.get(self.group())
    }

    pub fn store(self) -> Store {
        match self {
            Route::Views
            | Route::Quotes
            | Route::Watchlist
            | Route::LeadStatus
            | Route::CarStatus
            | Route::Valuation
            | Route::PopularSearches => Store::DurableObject,
            _ => Store::D1,
        }
    }

    /// Whether the worker counts this route's calls against the dealer's
    /// budget only after its own checks, not up front, so that a stranger
    /// cannot use the budget up and lock the dealer's shoppers out:
    /// - leads: junk turned away by the honeypot or the captcha counts
    ///   nowhere, a verified lead never counts, and a lead over the budget
    ///   is held (stored, delivered later at the budget's rate), not
    ///   refused (the worker's `leads` module);
    /// - sign-in codes: a request whose captcha token passed never counts
    ///   (a refused token is 403 and counts nowhere); others count and are
    ///   refused over the budget, which bounds the dealer's SMS bill;
    /// - code checks: only wrong guesses (and guesses at no live code)
    ///   count, and a right code is never refused for the budget.
    ///
    /// The client's own limit is still counted up front.
    pub fn counts_dealer_budget_after_checks(self) -> bool {
        matches!(self, Route::Leads | Route::SignIn | Route::Verify)
    }

    /// The check of a call's wider IPv6 network
    /// ([`crate::http::client_aggregates`]): the /64s of one /56 share 8
    /// clients' limits and those of one /48 32, so rotating through them
    /// does not multiply a client's limit by 256 or 65,536.
    pub fn aggregate_check(
        self,
        c: RouteLimit,
        dealer: &str,
        aggregate: Aggregate,
        network: &str,
    ) -> Check {
        let limit = Limit::new(
            c.per_client.saturating_mul(aggregate.clients()),
            c.window_secs,
        );
        Check {
            key: format!(
                "{}/{}:{dealer}:{}:{network}",
                self.name(),
                limit.window_secs,
                aggregate.tag()
            ),
            limit,
            message: self.client_message(),
        }
    }

    /// The two checks of one call, client first: a client over its own
    /// limit is refused before the dealer's counter is touched, so one
    /// client's flood cannot use up the budget of the dealer's shoppers.
    pub fn checks(self, c: RouteLimit, dealer: &str, client: &str) -> [Check; 2] {
        let window = Limit::new(c.per_client, c.window_secs).window_secs;
        let key = |who: &str| format!("{}/{window}:{dealer}:{who}", self.name());
        [
            Check {
                key: key(&format!("c:{client}")),
                limit: Limit::new(c.per_client, c.window_secs),
                message: self.client_message(),
            },
            self.dealer_check(c, dealer),
        ]
    }

    /// The dealer's check of a call alone (the second of [`Route::checks`]),
    /// for the routes that count it after their own checks.
    pub fn dealer_check(self, c: RouteLimit, dealer: &str) -> Check {
        let limit = Limit::new(c.per_dealer, c.window_secs);
        Check {
            key: format!("{}/{}:{dealer}:d", self.name(), limit.window_secs),
            limit,
            message: DEALER_MESSAGE,
        }
    }

    fn client_message(self) -> &'static str {
        match self {
            Route::Leads | Route::SaveValuation => {
                "Too many enquiries from this connection; please try again later or call the dealership."
            }
            Route::PhoneReveal => {
                "Too many phone numbers revealed; please try again later or call the dealership."
            }
            Route::Checkout => {
                "Too many reservations started from this connection; please try again later or call the dealership."
            }
            Route::Valuation => {
                "Too many valuations asked for from this connection; please try again later or call the dealership."
            }
            Route::SignIn => "Too many codes requested; please try again later.",
            Route::Verify => "Too many sign-in attempts; please try again later.",
            _ => "Too many requests from this connection; please try again later.",
        }
    }
}

const DEALER_MESSAGE: &str =
    "This website is receiving too many requests just now; please try again shortly.";

/// One counter to hit for a call: its key, limit and refusal message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub key: String,
    pub limit: Limit,
    pub message: &'static str,
}

/// A counter after a hit: hits in the current window (this one included)
/// and in the window before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counter {
    pub window_start: u64,
    pub count: u64,
    pub prev_count: u64,
}

impl Counter {
    /// The counter after one more hit at `now` (whether or not it is
    /// within the limit: [`Counter::admit`] decides and writes it only
    /// then).
    pub fn hit(before: Option<Counter>, limit: Limit, now: u64) -> Counter {
        let start = limit.window_start(now);
        match before {
            // A counter ahead of this instance's clock: same window.
            Some(c) if c.window_start >= start => Counter {
                count: c.count + 1,
                ..c
            },
            Some(c) if c.window_start + limit.window_secs == start => Counter {
                window_start: start,
                count: 1,
                prev_count: c.count,
            },
            _ => Counter {
                window_start: start,
                count: 1,
                prev_count: 0,
            },
        }
    }

    /// Whether the counter can be dropped: nothing of it is in the sliding
    /// window any more at `now`.
    pub fn expired(&self, limit: Limit, now: u64) -> bool {
        now >= self.window_start + 2 * limit.window_secs
    }

    /// The counter as it stands at `now` without a new hit: rolled into
    /// `now`'s window when that window has begun.
    pub fn at(before: Option<Counter>, limit: Limit, now: u64) -> Counter {
        let hit = Counter::hit(before, limit, now);
        Counter {
            count: hit.count - 1,
            ..hit
        }
    }

    /// One call at `now`: the counter with it counted when it is within
    /// the limit, or the wait before one more call would be admitted. A
    /// refused call changes nothing. The D1 statement [`D1_ADMIT`] does
    /// exactly this.
    pub fn admit(before: Option<Counter>, limit: Limit, now: u64) -> Result<Counter, u64> {
        let hit = Counter::hit(before, limit, now);
        match decide(limit, &hit, now) {
            Decision::Allow => Ok(hit),
            Decision::Deny { retry_after } => Err(retry_after),
        }
    }
}

/// One atomic upsert per call: ?1 key, ?2 window start, ?3 window length,
/// ?4 now, ?5 the limit's max. Mirrors [`Counter::admit`]: the row after
/// the hit is written only when it is within the limit (the upsert's
/// `WHERE`; SQLite evaluates it and every SET expression against the old
/// row). A row back means admitted; no row means refused, and nothing
/// changed ([`D1_READ`] then reads the counter for `Retry-After`). A new
/// key is always admitted (a limit is at least one call).
pub const D1_ADMIT: &str = "INSERT INTO rate_counters (key, window_start, count, prev_count, expires_at) \
     VALUES (?1, ?2, 1, 0, ?2 + 2 * ?3) \
     ON CONFLICT (key) DO UPDATE SET \
     prev_count = CASE WHEN window_start >= ?2 THEN prev_count WHEN window_start + ?3 = ?2 THEN count ELSE 0 END, \
     count = CASE WHEN window_start >= ?2 THEN count + 1 ELSE 1 END, \
     expires_at = MAX(window_start, ?2) + 2 * ?3, \
     window_start = MAX(window_start, ?2) \
     WHERE (CASE WHEN window_start >= ?2 THEN prev_count WHEN window_start + ?3 = ?2 THEN count ELSE 0 END) \
     * (?3 - MIN(MAX(?4 - MAX(window_start, ?2), 0), ?3)) \
     + (CASE WHEN window_start >= ?2 THEN count + 1 ELSE 1 END) * ?3 <= ?5 * ?3 \
     RETURNING window_start, count, prev_count";

/// A counter as stored: ?1 key.
pub const D1_READ: &str =
    "SELECT window_start, count, prev_count FROM rate_counters WHERE key = ?1";

/// Takes back one admitted call (?1 key, ?2 the window it was counted in):
/// a call admitted by the client's counter and refused by the dealer's
/// was not made, so it must not count.
pub const D1_UNDO: &str = "UPDATE rate_counters SET count = count - 1 \
     WHERE key = ?1 AND window_start = ?2 AND count > 0";

/// Whether `count` hits now and `prev` in the previous window, `elapsed`
/// seconds into the current one, are within the limit. Integer arithmetic:
/// prev × (window − elapsed) / window + count ≤ max.
fn within(limit: Limit, prev: u64, count: u64, elapsed: u64) -> bool {
    let w = u128::from(limit.window_secs);
    let elapsed = u128::from(elapsed).min(w);
    u128::from(prev) * (w - elapsed) + u128::from(count) * w <= u128::from(limit.max) * w
}

/// What a check decides about the hit that produced `counter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Allow,
    /// Refused (and not counted); one more call would be admitted after
    /// this many seconds.
    Deny {
        retry_after: u64,
    },
}

/// Whether the call that produced `counter` (counted in it) is within
/// `limit`; if not, the wait computed from the counter without it.
pub fn decide(limit: Limit, counter: &Counter, now: u64) -> Decision {
    let elapsed = now.saturating_sub(counter.window_start);
    if within(limit, counter.prev_count, counter.count, elapsed) {
        Decision::Allow
    } else {
        let without = Counter {
            count: counter.count.saturating_sub(1),
            ..*counter
        };
        Decision::Deny {
            retry_after: retry_after(limit, &without, now),
        }
    }
}

/// Seconds from `now` until one more call would be admitted by a counter
/// that stands at `counter` (rolled to `now`'s window; refused calls are
/// not in it), if no other call comes first (at least 1). Either later in
/// the current window, once enough of the previous window has slid out,
/// or in the next one, once enough of this one has.
pub fn retry_after(limit: Limit, counter: &Counter, now: u64) -> u64 {
    let w = limit.window_secs;
    let (start, count, prev, max) = (
        counter.window_start,
        counter.count,
        counter.prev_count,
        limit.max,
    );
    // Later in this window, e seconds in: prev × (w − e) ≤ (max − count − 1) × w.
    let same_window = if count >= max {
        None
    } else {
        // floor: e ≥ w − room; nothing carried over: now.
        match ((max - count - 1) * w).checked_div(prev) {
            Some(room) => Some(start + w.saturating_sub(room)),
            None => Some(now),
        }
    };
    let at = match same_window {
        Some(t) if t < start + w => t,
        // Next window, e seconds in, the call alone in it:
        // count × (w − e) ≤ (max − 1) × w.
        _ if count == 0 => start + w,
        _ => start + w + w.saturating_sub((max - 1) * w / count),
    };
    at.saturating_sub(now).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lim(max: u64, window_secs: u64) -> Limit {
        Limit { max, window_secs }
    }

    #[test]
    fn configured_limits_are_made_safe() {
        assert_eq!(Limit::new(0, 0), lim(1, 1));
        assert_eq!(Limit::new(5, u32::MAX), lim(5, MAX_WINDOW_SECS));
        assert_eq!(lim(3, 60).window_start(119), 60);
        assert_eq!(lim(3, 60).window_start(120), 120);
    }

    #[test]
    fn counter_rolls_its_windows() {
        let l = lim(5, 60);
        let c = Counter::hit(None, l, 130);
        assert_eq!(
            c,
            Counter {
                window_start: 120,
                count: 1,
                prev_count: 0
            }
        );
        let c = Counter::hit(Some(c), l, 170);
        assert_eq!(
            c,
            Counter {
                window_start: 120,
                count: 2,
                prev_count: 0
            }
        );
        let c = Counter::hit(Some(c), l, 185);
        assert_eq!(
            c,
            Counter {
                window_start: 180,
                count: 1,
                prev_count: 2
            },
            "next window keeps the last one's count"
        );
        let c = Counter::hit(Some(c), l, 400);
        assert_eq!(
            c,
            Counter {
                window_start: 360,
                count: 1,
                prev_count: 0
            },
            "a gap forgets"
        );
        let ahead = Counter {
            window_start: 420,
            count: 3,
            prev_count: 1,
        };
        assert_eq!(
            Counter::hit(Some(ahead), l, 400).count,
            4,
            "a clock behind the counter's"
        );
        assert!(!c.expired(l, 479) && c.expired(l, 480));
    }

    #[test]
    fn sliding_estimate_weighs_the_previous_window() {
        let l = lim(10, 100);
        // 10 in the previous window, 25% into this one: 7.5 of them still count.
        let c = Counter {
            window_start: 1000,
            count: 2,
            prev_count: 10,
        };
        assert_eq!(decide(l, &c, 1025), Decision::Allow, "7.5 + 2 ≤ 10");
        let c3 = Counter { count: 3, ..c };
        assert!(
            matches!(decide(l, &c3, 1025), Decision::Deny { .. }),
            "7.5 + 3 > 10"
        );
        assert_eq!(decide(l, &c3, 1030), Decision::Allow, "7 + 3 ≤ 10");
        // A fixed window would allow 20 across the boundary; this does not.
        let burst = Counter {
            window_start: 1000,
            count: 10,
            prev_count: 10,
        };
        assert!(matches!(decide(l, &burst, 1001), Decision::Deny { .. }));
    }

    /// Whether a call at `now + secs` is admitted by the counter `c`.
    fn allowed_after(l: Limit, c: Counter, now: u64, secs: u64) -> bool {
        Counter::admit(Some(c), l, now + secs).is_ok()
    }

    #[test]
    fn retry_after_is_the_exact_wait() {
        // Every refused state of small limits: waiting `retry_after` gets
        // the call admitted, waiting one second less does not.
        let mut checked = 0;
        for max in 1..=6 {
            for w in [1, 2, 7, 60, 3600] {
                for prev in 0..=9 {
                    for count in 0..=9 {
                        for e in [0, 1, w / 3, w / 2, w - 1] {
                            if e >= w {
                                continue;
                            }
                            let l = lim(max, w);
                            let c = Counter {
                                window_start: 10 * w,
                                count,
                                prev_count: prev,
                            };
                            let now = c.window_start + e;
                            let Err(retry_after) = Counter::admit(Some(c), l, now) else {
                                continue;
                            };
                            assert_eq!(retry_after, self::retry_after(l, &c, now));
                            assert!(retry_after >= 1);
                            assert!(
                                allowed_after(l, c, now, retry_after),
                                "max {max} w {w} prev {prev} count {count} e {e}: {retry_after} s is not enough"
                            );
                            if retry_after > 1 {
                                assert!(
                                    !allowed_after(l, c, now, retry_after - 1),
                                    "max {max} w {w} prev {prev} count {count} e {e}: {retry_after} s is too long"
                                );
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn early_retries_do_not_push_the_wait_out() {
        // A client at its limit that retries every second is admitted at
        // the moment its first refusal named, and never counted before.
        for (max, w) in [(3, 60), (20, 3600), (1, 10)] {
            let l = lim(max, w);
            let mut c = None;
            let mut now = 5 * w + 3;
            for _ in 0..max {
                c = Some(Counter::admit(c, l, now).expect("within the limit"));
            }
            now += 1;
            let first = Counter::admit(c, l, now).expect_err("over the limit");
            let admitted_at = now + first;
            let mut t = now;
            loop {
                match Counter::admit(c, l, t) {
                    Ok(after) => {
                        assert_eq!(t, admitted_at, "max {max} w {w}");
                        assert!(decide(l, &after, t) == Decision::Allow);
                        break;
                    }
                    Err(wait) => {
                        assert_eq!(t + wait, admitted_at, "Retry-After stays true at {t}");
                        t += 1;
                    }
                }
            }
        }
    }

    #[test]
    fn refused_calls_change_nothing_and_the_d1_statement_says_so() {
        let l = lim(2, 60);
        let c = Counter::admit(None, l, 600).unwrap();
        let c = Counter::admit(Some(c), l, 601).unwrap();
        assert_eq!(
            Counter::admit(Some(c), l, 602),
            Err(88),
            "two in this minute: half the next one"
        );
        assert_eq!(
            Counter::at(Some(c), l, 661),
            Counter {
                window_start: 660,
                count: 0,
                prev_count: 2
            },
            "rolled, with nothing of its own"
        );
        // The statement writes only under its WHERE, and reads its limit.
        assert!(D1_ADMIT.contains("WHERE") && D1_ADMIT.contains("?5"));
    }

    #[test]
    fn an_hour_limit_asks_for_most_of_an_hour_not_a_minute() {
        // 20 reveals in the first minute of an hour with 20 allowed; the
        // 21st is refused.
        let l = Limit::new(20, 3600);
        let c = Counter {
            window_start: 7200,
            count: 20,
            prev_count: 0,
        };
        let Err(retry_after) = Counter::admit(Some(c), l, 7260) else {
            panic!("21 > 20")
        };
        // The rest of this hour, plus until enough of it has slid out.
        assert_eq!(retry_after, 3540 + 3600 - 19 * 3600 / 20);
    }

    #[test]
    fn checks_are_per_client_then_per_dealer() {
        let limits = EdgeRateLimits::default();
        let [client, dealer] = Route::Leads.checks(Route::Leads.config(&limits), "alpha", "abc");
        assert_eq!(client.key, "leads/3600:alpha:c:abc");
        assert_eq!(dealer.key, "leads/3600:alpha:d");
        assert_eq!(client.limit, Limit::new(20, 3600));
        let config = Route::Leads.config(&limits);
        let site = Route::Leads.aggregate_check(config, "alpha", Aggregate::Site, "s1");
        assert_eq!(site.key, "leads/3600:alpha:s:s1");
        assert_eq!(site.limit, Limit::new(20 * 8, 3600));
        assert_eq!(site.message, client.message);
        let block = Route::Leads.aggregate_check(config, "alpha", Aggregate::Block, "b1");
        assert_eq!(block.key, "leads/3600:alpha:b:b1");
        assert_eq!(block.limit, Limit::new(20 * 32, 3600));
        assert_eq!(dealer.limit, Limit::new(1_000, 3600));
        assert_ne!(client.message, dealer.message);
        let mut names: Vec<&str> = Route::ALL.iter().map(|r| r.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Route::ALL.len());
        // Every group a dealer can limit limits some route, under its name.
        for &group in LimitGroup::ALL {
            assert!(
                Route::ALL
                    .iter()
                    .any(|r| r.group() == group && r.name() == group.name()),
                "{} limits no route",
                group.name()
            );
        }
        assert_eq!(Route::Views.store(), Store::DurableObject);
        assert_eq!(
            Route::Quotes.store(),
            Store::DurableObject,
            "asked on car page views"
        );
        assert_eq!(Route::Leads.store(), Store::D1);
        // Search reports write a row anyway; the popular list is read by pages.
        assert_eq!(Route::SearchQueries.store(), Store::D1);
        assert_eq!(Route::PopularSearches.store(), Store::DurableObject);
        assert_eq!(
            Route::SearchQueries.config(&limits),
            limits.events,
            "its documented limits"
        );
    }
}
