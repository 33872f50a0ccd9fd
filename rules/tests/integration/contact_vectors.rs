//! The shared contact-detail cases (rules/vectors/contact.json): the
//! enquiry form's TypeScript checks read the same file
//! (astro-app/test/contact-vectors.test.ts), so a phone or e-mail the form
//! lets through is one the worker accepts, and the other way round.

use dealer_rules::contact::{is_valid_email, parse_au_phone};
use serde_json::Value;

fn vectors() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/contact.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("vectors file")).expect("valid JSON")
}

#[test]
fn phones_parse_to_the_shared_national_form() {
    let v = vectors();
    let cases = v["phones"].as_array().unwrap();
    assert!(cases.len() > 20);
    for case in cases {
        let input = case["input"].as_str().unwrap();
        let got = parse_au_phone(input).map(|p| p.national().to_string());
        assert_eq!(got.as_deref(), case["national"].as_str(), "{input:?}");
    }
}

#[test]
fn emails_are_judged_alike() {
    let v = vectors();
    let cases = v["emails"].as_array().unwrap();
    assert!(cases.len() > 20);
    for case in cases {
        let input = case["input"].as_str().unwrap();
        assert_eq!(
            is_valid_email(input),
            case["valid"].as_bool().unwrap(),
            "{input:?}"
        );
    }
}
