//! Sign-in by phone for the watchlist: request a one-time code, verify it
//! for a session, sign out, "who am I". The rules are in
//! [`dealer_edge_core::session`]; here is their storage:
//!
//! - Codes are stored hashed, expire after 10 minutes and allow 5 guesses.
//!   Each guess first claims an attempt with one conditional
//!   `UPDATE … RETURNING`, so concurrent guesses can never check more than
//!   5; a right code is used up by one `DELETE … RETURNING`, so it signs in
//!   once. The guesses used up end the code, not the number: a new code can
//!   be requested after the dealer's short cooldown (`code_cooldown_secs`),
//!   which one conditional upsert enforces per number.
//! - A session is a `sessions` row under the keyed hash of a random id; the
//!   cookie carries the id, signed for the dealer, and no phone number.
//!   Every call looks the row up; signing out deletes it.
//!
//! Requests and guesses are also rate-limited per client and per dealer
//! (`sign_in`, `verify`). SMS delivery is pluggable: the `SMS_PROVIDER` var
//! is `log` (default: the code goes to the worker log, for development) or
//! `webhook` (POST to `SMS_WEBHOOK_URL`).

use dealer_edge_core::features;
use dealer_edge_core::http::ApiError;
use dealer_edge_core::rate_limit::Route;
use dealer_edge_core::requests::{validate_code_check, validate_code_request};
use dealer_edge_core::session::{
    clear_cookie, code_from_random, code_matches, cooldown_remaining, hash_code, new_session_id,
    session_cookie, session_id, session_key_of, sign_session, sms_text, token_from_cookie_header,
    why_no_guess, NoGuess, Session, StoredCode, CODE_TTL_SECS, MAX_CODE_ATTEMPTS, SESSION_TTL_SECS,
};
use serde::Deserialize;
use serde_json::json;
use worker::{
    console_error, console_log, D1Database, Env, Fetch, Headers, Method, Request, RequestInit,
    Response, RouteContext,
};

use crate::api::{self, invalid, Reply};
use crate::outbound::{self, Call};
use crate::{captcha, internal, Tenant};
use dealer_edge_core::lead::CaptchaCheck;

pub async fn request_code(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::SignIn, false, send_code).await
}
pub async fn verify(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Verify, false, check).await
}
pub async fn sign_out(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Watchlist, false, end_session).await
}
pub async fn me(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Watchlist, true, whoami).await
}

/// The watchlist must be switched on for the dealer.
pub fn require_watchlist(tenant: &Tenant) -> Result<(), ApiError> {
    features::require_watchlist(&tenant.config)
}

/// Sign-in serves the watchlist and holds without a deposit.
fn require_sign_in(tenant: &Tenant) -> Result<(), ApiError> {
    features::require_sign_in(&tenant.config)
}

/// The session id of this request's cookie, if it is signed for this dealer.
fn cookie_session_id(req: &Request, key: &[u8], tenant: &Tenant) -> Option<String> {
    let cookie = req.headers().get("Cookie").ok().flatten()?;
    let token = token_from_cookie_header(&cookie)?;
    session_id(key, &tenant.config.dealer, token).map(String::from)
}

#[derive(Deserialize)]
struct SessionRow {
    phone: String,
    expires_at: u64,
}

/// The live session of this request for this dealer, if any: a cookie
/// signed for another dealer, forged, expired or signed out is none.
pub async fn session(
    req: &Request,
    env: &Env,
    tenant: &Tenant,
) -> Result<Option<Session>, ApiError> {
    let key = api::session_key(env)?;
    let Some(id) = cookie_session_id(req, &key, tenant) else {
        return Ok(None);
    };
    let dealer = tenant.config.dealer.as_str();
    let row = api::db(env)?
        .prepare(
            "SELECT phone, expires_at FROM sessions WHERE id_hash = ?1 AND dealer = ?2 AND expires_at > ?3",
        )
        .bind(&[
            session_key_of(&key, &id).into(),
            dealer.into(),
            (api::now() as f64).into(),
        ])
        .map_err(internal("bind session lookup"))?
        .first::<SessionRow>(None)
        .await
        .map_err(internal("session lookup"))?;
    Ok(row.map(|r| Session {
        dealer: dealer.to_string(),
        phone: r.phone,
        expires_at: r.expires_at,
    }))
}

#[derive(Deserialize)]
struct SentRow {
    sent_at: u64,
}

