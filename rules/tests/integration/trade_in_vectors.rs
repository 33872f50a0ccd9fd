//! `rules/vectors/trade-in.json`: which cars offer a trade-in valuation.
//! The site's search cards apply the same cases (astro-app/test/search-cards.test.ts).

use dealer_rules::trade_in::may_value;
use serde_json::Value;

#[test]
fn trade_in_cases() {
    let path = format!("{}/vectors/trade-in.json", env!("CARGO_MANIFEST_DIR"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 8, "the vector file lost cases");
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let car = &case["car"];
        let got = may_value(
            case["offered"].as_bool().unwrap(),
            car["status"].as_str().unwrap(),
            car["reserved"].as_bool().unwrap(),
            car["price"].as_f64().unwrap(),
        );
        assert_eq!(got, case["may_value"].as_bool().unwrap(), "{name}");
    }
}
