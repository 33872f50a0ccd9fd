//! The worker's side of the shared vectors in `rules/vectors/`: the lead
//! form's messages and message rule (forms.json) and the analytics event ids
//! (events.json). The site's Vitest suites read the same files
//! (astro-app/test/vectors-*.test.ts), so the two cannot drift apart.

use std::collections::BTreeMap;

use dealer_edge_core::events::{self, EVENTS, PHONE_CLICK};
use dealer_edge_core::lead::{
    validate_lead, LeadCategory, DATE_MESSAGE, EMAIL_MISSING, MESSAGE_MISSING, NAME_MISSING,
    OFFER_MESSAGE, OFFER_MISSING, PHONE_MISSING, TERMS_MESSAGE, TIME_MESSAGE, UNSUBSCRIBE_MISSING,
};
use dealer_edge_core::lead_parts::{KMS_MESSAGE, REGO_MESSAGE, REGO_STATE_MESSAGE};
use dealer_edge_core::requests::validate_event;
use dealer_rules::contact::{EMAIL_MESSAGE, PHONE_MESSAGE, POSTCODE_MESSAGE};
use dealer_rules::edge_config::EdgeConfig;
use serde_json::{json, Value};

fn vectors(name: &str) -> Value {
    let path = format!("{}/../../rules/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn config(message_required: bool) -> EdgeConfig {
    serde_json::from_value(json!({
        "dealer": "demo", "name": "Demo", "origins": [], "locations": [],
        "leads": {"email": null, "webhook_url": null},
        "features": {"watchlist": false, "phone_reveal": false},
        "forms": {"message_required": message_required}
    }))
    .unwrap()
}

#[test]
fn form_messages_are_the_workers_constants() {
    let v = vectors("forms.json");
    let m = &v["messages"];
    for (key, constant) in [
        ("name_missing", NAME_MISSING),
        ("email_missing", EMAIL_MISSING),
        ("email_invalid", EMAIL_MESSAGE),
        ("phone_missing", PHONE_MISSING),
        ("phone_invalid", PHONE_MESSAGE),
        ("message_missing", MESSAGE_MISSING),
        ("terms", TERMS_MESSAGE),
        ("offer_missing", OFFER_MISSING),
        ("offer_invalid", OFFER_MESSAGE),
        ("date_invalid", DATE_MESSAGE),
        ("time_invalid", TIME_MESSAGE),
        ("rego_invalid", REGO_MESSAGE),
        ("rego_state_invalid", REGO_STATE_MESSAGE),
        ("kms_invalid", KMS_MESSAGE),
        ("postcode_invalid", POSTCODE_MESSAGE),
        ("unsubscribe_missing", UNSUBSCRIBE_MISSING),
    ] {
        assert_eq!(m[key].as_str(), Some(constant), "messages.{key}");
    }
    assert_eq!(
        m.as_object().unwrap().len(),
        16,
        "a message without a check here"
    );
}

#[test]
fn message_required_per_category() {
    let v = vectors("forms.json");
    let table = v["message_required"].as_object().unwrap();
    let names: Vec<&str> = LeadCategory::ALL.iter().map(|c| c.as_str()).collect();
    let listed: Vec<&str> = table.keys().map(String::as_str).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(
        listed, sorted,
        "every category, and only those, in the vector"
    );
    for (name, required) in table {
        let category = LeadCategory::parse(name).unwrap();
        assert_eq!(
            category.message_required(),
            required.as_bool().unwrap(),
            "{name}"
        );
    }
}

#[test]
fn form_cases_get_the_same_messages() {
    let v = vectors("forms.json");
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 10, "the vector file lost cases");
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let mut body = case["values"].clone();
        body["category"] = case["category"].clone();
        let want: BTreeMap<String, String> =
            serde_json::from_value(case["errors"].clone()).unwrap();
        let got = match validate_lead(&body, &config(true), 1_795_132_800) {
            Ok(_) => BTreeMap::new(),
            Err(e) => e.0,
        };
        assert_eq!(got, want, "case {name:?}");
    }
}

#[test]
fn field_cases_get_the_same_messages() {
    // The other fields (postcode, offer amount, registration and its state,
    // kilometres, test-drive date and time): the site judges these cases
    // alike (astro-app/test/vectors-forms.test.ts).
    let v = vectors("forms.json");
    let cases = v["field_cases"].as_array().unwrap();
    assert!(cases.len() >= 10, "the vector file lost field cases");
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let mut body = case["values"].clone();
        body["category"] = case["category"].clone();
        let want: BTreeMap<String, String> =
            serde_json::from_value(case["errors"].clone()).unwrap();
        let got = validate_lead(&body, &config(true), 1_795_132_800)
            .map_or_else(|e| e.0, |_| BTreeMap::new());
        assert_eq!(got, want, "field case {name:?}");
    }
}

#[test]
fn the_dealer_switch_drops_only_the_message_rule() {
    let v = vectors("forms.json");
    for case in v["cases"].as_array().unwrap() {
        let mut body = case["values"].clone();
        body["category"] = case["category"].clone();
        let mut want: BTreeMap<String, String> =
            serde_json::from_value(case["errors"].clone()).unwrap();
        want.remove("message");
        let got = validate_lead(&body, &config(false), 1_795_132_800)
            .map_or_else(|e| e.0, |_| BTreeMap::new());
        assert_eq!(got, want, "case {:?}", case["name"]);
    }
}

#[test]
fn event_ids_are_the_workers_table() {
    let v = vectors("events.json");
    let listed: Vec<(u64, &str)> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["id"].as_u64().unwrap(), e["name"].as_str().unwrap()))
        .collect();
    let table: Vec<(u64, &str)> = EVENTS.iter().map(|e| (u64::from(e.id), e.name)).collect();
    assert_eq!(table, listed);
    let phone_click = listed.iter().find(|(_, n)| *n == "phone_click").unwrap();
    assert_eq!(
        phone_click.0,
        u64::from(PHONE_CLICK),
        "the reveal's own event"
    );
    for (id, name) in &listed {
        let ok = validate_event(&json!({ "event_id": id }));
        assert!(ok.is_ok(), "{id} {name} is accepted");
        assert!(events::is_known(*id as u32));
    }
    for id in v["rejected"].as_array().unwrap() {
        let refused = validate_event(&json!({ "event_id": id })).unwrap_err();
        assert!(refused.get("event_id").is_some(), "{id} is refused");
    }
}
