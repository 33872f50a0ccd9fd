//! docs/dealer-yaml.md is generated from the dealer config's types and the
//! presets; this fails when a field, a doc comment, a default or a preset
//! changed without regenerating it.

use std::path::Path;

#[test]
fn the_field_reference_is_up_to_date() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let loader = dealer_config::Loader::new(root.join("templates/presets"));
    let fresh = dealergen::docs::field_reference(&loader).unwrap();
    let committed = std::fs::read_to_string(root.join("docs/dealer-yaml.md")).unwrap_or_default();
    assert!(
        fresh == committed,
        "docs/dealer-yaml.md is out of date: run `cargo run -p dealergen -- schema --docs --write` and commit it"
    );
}

#[test]
fn every_schema_leaf_is_in_the_reference() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let loader = dealer_config::Loader::new(root.join("templates/presets"));
    let doc = dealergen::docs::field_reference(&loader).unwrap();
    // Every property the schema declares anywhere heads an entry.
    fn names(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
        match v {
            serde_json::Value::Object(m) => {
                if let Some(serde_json::Value::Object(props)) = m.get("properties") {
                    out.extend(props.keys().cloned());
                }
                m.values().for_each(|x| names(x, out));
            }
            serde_json::Value::Array(a) => a.iter().for_each(|x| names(x, out)),
            _ => {}
        }
    }
    let mut all = std::collections::BTreeSet::new();
    names(dealer_config::schema(), &mut all);
    let headings: Vec<&str> = doc.lines().filter(|l| l.starts_with("#")).collect();
    for name in &all {
        assert!(
            headings.iter().any(|h| h.ends_with(&format!("{name}`"))),
            "schema property `{name}` has no entry in the field reference"
        );
    }
    assert!(all.len() > 150, "only {} properties found", all.len());
    for path in [
        "`stock.source.max_drop_percent`",
        "`locations[].hours.sales.mon`",
        "`search.engine.hosted.app_id`",
        "`edge.rate_limits.leads.per_client`",
        "`cards.buttons`",
    ] {
        assert!(
            doc.contains(&format!("### {path}")),
            "{path} is not documented"
        );
    }
    // Each preset's value is shown where it sets one.
    assert!(doc.contains("- Presets: franchise-group: `[enquire, finance, test_drive]`"));
}
