//! Sign-in by phone for the watchlist: request a one-time code, verify it
//! for a signed session cookie, sign out, "who am I". Codes are stored
//! hashed, expire after 10 minutes, allow 5 guesses, and requests are
//! rate-limited per phone and per client. SMS delivery is pluggable: the
//! `SMS_PROVIDER` var is `log` (default: the code goes to the worker log,
//! for development) or `webhook` (POST to `SMS_WEBHOOK_URL`).

use dealer_edge_core::features;
use dealer_edge_core::rate_limit::{CODE_REQUESTS, CODE_REQUESTS_PER_CLIENT};
use dealer_edge_core::requests::{validate_code_check, validate_code_request};
use dealer_edge_core::session::{
    check_code, clear_cookie, client_key, code_from_random, hash_code, session_cookie,
    sign_session, sms_text, token_from_cookie_header, verify_session, CodeCheck, Session,
    StoredCode, CODE_TTL_SECS, SESSION_TTL_SECS,
};
use serde::Deserialize;
use serde_json::json;
use worker::{
    console_error, console_log, Env, Fetch, Headers, Method, Request, RequestInit, Response,
    RouteContext,
};

use crate::api::{self, invalid, Reply};
use crate::outbound::{self, Call};
use crate::{internal, Tenant};
use dealer_edge_core::http::ApiError;

pub async fn request_code(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, false, send_code).await
}
pub async fn verify(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, false, check).await
}
pub async fn sign_out(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, false, |_req, _ctx, _tenant| async {
        Ok(Reply {
            status: 200,
            body: json!({ "success": true }),
            headers: vec![("Set-Cookie", clear_cookie())],
        })
    })
    .await
}
pub async fn me(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, true, whoami).await
}

/// The watchlist (and so sign-in) must be switched on for the dealer.
pub fn require_watchlist(tenant: &Tenant) -> Result<(), ApiError> {
    features::require_watchlist(&tenant.config)
}

/// The valid session of this request for this dealer, if any. A cookie
/// signed for another dealer is no session here.
pub fn session(req: &Request, env: &Env, tenant: &Tenant) -> Result<Option<Session>, ApiError> {
    let key = api::session_key(env)?;
    let cookie = req
        .headers()
        .get("Cookie")
        .ok()
        .flatten()
        .unwrap_or_default();
    Ok(token_from_cookie_header(&cookie)
        .and_then(|t| verify_session(&key, t, api::now()))
        .filter(|s| s.dealer == tenant.config.dealer))
}

async fn send_code(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    require_watchlist(&tenant)?;
    let body = api::json_body(&mut req).await?;
    let phone = validate_code_request(&body).map_err(invalid)?;
    let dealer = tenant.config.dealer.as_str();
    let key = api::session_key(&ctx.env)?;
    let db = api::db(&ctx.env)?;
    let client = client_key(&key, dealer, &api::client_address(&req));
    api::hit(
        &db,
        CODE_REQUESTS_PER_CLIENT,
        &format!("code-client:{dealer}:{client}"),
        "Too many codes requested; please try again later.",
    )
    .await?;
    api::hit(
        &db,
        CODE_REQUESTS,
        &format!("code-phone:{dealer}:{phone}"),
        "Too many codes requested for this number; please try again later.",
    )
    .await?;

    let code = code_from_random(&api::random_bytes());
    let expires = api::now() + CODE_TTL_SECS;
    // A new code replaces the old one and its guess count; the per-phone
    // request limit above keeps that from becoming unlimited guessing.
    db.prepare(
        "INSERT INTO sign_in_codes (dealer, phone, code_hash, expires_at, attempts) VALUES (?1, ?2, ?3, ?4, 0) \
         ON CONFLICT (dealer, phone) DO UPDATE SET code_hash = excluded.code_hash, expires_at = excluded.expires_at, attempts = 0",
    )
    .bind(&[dealer.into(), phone.as_str().into(), hash_code(&key, dealer, &phone, &code).into(), (expires as f64).into()])
    .map_err(internal("bind code"))?
    .run()
    .await
    .map_err(internal("store code"))?;
    send_sms(&ctx.env, &tenant, &phone, &code).await?;
    Ok(Reply::json(
        202,
        json!({ "success": true, "expires_in": CODE_TTL_SECS }),
    ))
}

