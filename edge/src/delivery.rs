//! Lead delivery from the queue: each stored lead is sent to the dealer's
//! targets (ADF/XML e-mail through the mail transport, JSON webhook) with
//! retries and exponential backoff. State lives in D1 (`leads.attempts`,
//! `next_attempt_at`, `lease_until`, `last_error`; one `lead_deliveries` row
//! per target), so a failed delivery is retried, never dropped, and a target
//! that has the lead is never sent it again.
//!
//! Mail transport per environment: `MAIL_RELAY_URL` set → the ADF e-mail is
//! POSTed there as JSON (a relay service sends it); unset → logged (dev).

use dealer_edge_core::adf;
use dealer_edge_core::config::parse_edge_config;
use dealer_edge_core::delivery::{
    accepted, mail_payload, retry_delay_secs, targets, webhook_payload, Target,
};
use dealer_edge_core::lead::Lead;
use dealer_edge_core::rate_limit::Route;
use dealer_rules::edge_config::{dealer_key, EdgeConfig};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use worker::{
    console_error, console_log, D1Database, Env, Fetch, Headers, MessageBatch, MessageExt, Method,
    QueueRetryOptionsBuilder, Request, RequestInit, Response, RouteContext,
};

use crate::api::{self, Reply};
use crate::outbound::{self, Call};
use crate::{internal, published, Tenant};
use dealer_edge_core::http::ApiError;

/// How long one delivery run holds a lead (seconds).
const LEASE_SECS: u64 = 60;
// A run sends to at most two targets (e-mail, webhook), one after the other,
// each within its deadline: the lease must outlast both, or a second run
// could claim the lead while the first is still sending.
const _: () = assert!(2 * Call::Delivery.deadline_secs() + 10 < LEASE_SECS);

#[derive(Debug, Serialize, Deserialize)]
pub struct LeadMessage {
    pub lead_id: String,
}

/// Hands a stored lead to the delivery queue.
pub async fn enqueue(env: &Env, lead_id: &str) -> worker::Result<()> {
    env.queue("LEAD_QUEUE")?
        .send(LeadMessage {
            lead_id: lead_id.to_string(),
        })
        .await
}

pub async fn consume(batch: MessageBatch<LeadMessage>, env: &Env) -> worker::Result<()> {
    for message in batch.messages()? {
        match deliver(env, &message.body().lead_id).await {
            Outcome::Done => message.ack(),
            Outcome::RetryIn(secs) => message.retry_with_options(
                &QueueRetryOptionsBuilder::new()
                    .with_delay_seconds(secs)
                    .build(),
            ),
        }
    }
    Ok(())
}

enum Outcome {
    /// Delivered, or nothing to do (already delivered, held by another run).
    Done,
    RetryIn(u32),
}

#[derive(Deserialize)]
struct Claimed {
    dealer: String,
    payload: String,
    created_at: String,
    attempts: u32,
}

#[derive(Deserialize)]
struct Delivered {
    target: String,
}

/// One delivery run for one lead.
async fn deliver(env: &Env, lead_id: &str) -> Outcome {
    match try_deliver(env, lead_id).await {
        Ok(outcome) => outcome,
        Err(e) => {
            // Storage or configuration trouble: keep the message, try later.
            console_error!("delivery of lead {lead_id} failed before sending: {e}");
            Outcome::RetryIn(retry_delay_secs(3))
        }
    }
}

