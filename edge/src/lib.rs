//! The dealer sites' edge API, a Cloudflare Worker built with workers-rs.
//!
//! Every decision lives in plain Rust that is tested on the host
//! (`dealer_edge_core`, in `edge/core/`, with the rules shared with the
//! generator in `dealer_rules`); this crate is the I/O glue: routing, KV,
//! D1, queues, fetch, building responses.
//!
//! Tenancy: the dealer is derived from the request's `Origin` through the KV
//! namespace `CONFIG` (`origin:<origin>` → slug, `dealer:<slug>` →
//! [`EdgeConfig`]), never from the body. Unknown or missing origins get 403;
//! a dealer whose configuration cannot be read gets 503.
//!
//! Every answer, errors included, carries [`http::SECURITY_HEADERS`].

mod api;
mod auth;
mod captcha;
mod cars;
mod checkout;
mod counters;
mod delivery;
mod leads;
mod misc;
mod outbound;
mod published;
mod quote;
mod retention;
mod reveal;
mod routes_doc;
mod search;
mod sql;
mod valuation;
mod views;
mod watchlist;

pub use counters::DealerGate;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use dealer_edge_core::config::parse_edge_config;
use dealer_edge_core::http::{self, ApiError};
use dealer_rules::edge_config::{dealer_key, origin_key, EdgeConfig};
use serde_json::{json, Value};
use worker::{
    console_error, event, Context, Env, MessageBatch, Method, Request, Response, RouteContext,
    Router, ScheduleContext, ScheduledEvent,
};

/// Every route. `edge/openapi.yaml` documents exactly these (checked by the
/// `openapi_documents_every_route` test, which reads this function's source).
#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> worker::Result<Response> {
    let result = Router::new()
        .get("/api/health", health)
        .post_async("/api/leads", leads::create)
        .get_async("/api/leads/:id/delivery", delivery::status)
        .post_async("/api/miscellaneous", misc::miscellaneous)
        .post_async("/api/events", misc::event)
        .post_async("/api/youx/quote", quote::quote)
        .get_async("/api/cars/:slug/view.json", views::view)
        .get_async("/api/cars/:slug/status", checkout::status)
        .post_async("/api/checkout/hold", checkout::hold)
        .post_async("/api/checkout/webhook", checkout::webhook)
        .post_async("/api/trade-in/valuation", valuation::valuation)
        .post_async("/api/phone-reveal", reveal::reveal)
        .post_async("/api/auth/request-code", auth::request_code)
        .post_async("/api/auth/verify", auth::verify)
        .post_async("/api/auth/sign-out", auth::sign_out)
        .get_async("/api/auth/me", auth::me)
        .get_async("/api/watchlist", watchlist::list)
        .post_async("/api/watchlist/save-car", watchlist::save)
        .post_async("/api/watchlist/remove-car", watchlist::remove)
        .post_async("/api/search/queries", search::report)
        .get_async("/api/search/popular", search::popular)
        .options_async("/api/*rest", preflight)
        .run(req, env)
        .await;
    // The router answers unknown paths and methods in plain text; the API
    // promises JSON for every error. An `Err` that escaped a handler is ours.
    let response = match result {
        Ok(response) => match http::router_fallback(response.status_code(), is_json(&response)) {
            Some(error) => error_response(&error, None),
            None => Ok(response),
        },
        Err(e) => {
            console_error!("unhandled error: {e}");
            error_response(&ApiError::internal(), None)
        }
    }?;
    with_security_headers(response)
}

/// Adds [`http::SECURITY_HEADERS`]; a response whose headers cannot be
/// changed (none of ours) is copied first. A page that set its own
/// Content-Security-Policy (the form posts' HTML pages, which allow their
/// one style block) keeps it.
fn with_security_headers(mut response: Response) -> worker::Result<Response> {
    for (name, value) in http::SECURITY_HEADERS {
        if name == "Content-Security-Policy" && response.headers().has(name).unwrap_or(false) {
            continue;
        }
        if response.headers_mut().set(name, value).is_err() {
            response = response.cloned()?;
            response.headers_mut().set(name, value)?;
        }
    }
    Ok(response)
}

/// Lead delivery: one message per stored lead (see [`delivery`]).
#[event(queue)]
async fn queue(
    batch: MessageBatch<delivery::LeadMessage>,
    env: Env,
    _ctx: Context,
) -> worker::Result<()> {
    delivery::consume(batch, &env).await
}

/// Every minute: re-drive leads whose delivery is due (a lost queue message
/// or a crashed run can delay a lead, never drop it), drop old counters,
/// release the cars of lapsed holds and ended reservations, and drop past
/// days' search visitors.
#[event(scheduled)]
async fn scheduled(_event: ScheduledEvent, env: Env, _ctx: ScheduleContext) {
    delivery::redrive(&env).await;
    checkout::release_lapsed(&env).await;
    search::prune(&env).await;
    retention::prune(&env).await;
}

fn health(_req: Request, _ctx: RouteContext<()>) -> worker::Result<Response> {
    json_response(200, &json!({ "ok": true }), None)
}

/// CORS preflight for any `/api/` path: allowed only for a dealer's own origin.
async fn preflight(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    match Tenant::resolve(&req, &ctx.env, false).await {
        Ok(tenant) => {
            let mut response = Response::empty()?.with_status(204);
            for (name, value) in http::cors_headers(&tenant.origin, true) {
                response.headers_mut().set(name, value)?;
            }
            Ok(response)
        }
        Err(error) => error_response(&error, None),
    }
}

