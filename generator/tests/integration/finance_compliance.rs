//! The finance compliance check on real builds (Astro included): a dealer
//! whose own text states an interest rate without a comparison rate fails
//! its build, the message names the dealer, the page and the car, and the
//! site already published stays as it was.

use std::path::Path;
use std::process::{Command, Output};

const AS_OF: &str = "2026-11-20T00:00:00Z";
const DEALER: &str = "rate-motors";

use crate::support;
use crate::support::repo_root;

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The fixture dealer, copied outside the checkout so it can be edited.
fn dealers() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compliance");
    std::fs::create_dir_all(dir.path().join("stock")).unwrap();
    for f in ["rate-motors.yaml", "stock/rate-motors.json"] {
        std::fs::copy(from.join(f), dir.path().join(f)).unwrap();
    }
    dir
}

fn build(dealers: &Path, sites: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dealergen"))
        .arg("--root")
        .arg(repo_root())
        .arg("--dealers-dir")
        .arg(dealers)
        .arg("--sites-dir")
        .arg(sites)
        .args(["build", "--dealer", DEALER, "--as-of", AS_OF])
        .current_dir(dealers)
        .env("NO_COLOR", "1")
        .output()
        .expect("dealergen runs")
}

fn edit(file: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains(from), "{} lacks {from:?}", file.display());
    std::fs::write(file, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_rate_without_its_comparison_rate_fails_the_build_and_keeps_the_published_site() {
    support::require_astro();
    let dealers = dealers();
    let sites = tempfile::tempdir().unwrap();
    let dist = sites.path().join(DEALER).join("dist");

    // As written, the dealer is compliant: its lender figures come with the
    // comparison rate, as large, and the warning.
    let out = build(dealers.path(), sites.path());
    assert!(out.status.success(), "{}", text(&out));
    let car_page = dist.join("cars/2022-kia-rio-s-501/index.html");
    let published = std::fs::read_to_string(&car_page).unwrap();
    assert!(published.contains("data-finance=\"comparison\""));
    assert!(
        dist.join("finance/index.html").is_file(),
        "the finance page"
    );
    // The release records what the checks found in each page: the next
    // builds (below) parse only the pages whose bytes changed, and the
    // changed pages still fail.
    assert!(sites
        .path()
        .join(DEALER)
        .join("current/checked-pages.json")
        .is_file());

    // A dealer comment on one car states a rate, no comparison rate.
    let feed = dealers.path().join("stock/rate-motors.json");
    edit(
        &feed,
        "Ask about our finance options.",
        "Finance at 5.99% p.a. available on approved credit.",
    );
    let out = build(dealers.path(), sites.path());
    let log = text(&out);
    assert_eq!(out.status.code(), Some(1), "{log}");
    assert!(log.contains("FAILED rate-motors"), "{log}");
    assert!(
        log.contains(
            "rate-motors: /cars/2021-mazda-cx-5-maxx-502/ (car 2021-mazda-cx-5-maxx-502): the text states “Finance at 5.99%” without a comparison rate in the same paragraph: “Finance at 5.99% p.a. available on approved credit.”"
        ),
        "{log}"
    );
    assert!(log.contains("the site was not published"), "{log}");
    // The site already published is untouched, and no staging is left.
    assert_eq!(std::fs::read_to_string(&car_page).unwrap(), published);
    let other =
        std::fs::read_to_string(dist.join("cars/2021-mazda-cx-5-maxx-502/index.html")).unwrap();
    assert!(!other.contains("5.99%"));
    assert!(!sites.path().join(DEALER).join(".dist-staging").exists());

    // The dealer's disclaimer (shown under every calculator and on the
    // finance page) states a rate: every such page is named.
    edit(
        &feed,
        "Finance at 5.99% p.a. available on approved credit.",
        "Ask about our finance options.",
    );
    edit(
        &dealers.path().join("rate-motors.yaml"),
        "finance:\n  providers: [manual]\n",
        "finance:\n  providers: [manual]\n  disclaimer: Finance from 4.99% p.a. for approved buyers.\n",
    );
    let out = build(dealers.path(), sites.path());
    let log = text(&out);
    assert_eq!(out.status.code(), Some(1), "{log}");
    assert!(log.contains("finance compliance: 2 page(s)"), "{log}");
    assert!(
        log.contains("rate-motors: /finance/: the text states “Finance from 4.99%”"),
        "{log}"
    );
    assert!(
        log.contains("rate-motors: /cars/2021-mazda-cx-5-maxx-502/ (car 2021-mazda-cx-5-maxx-502): the text states “Finance from 4.99%”"),
        "{log}"
    );
    assert_eq!(std::fs::read_to_string(&car_page).unwrap(), published);

    // Compliant again, with one car's comment changed: it publishes, and
    // the pages the published release had byte for byte were not parsed again.
    edit(
        &dealers.path().join("rate-motors.yaml"),
        "  disclaimer: Finance from 4.99% p.a. for approved buyers.\n",
        "",
    );
    edit(
        &feed,
        "Ask about our finance options.",
        "Ask us about our finance options.",
    );
    let out = build(dealers.path(), sites.path());
    let log = text(&out);
    assert!(out.status.success(), "{log}");
    let known: Vec<usize> = log
        .split("checks in ")
        .nth(1)
        .and_then(|rest| rest.split(" pages as published before").next())
        .and_then(|counts| counts.split_once(" ms (").map(|(_, c)| c.to_string()))
        .map(|c| c.split(" of ").filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    assert!(
        matches!(known[..], [k, all] if k > 0 && k <= all),
        "known pages {known:?}: {log}"
    );
}
