//! Multi-step lead flows (the trade-in's three leads): how a later step
//! proves it continues a flow the worker itself started.
//!
//! The answer to every stored lead carries a *flow token* for the flow's
//! next step: an HMAC over the dealer, the client's network, the form's
//! category, the flow's first lead, the step number, an expiry and whether
//! the flow's first lead passed the captcha. A later step sends it back
//! with `lead_id`; the worker checks the signature against the calling
//! client and form, so naming a real lead id is worth nothing on its own
//! (a bot could read one from any answer), a token taken to another
//! client, dealer or form is refused, and each step number is accepted
//! once (the lead's `flow_of`/`flow_step` columns are unique per dealer).
//! A flow has at most [`MAX_STEPS`] later steps, so one solved captcha is
//! worth a bounded number of leads, and every later step counts against
//! the dealer's lead budget like any lead.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::session::{hex, mac, unhex};

type HmacSha256 = Hmac<Sha256>;

/// How long after a flow's first lead its later steps may follow.
pub const FLOW_WINDOW_SECS: u64 = 2 * 3600;

/// The most later steps one flow may have (the trade-in has two).
pub const MAX_STEPS: u32 = 4;

/// A token's version prefix: a change of what is signed gets a new one.
const VERSION: &str = "f1";

/// What a verified flow token says: the step it lets the client send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowStep {
    /// The flow's first lead.
    pub first_lead: String,
    /// The later step this token admits: 1 for the step after the first.
    pub step: u32,
    /// When the flow's window ends (Unix seconds).
    pub expires: u64,
    /// Whether the flow's first lead passed the captcha: its later steps
    /// need no new token.
    pub verified: bool,
}

/// Who may use a token: the dealer, the calling client's network
/// ([`crate::http::client_network`]) and the form's category.
#[derive(Debug, Clone, Copy)]
pub struct FlowBinding<'a> {
    pub dealer: &'a str,
    pub client: &'a str,
    pub category: &'a str,
}

/// Why a token was not accepted (logged; the post is then judged as a
/// first lead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlowRefusal {
    /// Not a token of ours, or signed for another dealer, client or form.
    Forged,
    /// The flow's window has ended.
    Expired,
    /// The token is for another flow than the `lead_id` it came with.
    OtherFlow,
    /// Past [`MAX_STEPS`].
    TooManySteps,
}

impl FlowRefusal {
    pub fn as_str(self) -> &'static str {
        match self {
            FlowRefusal::Forged => "not signed for this dealer, client and form",
            FlowRefusal::Expired => "the flow's window has ended",
            FlowRefusal::OtherFlow => "for another flow",
            FlowRefusal::TooManySteps => "past the flow's last step",
        }
    }
}

/// The signature's MAC over every claim of `step` and its binding.
fn claims_mac(key: &[u8], binding: FlowBinding<'_>, step: &FlowStep) -> HmacSha256 {
    let step_text = step.step.to_string();
    let expires = step.expires.to_string();
    let verified = if step.verified { "1" } else { "0" };
    mac(
        key,
        &[
            VERSION,
            binding.dealer,
            binding.client,
            binding.category,
            step.first_lead.as_str(),
            step_text.as_str(),
            expires.as_str(),
            verified,
        ],
    )
}

/// The token admitting `step`: `f1.<first lead>.<step>.<expires>.<0|1>.<hmac>`.
pub fn sign(key: &[u8], binding: FlowBinding<'_>, step: &FlowStep) -> String {
    format!(
        "{VERSION}.{}.{}.{}.{}.{}",
        step.first_lead,
        step.step,
        step.expires,
        u8::from(step.verified),
        hex(&claims_mac(key, binding, step).finalize().into_bytes())
    )
}

/// The step `token` admits for `lead_id`, if it was signed for this
/// binding, names that flow and has not expired.
pub fn verify(
    key: &[u8],
    binding: FlowBinding<'_>,
    lead_id: &str,
    token: &str,
    now: u64,
) -> Result<FlowStep, FlowRefusal> {
    let mut parts = token.split('.');
    let (Some(VERSION), Some(first), Some(step), Some(expires), Some(verified), Some(sig), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return Err(FlowRefusal::Forged);
    };
    let (Ok(step), Ok(expires)) = (step.parse::<u32>(), expires.parse::<u64>()) else {
        return Err(FlowRefusal::Forged);
    };
    let verified = match verified {
        "1" => true,
        "0" => false,
        _ => return Err(FlowRefusal::Forged),
    };
    let claim = FlowStep {
        first_lead: first.to_string(),
        step,
        expires,
        verified,
    };
    // Checked in constant time (hmac's verify): the signature is a secret's output.
    let sig = unhex(sig).ok_or(FlowRefusal::Forged)?;
    claims_mac(key, binding, &claim)
        .verify_slice(&sig)
        .map_err(|_| FlowRefusal::Forged)?;
    if claim.first_lead != lead_id {
        return Err(FlowRefusal::OtherFlow);
    }
    if now >= claim.expires {
        return Err(FlowRefusal::Expired);
    }
    if claim.step == 0 || claim.step > MAX_STEPS {
        return Err(FlowRefusal::TooManySteps);
    }
    Ok(claim)
}