async fn send_code(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    require_sign_in(&tenant)?;
    let body = api::json_body(&mut req).await?;
    let request = validate_code_request(&body).map_err(invalid)?;
    let phone = request.phone;
    let dealer = tenant.config.dealer.as_str();
    // Each code is an SMS the dealer pays for: the dealer's budget of them
    // bounds the bill. With the captcha on, a request needs a passed token
    // (a refused one is 403 and spends nothing), and a verified request
    // never counts, so no stranger can use the budget up and keep the
    // dealer's shoppers from signing in. Without the captcha (or while
    // siteverify is unreachable) requests count, and over the budget they
    // are refused: the bill's guard.
    let client_ip = api::client_address(&req);
    let check = captcha::check(
        &ctx.env,
        &tenant,
        request.turnstile_token.as_deref(),
        &client_ip,
        false,
    )
    .await?;
    if check != CaptchaCheck::Verified {
        let limits = &tenant.config.rate_limits;
        if let Some(refused) = api::dealer_budget(&ctx.env, dealer, limits, Route::SignIn).await {
            return Err(refused);
        }
    }
    let key = api::session_key(&ctx.env)?;
    let db = api::db(&ctx.env)?;
    let cooldown = u64::from(tenant.config.rate_limits.code_cooldown_secs);

    let code = code_from_random(&api::random_bytes());
    let hash = hash_code(&key, dealer, &phone, &code);
    let now = api::now();
    // A new code replaces the last one (and its guesses) only once the
    // cooldown since the last one has passed: one statement, so two
    // concurrent requests never both send an SMS.
    let stored = db
        .prepare(
            "INSERT INTO sign_in_codes (dealer, phone, code_hash, expires_at, attempts, sent_at) \
             VALUES (?1, ?2, ?3, ?4, 0, ?5) \
             ON CONFLICT (dealer, phone) DO UPDATE SET code_hash = excluded.code_hash, \
             expires_at = excluded.expires_at, attempts = 0, sent_at = excluded.sent_at \
             WHERE sign_in_codes.sent_at + ?6 <= ?5 \
             RETURNING sent_at",
        )
        .bind(&[
            dealer.into(),
            phone.as_str().into(),
            hash.as_str().into(),
            ((now + CODE_TTL_SECS) as f64).into(),
            (now as f64).into(),
            (cooldown as f64).into(),
        ])
        .map_err(internal("bind code"))?
        .first::<SentRow>(None)
        .await
        .map_err(internal("store code"))?;
    if stored.is_none() {
        let last = sent_at(&db, dealer, &phone).await?.unwrap_or(now);
        return Err(ApiError::too_many(
            "A code was sent to this number moments ago; please use it, or wait a little before asking for another.",
            cooldown_remaining(last, cooldown, now),
        ));
    }
    if let Err(error) = send_sms(&ctx.env, &tenant, &phone, &code).await {
        // Not sent: the shopper may ask again at once.
        let reset = db
            .prepare("UPDATE sign_in_codes SET sent_at = 0 WHERE dealer = ?1 AND phone = ?2 AND code_hash = ?3")
            .bind(&[dealer.into(), phone.as_str().into(), hash.into()]);
        if let Ok(stmt) = reset {
            if let Err(e) = stmt.run().await {
                console_error!("sms failed and the cooldown could not be lifted: {e}");
            }
        }
        return Err(error);
    }
    Ok(Reply::json(
        202,
        json!({ "success": true, "expires_in": CODE_TTL_SECS }),
    ))
}

