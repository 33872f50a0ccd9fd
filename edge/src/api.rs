//! Glue every handler shares: the tenant-scoped request/response cycle,
//! reading a JSON body within the limits, the clock, secrets, D1 counters.

use dealer_edge_core::input::FieldErrors;
use dealer_edge_core::lead::FORM_ERROR;
use dealer_edge_core::rate_limit::Limit;
use serde::Deserialize;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::prelude::wasm_bindgen;
use worker::{D1Database, Env, Request, Response, RouteContext};

use crate::{error_response, internal, json_response, Tenant};
use dealer_edge_core::http::{self, ApiError};

#[wasm_bindgen]
extern "C" {
    /// Web Crypto's `crypto.randomUUID()`: a v4 UUID from the platform CSPRNG.
    #[wasm_bindgen(js_namespace = crypto, js_name = randomUUID)]
    pub fn random_uuid() -> String;
}

/// 16 random bytes from the platform CSPRNG (the UUID's hex digits).
pub fn random_bytes() -> Vec<u8> {
    dealer_edge_core::session::uuid_bytes(&random_uuid())
}

/// Unix seconds now.
pub fn now() -> u64 {
    worker::Date::now().as_millis() / 1000
}

/// A successful answer: status, JSON body and extra headers (Set-Cookie).
pub struct Reply {
    pub status: u16,
    pub body: Value,
    pub headers: Vec<(&'static str, String)>,
}

impl Reply {
    pub fn json(status: u16, body: Value) -> Self {
        Reply {
            status,
            body,
            headers: Vec::new(),
        }
    }
}

/// A handler's work once the tenant is known, boxed so that [`run`]'s body is
/// compiled once rather than once per route (a smaller worker).
type Work = Pin<Box<dyn Future<Output = Result<Reply, ApiError>>>>;

/// Resolves the tenant from the Origin, runs `inner`, and answers with the
/// dealer's CORS headers on success and error alike (so the page can read
/// field messages). Unknown origins get 403 without CORS headers.
pub async fn run<F, Fut>(
    req: Request,
    ctx: RouteContext<()>,
    allow_same_origin_get: bool,
    inner: F,
) -> worker::Result<Response>
where
    F: FnOnce(Request, RouteContext<()>, Tenant) -> Fut + 'static,
    Fut: Future<Output = Result<Reply, ApiError>> + 'static,
{
    let inner = move |req, ctx, tenant| -> Work { Box::pin(inner(req, ctx, tenant)) };
    run_boxed(req, ctx, allow_same_origin_get, Box::new(inner)).await
}

async fn run_boxed(
    req: Request,
    ctx: RouteContext<()>,
    allow_same_origin_get: bool,
    inner: Box<dyn FnOnce(Request, RouteContext<()>, Tenant) -> Work>,
) -> worker::Result<Response> {
    let tenant = match Tenant::resolve(&req, &ctx.env, allow_same_origin_get).await {
        Ok(tenant) => tenant,
        Err(error) => return error_response(&error, None),
    };
    let origin = tenant.origin.clone();
    match inner(req, ctx, tenant).await {
        Ok(reply) => {
            let mut response = json_response(reply.status, &reply.body, Some(&origin))?;
            for (name, value) in reply.headers {
                response.headers_mut().append(name, &value)?;
            }
            Ok(response)
        }
        Err(error) => {
            let mut response = error_response(&error, Some(&origin))?;
            if error.status == 429 {
                response.headers_mut().set("Retry-After", "60")?;
            }
            Ok(response)
        }
    }
}

/// The request body as JSON: content type, declared and actual size checked.
pub async fn json_body(req: &mut Request) -> Result<Value, ApiError> {
    let header = |name: &str| req.headers().get(name).ok().flatten();
    http::check_json_content_type(header("Content-Type").as_deref())?;
    http::check_declared_length(header("Content-Length").as_deref())?;
    let bytes = req
        .bytes()
        .await
        .map_err(|_| ApiError::new(400, "Could not read the request body."))?;
    http::check_body_length(bytes.len())?;
    http::parse_json(&bytes)
}

/// A 400 with one message per bad field.
pub fn invalid(fields: FieldErrors) -> ApiError {
    ApiError::with_fields(400, FORM_ERROR, fields)
}

pub fn db(env: &Env) -> Result<D1Database, ApiError> {
    env.d1("DB").map_err(internal("D1 binding DB"))
}

/// A worker secret (or, under `wrangler dev`, a `--var`/`.dev.vars` value).
pub fn secret(env: &Env, name: &str) -> Option<String> {
    env.secret(name)
        .map(|s| s.to_string())
        .or_else(|_| env.var(name).map(|v| v.to_string()))
        .ok()
        .filter(|s| !s.is_empty())
}

/// The key sessions, codes and client hashes are signed with.
pub fn session_key(env: &Env) -> Result<Vec<u8>, ApiError> {
    secret(env, "SESSION_SECRET")
        .map(String::into_bytes)
        .ok_or_else(|| internal("secret SESSION_SECRET")("not set"))
}

/// The client's address as the platform reports it. Cloudflare sets
/// CF-Connecting-IP and overwrites any value a client sends.
pub fn client_address(req: &Request) -> String {
    req.headers()
        .get("CF-Connecting-IP")
        .ok()
        .flatten()
        .unwrap_or_else(|| "unknown".into())
}

#[derive(Deserialize)]
struct CountRow {
    count: u64,
}

/// Counts one event against `limit` for `bucket`; `Err(429)` when over.
pub async fn hit(
    db: &D1Database,
    limit: Limit,
    bucket: &str,
    message: &str,
) -> Result<(), ApiError> {
    let now = now();
    let key = limit.key(bucket, now);
    let expires = limit.window_start(now) + limit.window_secs;
    let row = db
        .prepare(
            "INSERT INTO rate_limits (key, count, expires_at) VALUES (?1, 1, ?2) \
             ON CONFLICT (key) DO UPDATE SET count = count + 1 RETURNING count",
        )
        .bind(&[key.into(), (expires as f64).into()])
        .map_err(internal("bind rate limit"))?
        .first::<CountRow>(None)
        .await
        .map_err(internal("rate limit"))?;
    match row {
        Some(r) if !limit.allows(r.count) => Err(ApiError::too_many(message)),
        _ => Ok(()),
    }
}
