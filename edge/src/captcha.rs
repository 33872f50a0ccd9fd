//! Cloudflare Turnstile at the edge: a dealer with `features.captcha` on
//! gets each lead's, hold's and sign-in code request's token checked with
//! siteverify before anything is stored or sent (the rules are in `dealer_edge_core::turnstile`).

use dealer_edge_core::http::ApiError;
use dealer_edge_core::lead::CaptchaCheck;
use dealer_edge_core::turnstile::{
    self, Verdict, REFUSED_MESSAGE, SITEVERIFY_URL, STEP_UP_SECRET, STEP_UP_SITE_KEY_VAR,
};
use serde_json::Value;
use worker::{console_error, Env, Headers, Method, Request, RequestInit};

use crate::api;
use crate::outbound::{self, Call};
use crate::Tenant;

/// The platform's widget for a step-up under attack: its site key, when
/// both it and its secret are set (else no step-up).
pub fn step_up_key(env: &Env) -> Option<String> {
    let key = env.var(STEP_UP_SITE_KEY_VAR).ok().map(|v| v.to_string());
    key.filter(|k| !k.is_empty() && api::secret(env, STEP_UP_SECRET).is_some())
}

/// Judges a form's captcha for `tenant`. `follow_up`: a later step of a
/// flow whose first lead passed (no new token needed). A refused or
/// missing token is 403. A dealer without a captcha of its own is `Off`,
/// unless the form sends a token of the platform's step-up widget
/// ([`step_up_key`]), which is checked with the platform's secret. When siteverify cannot be asked (unreachable, too
/// slow, a broken answer, the secret missing) the form goes through marked
/// unverified: a shopper's enquiry is never lost to an outage of ours.
pub async fn check(
    env: &Env,
    tenant: &Tenant,
    token: Option<&str>,
    client_ip: &str,
    follow_up: bool,
) -> Result<CaptchaCheck, ApiError> {
    let secret_name = match (&tenant.config.forms.captcha, token) {
        (Some(captcha), _) => captcha.secret_name.as_str(),
        (None, Some(_)) if step_up_key(env).is_some() => STEP_UP_SECRET,
        (None, _) => return Ok(CaptchaCheck::Off),
    };
    if follow_up {
        return Ok(CaptchaCheck::NotRequired);
    }
    let Some(token) = token else {
        return Err(ApiError::new(403, REFUSED_MESSAGE));
    };
    let dealer = &tenant.config.dealer;
    let Some(secret) = api::secret(env, secret_name) else {
        console_error!(
            "dealer {dealer}: Turnstile secret {secret_name} is not set; form accepted unverified"
        );
        return Ok(CaptchaCheck::Unverified);
    };
    let url =
        api::test_endpoint(env, "TURNSTILE_VERIFY_URL").unwrap_or_else(|| SITEVERIFY_URL.into());
    let body = turnstile::siteverify_body(&secret, token, Some(client_ip), &api::random_uuid());
    match siteverify(&url, body).await {
        Ok(answer) => match turnstile::judge(&answer, &turnstile::hosts_of(&tenant.config.origins))
        {
            Verdict::Pass => Ok(CaptchaCheck::Verified),
            Verdict::Fail(why) => {
                console_error!("dealer {dealer}: Turnstile refused a token: {why}");
                Err(ApiError::new(403, REFUSED_MESSAGE))
            }
        },
        Err(e) => {
            console_error!(
                "dealer {dealer}: Turnstile siteverify failed ({e}); form accepted unverified"
            );
            Ok(CaptchaCheck::Unverified)
        }
    }
}

async fn siteverify(url: &str, body: String) -> Result<Value, String> {
    let headers = Headers::new();
    headers
        .set("Content-Type", "application/x-www-form-urlencoded")
        .map_err(|e| e.to_string())?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(body.into()));
    let request = Request::new_with_init(url, &init).map_err(|e| e.to_string())?;
    outbound::send_for_json(Call::Turnstile, request).await
}