/// The dealer a request acts for, and the origin it came from (echoed in CORS).
pub(crate) struct Tenant {
    pub origin: String,
    /// Shared with the isolate's parsed configs ([`parse_config`]).
    pub config: Rc<EdgeConfig>,
}

impl Tenant {
    /// The dealer's own configured origin the request came from: where
    /// redirects and payment return addresses point. Taken from the
    /// configuration (the entry equal to the request's Origin), so a
    /// client can never name another site.
    pub fn site_origin(&self) -> String {
        let want = dealer_rules::edge_config::normalize_origin(&self.origin);
        self.config
            .origins
            .iter()
            .map(|o| dealer_rules::edge_config::normalize_origin(o))
            .find(|o| *o == want)
            .or_else(|| {
                self.config
                    .origins
                    .first()
                    .map(|o| dealer_rules::edge_config::normalize_origin(o))
            })
            .unwrap_or_default()
    }
}

impl Tenant {
    /// `same_origin_get`: browsers send no `Origin` on same-origin GETs, so a
    /// GET without one is attributed to the origin of the URL it was sent to
    /// (the dealer's own domain when the API is served on it). Writes always
    /// need the header.
    async fn resolve(req: &Request, env: &Env, same_origin_get: bool) -> Result<Tenant, ApiError> {
        let header = req.headers().get("Origin").ok().flatten();
        let origin = http::request_origin(
            header,
            req.method() == Method::Get,
            same_origin_get,
            &req.inner().url(),
        )
        .ok_or_else(ApiError::forbidden_origin)?;
        Self::for_origin(origin, env).await
    }

    async fn for_origin(origin: String, env: &Env) -> Result<Tenant, ApiError> {
        let slug = published::text(env, &origin_key(&origin))
            .await
            .map_err(internal("KV origin lookup"))?;
        let Some(slug) = slug else {
            return Err(ApiError::forbidden_origin());
        };
        let config = published::text(env, &dealer_key(&slug))
            .await
            .map_err(internal("KV dealer lookup"))?;
        let Some(config) = config else {
            console_error!("origin {origin} maps to dealer {slug}, which has no config");
            // Ours to mend (a half-finished deploy), not the caller's fault.
            return Err(ApiError::dealer_unavailable());
        };
        let config = parse_config(&slug, &config)?;
        // Defence in depth: the origin map and the dealer's own list must agree.
        if !config.allows_origin(&origin) {
            console_error!("origin {origin} maps to {slug}, but that config does not list it");
            return Err(ApiError::forbidden_origin());
        }
        Ok(Tenant { origin, config })
    }
}

thread_local! {
    // The configs this isolate has parsed, by dealer, with the KV text each
    // came from: every call of a busy dealer would otherwise parse and check
    // the same few kilobytes of JSON again. The text is compared each time,
    // so a new deploy's config is read at once. One isolate serves a few
    // dealers; past PARSED_MAX it starts again.
    static PARSED: RefCell<HashMap<String, (String, Rc<EdgeConfig>)>> = RefCell::new(HashMap::new());
}

/// How many dealers' parsed configs one isolate keeps.
const PARSED_MAX: usize = 64;

/// Dealer `slug`'s configuration as stored in KV (text `json`). A value
/// that cannot be read is that dealer's broken deploy: 503 for its calls,
/// and a log line naming the dealer and the fault.
pub(crate) fn parse_config(slug: &str, json: &str) -> Result<Rc<EdgeConfig>, ApiError> {
    let kept = PARSED.with(|parsed| {
        parsed
            .borrow()
            .get(slug)
            .filter(|(text, _)| text == json)
            .map(|(_, config)| Rc::clone(config))
    });
    if let Some(config) = kept {
        return Ok(config);
    }
    let config = Rc::new(parse_edge_config(slug, json).map_err(|fault| {
        console_error!("dealer {slug}: edge config in KV is unreadable: {fault}");
        ApiError::dealer_unavailable()
    })?);
    PARSED.with(|parsed| {
        let mut parsed = parsed.borrow_mut();
        if parsed.len() >= PARSED_MAX && !parsed.contains_key(slug) {
            parsed.clear();
        }
        parsed.insert(slug.to_string(), (json.to_string(), Rc::clone(&config)));
    });
    Ok(config)
}

/// Logs an internal failure with its context and turns it into a 500.
pub(crate) fn internal<E: std::fmt::Display>(what: &'static str) -> impl Fn(E) -> ApiError {
    move |e| {
        console_error!("{what}: {e}");
        ApiError::internal()
    }
}

pub(crate) fn json_response(
    status: u16,
    body: &Value,
    cors_origin: Option<&str>,
) -> worker::Result<Response> {
    let mut response = Response::from_json(body)?.with_status(status);
    let headers = response.headers_mut();
    headers.set("Cache-Control", "no-store")?;
    if let Some(origin) = cors_origin {
        for (name, value) in http::cors_headers(origin, false) {
            headers.set(name, value)?;
        }
    }
    Ok(response)
}

pub(crate) fn error_response(
    error: &ApiError,
    cors_origin: Option<&str>,
) -> worker::Result<Response> {
    let mut response = json_response(error.status, &error.body(), cors_origin)?;
    if let Some(secs) = error.retry_after {
        response
            .headers_mut()
            .set("Retry-After", &secs.to_string())?;
    }
    Ok(response)
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get("Content-Type")
        .ok()
        .flatten()
        .is_some_and(|ct| ct.starts_with("application/json"))
}
