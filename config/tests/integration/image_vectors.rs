//! Resized photo addresses (rules/vectors/images.json): the same cases the
//! site's `astro-app/src/lib/images.ts` is tested with, so an address the
//! generator checks is the address the browser asks for.

use dealer_config::images::{photo_url, srcset};
use serde_json::Value;

fn vectors() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/vectors/images.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn photo_addresses_are_built_as_the_vectors_say() {
    let v = vectors();
    let cases = v["photo_url"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let got = photo_url(
            case["template"].as_str(),
            case["url"].as_str().unwrap(),
            case["width"].as_u64().unwrap() as u32,
            case["quality"].as_u64().unwrap() as u8,
        );
        assert_eq!(got, case["expect"].as_str().unwrap(), "{}", case["why"]);
    }
}

#[test]
fn srcsets_are_built_as_the_vectors_say() {
    let v = vectors();
    let cases = v["srcset"].as_array().unwrap();
    assert!(
        cases.iter().any(|c| c["expect"].is_null())
            && cases.iter().any(|c| c["expect"].is_string())
    );
    for case in cases {
        let widths: Vec<u32> = case["widths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap() as u32)
            .collect();
        let got = srcset(
            case["template"].as_str(),
            case["url"].as_str().unwrap(),
            &widths,
            case["quality"].as_u64().unwrap() as u8,
        );
        assert_eq!(got.as_deref(), case["expect"].as_str(), "{case}");
    }
}
