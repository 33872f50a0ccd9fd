//! Reading a dealer's edge configuration from its KV value. A value that
//! cannot be read is a broken deploy of that one dealer: the worker answers
//! 503 for it (never 500, never another dealer) and logs the dealer and
//! the fault named here.

use dealer_rules::edge_config::EdgeConfig;

/// The configuration in `json`, or what is wrong with it (serde's message,
/// with the line and column, or the mismatch with the slug it is stored
/// under).
pub fn parse_edge_config(slug: &str, json: &str) -> Result<EdgeConfig, String> {
    let config: EdgeConfig = serde_json::from_str(json).map_err(|e| e.to_string())?;
    if config.dealer != slug {
        return Err(format!(
            "stored under dealer `{slug}` but names dealer `{}`",
            config.dealer
        ));
    }
    if let Some(fault) = config.rate_limits.out_of_range() {
        return Err(fault);
    }
    if let Some(fault) = config.unsafe_value() {
        return Err(fault);
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"dealer":"d","name":"D","origins":["https://d.example"],"locations":[],
        "leads":{"email":null,"webhook_url":null},"features":{"watchlist":true,"phone_reveal":false}}"#;

    #[test]
    fn a_good_config_reads() {
        assert_eq!(parse_edge_config("d", GOOD).unwrap().dealer, "d");
    }

    #[test]
    fn limits_out_of_range_are_refused_not_bent() {
        let with = |limits: &str| {
            GOOD.replace(
                "\"features\"",
                &format!("\"rate_limits\":{limits},\"features\""),
            )
        };
        let zero = with(r#"{"leads":{"per_client":0,"per_dealer":5,"window_secs":60}}"#);
        assert_eq!(
            parse_edge_config("d", &zero).unwrap_err(),
            "rate_limits.leads.per_client is 0; it must be 1 to 1000000"
        );
        let instant = with(r#"{"verify":{"per_client":5,"per_dealer":5,"window_secs":0}}"#);
        assert_eq!(
            parse_edge_config("d", &instant).unwrap_err(),
            "rate_limits.verify.window_secs is 0; it must be 1 to 86400"
        );
        let cooldown = with(r#"{"code_cooldown_secs":0}"#);
        assert!(parse_edge_config("d", &cooldown)
            .unwrap_err()
            .contains("code_cooldown_secs is 0"));
        let fine = with(r#"{"leads":{"per_client":1,"per_dealer":5,"window_secs":86400}}"#);
        assert_eq!(
            parse_edge_config("d", &fine)
                .unwrap()
                .rate_limits
                .leads
                .per_dealer,
            5
        );
    }

    #[test]
    fn values_that_reach_a_header_an_address_or_a_redirect_are_checked() {
        // What a tampered or hand-edited KV entry could carry.
        for (from, to, key) in [
            ("\"name\":\"D\"", "\"name\":\"D\\r\\nBcc: x@evil.example\"", "name"),
            (
                "\"email\":null",
                "\"email\":\"leads@d.example\\r\\nBcc: x@evil.example\"",
                "leads.email",
            ),
            ("\"email\":null", "\"email\":\"not-an-address\"", "leads.email"),
            (
                "\"features\"",
                "\"forms\":{\"message_required\":false,\"success_path\":\"@evil.example/thanks\"},\"features\"",
                "forms.success_path",
            ),
            (
                "\"features\"",
                "\"forms\":{\"message_required\":false,\"success_path\":\"//evil.example\"},\"features\"",
                "forms.success_path",
            ),
            (
                "\"features\"",
                "\"forms\":{\"message_required\":false,\"success_path\":\"/ok\\r\\nSet-Cookie: x=1\"},\"features\"",
                "forms.success_path",
            ),
            (
                "\"webhook_url\":null",
                "\"webhook_url\":\"http://crm.example/leads\"",
                "leads.webhook_url",
            ),
            (
                "\"webhook_url\":null",
                "\"webhook_url\":\"https://crm.example/a b\"",
                "leads.webhook_url",
            ),
            (
                "\"origins\":[\"https://d.example\"]",
                "\"origins\":[\"https://d.example\\r\\nX: 1\"]",
                "origins[0]",
            ),
            (
                "\"locations\":[]",
                "\"locations\":[{\"id\":\"l\",\"name\":\"HQ\",\"phone\":\"0\",\"lead_email\":\"a@b\"}]",
                "locations[0].lead_email",
            ),
        ] {
            let bad = GOOD.replace(from, to);
            assert_ne!(bad, GOOD, "{from}");
            let e = parse_edge_config("d", &bad).unwrap_err();
            assert!(e.starts_with(key), "{key}: {e}");
        }
        // Loopback stand-ins over http are this machine's own.
        let local = GOOD.replace(
            "\"webhook_url\":null",
            "\"webhook_url\":\"http://127.0.0.1:8787/hook\"",
        );
        assert!(parse_edge_config("d", &local).is_ok());
        let fine = GOOD.replace(
            "\"features\"",
            "\"forms\":{\"message_required\":false,\"success_path\":\"/thank-you\"},\"features\"",
        );
        assert!(parse_edge_config("d", &fine).is_ok());
    }

    #[test]
    fn faults_are_named() {
        let truncated = parse_edge_config("d", &GOOD[..40]).unwrap_err();
        assert!(truncated.contains("EOF while parsing"), "{truncated}");
        assert!(truncated.contains("line 1"), "{truncated}");
        let unknown = GOOD.replace("\"name\"", "\"nmae\"");
        let e = parse_edge_config("d", &unknown).unwrap_err();
        assert!(e.contains("unknown field `nmae`"), "{e}");
        let wrong_type = GOOD.replace("\"origins\":[\"https://d.example\"]", "\"origins\":\"x\"");
        assert!(parse_edge_config("d", &wrong_type)
            .unwrap_err()
            .contains("invalid type"));
        let e = parse_edge_config("other", GOOD).unwrap_err();
        assert!(e.contains("dealer `other`") && e.contains("`d`"), "{e}");
        assert!(parse_edge_config("d", "").is_err());
    }
}
