//! The worker secrets a dealer's edge config needs. Only names are ever
//! handled here: `wrangler secret list` returns names, and a missing one is
//! reported by name, never with a value.

use std::collections::BTreeMap;

use dealer_rules::edge_config::EdgeConfig;

/// Secrets the edge worker needs whatever dealers it serves; with a
/// step-up widget (`[edge] step_up_site_key`), its secret too.
pub fn platform(edge: &super::config::EdgeTarget) -> BTreeMap<String, String> {
    let mut need = BTreeMap::from([(
        "SESSION_SECRET".to_string(),
        "signs sessions, sign-in codes and client hashes".to_string(),
    )]);
    if edge.step_up_site_key.is_some() {
        need.insert(
            dealer_rules::edge_config::STEP_UP_SECRET.to_string(),
            "[edge] step_up_site_key: the platform widget's Turnstile secret".to_string(),
        );
    }
    need
}

/// Secret name → why this dealer needs it.
pub fn required(edge: &EdgeConfig) -> BTreeMap<String, String> {
    let mut need = BTreeMap::new();
    let mut add = |name: &str, why: String| {
        need.entry(name.to_string()).or_insert(why);
    };
    if edge.sign_in() {
        // Sign-in codes go out by SMS; without the webhook provider they
        // only reach the worker's log.
        let why = if edge.features.watchlist {
            "features.watchlist"
        } else {
            "features.checkout.deposit: 0 (the mobile is verified)"
        };
        add(
            "SMS_PROVIDER",
            format!("{why}: sign-in codes by SMS (set it to `webhook`)"),
        );
        add(
            "SMS_WEBHOOK_URL",
            format!("{why}: the SMS provider's endpoint"),
        );
    }
    let emails =
        edge.leads.email.is_some() || edge.locations.iter().any(|l| l.lead_email.is_some());
    if emails {
        add(
            "MAIL_RELAY_URL",
            "leads by e-mail (ADF/XML): without it they are only logged".into(),
        );
    }
    if let Some(c) = &edge.forms.captcha {
        add(
            &c.secret_name,
            "forms.captcha: the Turnstile secret key".into(),
        );
    }
    if edge.checkout.enabled {
        if let Some(p) = &edge.checkout.payment {
            add(
                &p.secret_name,
                "checkout.payment: the payment provider's API key".into(),
            );
            add(
                &p.webhook_secret_name,
                "checkout.payment: the payment webhook's signing secret".into(),
            );
        }
    }
    if let Some(q) = &edge.finance.quote_provider {
        add(&q.secret_name, "finance quote provider: its API key".into());
    }
    if edge.features.trade_in {
        if let Some(v) = &edge.trade_in.valuation {
            add(
                &v.secret_name,
                "trade_in valuation service: its API key".into(),
            );
        }
    }
    need
}

/// Names in `wrangler secret list --format json` output
/// (`[{"name": "...", "type": "secret_text"}]`).
pub fn parse_list(json: &str) -> Result<Vec<String>, String> {
    let start = json.find('[').ok_or("no JSON list in wrangler's answer")?;
    let v: Vec<serde_json::Value> =
        serde_json::from_str(json[start..].trim()).map_err(|e| e.to_string())?;
    Ok(v.iter()
        .filter_map(|s| s.get("name")?.as_str().map(String::from))
        .collect())
}

/// A new secret: 32 random bytes from the system, as hex (a session
/// secret for a worker that has none: the previews' edge, `dealergen dev`).
pub fn random_secret() -> anyhow::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| anyhow::anyhow!("cannot read /dev/urandom for a new secret: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_config_field_that_needs_a_secret_names_it() {
        let mut c: EdgeConfig = serde_json::from_str(
            r#"{"dealer":"d","name":"D","origins":["https://d.example"],"locations":[],
            "leads":{"email":null,"webhook_url":null},"features":{"watchlist":false,"phone_reveal":false,"trade_in":false}}"#,
        )
        .unwrap();
        assert!(required(&c).is_empty());
        // Holds without a deposit verify the mobile by SMS, watchlist or not.
        c.checkout.enabled = true;
        c.checkout.unpaid_holds = true;
        let unpaid = required(&c);
        assert_eq!(
            unpaid.keys().collect::<Vec<_>>(),
            ["SMS_PROVIDER", "SMS_WEBHOOK_URL"]
        );
        assert!(unpaid["SMS_PROVIDER"].starts_with("features.checkout.deposit: 0"));
        c.checkout.unpaid_holds = false;
        assert!(required(&c).is_empty());
        c.features.watchlist = true;
        c.leads.email = Some("a@b.example".into());
        c.forms.captcha = Some(dealer_rules::edge_config::EdgeCaptcha {
            secret_name: "TS_D".into(),
        });
        let names: Vec<String> = required(&c).into_keys().collect();
        assert_eq!(
            names,
            ["MAIL_RELAY_URL", "SMS_PROVIDER", "SMS_WEBHOOK_URL", "TS_D"]
        );
    }

    #[test]
    fn the_list_reads_names_only() {
        assert_eq!(
            parse_list(r#"[{"name":"A","type":"secret_text"},{"name":"B","type":"secret_text"}]"#)
                .unwrap(),
            ["A", "B"]
        );
        assert!(parse_list("oops").is_err());
    }
}
