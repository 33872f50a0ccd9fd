//! The generator's slugs of names (rules/vectors/slugs.json, `kebab`): the
//! search landing pages and location pages use them as URL segments.

use dealergen::pipeline::search_index::slugify;
use serde_json::Value;

#[test]
fn names_slugify_as_the_vectors_say() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/vectors/slugs.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = v["kebab"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let input = case["input"].as_str().unwrap();
        assert_eq!(slugify(input), case["slug"].as_str().unwrap(), "{input:?}");
    }
}
