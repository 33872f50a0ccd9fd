//! `DealerGate`, the per-dealer counters Durable Object (binding
//! `COUNTERS`, one object per dealer slug): the rate limits of the routes a
//! page view calls (views, quotes, watchlist, lead status) and car views,
//! kept by [`DealerCounters`] (`edge/core/src/counters.rs`).
//!
//! Views reach D1 in batches: the first view after a flush sets an alarm
//! `VIEW_FLUSH_SECS` (default 10) seconds ahead, and the alarm writes every
//! car viewed since, one upsert per car, in one D1 batch per
//! [`FLUSH_BATCH`] cars. A dealer's views thus cost D1 at most one
//! statement per viewed car per interval, whatever the traffic. Views not
//! yet written are also kept in the object's own storage (`p:<slug>`), so a
//! restart does not lose them; a failed write is retried at the next alarm.

use std::cell::{Cell, RefCell};
use std::time::Duration;

use dealer_edge_core::counters::{
    DealerCounters, GateAnswer, GateRequest, FLUSH_BATCH, FLUSH_SECS,
};
use serde::Deserialize;
use worker::{
    console_error, console_log, durable_object, DurableObject, Env, ListOptions, Request, Response,
    State,
};

use crate::api;

/// Storage key prefix of a car's views not yet in D1.
const PENDING: &str = "p:";
/// Storage key of the dealer's slug (the object's name), for alarms.
const DEALER: &str = "dealer";

#[durable_object(alarm)]
pub struct DealerGate {
    state: State,
    env: Env,
    counters: RefCell<DealerCounters>,
    dealer: RefCell<Option<String>>,
    /// Pending views were read back from storage (once per object life).
    loaded: Cell<bool>,
    /// An alarm is set and has not run yet.
    alarm_set: Cell<bool>,
}

#[derive(Deserialize)]
struct Total {
    views: u64,
}

impl DealerGate {
    fn flush_secs(&self) -> u64 {
        api::secret(&self.env, "VIEW_FLUSH_SECS")
            .and_then(|s| s.parse().ok())
            .filter(|s| *s > 0)
            .unwrap_or(FLUSH_SECS)
    }

    /// Reads back views not yet written (after a restart).
    async fn load(&self) -> worker::Result<()> {
        if self.loaded.get() {
            return Ok(());
        }
        let storage = self.state.storage();
        if self.dealer.borrow().is_none() {
            let stored = storage.get::<String>(DEALER).await?;
            *self.dealer.borrow_mut() = stored;
        }
        let stored = storage
            .list_with_options(ListOptions::new().prefix(PENDING))
            .await?;
        let mut restored = Vec::new();
        stored.for_each(&mut |value, key| {
            let slug = key.as_string().unwrap_or_default();
            let views = value.as_f64().unwrap_or(0.0) as u64;
            if let Some(slug) = slug.strip_prefix(PENDING) {
                restored.push((slug.to_string(), views));
            }
        });
        let mut counters = self.counters.borrow_mut();
        for (slug, views) in restored {
            counters.restore_pending(&slug, views);
        }
        self.loaded.set(true);
        Ok(())
    }

    async fn remember_dealer(&self, dealer: &str) -> worker::Result<()> {
        if self.dealer.borrow().as_deref() != Some(dealer) {
            *self.dealer.borrow_mut() = Some(dealer.to_string());
            self.state.storage().put(DEALER, dealer).await?;
        }
        Ok(())
    }

    async fn schedule_flush(&self) -> worker::Result<()> {
        if !self.alarm_set.get() {
            self.state
                .storage()
                .set_alarm(Duration::from_secs(self.flush_secs()))
                .await?;
            self.alarm_set.set(true);
        }
        Ok(())
    }

    /// The car's D1 total, read once; `None` when D1 cannot say.
    async fn read_total(&self, dealer: &str, slug: &str) -> Option<u64> {
        let db = self.env.d1("DB").ok()?;
        let row = db
            .prepare("SELECT views FROM car_views WHERE dealer = ?1 AND slug = ?2")
            .bind(&[dealer.into(), slug.into()])
            .ok()?
            .first::<Total>(None)
            .await;
        match row {
            Ok(row) => Some(row.map_or(0, |r| r.views)),
            Err(e) => {
                console_error!("views of {dealer}/{slug}: total unreadable: {e}");
                None
            }
        }
    }