async fn try_deliver(env: &Env, lead_id: &str) -> Result<Outcome, String> {
    let db = env.d1("DB").map_err(|e| e.to_string())?;
    let now = api::now();
    // Claim: only one run at a time may send a lead (lease), and a delivered
    // lead is never claimed again.
    let claimed = db
        .prepare(
            "UPDATE leads SET lease_until = ?2, attempts = attempts + 1 \
             WHERE id = ?1 AND delivery_status NOT IN ('delivered', 'no_route', 'held') AND lease_until < ?3 \
             RETURNING dealer, payload, created_at, attempts",
        )
        .bind(&[lead_id.into(), ((now + LEASE_SECS) as f64).into(), (now as f64).into()])
        .map_err(|e| e.to_string())?
        .first::<Claimed>(None)
        .await
        .map_err(|e| e.to_string())?;
    let Some(lead_row) = claimed else {
        return Ok(Outcome::Done);
    };
    let lead: Lead = serde_json::from_str(&lead_row.payload).map_err(|e| e.to_string())?;
    let config = dealer_config(env, &lead_row.dealer).await?;

    let all = targets(&config, &lead);
    if all.is_empty() {
        db.prepare("UPDATE leads SET delivery_status = 'no_route', lease_until = 0 WHERE id = ?1")
            .bind(&[lead_id.into()])
            .map_err(|e| e.to_string())?
            .run()
            .await
            .map_err(|e| e.to_string())?;
        console_log!(
            "lead {lead_id}: dealer {} has no lead e-mail or webhook; kept in D1 only",
            config.dealer
        );
        return Ok(Outcome::Done);
    }
    let done: Vec<String> = db
        .prepare("SELECT target FROM lead_deliveries WHERE lead_id = ?1 AND status = 'delivered'")
        .bind(&[lead_id.into()])
        .map_err(|e| e.to_string())?
        .all()
        .await
        .map_err(|e| e.to_string())?
        .results::<Delivered>()
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|d| d.target)
        .collect();

    let xml = adf::render(&lead, &config, lead_id, &lead_row.created_at);
    let mut errors = Vec::new();
    for target in all.iter().filter(|t| !done.iter().any(|d| d == t.name())) {
        let (status, error) = send(env, target, &config, lead_id, &lead_row, &lead, &xml).await;
        let ok = error.is_none();
        db.prepare(
            "INSERT INTO lead_deliveries (lead_id, target, destination, status, attempts, last_status, last_error, delivered_at) \
             VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, CASE WHEN ?4 = 'delivered' THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') END) \
             ON CONFLICT (lead_id, target) DO UPDATE SET status = excluded.status, attempts = attempts + 1, \
             last_status = excluded.last_status, last_error = excluded.last_error, delivered_at = excluded.delivered_at",
        )
        .bind(&[
            lead_id.into(),
            target.name().into(),
            target.destination().into(),
            if ok { "delivered" } else { "failed" }.into(),
            status.into(),
            error.clone().map_or(wasm_bindgen::JsValue::NULL, Into::into),
        ])
        .map_err(|e| e.to_string())?
        .run()
        .await
        .map_err(|e| e.to_string())?;
        if let Some(e) = error {
            errors.push(format!("{}: {e}", target.name()));
        }
    }

    if errors.is_empty() {
        db.prepare(
            "UPDATE leads SET delivery_status = 'delivered', delivered_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), \
             lease_until = 0, last_error = NULL, next_attempt_at = NULL WHERE id = ?1",
        )
        .bind(&[lead_id.into()])
        .map_err(|e| e.to_string())?
        .run()
        .await
        .map_err(|e| e.to_string())?;
        return Ok(Outcome::Done);
    }
    let delay = retry_delay_secs(lead_row.attempts);
    let error = errors.join("; ");
    console_error!(
        "lead {lead_id} attempt {} failed ({error}); retry in {delay} s",
        lead_row.attempts
    );
    db.prepare(
        "UPDATE leads SET delivery_status = 'retrying', next_attempt_at = ?2, last_error = ?3, lease_until = 0 WHERE id = ?1",
    )
    .bind(&[lead_id.into(), ((api::now() + u64::from(delay)) as f64).into(), error.into()])
    .map_err(|e| e.to_string())?
    .run()
    .await
    .map_err(|e| e.to_string())?;
    Ok(Outcome::RetryIn(delay))
}

/// Sends to one target: (HTTP status or 0, error if not delivered).
async fn send(
    env: &Env,
    target: &Target,
    config: &dealer_rules::edge_config::EdgeConfig,
    lead_id: &str,
    row: &Claimed,
    lead: &Lead,
    xml: &str,
) -> (u16, Option<String>) {
    let (url, body) = match target {
        Target::Webhook { url } => (
            url.clone(),
            webhook_payload(lead_id, &row.dealer, &row.created_at, lead, xml),
        ),
        Target::Email { to } => match api::secret(env, "MAIL_RELAY_URL") {
            Some(relay) => (relay, mail_payload(to, config, lead_id, lead, xml)),
            None => {
                console_log!("mail (log transport) to {to} for lead {lead_id}:\n{xml}");
                return (0, None);
            }
        },
    };
    match post_json(&url, lead_id, &body).await {
        Ok(status) if accepted(status) => (status, None),
        Ok(status) => (status, Some(format!("HTTP {status}"))),
        Err(e) => (0, Some(e)),
    }
}

