//! `POST /api/phone-reveal`: the phone of a dealer location for a car,
//! recorded (car, dealership, website, time, hashed client) and counted as
//! analytics event 25; rate-limited per client (the dealer's `phone_reveal`
//! limits) so the numbers cannot be scraped. Dealers with `phone_reveal` off
//! show the phone on the page and never call this; it still answers for them.

use dealer_edge_core::events;
use dealer_edge_core::rate_limit::Route;
use dealer_edge_core::requests::{reveal_location, validate_reveal};
use serde_json::json;
use worker::wasm_bindgen::JsValue;
use worker::{Request, Response, RouteContext};

use crate::api::{self, invalid, Reply};
use crate::{internal, Tenant};
use dealer_edge_core::http::ApiError;

pub async fn reveal(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::PhoneReveal, false, handle).await
}

async fn handle(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    let body = api::json_body(&mut req).await?;
    let request = validate_reveal(&body).map_err(invalid)?;
    let config = &tenant.config;
    let location = reveal_location(config, request.location_id.as_deref()).map_err(invalid)?;

    let client = api::client_of(&req, &ctx.env, &tenant)?;
    let db = api::db(&ctx.env)?;

    let dealership = config
        .dealership_id
        .map_or(JsValue::NULL, |id| (id as f64).into());
    let mut statements = vec![db
        .prepare(
            "INSERT INTO phone_reveals (dealer, car_id, dealership_id, website_id, location_id, client_key) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )
        .bind(&[
            config.dealer.as_str().into(),
            request.car_id.as_str().into(),
            dealership,
            config.dealer.as_str().into(),
            location.id.as_str().into(),
            client.into(),
        ])
        .map_err(internal("bind reveal"))?];
    if config.analytics.enabled {
        statements.push(
            db.prepare("INSERT INTO events (dealer, event_id, car_id) VALUES (?1, ?2, ?3)")
                .bind(&[
                    config.dealer.as_str().into(),
                    events::PHONE_CLICK.into(),
                    request.car_id.as_str().into(),
                ])
                .map_err(internal("bind reveal event"))?,
        );
    }
    db.batch(statements)
        .await
        .map_err(internal("record reveal"))?;
    Ok(Reply::json(
        200,
        json!({
            "phone": location.phone,
            "location_id": location.id,
            "location_name": location.name,
            "car_id": request.car_id,
        }),
    ))
}
