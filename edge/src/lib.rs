//! The dealer sites' edge API, a Cloudflare Worker built with workers-rs.
//!
//! Every decision lives in plain Rust that is tested on the host
//! (`dealer_rules` for leads and contact details, [`http`] for HTTP rules);
//! this file is the I/O glue: routing, KV, D1, building responses.
//!
//! Tenancy: the dealer is derived from the request's `Origin` through the KV
//! namespace `CONFIG` (`origin:<origin>` → slug, `dealer:<slug>` →
//! [`EdgeConfig`]), never from the body. Unknown or missing origins get 403.

mod http;
mod leads;

use dealer_rules::edge_config::{dealer_key, origin_key, EdgeConfig};
use http::ApiError;
use serde_json::{json, Value};
use worker::{console_error, event, Context, Env, Request, Response, RouteContext, Router};

#[event(fetch)]
async fn fetch(req: Request, env: Env, _ctx: Context) -> worker::Result<Response> {
    let result = Router::new()
        .get("/api/health", health)
        .post_async("/api/leads", leads::create)
        .options_async("/api/*rest", preflight)
        .run(req, env)
        .await;
    // The router answers unknown paths and methods in plain text; the API
    // promises JSON for every error. An `Err` that escaped a handler is ours.
    match result {
        Ok(response) if matches!(response.status_code(), 404 | 405) && !is_json(&response) => {
            let error = if response.status_code() == 404 {
                ApiError::not_found()
            } else {
                ApiError::method_not_allowed()
            };
            error_response(&error, None)
        }
        Ok(response) => Ok(response),
        Err(e) => {
            console_error!("unhandled error: {e}");
            error_response(&ApiError::internal(), None)
        }
    }
}

fn health(_req: Request, _ctx: RouteContext<()>) -> worker::Result<Response> {
    json_response(200, &json!({ "ok": true }), None)
}

/// CORS preflight for any `/api/` path: allowed only for a dealer's own origin.
async fn preflight(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    match Tenant::resolve(&req, &ctx.env).await {
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
    pub config: EdgeConfig,
}

impl Tenant {
    async fn resolve(req: &Request, env: &Env) -> Result<Tenant, ApiError> {
        let origin = req
            .headers()
            .get("Origin")
            .ok()
            .flatten()
            .filter(|o| http::plausible_origin(o))
            .ok_or_else(ApiError::forbidden_origin)?;
        let kv = env.kv("CONFIG").map_err(internal("KV binding CONFIG"))?;
        let slug = kv
            .get(&origin_key(&origin))
            .text()
            .await
            .map_err(internal("KV origin lookup"))?;
        let Some(slug) = slug else {
            return Err(ApiError::forbidden_origin());
        };
        let config = kv
            .get(&dealer_key(&slug))
            .text()
            .await
            .map_err(internal("KV dealer lookup"))?;
        let Some(config) = config else {
            console_error!("origin {origin} maps to dealer {slug}, which has no config");
            return Err(ApiError::forbidden_origin());
        };
        let config: EdgeConfig =
            serde_json::from_str(&config).map_err(internal("dealer config JSON"))?;
        // Defence in depth: the origin map and the dealer's own list must agree.
        if config.dealer != slug || !config.allows_origin(&origin) {
            console_error!("origin {origin} maps to {slug}, but that config does not list it");
            return Err(ApiError::forbidden_origin());
        }
        Ok(Tenant { origin, config })
    }
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
    json_response(error.status, &error.body(), cors_origin)
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get("Content-Type")
        .ok()
        .flatten()
        .is_some_and(|ct| ct.starts_with("application/json"))
}