async fn post_json(url: &str, lead_id: &str, body: &Value) -> Result<u16, String> {
    let headers = Headers::new();
    headers
        .set("Content-Type", "application/json")
        .map_err(|e| e.to_string())?;
    // Receivers can drop a repeat by this key.
    headers
        .set("Idempotency-Key", lead_id)
        .map_err(|e| e.to_string())?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(body.to_string().into()));
    let request = Request::new_with_init(url, &init).map_err(|e| e.to_string())?;
    // A receiver that does not answer in time is a failed attempt like any
    // other: retried with backoff, the lead stays in D1.
    let response = outbound::within(Call::Delivery, |signal| async move {
        Fetch::Request(request).send_with_signal(&signal).await
    })
    .await
    .map_err(|e| e.to_string())?
    .map_err(|e| e.to_string())?;
    Ok(response.status_code())
}

#[derive(Deserialize)]
struct Due {
    id: String,
}

/// Cron: re-queues leads whose delivery is due and not held by a run, and
/// deletes expired rate-limit counters, sign-in codes, sessions and cached
/// quotes.
pub async fn redrive(env: &Env) {
    let Ok(db) = env.d1("DB") else {
        console_error!("cron: no D1 binding");
        return;
    };
    let now = (api::now() as f64).into();
    let due = match db
        .prepare(
            "SELECT id FROM leads WHERE delivery_status IN ('pending', 'retrying') \
             AND COALESCE(next_attempt_at, 0) <= ?1 AND lease_until < ?1 \
             AND created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 seconds') LIMIT 500",
        )
        .bind(&[now])
        .map(|s| async move { s.all().await })
    {
        Ok(fut) => match fut.await.and_then(|r| r.results::<Due>()) {
            Ok(rows) => rows,
            Err(e) => {
                console_error!("cron: due leads: {e}");
                Vec::new()
            }
        },
        Err(e) => {
            console_error!("cron: due leads: {e}");
            Vec::new()
        }
    };
    for lead in &due {
        if let Err(e) = enqueue(env, &lead.id).await {
            console_error!("cron: queueing {} failed: {e}", lead.id);
        }
    }
    release_held(env, &db).await;
    let now = api::now() as f64;
    for sql in [
        "DELETE FROM rate_counters WHERE expires_at < ?1",
        "DELETE FROM sign_in_codes WHERE expires_at < ?1",
        "DELETE FROM sessions WHERE expires_at < ?1",
        "DELETE FROM quote_cache WHERE expires_at < ?1",
    ] {
        if let Ok(stmt) = db.prepare(sql).bind(&[now.into()]) {
            if let Err(e) = stmt.run().await {
                console_error!("cron: cleanup failed: {e}");
            }
        }
    }
    if !due.is_empty() {
        console_log!("cron: re-queued {} lead(s)", due.len());
    }
}

/// Dealer `dealer`'s edge configuration from KV.
async fn dealer_config(env: &Env, dealer: &str) -> Result<EdgeConfig, String> {
    let json = published::text(env, &dealer_key(dealer))
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no config for dealer {dealer}"))?;
    parse_edge_config(dealer, &json)
        .map_err(|fault| format!("dealer {dealer}: edge config unreadable: {fault}"))
}

#[derive(Deserialize)]
struct Holding {
    dealer: String,
}

/// Most held leads one cron run releases per dealer (each costs a counter
/// write and a queue message; the rest wait for the next minute).
const RELEASE_PER_RUN: usize = 100;

