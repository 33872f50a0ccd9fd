//! Cloudflare Turnstile: checking a form's token with the siteverify API
//! (https://developers.cloudflare.com/turnstile/get-started/server-side-validation/):
//! `POST https://challenges.cloudflare.com/turnstile/v0/siteverify`,
//! form-encoded `secret`, `response`, `remoteip`, `idempotency_key`;
//! answered with JSON `{success, error-codes, hostname, action, cdata}`.

use serde_json::Value;

use crate::http::ApiError;

/// The siteverify endpoint. A worker variable may point elsewhere only in
/// tests (`TURNSTILE_VERIFY_URL`, a local stand-in).
pub const SITEVERIFY_URL: &str = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/// The shopper's message when the check refuses the token (or there is
/// none): what to do, not why.
pub const REFUSED_MESSAGE: &str =
    "We could not check that you are not a robot: please tick the box and send again.";

/// The form-encoded body of a siteverify call. `idempotency_key` lets the
/// worker retry a call whose answer was lost without Turnstile refusing the
/// token as already used.
pub use dealer_rules::edge_config::{STEP_UP_SECRET, STEP_UP_SITE_KEY_VAR};

/// What a form post without a token answers under step-up (403, with the
/// widget's site key beside it so the form can show it).
pub const STEP_UP_MESSAGE: &str = "This website is receiving a lot of enquiries just now: please tick the box to show you are not a robot, and send again.";

/// The body field a form sets when it could not get a token (the widget's
/// script blocked or failing): the lead is then stored and held, never
/// lost, rather than refused.
pub const CAPTCHA_UNAVAILABLE_FIELD: &str = "captcha_unavailable";

/// The 403 of a step-up: the message and the site key of the widget to
/// solve.
pub fn step_up_refusal(site_key: &str) -> ApiError {
    ApiError {
        captcha_site_key: Some(site_key.to_string()),
        ..ApiError::new(403, STEP_UP_MESSAGE)
    }
}

pub fn siteverify_body(
    secret: &str,
    token: &str,
    remote_ip: Option<&str>,
    idempotency_key: &str,
) -> String {
    let mut form = form_urlencoded::Serializer::new(String::new());
    form.append_pair("secret", secret);
    form.append_pair("response", token);
    if let Some(ip) = remote_ip.filter(|ip| !ip.is_empty() && *ip != "unknown") {
        form.append_pair("remoteip", ip);
    }
    form.append_pair("idempotency_key", idempotency_key);
    form.finish()
}

/// What siteverify said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A real, fresh token for one of the dealer's hosts.
    Pass,
    /// Refused; the reasons for the log (Turnstile's error codes, or the
    /// host the token was made for).
    Fail(String),
}

/// Judges a siteverify answer. `hosts` are the dealer's own host names:
/// a token solved on another site (a widget key used elsewhere) is refused
/// even when Turnstile accepts it.
pub fn judge(answer: &Value, hosts: &[String]) -> Verdict {
    if answer.get("success") != Some(&Value::Bool(true)) {
        let codes: Vec<String> = answer
            .get("error-codes")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        return Verdict::Fail(if codes.is_empty() {
            "not successful".into()
        } else {
            codes.join(", ")
        });
    }
    match answer.get("hostname").and_then(Value::as_str) {
        Some(host) if !hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) => {
            Verdict::Fail(format!("token made for host {host}"))
        }
        _ => Verdict::Pass,
    }
}

/// The host names of a dealer's origins (`https://www.x.com.au` →
/// `www.x.com.au`, port dropped), as Turnstile reports `hostname`.
pub fn hosts_of(origins: &[String]) -> Vec<String> {
    origins
        .iter()
        .filter_map(|o| o.split("://").nth(1))
        .map(|h| h.split(':').next().unwrap_or(h).to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_up_names_the_widget_to_solve() {
        let e = step_up_refusal("0x4AAAAAAAplatform");
        assert_eq!(e.status, 403);
        let body = e.body();
        assert_eq!(body["captcha_site_key"], "0x4AAAAAAAplatform");
        assert_eq!(body["error"], STEP_UP_MESSAGE);
        assert!(ApiError::new(403, REFUSED_MESSAGE)
            .body()
            .get("captcha_site_key")
            .is_none());
    }
    use serde_json::json;

    #[test]
    fn the_request_body_is_form_encoded() {
        assert_eq!(
            siteverify_body("0x4AAA&sec", "tok+en/=", Some("203.0.113.9"), "k-1"),
            "secret=0x4AAA%26sec&response=tok%2Ben%2F%3D&remoteip=203.0.113.9&idempotency_key=k-1"
        );
        assert_eq!(
            siteverify_body("s", "t", Some("unknown"), "k"),
            "secret=s&response=t&idempotency_key=k"
        );
    }

    #[test]
    fn only_a_successful_token_for_the_dealers_host_passes() {
        let hosts = hosts_of(&[
            "https://www.alpha.example".into(),
            "http://127.0.0.1:4321".into(),
        ]);
        assert_eq!(hosts, ["www.alpha.example", "127.0.0.1"]);
        assert_eq!(
            judge(
                &json!({"success": true, "hostname": "www.alpha.example"}),
                &hosts
            ),
            Verdict::Pass
        );
        assert_eq!(
            judge(&json!({"success": true, "hostname": "127.0.0.1"}), &hosts),
            Verdict::Pass
        );
        assert_eq!(
            judge(&json!({"success": true}), &hosts),
            Verdict::Pass,
            "no hostname reported"
        );
        assert_eq!(
            judge(
                &json!({"success": true, "hostname": "evil.example"}),
                &hosts
            ),
            Verdict::Fail("token made for host evil.example".into())
        );
        assert_eq!(
            judge(
                &json!({"success": false, "error-codes": ["timeout-or-duplicate"]}),
                &hosts
            ),
            Verdict::Fail("timeout-or-duplicate".into())
        );
        assert_eq!(
            judge(&json!({"success": "true"}), &hosts),
            Verdict::Fail("not successful".into())
        );
        assert_eq!(
            judge(&json!(null), &hosts),
            Verdict::Fail("not successful".into())
        );
    }
}
