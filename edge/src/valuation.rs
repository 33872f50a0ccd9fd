//! `POST /api/trade-in/valuation`: an estimate for the shopper's car from
//! the dealer's valuation service, or none (the rules and the service's
//! request/response are in `dealer_edge_core::valuation`).

use dealer_edge_core::http::ApiError;
use dealer_edge_core::input::FieldErrors;
use dealer_edge_core::rate_limit::Route;
use dealer_edge_core::valuation::{
    out_of_range, read_service_answer, service_request, validate_valuation, Reason, Valuation,
};
use dealer_rules::edge_config::EdgeValuationService;
use serde_json::Value;
use worker::{console_error, Env, Headers, Method, Request, RequestInit, Response, RouteContext};

use crate::api::{self, invalid, Reply};
use crate::outbound::{self, Call};
use crate::sql::{self, stmt};
use crate::{internal, Tenant};

pub async fn valuation(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Valuation, false, value).await
}

async fn value(mut req: Request, ctx: RouteContext<()>, tenant: Tenant) -> Result<Reply, ApiError> {
    if !tenant.config.features.trade_in {
        return Err(ApiError::new(
            404,
            "This dealer does not value trade-ins online.",
        ));
    }
    let body = api::json_body(&mut req).await?;
    let request = validate_valuation(&body).map_err(invalid)?;
    let dealer = tenant.config.dealer.as_str();
    if let Some(lead_id) = &request.lead_id {
        let db = api::db(&ctx.env)?;
        let found = sql::first(
            &db,
            "valuation lead lookup",
            stmt(
                "SELECT id FROM leads WHERE id = ?1 AND dealer = ?2",
                vec![lead_id.as_str().into(), dealer.into()],
            ),
        )
        .await?;
        if found.is_none() {
            let mut fields = FieldErrors::default();
            fields
                .0
                .insert("lead_id".into(), "Unknown lead for this dealer.".into());
            return Err(invalid(fields));
        }
    }
    let now = api::now();
    let answer = if let Some(reason) = out_of_range(request.kms, request.vehicle.year, now) {
        Valuation::none(reason)
    } else {
        match &tenant.config.trade_in.valuation {
            None => Valuation::none(Reason::NoService),
            Some(service) => {
                match ask(&ctx.env, service, &service_request(dealer, &request)).await {
                    Ok(answer) => read_service_answer(&answer, request.kms, now),
                    Err(e) => {
                        console_error!("dealer {dealer}: valuation service {}: {e}", service.url);
                        Valuation::none(Reason::Unavailable)
                    }
                }
            }
        }
    };
    Ok(Reply::json(
        200,
        serde_json::to_value(&answer).map_err(internal("valuation JSON"))?,
    ))
}

async fn ask(env: &Env, service: &EdgeValuationService, body: &Value) -> Result<Value, String> {
    let key = api::secret(env, &service.secret_name)
        .ok_or_else(|| format!("worker secret {} is not set", service.secret_name))?;
    let headers = Headers::new();
    headers
        .set("Content-Type", "application/json")
        .map_err(|e| e.to_string())?;
    headers
        .set("Authorization", &format!("Bearer {key}"))
        .map_err(|e| e.to_string())?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(body.to_string().into()));
    let request = Request::new_with_init(&service.url, &init).map_err(|e| e.to_string())?;
    // A shopper is waiting: past the deadline there is no estimate and the
    // answers go with the lead.
    outbound::send_for_json(Call::Valuation, request).await
}
