//! Lead delivery: where a stored lead goes (per the dealer's routing), what
//! is sent, and how long to wait before retrying a failed attempt. The worker
//! records every attempt in D1; a failed delivery is retried, never dropped.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::lead::Lead;
use dealer_rules::edge_config::EdgeConfig;

/// One place a lead must reach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// ADF/XML e-mail to this address (through the mail transport).
    Email { to: String },
    /// The lead as JSON, POSTed to this URL.
    Webhook { url: String },
}

impl Target {
    /// Column-friendly name, also the key in the per-lead delivery state.
    pub fn name(&self) -> &'static str {
        match self {
            Target::Email { .. } => "email",
            Target::Webhook { .. } => "webhook",
        }
    }

    /// The address or URL the lead is sent to (recorded per attempt).
    pub fn destination(&self) -> &str {
        match self {
            Target::Email { to } => to,
            Target::Webhook { url } => url,
        }
    }
}

/// Where this lead goes: the e-mail of the lead's location in a dealer group
/// (else the dealer-wide address), and the dealer's webhook. Empty when the
/// dealer configured neither; the lead then stays in D1 only.
pub fn targets(config: &EdgeConfig, lead: &Lead) -> Vec<Target> {
    let location_email = lead
        .location_id
        .as_deref()
        .and_then(|id| config.locations.iter().find(|l| l.id == id))
        .and_then(|l| l.lead_email.clone())
        .filter(|e| !e.trim().is_empty());
    let mut out = Vec::new();
    if let Some(to) =
        location_email.or_else(|| config.leads.email.clone().filter(|e| !e.trim().is_empty()))
    {
        out.push(Target::Email { to });
    }
    if let Some(url) = config
        .leads
        .webhook_url
        .clone()
        .filter(|u| !u.trim().is_empty())
    {
        out.push(Target::Webhook { url });
    }
    out
}

/// First retry after 2 s, doubling, capped at 15 minutes: a receiver that is
/// down for a deploy gets the lead within seconds of coming back; one down
/// for hours is polled four times an hour. Attempt counts start at 1.
pub fn retry_delay_secs(failed_attempts: u32) -> u32 {
    const BASE: u32 = 2;
    const CAP: u32 = 15 * 60;
    let exp = failed_attempts.saturating_sub(1).min(16);
    BASE.saturating_mul(1 << exp).min(CAP)
}

/// Whether an HTTP answer from a receiver means "got it".
pub fn accepted(status: u16) -> bool {
    (200..300).contains(&status)
}

/// The JSON a dealer's webhook receives. `lead_id` is also sent as the
/// `Idempotency-Key` header, so a receiver can drop a repeat.
pub fn webhook_payload(
    lead_id: &str,
    dealer: &str,
    created_at: &str,
    lead: &Lead,
    adf: &str,
) -> Value {
    json!({
        "lead_id": lead_id,
        "dealer": dealer,
        "created_at": created_at,
        "category": lead.category.as_str(),
        "lead": lead,
        "adf_xml": adf,
    })
}

/// What the mail relay (the per-environment e-mail transport) receives.
pub fn mail_payload(to: &str, config: &EdgeConfig, lead_id: &str, lead: &Lead, adf: &str) -> Value {
    json!({
        "to": to,
        "subject": format!("New {} lead for {} ({lead_id})", lead.category.as_str().replace('_', " "), config.name),
        "content_type": "application/xml",
        "body": adf,
        "lead_id": lead_id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lead::validate_lead;

    fn config(
        location_email: Option<&str>,
        email: Option<&str>,
        webhook: Option<&str>,
    ) -> EdgeConfig {
        serde_json::from_value(json!({
            "dealer": "g", "name": "Group", "origins": [],
            "locations": [
                {"id": "north", "name": "North", "phone": "0891234567", "lead_email": location_email},
                {"id": "south", "name": "South", "phone": "0891234568", "lead_email": null}
            ],
            "leads": {"email": email, "webhook_url": webhook},
            "features": {"watchlist": true, "phone_reveal": true}
        }))
        .unwrap()
    }

    fn lead(cfg: &EdgeConfig, location: &str) -> Lead {
        validate_lead(
            &json!({"category": "test_drive", "name": "Jo", "email": "jo@example.com",
            "phone": "0412345678", "terms_conditions": true, "location_id": location}),
            cfg,
            1_795_132_800,
        )
        .unwrap()
    }

    #[test]
    fn routing_prefers_the_location_address() {
        let cfg = config(
            Some("north@g.example"),
            Some("all@g.example"),
            Some("https://crm.example/hook"),
        );
        assert_eq!(
            targets(&cfg, &lead(&cfg, "north")),
            [
                Target::Email {
                    to: "north@g.example".into()
                },
                Target::Webhook {
                    url: "https://crm.example/hook".into()
                }
            ]
        );
        assert_eq!(
            targets(&cfg, &lead(&cfg, "south"))[0],
            Target::Email {
                to: "all@g.example".into()
            }
        );
    }

    #[test]
    fn routing_with_only_one_or_no_target() {
        let cfg = config(None, None, Some("https://crm.example/hook"));
        assert_eq!(
            targets(&cfg, &lead(&cfg, "north")),
            [Target::Webhook {
                url: "https://crm.example/hook".into()
            }]
        );
        let cfg = config(None, Some("  "), None);
        assert!(targets(&cfg, &lead(&cfg, "north")).is_empty());
        assert_eq!(Target::Email { to: String::new() }.name(), "email");
        let hook = Target::Webhook {
            url: "https://crm.example/hook".into(),
        };
        assert_eq!(hook.destination(), "https://crm.example/hook");
    }

    #[test]
    fn backoff_doubles_and_is_capped() {
        let delays: Vec<u32> = (1..=6).map(retry_delay_secs).collect();
        assert_eq!(delays, [2, 4, 8, 16, 32, 64]);
        assert_eq!(retry_delay_secs(20), 900);
        assert_eq!(retry_delay_secs(u32::MAX), 900);
        assert_eq!(retry_delay_secs(0), 2);
    }

    #[test]
    fn only_2xx_counts_as_delivered() {
        assert!(accepted(200) && accepted(204));
        assert!(!accepted(301) && !accepted(429) && !accepted(500) && !accepted(0));
    }

    #[test]
    fn payloads_carry_the_lead_and_adf() {
        let cfg = config(None, Some("a@g.example"), None);
        let l = lead(&cfg, "north");
        let w = webhook_payload("id-1", "g", "2026-01-01T00:00:00.000Z", &l, "<adf/>");
        assert_eq!(w["lead_id"], "id-1");
        assert_eq!(w["lead"]["phone"], "0412345678");
        assert_eq!(w["adf_xml"], "<adf/>");
        let m = mail_payload("a@g.example", &cfg, "id-1", &l, "<adf/>");
        assert_eq!(m["subject"], "New test drive lead for Group (id-1)");
        assert_eq!(m["content_type"], "application/xml");
    }
}
