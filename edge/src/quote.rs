//! `POST /api/youx/quote`: forwards the car page's quote request to the
//! dealer's quote service (with its key, a worker secret) and answers the
//! service's figures as they came, cached for a day. A dealer without a
//! service gets 404, a failing service 502: the page shows no quote then
//! (docs/behaviour/car-page.md §8, silent). The worker never computes a quote itself.

use dealer_edge_core::http::ApiError;
use dealer_edge_core::quote::{
    parse_upstream, upstream_body_and_cache_key, validate_quote, Quote, QuoteRequest, NO_SERVICE,
    SERVICE_FAILED,
};
use dealer_edge_core::rate_limit::Route;
use dealer_rules::edge_config::EdgeQuoteProvider;
use serde::Deserialize;
use serde_json::{json, Value};
use worker::{console_error, Env, Headers, Method, Request, RequestInit, Response, RouteContext};

use crate::api::{self, invalid, Reply};
use crate::outbound::{self, Call};
use crate::{internal, Tenant};

/// How long a service's answer is reused for the same request.
const CACHE_SECS: u64 = 24 * 3600;

pub async fn quote(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Quotes, false, handle).await
}

async fn handle(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    let Some(provider) = &tenant.config.finance.quote_provider else {
        return Err(ApiError::new(404, NO_SERVICE));
    };
    let body = api::json_body(&mut req).await?;
    let request = validate_quote(&body).map_err(invalid)?;
    match upstream(&ctx.env, &tenant.config.dealer, provider, &request).await {
        Some(quote) => Ok(Reply::json(
            200,
            serde_json::to_value(&quote).unwrap_or_else(|_| json!({})),
        )),
        None => Err(ApiError::new(502, SERVICE_FAILED)),
    }
}

#[derive(Deserialize)]
struct Cached {
    response: String,
}

/// The service's quote (cached), or `None` on any failure or when it takes
/// longer than [`Call::Quote`]'s deadline.
async fn upstream(
    env: &Env,
    dealer: &str,
    provider: &EdgeQuoteProvider,
    request: &QuoteRequest,
) -> Option<Quote> {
    let (canonical, key) = upstream_body_and_cache_key(dealer, &provider.url, request)?;
    let db = api::db(env).ok()?;
    let now = api::now();
    if let Ok(Some(hit)) = db
        .prepare("SELECT response FROM quote_cache WHERE key = ?1 AND expires_at > ?2")
        .bind(&[key.as_str().into(), (now as f64).into()])
        .ok()?
        .first::<Cached>(None)
        .await
    {
        if let Some(q) = serde_json::from_str::<Value>(&hit.response)
            .ok()
            .as_ref()
            .and_then(parse_upstream)
        {
            return Some(q);
        }
    }
    let Some(secret) = api::secret(env, &provider.secret_name) else {
        console_error!(
            "quote provider secret {} is not set; no quote",
            provider.secret_name
        );
        return None;
    };
    let headers = Headers::new();
    headers.set("Content-Type", "application/json").ok()?;
    headers
        .set("Authorization", &format!("Bearer {secret}"))
        .ok()?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(canonical.as_str().into()));
    let upstream_req = Request::new_with_init(&provider.url, &init).ok()?;
    // The shopper is waiting: past the deadline the page shows no quote.
    let text = match outbound::send_for_text(Call::Quote, upstream_req).await {
        Ok(text) => text,
        Err(e) => {
            console_error!("quote provider {}: {e}", provider.url);
            return None;
        }
    };
    let Some(quote) = serde_json::from_str::<Value>(&text)
        .ok()
        .as_ref()
        .and_then(parse_upstream)
    else {
        console_error!(
            "quote provider {} answered without the three figures",
            provider.url
        );
        return None;
    };
    let stored = serde_json::to_string(&quote).ok()?;
    let cached = db
        .prepare(
            "INSERT INTO quote_cache (key, response, expires_at) VALUES (?1, ?2, ?3) \
             ON CONFLICT (key) DO UPDATE SET response = excluded.response, expires_at = excluded.expires_at",
        )
        .bind(&[key.into(), stored.into(), ((now + CACHE_SECS) as f64).into()])
        .map_err(internal("bind quote cache"));
    if let Ok(stmt) = cached {
        if let Err(e) = stmt.run().await {
            console_error!("quote cache write failed: {e}");
        }
    }
    Some(quote)
}