async fn sent_at(db: &D1Database, dealer: &str, phone: &str) -> Result<Option<u64>, ApiError> {
    Ok(db
        .prepare("SELECT sent_at FROM sign_in_codes WHERE dealer = ?1 AND phone = ?2")
        .bind(&[dealer.into(), phone.into()])
        .map_err(internal("bind code lookup"))?
        .first::<SentRow>(None)
        .await
        .map_err(internal("code lookup"))?
        .map(|r| r.sent_at))
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
struct ClaimedRow {
    code_hash: String,
    attempts: u32,
}

#[derive(Deserialize)]
struct CodeRow {
    code_hash: String,
    expires_at: u64,
    attempts: u32,
    sent_at: u64,
}

#[derive(Deserialize)]
struct PhoneRow {
    #[allow(dead_code)] // only its presence matters
    phone: String,
}

async fn check(mut req: Request, ctx: RouteContext<()>, tenant: Tenant) -> Result<Reply, ApiError> {
    require_sign_in(&tenant)?;
    let body = api::json_body(&mut req).await?;
    let (phone, code) = validate_code_check(&body).map_err(invalid)?;
    let dealer = tenant.config.dealer.as_str();
    let key = api::session_key(&ctx.env)?;
    let db = api::db(&ctx.env)?;
    let now = api::now();
    // Claim one guess before comparing: the count and the check that it is
    // below the limit are one statement, so concurrent guesses queue here.
    let claimed = db
        .prepare(
            "UPDATE sign_in_codes SET attempts = attempts + 1 \
             WHERE dealer = ?1 AND phone = ?2 AND attempts < ?3 AND expires_at > ?4 \
             RETURNING code_hash, attempts",
        )
        .bind(&[
            dealer.into(),
            phone.as_str().into(),
            MAX_CODE_ATTEMPTS.into(),
            (now as f64).into(),
        ])
        .map_err(internal("bind attempt"))?
        .first::<ClaimedRow>(None)
        .await
        .map_err(internal("claim attempt"))?;
    let Some(claimed) = claimed else {
        over_dealer_budget(&ctx.env, &tenant).await?;
        return Err(no_guess(&db, &tenant, &phone, now).await?);
    };
    if !code_matches(&key, dealer, &phone, &code, &claimed.code_hash) {
        over_dealer_budget(&ctx.env, &tenant).await?;
        let message = if claimed.attempts >= MAX_CODE_ATTEMPTS {
            "That code is not right, and that was the last try for it. Request a new code."
        } else {
            "That code is not right. Please check the SMS and try again."
        };
        return Err(ApiError::new(400, message));
    }
    // One use only: of two concurrent right guesses, one deletes the row.
    let used = db
        .prepare(
            "DELETE FROM sign_in_codes WHERE dealer = ?1 AND phone = ?2 AND code_hash = ?3 RETURNING phone",
        )
        .bind(&[
            dealer.into(),
            phone.as_str().into(),
            claimed.code_hash.as_str().into(),
        ])
        .map_err(internal("bind code delete"))?
        .first::<PhoneRow>(None)
        .await
        .map_err(internal("delete code"))?;
    if used.is_none() {
        return Err(no_code());
    }
    let id = new_session_id(&api::random_bytes())
        .ok_or_else(|| internal("session id")("too few random bytes"))?;
    db.prepare(
        "INSERT INTO sessions (id_hash, dealer, phone, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )
    .bind(&[
        session_key_of(&key, &id).into(),
        dealer.into(),
        phone.as_str().into(),
        (now as f64).into(),
        ((now + SESSION_TTL_SECS) as f64).into(),
    ])
    .map_err(internal("bind session"))?
    .run()
    .await
    .map_err(internal("store session"))?;
    let token = sign_session(&key, dealer, &id);
    let mut reply = Reply::json(200, json!({ "success": true, "phone_number": phone }));
    reply.headers = vec![("Set-Cookie", session_cookie(&token, SESSION_TTL_SECS))];
    Ok(reply)
}

/// A failed code check counts against the dealer's budget of code checks
/// (a right code never does, so no stranger's guessing can keep a shopper
/// with the right code out); over it, the answer is 429.
async fn over_dealer_budget(env: &Env, tenant: &Tenant) -> Result<(), ApiError> {
    let limits = &tenant.config.rate_limits;
    match api::dealer_budget(env, &tenant.config.dealer, limits, Route::Verify).await {
        Some(refused) => Err(refused),
        None => Ok(()),
    }
}

fn no_code() -> ApiError {
    ApiError::new(
        400,
        "No code was requested for this number, or it was already used. Request a new one.",
    )
}

/// Why no guess could be claimed, from the row as it is now.
async fn no_guess(
    db: &D1Database,
    tenant: &Tenant,
    phone: &str,
    now: u64,
) -> Result<ApiError, ApiError> {
    let row = db
        .prepare("SELECT code_hash, expires_at, attempts, sent_at FROM sign_in_codes WHERE dealer = ?1 AND phone = ?2")
        .bind(&[tenant.config.dealer.as_str().into(), phone.into()])
        .map_err(internal("bind code lookup"))?
        .first::<CodeRow>(None)
        .await
        .map_err(internal("code lookup"))?;
    let stored = row.map(|r| StoredCode {
        hash: r.code_hash,
        expires_at: r.expires_at,
        attempts: r.attempts,
        sent_at: r.sent_at,
    });
    Ok(match why_no_guess(stored.as_ref(), now) {
        NoGuess::NoCode => no_code(),
        NoGuess::Expired => ApiError::new(400, "That code has expired. Request a new one."),
        // The code is dead; a new one can be sent once the cooldown ends.
        NoGuess::TooManyAttempts => ApiError::too_many(
            "Too many wrong codes. Request a new one.",
            cooldown_remaining(
                stored.map_or(0, |s| s.sent_at),
                u64::from(tenant.config.rate_limits.code_cooldown_secs),
                now,
            ),
        ),
    })
}

/// Ends this request's session for good (the row is deleted, so the old
/// cookie no longer works anywhere) and clears the cookie.
async fn end_session(
    req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    let key = api::session_key(&ctx.env)?;
    if let Some(id) = cookie_session_id(&req, &key, &tenant) {
        api::db(&ctx.env)?
            .prepare("DELETE FROM sessions WHERE id_hash = ?1 AND dealer = ?2")
            .bind(&[
                session_key_of(&key, &id).into(),
                tenant.config.dealer.as_str().into(),
            ])
            .map_err(internal("bind sign-out"))?
            .run()
            .await
            .map_err(internal("sign-out"))?;
    }
    let mut reply = Reply::json(200, json!({ "success": true }));
    reply.headers = vec![("Set-Cookie", clear_cookie())];
    Ok(reply)
}

async fn whoami(req: Request, ctx: RouteContext<()>, tenant: Tenant) -> Result<Reply, ApiError> {
    let body = match session(&req, &ctx.env, &tenant).await? {
        Some(s) => json!({ "signed_in": true, "phone_number": s.phone }),
        None => json!({ "signed_in": false }),
    };
    Ok(Reply::json(200, body))
}
