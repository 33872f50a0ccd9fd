//! `dealergen explain` on the tiny fixture dealer, whose feed has a car for
//! each rule: shown (with each price and tag rule), sold window, hidden
//! flag, photo rule, excluded make, other dealership, malformed records.

use std::path::Path;
use std::process::Command;

use crate::support::repo_root;

fn explain(car: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_dealergen"))
        .arg("--root")
        .arg(repo_root())
        .arg("--dealers-dir")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealers"))
        .args([
            "explain",
            "--dealer",
            "tiny-dealer",
            "--as-of",
            "2026-11-20",
            "--car",
            car,
        ])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn every_car_of_the_fixture_is_explained() {
    let mut all = String::new();
    for id in 1..=16 {
        let (code, text) = explain(&id.to_string());
        assert_eq!(code, 0, "{text}");
        all.push_str(&text);
        all.push('\n');
    }
    // Each rule the fixture covers is named; the snapshot pins the wording.
    for rule in [
        "rule:    sold window",
        "rule:    hidden flag",
        "rule:    photo rule",
        "rule:    excluded make",
        "rule:    other dealership",
        "rule:    malformed record",
        "\"Enquire for price.\", no price or offer_price above $10",
        "\"PREORDER\"",
        "\"Reserved\", the feed marks it reserved",
    ] {
        assert!(all.contains(rule), "`{rule}` missing from:\n{all}");
    }
    insta::assert_snapshot!("explain_tiny_dealer", all);
}

#[test]
fn a_car_by_slug_and_a_car_not_in_the_feed() {
    let (code, text) = explain("car-6");
    assert_eq!(code, 0);
    assert!(
        text.contains("it has 2 photo(s); stock.min_photos is 3"),
        "{text}"
    );
    let (code, text) = explain("NOPE1");
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("no car `NOPE1` in the stock feed (16 record(s))"),
        "{text}"
    );
}

/// The `explain` examples in `dealergen --help`, `dealergen explain --help`
/// and the README name real cars of the demo dealers: run each one.
#[test]
fn the_documented_examples_explain_real_demo_cars() {
    let bin = env!("CARGO_BIN_EXE_dealergen");
    let help = |args: &[&str]| {
        let out = Command::new(bin).args(args).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let text = format!(
        "{}\n{}\n{readme}",
        help(&["--help"]),
        help(&["explain", "--help"])
    );
    let examples: Vec<Vec<&str>> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("dealergen explain "))
        .map(|l| l.split('#').next().unwrap().split_whitespace().collect())
        .collect();
    assert!(examples.len() >= 3, "examples found: {examples:?}");
    for args in examples {
        let out = Command::new(bin)
            .arg("--root")
            .arg(repo_root())
            .arg("explain")
            .args(&args)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("on the site: "), "{args:?}: {stdout}");
    }
}
