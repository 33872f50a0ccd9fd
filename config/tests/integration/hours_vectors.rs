//! The hours table the generator writes, against rules/vectors/hours.json
//! (the browser redraws the same table for the coming week: both read it).

use dealer_config::hours::week_lines;
use dealer_config::model::{ClosedText, WeekHours};
use serde_json::Value;

#[test]
fn hours_tables_match_the_shared_vectors() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../rules/vectors/hours.json");
    let vectors: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = vectors["cases"].as_array().unwrap();
    assert!(cases.len() >= 5, "the vectors lost their cases");
    for case in cases {
        let days: Vec<Option<String>> = case["week"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().map(String::from))
            .collect();
        let week = WeekHours {
            mon: days[0].clone(),
            tue: days[1].clone(),
            wed: days[2].clone(),
            thu: days[3].clone(),
            fri: days[4].clone(),
            sat: days[5].clone(),
            sun: days[6].clone(),
        };
        let closed = match case["closed_text"].as_str().unwrap() {
            "closed" => ClosedText::Closed,
            "by_appointment" => ClosedText::ByAppointment,
            other => panic!("unknown closed_text {other}"),
        };
        let expected: Vec<(String, String)> = case["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                (
                    l[0].as_str().unwrap().to_string(),
                    l[1].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(week_lines(&week, closed), expected, "{}", case["name"]);
    }
}