/// Cron: releases held leads (stored over the dealer's lead budget; see
/// the `leads` module), likely-real ones first (a later step of a proven
/// flow; a lead from a mobile number a shopper verified at the dealer's
/// sign-in), then oldest first, as far as the dealer's budget admits
/// them now: each released lead is counted against that budget like a new
/// one, so the dealer's CRM never receives more than the budget, and
/// every held lead is delivered once the flood is over.
pub async fn release_held(env: &Env, db: &D1Database) {
    let dealers = match db
        .prepare("SELECT DISTINCT dealer FROM leads WHERE delivery_status = 'held'")
        .all()
        .await
        .and_then(|r| r.results::<Holding>())
    {
        Ok(rows) => rows,
        Err(e) => {
            console_error!("cron: held leads: {e}");
            return;
        }
    };
    for Holding { dealer } in dealers {
        let config = match dealer_config(env, &dealer).await {
            Ok(config) => config,
            Err(e) => {
                console_error!("cron: held leads of {dealer} stay held: {e}");
                continue;
            }
        };
        let mut released = 0;
        while released < RELEASE_PER_RUN
            && api::dealer_budget(env, &dealer, &config.rate_limits, Route::Leads)
                .await
                .is_none()
        {
            let next = db
                .prepare(
                    "UPDATE leads SET delivery_status = 'pending' WHERE id = \
                     (SELECT id FROM leads WHERE dealer = ?1 AND delivery_status = 'held' \
                      ORDER BY (flow_of IS NOT NULL) DESC, \
                      EXISTS (SELECT 1 FROM sessions s WHERE s.dealer = leads.dealer \
                              AND s.phone = json_extract(leads.payload, '$.phone')) DESC, \
                      created_at, id LIMIT 1) RETURNING id",
                )
                .bind(&[dealer.as_str().into()])
                .map(|s| async move { s.first::<Due>(None).await });
            let next = match next {
                Ok(fut) => fut.await,
                Err(e) => Err(e),
            };
            match next {
                Ok(Some(lead)) => {
                    released += 1;
                    if let Err(e) = enqueue(env, &lead.id).await {
                        // Pending now: the next re-drive queues it.
                        console_error!("cron: queueing released {} failed: {e}", lead.id);
                    }
                }
                Ok(None) => {
                    // Admitted but nothing left: give the budget back.
                    api::return_dealer_budget(env, &dealer, &config.rate_limits, Route::Leads)
                        .await;
                    break;
                }
                Err(e) => {
                    console_error!("cron: releasing a held lead of {dealer}: {e}");
                    break;
                }
            }
        }
        if released > 0 {
            console_log!("cron: released {released} held lead(s) of {dealer}");
        }
    }
}

/// `GET /api/leads/{id}/delivery`: the delivery state of one of the
/// dealer's leads (another dealer's id is simply not found).
pub async fn status(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::LeadStatus, true, lead_status).await
}

#[derive(Deserialize, Serialize)]
struct StatusRow {
    delivery_status: String,
    attempts: u32,
    next_attempt_at: Option<u64>,
    last_error: Option<String>,
    delivered_at: Option<String>,
    created_at: String,
}

#[derive(Deserialize, Serialize)]
struct TargetRow {
    target: String,
    status: String,
    attempts: u32,
    last_status: Option<u16>,
    delivered_at: Option<String>,
}

async fn lead_status(
    _req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    let id = ctx.param("id").cloned().unwrap_or_default();
    if id.len() > 64 {
        return Err(ApiError::new(404, "No such lead."));
    }
    let db = api::db(&ctx.env)?;
    let row = db
        .prepare(
            "SELECT delivery_status, attempts, next_attempt_at, last_error, delivered_at, created_at \
             FROM leads WHERE id = ?1 AND dealer = ?2",
        )
        .bind(&[id.as_str().into(), tenant.config.dealer.as_str().into()])
        .map_err(internal("bind lead status"))?
        .first::<StatusRow>(None)
        .await
        .map_err(internal("lead status"))?
        .ok_or_else(|| ApiError::new(404, "No such lead."))?;
    let targets = db
        .prepare("SELECT target, status, attempts, last_status, delivered_at FROM lead_deliveries WHERE lead_id = ?1 ORDER BY target")
        .bind(&[id.as_str().into()])
        .map_err(internal("bind lead targets"))?
        .all()
        .await
        .map_err(internal("lead targets"))?
        .results::<TargetRow>()
        .map_err(internal("lead target rows"))?;
    let mut body = serde_json::to_value(&row).map_err(internal("status JSON"))?;
    body["lead_id"] = json!(id);
    body["targets"] = serde_json::to_value(&targets).map_err(internal("targets JSON"))?;
    Ok(Reply::json(200, body))
}
