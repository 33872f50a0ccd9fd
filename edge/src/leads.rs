//! `POST /api/leads`: lead capture. The lead is written to D1 before anything
//! else happens (delivery to the dealer is a later step that reads rows with
//! `delivery_status = 'pending'`).

use dealer_rules::lead::{validate_lead, Lead, FORM_ERROR};
use serde::Deserialize;
use serde_json::json;
use wasm_bindgen::prelude::wasm_bindgen;
use worker::wasm_bindgen::JsValue;
use worker::{D1Database, Request, Response, RouteContext};

use crate::http::{self, ApiError};
use crate::{error_response, internal, json_response, Tenant};

#[wasm_bindgen]
extern "C" {
    /// Web Crypto's `crypto.randomUUID()`: a v4 UUID from the platform CSPRNG.
    #[wasm_bindgen(js_namespace = crypto, js_name = randomUUID)]
    fn random_uuid() -> String;
}

pub async fn create(mut req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    let tenant = match Tenant::resolve(&req, &ctx.env).await {
        Ok(tenant) => tenant,
        Err(error) => return error_response(&error, None),
    };
    // From here on every answer carries CORS headers, so the dealer's page
    // can read the field messages of a 400 as well as the lead id of a 201.
    let origin = Some(tenant.origin.as_str());
    match accept(&mut req, &ctx, &tenant).await {
        Ok((status, lead_id)) => json_response(status, &json!({ "lead_id": lead_id }), origin),
        Err(error) => error_response(&error, origin),
    }
}

/// Checks, validates and stores one lead; returns (status, lead id).
async fn accept(
    req: &mut Request,
    ctx: &RouteContext<()>,
    tenant: &Tenant,
) -> Result<(u16, String), ApiError> {
    let header = |name: &str| req.headers().get(name).ok().flatten();
    http::check_json_content_type(header("Content-Type").as_deref())?;
    http::check_declared_length(header("Content-Length").as_deref())?;
    let bytes = req
        .bytes()
        .await
        .map_err(|_| ApiError::new(400, "Could not read the request body."))?;
    http::check_body_length(bytes.len())?;
    let body = http::parse_json(&bytes)?;
    let lead = validate_lead(&body, &tenant.config)
        .map_err(|fields| ApiError::with_fields(400, FORM_ERROR, fields))?;

    let db = ctx.env.d1("DB").map_err(internal("D1 binding DB"))?;
    store(&db, &tenant.config.dealer, &lead).await
}

#[derive(Deserialize)]
struct IdRow {
    id: String,
}

/// Inserts the lead; a retry with the same idempotency key (per dealer)
/// inserts nothing and gets the first attempt's id with 200 instead of 201.
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
        .prepare("SELECT id FROM leads WHERE dealer = ?1 AND idempotency_key = ?2")
        .bind(&[dealer.into(), key])
        .map_err(internal("bind lead lookup"))?
        .first::<IdRow>(None)
        .await
        .map_err(internal("look up idempotent lead"))?;
    match existing {
        Some(row) => Ok((200, row.id)),
        None => Err(internal("idempotent lead")(
            "conflict reported but no row found",
        )),
    }
}
