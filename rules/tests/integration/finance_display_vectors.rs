//! The finance display decision against `rules/vectors/finance-display.json`:
//! one case per condition of the spec's table (and each boundary).

use dealer_rules::finance_display::{
    decide, rate_text, DisplayCar, DisplayRules, LenderEntry, Per,
};
use serde::Deserialize;
use serde_json::{Map, Value};

const VECTORS: &str = include_str!("../../vectors/finance-display.json");

#[derive(Deserialize)]
struct File {
    base_rules: Map<String, Value>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    car: DisplayCar,
    lenders: Map<String, Value>,
    rules: Map<String, Value>,
    expected: Value,
}

#[test]
fn every_display_case() {
    let file: File = serde_json::from_str(VECTORS).expect("finance-display.json");
    assert!(file.cases.len() >= 40, "the vector file lost cases");
    let mut reasons = std::collections::BTreeSet::new();
    for case in &file.cases {
        let mut rules = file.base_rules.clone();
        rules.extend(case.rules.clone());
        let rules: DisplayRules = serde_json::from_value(Value::Object(rules))
            .unwrap_or_else(|e| panic!("{}: rules: {e}", case.name));
        let lenders: Vec<(String, LenderEntry)> = case
            .lenders
            .iter()
            .map(|(k, v)| {
                let entry = serde_json::from_value(v.clone())
                    .unwrap_or_else(|e| panic!("{}: lender {k}: {e}", case.name));
                (k.clone(), entry)
            })
            .collect();
        let got = decide(
            &case.car,
            lenders.iter().map(|(k, e)| (k.as_str(), e)),
            &rules,
        );
        let want = &case.expected;
        match (&got, want.get("shown"), want.get("hidden")) {
            (Ok(shown), Some(w), None) => {
                let at = |k: &str| w.get(k).cloned().unwrap_or(Value::Null);
                assert_eq!(
                    serde_json::to_value(shown.provider).unwrap(),
                    at("provider"),
                    "{}",
                    case.name
                );
                let (amount, per) = match shown.repayment {
                    Some((a, p)) => (
                        Value::from(a),
                        Value::from(match p {
                            Per::Week => "week",
                            Per::Month => "month",
                        }),
                    ),
                    None => (Value::Null, Value::Null),
                };
                assert_eq!((amount, per), (at("repayment"), at("per")), "{}", case.name);
                assert_eq!(
                    Some(shown.interest_rate),
                    at("interest_rate").as_f64(),
                    "{}",
                    case.name
                );
                assert_eq!(
                    Some(shown.comparison_rate),
                    at("comparison_rate").as_f64(),
                    "{}",
                    case.name
                );
                assert_eq!(
                    Value::from(rate_text(shown.comparison_rate)),
                    at("comparison_text"),
                    "{}",
                    case.name
                );
                if let Some(years) = w.get("term_years") {
                    assert_eq!(shown.term_years, years.as_f64(), "{}", case.name);
                }
                if let Some(fee) = w.get("establishment_fee") {
                    assert_eq!(shown.establishment_fee, fee.as_f64(), "{}", case.name);
                }
                if let Some(name) = w.get("lender_name") {
                    assert_eq!(
                        shown.lender_name.clone().map(Value::from),
                        Some(name.clone()),
                        "{}",
                        case.name
                    );
                }
                match w.get("disclaimer") {
                    Some(Value::Null) => assert_eq!(shown.disclaimer, None, "{}", case.name),
                    Some(_) => assert!(shown.disclaimer.is_some(), "{}", case.name),
                    None => {}
                }
            }
            (Err(why), None, Some(reason)) => {
                let got = serde_json::to_value(why).unwrap();
                assert_eq!(&got["reason"], reason, "{}", case.name);
                assert_eq!(
                    got.get("provider").cloned().unwrap_or(Value::Null),
                    want.get("provider").cloned().unwrap_or(Value::Null),
                    "{}",
                    case.name
                );
                reasons.insert(reason.as_str().unwrap().to_string());
            }
            _ => panic!("{}: got {got:?}, expected {want}", case.name),
        }
    }
    // Every reason a car can be refused for is pinned by at least one case.
    let all = [
        "disabled",
        "excluded_make",
        "no_lender",
        "rates_missing",
        "not_in_stock",
        "price_too_low",
        "too_old",
        "no_weekly_payment",
        "no_monthly_payment",
    ];
    assert_eq!(reasons.into_iter().collect::<Vec<_>>(), {
        let mut a = all.map(String::from).to_vec();
        a.sort();
        a
    });
}
