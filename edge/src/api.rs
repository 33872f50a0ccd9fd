//! Glue every handler shares: the tenant-scoped request/response cycle with
//! its rate limits, reading a JSON body within the limits, the clock,
//! secrets.

use dealer_edge_core::counters::{GateAnswer, GateRequest, Refusal};
use dealer_edge_core::input::FieldErrors;
use dealer_edge_core::lead::FORM_ERROR;
use dealer_edge_core::rate_limit::{
    retry_after, Check, Counter, Route, Store, D1_ADMIT, D1_READ, D1_UNDO,
};
use dealer_edge_core::session::client_key;
use dealer_rules::edge_config::EdgeRateLimits;
use serde::Deserialize;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use wasm_bindgen::prelude::wasm_bindgen;
use worker::{
    console_error, D1Database, Env, Method, Request, RequestInit, Response, RouteContext,
};

use crate::{error_response, internal, json_response, Tenant};
use dealer_edge_core::http::{self, ApiError};
use dealer_edge_core::{form_post, html};

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
    /// For a form post: where to send the browser (303) instead of JSON.
    pub redirect: Option<String>,
    /// `Cache-Control` when the answer may be cached (default no-store).
    pub cache: Option<&'static str>,
}

impl Reply {
    pub fn json(status: u16, body: Value) -> Self {
        Reply {
            status,
            body,
            headers: Vec::new(),
            redirect: None,
            cache: None,
        }
    }
}

/// How a route answers: JSON for scripts, or (a form posted without
/// JavaScript) a 303 on success and an HTML page on error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Form,
}

/// A handler's work once the tenant is known, boxed so that [`run`]'s body is
/// compiled once rather than once per route (a smaller worker).
type Work = Pin<Box<dyn Future<Output = Result<Reply, ApiError>>>>;

/// Resolves the tenant from the Origin, counts the call against `route`'s
/// rate limits (per client, then per dealer; [`Route::Views`] counts in its
/// handler, together with the view), runs `inner`, and answers with the
/// dealer's CORS headers on success and error alike (so the page can read
/// field messages). Unknown origins get 403 without CORS headers.
pub async fn run<F, Fut>(
    req: Request,
    ctx: RouteContext<()>,
    route: Route,
    allow_same_origin_get: bool,
    inner: F,
) -> worker::Result<Response>
where
    F: FnOnce(Request, RouteContext<()>, Tenant) -> Fut + 'static,
    Fut: Future<Output = Result<Reply, ApiError>> + 'static,
{
    run_as(req, ctx, route, allow_same_origin_get, Format::Json, inner).await
}

/// [`run`], answering in `format`.
pub async fn run_as<F, Fut>(
    req: Request,
    ctx: RouteContext<()>,
    route: Route,
    allow_same_origin_get: bool,
    format: Format,
    inner: F,
) -> worker::Result<Response>
where
    F: FnOnce(Request, RouteContext<()>, Tenant) -> Fut + 'static,
    Fut: Future<Output = Result<Reply, ApiError>> + 'static,
{
    let inner = move |req, ctx, tenant| -> Work { Box::pin(inner(req, ctx, tenant)) };
    run_boxed(
        req,
        ctx,
        route,
        allow_same_origin_get,
        format,
        Box::new(inner),
    )
    .await
}

async fn run_boxed(
    req: Request,
    ctx: RouteContext<()>,
    route: Route,
    allow_same_origin_get: bool,
    format: Format,
    inner: Box<dyn FnOnce(Request, RouteContext<()>, Tenant) -> Work>,
) -> worker::Result<Response> {
    let tenant = match Tenant::resolve(&req, &ctx.env, allow_same_origin_get).await {
        Ok(tenant) => tenant,
        Err(error) if format == Format::Form => return html_error(&error, None),
        Err(error) => return error_response(&error, None),
    };
    let origin = tenant.origin.clone();
    // The form's page, for the error page's link back (only a page of the
    // dealer's own site; see `html::back_link`).
    let back = (format == Format::Form).then(|| {
        let referer = req.headers().get("Referer").ok().flatten();
        html::back_link(referer.as_deref(), &tenant.site_origin())
    });
    let result = match route {
        Route::Views => Ok(()),
        _ => limit(&req, &ctx.env, &tenant, route).await,
    };
    let result = match result {
        Ok(()) => inner(req, ctx, tenant).await,
        Err(error) => Err(error),
    };
    match (result, format) {
        (
            Ok(Reply {
                redirect: Some(location),
                ..
            }),
            Format::Form,
        ) => {
            let mut response = Response::empty()?.with_status(303);
            response.headers_mut().set("Location", &location)?;
            response.headers_mut().set("Cache-Control", "no-store")?;
            Ok(response)
        }
        (Ok(reply), _) => {
            let mut response = json_response(reply.status, &reply.body, Some(&origin))?;
            if let Some(cache) = reply.cache {
                response.headers_mut().set("Cache-Control", cache)?;
            }
            for (name, value) in reply.headers {
                response.headers_mut().append(name, &value)?;
            }
            Ok(response)
        }
        (Err(error), Format::Form) => html_error(&error, back.as_deref()),
        (Err(error), Format::Json) => error_response(&error, Some(&origin)),
    }
}

