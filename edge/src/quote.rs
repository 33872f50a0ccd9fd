//! `POST /api/youx/quote`. With an upstream provider in the
//! dealer's configuration, the request goes there with the provider's key (a
//! worker secret) and answers are cached for a day; otherwise, or when the
//! provider fails, an indicative quote is computed from the dealer's
//! calculator settings with the shared formula (`dealer_rules::finance`).

use dealer_edge_core::quote::{
    parse_upstream, upstream_body_and_cache_key, validate_quote, QuoteRequest,
};
use dealer_edge_core::rate_limit::Route;
use dealer_rules::edge_config::EdgeQuoteProvider;
use dealer_rules::finance::{indicative_quote, Quote};
use serde::Deserialize;
use serde_json::{json, Value};
use worker::{
    console_error, Env, Fetch, Headers, Method, Request, RequestInit, Response, RouteContext,
};

use crate::api::{self, invalid, Reply};
use crate::outbound::{self, Call};
use crate::{internal, Tenant};
use dealer_edge_core::http::ApiError;

/// How long an upstream answer is reused for the same request.
const CACHE_SECS: u64 = 24 * 3600;

pub async fn quote(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Quotes, false, handle).await
}

fn answer(quote: &Quote, source: &str) -> Reply {
    let mut body = serde_json::to_value(quote).unwrap_or_else(|_| json!({}));
    body["source"] = json!(source);
    Reply::json(200, body)
}

async fn handle(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    let body = api::json_body(&mut req).await?;
    let settings = &tenant.config.finance.calculator;
    let request = validate_quote(&body, settings).map_err(invalid)?;
    if let Some(provider) = &tenant.config.finance.quote_provider {
        if let Some(quote) = upstream(&ctx.env, &tenant.config.dealer, provider, &request).await {
            return Ok(answer(&quote, "provider"));
        }
    }
    let quote = indicative_quote(settings, request.purchase_price, request.loan_term);
    Ok(answer(&quote, "indicative"))
}

#[derive(Deserialize)]
struct Cached {
    response: String,
}

/// The provider's quote (cached), or `None` on any failure or when it takes
/// longer than [`Call::Quote`]'s deadline: the page treats
/// a missing quote silently and we fall back to our own.
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
            "quote provider secret {} is not set; answering an indicative quote",
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
    // The shopper is waiting: past the deadline the indicative quote it is.
    let answer = outbound::within(Call::Quote, |signal| async move {
        let mut res = Fetch::Request(upstream_req)
            .send_with_signal(&signal)
            .await
            .map_err(|e| format!("unreachable: {e}"))?;
        if !(200..300).contains(&res.status_code()) {
            return Err(format!("answered {}", res.status_code()));
        }
        res.text()
            .await
            .map_err(|e| format!("unreadable answer: {e}"))
    })
    .await;
    let text = match answer {
        Ok(Ok(text)) => text,
        Ok(Err(e)) => {
            console_error!("quote provider {} {e}", provider.url);
            return None;
        }
        Err(e) => {
            console_error!("quote provider {}: {e}", provider.url);
            return None;
        }
    };
    let value: Value = serde_json::from_str(&text).ok()?;
    let quote = parse_upstream(&value)?;
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
