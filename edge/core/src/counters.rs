//! The state of a dealer's counters Durable Object (one per dealer): the
//! rate-limit counters of the routes a page view calls and the car views
//! not yet written to D1. Plain Rust; the object in `edge/src/counters.rs` only moves it in
//! and out of storage and D1.
//!
//! Views are counted here and written to D1 in one batch per flush interval
//! (one upsert per car viewed in that interval), so a dealer's page views
//! cost D1 at most one statement per car per interval, however many there
//! are. The rate-limit counters of these routes live only in memory: a
//! restart of the object forgets them, which for read-only calls costs at
//! most one more window's worth of reads.

use std::collections::{BTreeMap, HashMap};

use dealer_rules::edge_config::RouteLimit;
use serde::{Deserialize, Serialize};

use crate::rate_limit::{Check, Counter, Limit, Route};

/// Seconds between two flushes of a dealer's views to D1.
pub const FLUSH_SECS: u64 = 10;
/// Cars written per D1 batch (a batch is one round trip and one transaction).
pub const FLUSH_BATCH: usize = 100;

/// What the worker asks the dealer's object: count one call of `route`
/// from `client` under `limit`, and when `view` names a car, count a view
/// of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GateRequest {
    pub dealer: String,
    pub route: String,
    pub client: String,
    pub limit: RouteLimit,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<String>,
}

/// The object's answer. Refused: `message` and `retry_after`; a counted
/// view: the car's views so far (`None` while its D1 total is unknown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct GateAnswer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<Refusal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub views: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    pub message: String,
    pub retry_after: u64,
}

/// A dealer's counters.
#[derive(Debug, Default)]
pub struct DealerCounters {
    limits: HashMap<String, (Counter, Limit)>,
    /// Views per car not yet written to D1.
    pending: BTreeMap<String, u64>,
    /// Views per car known to be in D1.
    totals: HashMap<String, u64>,
}

impl DealerCounters {
    /// Counts one call against `checks` in order when every one of them
    /// admits it; the first refusal wins and nothing is counted (a refused
    /// call spends no budget and does not push a client's wait out).
    pub fn limit(&mut self, checks: &[Check], now: u64) -> Result<(), Refusal> {
        let mut admitted = Vec::with_capacity(checks.len());
        for check in checks {
            let before = self.limits.get(&check.key).map(|(c, _)| *c);
            match Counter::admit(before, check.limit, now) {
                Ok(counter) => admitted.push((check, counter)),
                Err(retry_after) => {
                    return Err(Refusal {
                        message: check.message.to_string(),
                        retry_after,
                    })
                }
            }
        }
        for (check, counter) in admitted {
            self.limits
                .insert(check.key.clone(), (counter, check.limit));
        }
        Ok(())
    }

    /// Counts a [`GateRequest`]'s call against its limits (an unknown route
    /// counts nothing).
    pub fn limit_request(&mut self, req: &GateRequest, now: u64) -> Result<(), Refusal> {
        match Route::from_name(&req.route) {
            Some(route) => self.limit(&route.checks(req.limit, &req.dealer, &req.client), now),
            None => Ok(()),
        }
    }

    /// Answers a [`GateRequest`] whose car totals are known: the limits
    /// first, then the view. (The object reads an unknown total from D1
    /// between the two, so that the count it answers is exact.)
    pub fn handle(&mut self, req: &GateRequest, now: u64) -> GateAnswer {
        if Route::from_name(&req.route).is_none() {
            return GateAnswer::default();
        }
        if let Err(refused) = self.limit_request(req, now) {
            return GateAnswer {
                refused: Some(refused),
                views: None,
            };
        }
        GateAnswer {
            refused: None,
            views: req.view.as_deref().and_then(|slug| self.view(slug)),
        }
    }

    /// Whether the D1 total of a car is known here.
    pub fn has_total(&self, slug: &str) -> bool {
        self.totals.contains_key(slug)
    }

    /// Counts a view; the car's views so far, if its D1 total is known.
    pub fn view(&mut self, slug: &str) -> Option<u64> {
        *self.pending.entry(slug.to_string()).or_insert(0) += 1;
        self.views(slug)
    }

    /// Views of a car: its D1 total plus those not yet written.
    pub fn views(&self, slug: &str) -> Option<u64> {
        let pending = self.pending.get(slug).copied().unwrap_or(0);
        self.totals.get(slug).map(|t| t + pending)
    }

    /// Records the D1 total of a car (read once per car and object life).
    pub fn set_total(&mut self, slug: &str, total: u64) {
        self.totals.entry(slug.to_string()).or_insert(total);
    }

    /// Views not yet written, e.g. restored from storage after a restart.
    pub fn restore_pending(&mut self, slug: &str, views: u64) {
        if views > 0 {
            *self.pending.entry(slug.to_string()).or_insert(0) += views;
        }
    }

    pub fn pending(&self, slug: &str) -> u64 {
        self.pending.get(slug).copied().unwrap_or(0)
    }

    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The next batch to write: up to [`FLUSH_BATCH`] cars and their views
    /// not yet written. Views counted while it is being written stay
    /// pending ([`flushed`](Self::flushed) subtracts only the batch).
    pub fn batch(&self) -> Vec<(String, u64)> {
        self.pending
            .iter()
            .take(FLUSH_BATCH)
            .map(|(slug, n)| (slug.clone(), *n))
            .collect()
    }