async fn send_sms(env: &Env, tenant: &Tenant, phone: &str, code: &str) -> Result<(), ApiError> {
    let text = sms_text(&tenant.config.name, code);
    let provider = api::secret(env, "SMS_PROVIDER").unwrap_or_else(|| "log".into());
    if provider != "webhook" {
        // Development provider: the code is only in the worker's log.
        console_log!("sms to {phone} ({}): {text}", tenant.config.dealer);
        return Ok(());
    }
    let url = api::secret(env, "SMS_WEBHOOK_URL")
        .ok_or_else(|| internal("SMS_WEBHOOK_URL")("not set"))?;
    let headers = Headers::new();
    headers
        .set("Content-Type", "application/json")
        .map_err(internal("sms headers"))?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(
            json!({ "to": phone, "message": text }).to_string().into(),
        ));
    let request = Request::new_with_init(&url, &init).map_err(internal("sms request"))?;
    let sent = outbound::within(Call::Sms, |signal| async move {
        Fetch::Request(request).send_with_signal(&signal).await
    })
    .await;
    // A provider that does not answer within the deadline is as good as
    // down: the shopper is told to try again rather than left waiting.
    match sent {
        Ok(Ok(res)) if (200..300).contains(&res.status_code()) => return Ok(()),
        Ok(Ok(res)) => console_error!("sms provider answered {}", res.status_code()),
        Ok(Err(e)) => console_error!("sms provider unreachable: {e}"),
        Err(e) => console_error!("sms provider: {e}"),
    }
    Err(ApiError::new(
        503,
        "We could not send the code just now; please try again.",
    ))
}

#[derive(Deserialize)]
struct CodeRow {
    code_hash: String,
    expires_at: u64,
    attempts: u32,
}

async fn check(mut req: Request, ctx: RouteContext<()>, tenant: Tenant) -> Result<Reply, ApiError> {
    require_watchlist(&tenant)?;
    let body = api::json_body(&mut req).await?;
    let (phone, code) = validate_code_check(&body).map_err(invalid)?;
    let dealer = tenant.config.dealer.as_str();
    let key = api::session_key(&ctx.env)?;
    let db = api::db(&ctx.env)?;
    let row = db
        .prepare("SELECT code_hash, expires_at, attempts FROM sign_in_codes WHERE dealer = ?1 AND phone = ?2")
        .bind(&[dealer.into(), phone.as_str().into()])
        .map_err(internal("bind code lookup"))?
        .first::<CodeRow>(None)
        .await
        .map_err(internal("code lookup"))?;
    let Some(row) = row else {
        return Err(ApiError::new(
            400,
            "No code was requested for this number, or it was already used. Request a new one.",
        ));
    };
    let stored = StoredCode {
        hash: row.code_hash,
        expires_at: row.expires_at,
        attempts: row.attempts,
    };
    let now = api::now();
    match check_code(&key, dealer, &phone, &code, &stored, now) {
        CodeCheck::Ok => {
            // One use only.
            db.prepare("DELETE FROM sign_in_codes WHERE dealer = ?1 AND phone = ?2")
                .bind(&[dealer.into(), phone.as_str().into()])
                .map_err(internal("bind code delete"))?
                .run()
                .await
                .map_err(internal("delete code"))?;
            let token = sign_session(&key, dealer, &phone, now + SESSION_TTL_SECS);
            Ok(Reply {
                status: 200,
                body: json!({ "success": true, "phone_number": phone }),
                headers: vec![("Set-Cookie", session_cookie(&token, SESSION_TTL_SECS))],
            })
        }
        CodeCheck::Wrong => {
            db.prepare(
                "UPDATE sign_in_codes SET attempts = attempts + 1 WHERE dealer = ?1 AND phone = ?2",
            )
            .bind(&[dealer.into(), phone.as_str().into()])
            .map_err(internal("bind attempt"))?
            .run()
            .await
            .map_err(internal("count attempt"))?;
            Err(ApiError::new(
                400,
                "That code is not right. Please check the SMS and try again.",
            ))
        }
        CodeCheck::Expired => Err(ApiError::new(
            400,
            "That code has expired. Request a new one.",
        )),
        CodeCheck::TooManyAttempts => Err(ApiError::too_many(
            "Too many wrong codes. Request a new one.",
        )),
    }
}

async fn whoami(req: Request, ctx: RouteContext<()>, tenant: Tenant) -> Result<Reply, ApiError> {
    let body = match session(&req, &ctx.env, &tenant)? {
        Some(s) => json!({ "signed_in": true, "phone_number": s.phone }),
        None => json!({ "signed_in": false }),
    };
    Ok(Reply::json(200, body))
}