    async fn answer(&self, request: GateRequest) -> worker::Result<GateAnswer> {
        self.load().await?;
        self.remember_dealer(&request.dealer).await?;
        let refused = self
            .counters
            .borrow_mut()
            .limit_request(&request, api::now());
        if let Err(refused) = refused {
            return Ok(GateAnswer {
                refused: Some(refused),
                views: None,
            });
        }
        let Some(slug) = request.view.as_deref() else {
            return Ok(GateAnswer::default());
        };
        // The car's D1 total first (once per car and object life), then the
        // view: counting and answering in one step keeps the count exact
        // for concurrent views.
        if !self.counters.borrow().has_total(slug) {
            if let Some(total) = self.read_total(&request.dealer, slug).await {
                self.counters.borrow_mut().set_total(slug, total);
            }
        }
        let views = {
            let mut counters = self.counters.borrow_mut();
            let views = counters.view(slug);
            // D1 unreadable: at least the views counted here.
            views.unwrap_or_else(|| counters.pending(slug))
        };
        let pending = self.counters.borrow().pending(slug);
        self.state
            .storage()
            .put(&format!("{PENDING}{slug}"), pending)
            .await?;
        self.schedule_flush().await?;
        Ok(GateAnswer {
            refused: None,
            views: Some(views),
        })
    }

    /// Writes pending views to D1, a batch at a time.
    async fn flush(&self) -> worker::Result<()> {
        let Some(dealer) = self.dealer.borrow().clone() else {
            return Ok(());
        };
        let db = self.env.d1("DB")?;
        let storage = self.state.storage();
        let (mut cars, mut views, mut batches) = (0, 0, 0);
        loop {
            let batch = self.counters.borrow().batch();
            if batch.is_empty() {
                break;
            }
            let statements = batch
                .iter()
                .map(|(slug, n)| {
                    db.prepare(
                        "INSERT INTO car_views (dealer, slug, views) VALUES (?1, ?2, ?3) \
                         ON CONFLICT (dealer, slug) DO UPDATE SET views = views + excluded.views",
                    )
                    .bind(&[
                        dealer.as_str().into(),
                        slug.as_str().into(),
                        (*n as f64).into(),
                    ])
                })
                .collect::<worker::Result<Vec<_>>>()?;
            db.batch(statements).await?;
            self.counters.borrow_mut().flushed(&batch);
            for (slug, n) in &batch {
                let key = format!("{PENDING}{slug}");
                // Never hold a borrow across an await: a fetch may run then.
                let left = self.counters.borrow().pending(slug);
                match left {
                    0 => storage.delete(&key).await.map(|_| ())?,
                    left => storage.put(&key, left).await?,
                }
                views += n;
            }
            cars += batch.len();
            batches += 1;
            if batch.len() < FLUSH_BATCH {
                break;
            }
        }
        if batches > 0 {
            console_log!(
                "views flush {dealer}: {cars} car(s), {views} view(s), {batches} D1 batch(es)"
            );
        }
        Ok(())
    }
}

impl DurableObject for DealerGate {
    fn new(state: State, env: Env) -> Self {
        DealerGate {
            state,
            env,
            counters: RefCell::new(DealerCounters::default()),
            dealer: RefCell::new(None),
            loaded: Cell::new(false),
            alarm_set: Cell::new(false),
        }
    }

    async fn fetch(&self, mut req: Request) -> worker::Result<Response> {
        let request: GateRequest = req.json().await?;
        let answer = self.answer(request).await?;
        Response::from_json(&answer)
    }

    async fn alarm(&self) -> worker::Result<Response> {
        self.alarm_set.set(false);
        self.load().await?;
        if let Err(e) = self.flush().await {
            console_error!("views flush failed (retried at the next alarm): {e}");
        }
        self.counters.borrow_mut().prune(api::now());
        if self.counters.borrow().has_pending() {
            self.schedule_flush().await?;
        }
        Response::empty()
    }
}
