//! `edge.rate_limits` in a dealer file: an override reaches the edge's
//! limits (the rest keeps the defaults), and a zero, an out-of-range window
//! or a misspelt route is an error at its line and key.

use std::path::{Path, PathBuf};

use dealer_config::{Loader, Rejected};
use dealer_rules::edge_config::EdgeRateLimits;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The valid fixture dealer plus `edge`, written as its own file.
fn dealer_with(name: &str, edge: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "dealergen-rate-limits-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixtures().join("valid/stock.json"), dir.join("stock.json")).unwrap();
    let base = std::fs::read_to_string(fixtures().join("valid/good-dealer.yaml")).unwrap();
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, format!("{base}\nedge:\n{edge}")).unwrap();
    path
}

fn loader() -> Loader {
    Loader::new(fixtures().join("presets"))
}

fn rejected(name: &str, edge: &str) -> Rejected {
    let path = dealer_with(name, edge);
    let result = loader().load(&path);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
    result
        .err()
        .unwrap_or_else(|| panic!("{name} must be rejected"))
}

#[test]
fn an_override_reaches_the_edge_and_the_rest_keeps_the_defaults() {
    let path = dealer_with(
        "override",
        "  rate_limits:\n    leads: { per_client: 50 }\n    views: { window_secs: 600 }\n    code_cooldown_secs: 30\n",
    );
    let loaded = loader().load(&path);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
    let loaded = loaded.unwrap_or_else(|r| panic!("{:#?}", r.diagnostics));
    let limits = loaded.config.edge.rate_limits.resolve();
    let d = EdgeRateLimits::default();
    assert_eq!(limits.leads.per_client, 50);
    assert_eq!(limits.leads.per_dealer, d.leads.per_dealer);
    assert_eq!(limits.views.window_secs, 600);
    assert_eq!(limits.views.per_client, d.views.per_client);
    assert_eq!(limits.code_cooldown_secs, 30);
    assert_eq!(limits.sign_in, d.sign_in);
}

#[test]
fn a_zero_limit_a_day_long_window_and_a_misspelt_route_are_errors() {
    let r = rejected(
        "zero",
        "  rate_limits:\n    leads: { per_client: 0 }\n    quotes: { window_secs: 100000 }\n    lead: { per_client: 5 }\n    code_cooldown_secs: 1\n",
    );
    let keys: Vec<&str> = r.diagnostics.iter().map(|d| d.key.as_str()).collect();
    for key in [
        "edge.rate_limits.leads.per_client",
        "edge.rate_limits.quotes.window_secs",
        "edge.rate_limits.lead",
        "edge.rate_limits.code_cooldown_secs",
    ] {
        assert!(
            keys.contains(&key),
            "no problem at {key}: {:#?}",
            r.diagnostics
        );
    }
    let zero = r
        .diagnostics
        .iter()
        .find(|d| d.key == "edge.rate_limits.leads.per_client")
        .unwrap();
    assert!(zero.message.contains("out of range"), "{}", zero.message);
    assert!(zero.line > 1);
}

/// The defaults are written out in the field docs (the editor's hover
/// text); they must be the ones the edge applies.
#[test]
fn documented_defaults_are_the_real_ones() {
    let schema =
        serde_json::to_value(schemars::schema_for!(dealer_config::model::RateLimits)).unwrap();
    let props = schema["properties"].as_object().unwrap();
    let d = EdgeRateLimits::default();
    let thousands = |n: u32| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    for (key, limit) in d.routes() {
        assert_eq!(limit.window_secs, 3600, "{key}: the docs say an hour");
        let text = props[key]["description"].as_str().unwrap_or_default();
        let want = format!(
            "Default: {} per client and {} per dealer an hour.",
            thousands(limit.per_client),
            thousands(limit.per_dealer)
        );
        assert!(text.contains(&want), "{key}: {text:?} should say {want:?}");
    }
    assert_eq!(
        props.len(),
        d.routes().count() + 1,
        "a field without a documented default here"
    );
    let cooldown = props["code_cooldown_secs"]["description"].as_str().unwrap();
    assert!(cooldown.contains(&format!("Default: {}.", d.code_cooldown_secs)));
}