/// An error as the small HTML page a form post gets.
pub fn html_error(error: &ApiError, back: Option<&str>) -> worker::Result<Response> {
    let (status, page) = html::error_page(error, back);
    let mut response = Response::from_html(page)?.with_status(status);
    let headers = response.headers_mut();
    headers.set("Cache-Control", "no-store")?;
    headers.set("Content-Security-Policy", &html::content_security_policy())?;
    if let Some(secs) = error.retry_after {
        headers.set("Retry-After", &secs.to_string())?;
    }
    Ok(response)
}

/// The calling client's key for rate limits and records: a keyed hash of
/// its address (an IPv6 address's /64) per dealer; the address itself is
/// never stored.
pub fn client_of(req: &Request, env: &Env, tenant: &Tenant) -> Result<String, ApiError> {
    let key = session_key(env)?;
    let network = http::client_network(&client_address(req));
    Ok(client_key(&key, &tenant.config.dealer, &network))
}

/// The keyed hashes of the calling client's wider IPv6 networks (its /56
/// and /48), per dealer; none for IPv4.
fn aggregates_of(
    req: &Request,
    env: &Env,
    tenant: &Tenant,
) -> Result<Vec<(http::Aggregate, String)>, ApiError> {
    let networks = http::client_aggregates(&client_address(req));
    if networks.is_empty() {
        return Ok(networks);
    }
    let key = session_key(env)?;
    Ok(networks
        .into_iter()
        .map(|(aggregate, network)| (aggregate, client_key(&key, &tenant.config.dealer, &network)))
        .collect())
}

/// Counts one call of `route` against the dealer's limits for it. A
/// limiter that cannot be reached lets the call through (logged): losing a
/// shopper's lead to a counter outage would be worse than a burst.
pub async fn limit(
    req: &Request,
    env: &Env,
    tenant: &Tenant,
    route: Route,
) -> Result<(), ApiError> {
    let client = client_of(req, env, tenant)?;
    let config = route.config(&tenant.config.rate_limits);
    let outcome = match route.store() {
        Store::D1 => {
            let dealer = &tenant.config.dealer;
            let [by_client, by_dealer] = route.checks(config, dealer, &client);
            let mut up_front = vec![by_client];
            // An IPv6 client's /56 and /48 too (the routes that write).
            for (aggregate, network) in aggregates_of(req, env, tenant)? {
                up_front.push(route.aggregate_check(config, dealer, aggregate, &network));
            }
            // Some routes count the dealer's budget after their own checks
            // ([`dealer_budget`]).
            if !route.counts_dealer_budget_after_checks() {
                up_front.push(by_dealer);
            }
            limit_in_d1(env, &up_front).await
        }
        Store::DurableObject => {
            let request = GateRequest {
                dealer: tenant.config.dealer.clone(),
                route: route.name().to_string(),
                client,
                limit: config,
                view: None,
            };
            gate(env, &request).await.map(|answer| answer.refused)
        }
    };
    match outcome {
        Ok(None) => Ok(()),
        Ok(Some(refused)) => Err(ApiError::too_many(refused.message, refused.retry_after)),
        Err(e) => {
            console_error!(
                "rate limiter unavailable for {} {}: {e}",
                tenant.config.dealer,
                route.name()
            );
            Ok(())
        }
    }
}

/// Counts one call against the dealer's budget of `route` (one that
/// [`Route::counts_dealer_budget_after_checks`]): `None` when it was within
/// it, else the 429 to answer. A call over it counts nowhere. A limiter
/// that cannot be reached says within (logged).
pub async fn dealer_budget(
    env: &Env,
    dealer: &str,
    limits: &EdgeRateLimits,
    route: Route,
) -> Option<ApiError> {
    let budget = route.dealer_check(route.config(limits), dealer);
    match limit_in_d1(env, &[budget]).await {
        Ok(refused) => refused.map(|r| ApiError::too_many(r.message, r.retry_after)),
        Err(e) => {
            console_error!(
                "rate limiter unavailable for {dealer} {}: {e}",
                route.name()
            );
            None
        }
    }
}

/// Takes back one call [`dealer_budget`] admitted in this window
/// (the cron admitted a release and found nothing held).
pub async fn return_dealer_budget(env: &Env, dealer: &str, limits: &EdgeRateLimits, route: Route) {
    let budget = route.dealer_check(route.config(limits), dealer);
    match env.d1("DB") {
        Ok(db) => undo(&db, &budget.key, budget.limit.window_start(now())).await,
        Err(e) => console_error!("rate limit: taking back {} failed: {e}", budget.key),
    }
}

