//! Car slugs (rules/vectors/slugs.json, `car_slugs`): the generator skips a
//! feed record whose slug fails `is_car_slug` and the worker refuses such a
//! slug, through this one function.

use dealer_rules::slug::is_car_slug;
use serde_json::Value;

#[test]
fn car_slugs_are_judged_as_the_vectors_say() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/vectors/slugs.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = v["car_slugs"].as_array().unwrap();
    assert!(cases.len() >= 10);
    assert!(cases.iter().any(|c| c["valid"] == true) && cases.iter().any(|c| c["valid"] == false));
    for case in cases {
        let slug = case["slug"].as_str().unwrap();
        assert_eq!(
            is_car_slug(slug),
            case["valid"].as_bool().unwrap(),
            "{slug:?}"
        );
    }
}