    /// The batch is in D1.
    pub fn flushed(&mut self, batch: &[(String, u64)]) {
        for (slug, n) in batch {
            if let Some(p) = self.pending.get_mut(slug) {
                *p = p.saturating_sub(*n);
                if *p == 0 {
                    self.pending.remove(slug);
                }
            }
            if let Some(t) = self.totals.get_mut(slug) {
                *t += n;
            }
        }
    }

    /// Drops counters that no longer count at `now`.
    pub fn prune(&mut self, now: u64) {
        self.limits.retain(|_, (c, l)| !c.expired(*l, now));
    }

    pub fn counters(&self) -> usize {
        self.limits.len()
    }
}

impl Route {
    pub fn from_name(name: &str) -> Option<Route> {
        Route::ALL.into_iter().find(|r| r.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(client: &str, view: Option<&str>, per_client: u32, per_dealer: u32) -> GateRequest {
        GateRequest {
            dealer: "alpha".into(),
            route: "views".into(),
            client: client.into(),
            limit: RouteLimit {
                per_client,
                per_dealer,
                window_secs: 60,
            },
            view: view.map(String::from),
        }
    }

    #[test]
    fn views_are_counted_and_answered_with_the_d1_total() {
        let mut c = DealerCounters::default();
        let a = c.handle(&req("x", Some("car-1"), 100, 100), 1000);
        assert_eq!(
            a,
            GateAnswer {
                refused: None,
                views: None
            },
            "total not read yet"
        );
        c.set_total("car-1", 40);
        assert_eq!(
            c.handle(&req("x", Some("car-1"), 100, 100), 1001).views,
            Some(42)
        );
        c.set_total("car-1", 99);
        assert_eq!(c.views("car-1"), Some(42), "the first total read stays");
        assert_eq!(c.pending("car-1"), 2);
    }

    #[test]
    fn a_flush_writes_a_snapshot_and_keeps_later_views() {
        let mut c = DealerCounters::default();
        c.set_total("a", 0);
        for _ in 0..5 {
            c.view("a");
        }
        c.view("b");
        let batch = c.batch();
        assert_eq!(batch, [("a".to_string(), 5), ("b".to_string(), 1)]);
        c.view("a"); // while the batch is being written
        c.flushed(&batch);
        assert_eq!(c.pending("a"), 1);
        assert_eq!(c.pending("b"), 0);
        assert_eq!(c.views("a"), Some(6));
        assert!(c.has_pending());
        c.flushed(&c.batch());
        assert!(!c.has_pending());
    }

    #[test]
    fn batches_are_bounded() {
        let mut c = DealerCounters::default();
        for i in 0..(FLUSH_BATCH + 5) {
            c.view(&format!("car-{i:04}"));
        }
        assert_eq!(c.batch().len(), FLUSH_BATCH);
        c.flushed(&c.batch());
        assert_eq!(c.batch().len(), 5);
    }

    #[test]
    fn limits_per_client_then_per_dealer() {
        let mut c = DealerCounters::default();
        let answers: Vec<bool> = (0..4)
            .map(|_| c.handle(&req("x", None, 3, 5), 1000).refused.is_none())
            .collect();
        assert_eq!(answers, [true, true, true, false]);
        let refused = c.handle(&req("x", None, 3, 5), 1000).refused.unwrap();
        assert!(refused.retry_after > 0 && refused.retry_after <= 120);
        // x's calls used 3 of the dealer's 5 (its refused ones none): 2
        // more clients get the 2 left, then the dealer is full.
        assert!(c.handle(&req("y", None, 3, 5), 1000).refused.is_none());
        assert!(c.handle(&req("z", None, 3, 5), 1000).refused.is_none());
        let full = c.handle(&req("w", None, 3, 5), 1000).refused.unwrap();
        assert!(
            full.message.contains("too many requests just now"),
            "{}",
            full.message
        );
        assert_eq!(
            c.counters(),
            4,
            "x, y, z and the dealer: w's refused call is in no counter"
        );
        // A refused call counts no view.
        assert_eq!(c.handle(&req("x", Some("car"), 3, 5), 1000).views, None);
        assert_eq!(c.pending("car"), 0);
    }

    #[test]
    fn old_counters_are_pruned() {
        let mut c = DealerCounters::default();
        c.handle(&req("x", None, 3, 5), 1000);
        assert_eq!(c.counters(), 2);
        c.prune(1000 + 60);
        assert_eq!(c.counters(), 2, "still weighs in the next window");
        c.prune(960 + 120);
        assert_eq!(c.counters(), 0);
    }

    #[test]
    fn unknown_routes_count_nothing() {
        let mut c = DealerCounters::default();
        let mut r = req("x", Some("car"), 3, 5);
        r.route = "nope".into();
        assert_eq!(c.handle(&r, 1), GateAnswer::default());
        assert_eq!(c.pending("car"), 0);
    }

    #[test]
    fn requests_and_answers_round_trip_as_json() {
        let r = req("x", Some("car"), 3, 5);
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<GateRequest>(&json).unwrap(), r);
        let a = GateAnswer {
            refused: Some(Refusal {
                message: "m".into(),
                retry_after: 3,
            }),
            views: None,
        };
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, r#"{"refused":{"message":"m","retry_after":3}}"#);
        assert_eq!(serde_json::from_str::<GateAnswer>(&json).unwrap(), a);
    }
}
