//! `rules/vectors/checkout.json`: which cars may be reserved online. The
//! site's search cards apply the same cases (astro-app/test/forms-lib.test.ts).

use dealer_rules::checkout::{may_reserve, CarFacts, CheckoutRules};
use serde_json::Value;

#[test]
fn checkout_cases() {
    let path = format!("{}/vectors/checkout.json", env!("CARGO_MANIFEST_DIR"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 8, "the vector file lost cases");
    let strs = |x: &Value| -> Vec<String> {
        x.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let types = strs(&case["rules"]["car_types"]);
        let makes = strs(&case["rules"]["makes"]);
        let types: Vec<&str> = types.iter().map(String::as_str).collect();
        let makes: Vec<&str> = makes.iter().map(String::as_str).collect();
        let car = &case["car"];
        let status = car["status"].as_str().unwrap();
        let got = may_reserve(
            CheckoutRules {
                enabled: case["rules"]["enabled"].as_bool().unwrap(),
                car_types: &types,
                makes: &makes,
            },
            CarFacts {
                car_type: car["car_type"].as_str().unwrap(),
                make: car["make"].as_str().unwrap(),
                in_stock: matches!(status, "in_stock" | "coming_soon"),
                reserved: car["reserved"].as_bool().unwrap(),
            },
        );
        assert_eq!(got, case["may_reserve"].as_bool().unwrap(), "{name}");
    }
}