/// Takes back one admitted call of counter `key` in the window starting
/// at `window_start` ([`D1_UNDO`]); a failure is logged (the counter then
/// over-counts by one call until its window ends).
async fn undo(db: &D1Database, key: &str, window_start: u64) {
    let undone = match db
        .prepare(D1_UNDO)
        .bind(&[key.into(), (window_start as f64).into()])
    {
        Ok(stmt) => stmt.run().await.map(|_| ()),
        Err(e) => Err(e),
    };
    if let Err(e) = undone {
        console_error!("rate limit: taking back {key} failed: {e}");
    }
}

#[derive(Deserialize)]
struct CounterRow {
    window_start: u64,
    count: u64,
    prev_count: u64,
}

impl CounterRow {
    fn counter(self) -> Counter {
        Counter {
            window_start: self.window_start,
            count: self.count,
            prev_count: self.prev_count,
        }
    }
}

/// One atomic conditional upsert per check, client first; stops at the
/// first refusal, which counts nowhere: a check admitted before it is
/// taken back, and the refusing counter was not written.
async fn limit_in_d1(env: &Env, checks: &[Check]) -> Result<Option<Refusal>, String> {
    let db = env.d1("DB").map_err(|e| e.to_string())?;
    let now = now();
    let mut admitted: Vec<(&Check, u64)> = Vec::new();
    for check in checks {
        let window = check.limit.window_secs;
        let row = db
            .prepare(D1_ADMIT)
            .bind(&[
                check.key.as_str().into(),
                (check.limit.window_start(now) as f64).into(),
                (window as f64).into(),
                (now as f64).into(),
                (check.limit.max as f64).into(),
            ])
            .map_err(|e| e.to_string())?
            .first::<CounterRow>(None)
            .await
            .map_err(|e| e.to_string())?;
        if let Some(row) = row {
            admitted.push((check, row.window_start));
            continue;
        }
        let stored = db
            .prepare(D1_READ)
            .bind(&[check.key.as_str().into()])
            .map_err(|e| e.to_string())?
            .first::<CounterRow>(None)
            .await
            .map_err(|e| e.to_string())?
            .map(CounterRow::counter);
        let standing = Counter::at(stored, check.limit, now);
        for (earlier, window_start) in admitted {
            undo(&db, &earlier.key, window_start).await;
        }
        return Ok(Some(Refusal {
            message: check.message.to_string(),
            retry_after: retry_after(check.limit, &standing, now),
        }));
    }
    Ok(None)
}

/// Asks the dealer's counters object (`DealerGate` in the `counters` module).
pub async fn gate(env: &Env, request: &GateRequest) -> Result<GateAnswer, String> {
    let stub = env
        .durable_object("COUNTERS")
        .and_then(|ns| ns.id_from_name(&request.dealer)?.get_stub())
        .map_err(|e| e.to_string())?;
    let body = serde_json::to_string(request).map_err(|e| e.to_string())?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post).with_body(Some(body.into()));
    let req = Request::new_with_init("https://counters/gate", &init).map_err(|e| e.to_string())?;
    let mut res = stub
        .fetch_with_request(req)
        .await
        .map_err(|e| e.to_string())?;
    if res.status_code() != 200 {
        return Err(format!("counters answered {}", res.status_code()));
    }
    res.json::<GateAnswer>().await.map_err(|e| e.to_string())
}

/// The request body as JSON: content type, declared and actual size checked.
pub async fn json_body(req: &mut Request) -> Result<Value, ApiError> {
    let content_type = req.headers().get("Content-Type").ok().flatten();
    http::check_json_content_type(content_type.as_deref())?;
    http::parse_json(&body_bytes(req, http::BODY_LIMIT).await?)
}

/// A form post's body (`application/x-www-form-urlencoded`) read into the
/// JSON the islands send (see `dealer_edge_core::form_post`).
pub async fn form_body(req: &mut Request) -> Result<Value, ApiError> {
    form_post::parse_form(&body_bytes(req, http::BODY_LIMIT).await?)
}

/// The raw body, at most `limit` bytes (declared and actual size checked).
pub async fn body_bytes(req: &mut Request, limit: usize) -> Result<Vec<u8>, ApiError> {
    let declared = req.headers().get("Content-Length").ok().flatten();
    http::check_declared_length_within(declared.as_deref(), limit)?;
    let bytes = req
        .bytes()
        .await
        .map_err(|_| ApiError::new(400, "Could not read the request body."))?;
    http::check_body_length_within(bytes.len(), limit)?;
    Ok(bytes)
}

/// A worker variable that points an outbound call at a local stand-in.
/// Honoured only for loopback addresses, so a stray production variable
/// can never send a dealer's secrets anywhere but the real service.
pub fn test_endpoint(env: &Env, name: &str) -> Option<String> {
    secret(env, name)
        .filter(|url| url.starts_with("http://127.0.0.1:") || url.starts_with("http://localhost:"))
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
