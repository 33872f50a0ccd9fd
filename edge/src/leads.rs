//! `POST /api/leads`: lead capture. The lead is written to D1 before anything
//! else happens; then it is handed to the delivery queue ([`crate::delivery`]).
//! If that hand-over fails the lead is still stored as 'pending' and the
//! cron re-drive picks it up: a stored lead is never lost.

use dealer_edge_core::lead::{same_request, validate_lead, Lead, KEY_REUSED_MESSAGE};
use dealer_edge_core::rate_limit::Route;
use serde::Deserialize;
use serde_json::json;
use worker::wasm_bindgen::JsValue;
use worker::{console_error, D1Database, Request, Response, RouteContext};

use crate::api::{self, invalid, random_uuid, Reply};
use crate::{delivery, internal, Tenant};
use dealer_edge_core::http::ApiError;

pub async fn create(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Leads, false, accept).await
}

/// Checks, validates and stores one lead, then queues its delivery.
async fn accept(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    let body = api::json_body(&mut req).await?;
    let lead = validate_lead(&body, &tenant.config).map_err(invalid)?;
    let db = api::db(&ctx.env)?;
    let (status, lead_id) = store(&db, &tenant.config.dealer, &lead).await?;
    if status == 201 {
        if let Err(e) = delivery::enqueue(&ctx.env, &lead_id).await {
            // Stored as pending: the cron re-drive will queue it.
            console_error!("queueing lead {lead_id} failed (cron will retry): {e}");
        }
    }
    Ok(Reply::json(status, json!({ "lead_id": lead_id })))
}

#[derive(Deserialize)]
struct IdRow {
    id: String,
}

#[derive(Deserialize)]
struct KeyedRow {
    id: String,
    payload: String,
}

/// Inserts the lead. A retry with the same idempotency key (per dealer)
/// inserts nothing: the same request gets the first attempt's id with 200
/// instead of 201; another request under that key gets 422, as the IETF
/// Idempotency-Key draft asks (a reused key must not silently answer for a
/// different enquiry).
async fn store(db: &D1Database, dealer: &str, lead: &Lead) -> Result<(u16, String), ApiError> {
    let payload = serde_json::to_string(lead).map_err(internal("lead payload JSON"))?;
    let key = lead
        .idempotency_key
        .as_deref()
        .map_or(JsValue::NULL, JsValue::from);
    let inserted = db
        .prepare(
            "INSERT INTO leads (id, dealer, category, payload, idempotency_key) VALUES (?1, ?2, ?3, ?4, ?5) \
             ON CONFLICT (dealer, idempotency_key) DO NOTHING RETURNING id",
        )
        .bind(&[
            random_uuid().into(),
            dealer.into(),
            lead.category.as_str().into(),
            payload.into(),
            key.clone(),
        ])
        .map_err(internal("bind lead insert"))?
        .first::<IdRow>(None)
        .await
        .map_err(internal("insert lead"))?;
    if let Some(row) = inserted {
        return Ok((201, row.id));
    }
    // Only a key conflict skips the insert (NULL keys never conflict).
    let existing = db
        .prepare("SELECT id, payload FROM leads WHERE dealer = ?1 AND idempotency_key = ?2")
        .bind(&[dealer.into(), key])
        .map_err(internal("bind lead lookup"))?
        .first::<KeyedRow>(None)
        .await
        .map_err(internal("look up idempotent lead"))?;
    match existing {
        Some(row) if same_request(&row.payload, lead) => Ok((200, row.id)),
        Some(_) => Err(ApiError::new(422, KEY_REUSED_MESSAGE)),
        None => Err(internal("idempotent lead")(
            "conflict reported but no row found",
        )),
    }
}