/// The step after a stored lead: the first of a new flow (`proven` is
/// `None`), or the one after the step `proven` admitted. `None` past the
/// flow's last step (no token is handed out).
pub fn next_step(
    lead_id: &str,
    proven: Option<&FlowStep>,
    captcha_passed: bool,
    now: u64,
) -> Option<FlowStep> {
    match proven {
        None => Some(FlowStep {
            first_lead: lead_id.to_string(),
            step: 1,
            expires: now + FLOW_WINDOW_SECS,
            verified: captcha_passed,
        }),
        Some(step) if step.step < MAX_STEPS => Some(FlowStep {
            first_lead: step.first_lead.clone(),
            step: step.step + 1,
            expires: step.expires,
            verified: step.verified,
        }),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"test-key";
    const NOW: u64 = 1_800_000_000;
    const LEAD: &str = "0b0c6a52-2f55-4d6e-9d8b-3f1b2a7c9e10";

    fn binding() -> FlowBinding<'static> {
        FlowBinding {
            dealer: "alpha",
            client: "203.0.113.7",
            category: "trade_in",
        }
    }

    fn first() -> FlowStep {
        next_step(LEAD, None, true, NOW).unwrap()
    }

    #[test]
    fn a_token_admits_its_step_for_its_client_dealer_and_form() {
        let token = sign(KEY, binding(), &first());
        assert_eq!(verify(KEY, binding(), LEAD, &token, NOW + 60), Ok(first()));
        for other in [
            FlowBinding {
                dealer: "beta",
                ..binding()
            },
            FlowBinding {
                client: "198.51.100.9",
                ..binding()
            },
            FlowBinding {
                category: "general",
                ..binding()
            },
        ] {
            assert_eq!(
                verify(KEY, other, LEAD, &token, NOW),
                Err(FlowRefusal::Forged)
            );
        }
        assert_eq!(
            verify(b"other-key", binding(), LEAD, &token, NOW),
            Err(FlowRefusal::Forged)
        );
    }

    #[test]
    fn a_real_lead_id_without_its_token_proves_nothing() {
        let token = sign(KEY, binding(), &first());
        let other_lead = "9f0c6a52-2f55-4d6e-9d8b-3f1b2a7c9e10";
        assert_eq!(
            verify(KEY, binding(), other_lead, &token, NOW),
            Err(FlowRefusal::OtherFlow)
        );
        for forged in [
            "",
            "f1",
            &format!("f1.{LEAD}.1.{}.1.", NOW + 7200),
            &format!("f1.{LEAD}.1.{}.1.{}", NOW + 7200, "0".repeat(64)),
            // Every claim is signed: changing one breaks the signature.
            &token.replace(
                &format!(".{}.1.", NOW + 7200),
                &format!(".{}.1.", NOW + 99_999),
            ),
            &token.replace(&format!("{LEAD}.1."), &format!("{LEAD}.2.")),
            &token.replace(
                &format!(".{}.1.", NOW + 7200),
                &format!(".{}.0.", NOW + 7200),
            ),
            &format!("{token}.x"),
        ] {
            assert_eq!(
                verify(KEY, binding(), LEAD, forged, NOW),
                Err(FlowRefusal::Forged),
                "{forged}"
            );
        }
    }

    #[test]
    fn a_flow_ends_with_its_window_and_its_last_step() {
        let token = sign(KEY, binding(), &first());
        assert_eq!(
            verify(KEY, binding(), LEAD, &token, NOW + FLOW_WINDOW_SECS),
            Err(FlowRefusal::Expired)
        );
        let mut step = first();
        for n in 2..=MAX_STEPS {
            step = next_step("ignored", Some(&step), false, NOW + 10).unwrap();
            assert_eq!(step.step, n);
            assert_eq!(
                step.first_lead, LEAD,
                "later steps stay in the first lead's flow"
            );
            assert!(step.verified, "a verified flow stays verified");
            assert_eq!(
                step.expires,
                NOW + FLOW_WINDOW_SECS,
                "the window never grows"
            );
        }
        assert_eq!(next_step("ignored", Some(&step), true, NOW), None);
        let past = FlowStep {
            step: MAX_STEPS + 1,
            ..first()
        };
        assert_eq!(
            verify(KEY, binding(), LEAD, &sign(KEY, binding(), &past), NOW),
            Err(FlowRefusal::TooManySteps)
        );
    }

    #[test]
    fn an_unverified_first_lead_gives_an_unverified_flow() {
        let step = next_step(LEAD, None, false, NOW).unwrap();
        let token = sign(KEY, binding(), &step);
        assert!(!verify(KEY, binding(), LEAD, &token, NOW).unwrap().verified);
    }
}
