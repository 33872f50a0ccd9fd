//! `POST /api/miscellaneous` (valuation data for a lead, for dealers with
//! `trade_in.save_valuation`) and
//! `POST /api/events` (the optional per-dealer analytics sink).

use dealer_edge_core::features::require_analytics;
use dealer_edge_core::http;
use dealer_edge_core::lead::LeadCategory;
use dealer_edge_core::lead_flow::{self, FlowBinding};
use dealer_edge_core::rate_limit::Route;
use dealer_edge_core::requests::{validate_event, validate_miscellaneous};
use serde_json::{json, Value};
use worker::wasm_bindgen::JsValue;
use worker::{console_log, Request, Response, RouteContext};

use crate::api::{self, invalid, random_uuid, Reply};
use crate::{internal, Tenant};
use dealer_edge_core::http::ApiError;

pub async fn miscellaneous(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::SaveValuation, false, store_misc).await
}

pub async fn event(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Events, false, store_event).await
}

async fn store_misc(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    // Valuations are kept only for dealers who want them (and offer
    // trade-ins at all); for the others the site must not call this.
    if !(tenant.config.trade_in.save_valuation && tenant.config.features.trade_in) {
        return Err(ApiError::new(
            404,
            "This dealer does not keep trade-in valuations.",
        ));
    }
    let body = api::json_body(&mut req).await?;
    let misc = validate_miscellaneous(&body).map_err(invalid)?;
    let db = api::db(&ctx.env)?;
    let dealer = tenant.config.dealer.as_str();
    // Attaching data to a lead needs that lead's flow token, signed for
    // this dealer, client and the trade-in form: naming another dealer's
    // lead, or any lead the client did not send, is refused.
    let key = api::session_key(&ctx.env)?;
    let network = http::client_network(&api::client_address(&req));
    let binding = FlowBinding {
        dealer,
        client: &network,
        category: LeadCategory::TradeIn.as_str(),
    };
    if let Err(why) = lead_flow::verify(&key, binding, &misc.lead_id, &misc.flow_token, api::now())
    {
        console_log!(
            "dealer {dealer}: misc data for lead {} refused: flow token {}",
            misc.lead_id,
            why.as_str()
        );
        let mut fields = dealer_edge_core::input::FieldErrors::default();
        fields.0.insert(
            "lead_id".into(),
            "Unknown lead for this dealer, or the form was started elsewhere.".into(),
        );
        return Err(invalid(fields));
    }
    let id = random_uuid();
    let payload =
        serde_json::to_string(&Value::Object(misc.data)).map_err(internal("misc JSON"))?;
    db.prepare("INSERT INTO miscellaneous (id, dealer, column_name, lead_id, payload) VALUES (?1, ?2, ?3, ?4, ?5)")
        .bind(&[
            id.as_str().into(),
            dealer.into(),
            misc.column_name.as_str().into(),
            misc.lead_id.as_str().into(),
            payload.into(),
        ])
        .map_err(internal("bind misc"))?
        .run()
        .await
        .map_err(internal("insert misc"))?;
    Ok(Reply::json(201, json!({ "success": true, "id": id })))
}

async fn store_event(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    require_analytics(&tenant.config)?;
    let body = api::json_body(&mut req).await?;
    let event = validate_event(&body).map_err(invalid)?;
    let data = if event.data.is_empty() {
        JsValue::NULL
    } else {
        serde_json::to_string(&event.data)
            .map_err(internal("event JSON"))?
            .into()
    };
    api::db(&ctx.env)?
        .prepare(
            "INSERT INTO events (dealer, event_id, car_id, url, data) VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .bind(&[
            tenant.config.dealer.as_str().into(),
            event.event_id.into(),
            event.car_id.as_deref().map_or(JsValue::NULL, JsValue::from),
            event.url.as_deref().map_or(JsValue::NULL, JsValue::from),
            data,
        ])
        .map_err(internal("bind event"))?
        .run()
        .await
        .map_err(internal("insert event"))?;
    Ok(Reply::json(202, json!({ "accepted": true })))
}
