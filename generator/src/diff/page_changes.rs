//! The pages a diff says change, as JSON (`dealergen diff --format json`):
//! what tools compare with the built sites. scripts/e2e/pictures.mjs
//! builds both revisions and checks that the car pages named here are the
//! car pages whose HTML changed.

use std::collections::BTreeSet;

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Value};

use super::compare::Report;

/// `{dealer, base, as_of, car_pages: {changed, added, removed}, pages:
/// {added, removed}}`, every page as its path (`/cars/x/`), sorted.
pub fn pages(slug: &str, base: &str, now: DateTime<Utc>, report: &Report) -> Value {
    let changed: BTreeSet<String> = report
        .edited
        .iter()
        .map(|e| path_of(&e.url))
        .chain(
            report
                .shared
                .iter()
                .flat_map(|s| s.cars.iter().map(|(_, url)| path_of(url))),
        )
        .collect();
    let moved = |cars: &[super::compare::CarMove]| -> BTreeSet<String> {
        cars.iter().map(|c| path_of(&c.url)).collect()
    };
    let listed =
        |pages: &[String]| -> BTreeSet<String> { pages.iter().map(|p| path_of(p)).collect() };
    json!({
        "dealer": slug,
        "base": base,
        "as_of": now.to_rfc3339_opts(SecondsFormat::Secs, true),
        "car_pages": {
            "changed": changed,
            "added": moved(&report.appear),
            "removed": moved(&report.disappear),
        },
        "pages": {
            "added": listed(&report.pages_added),
            "removed": listed(&report.pages_removed),
        },
    })
}

/// The path of a page's address (`https://www.x.com.au/cars/a/` →
/// `/cars/a/`); a path stays as it is.
fn path_of(url: &str) -> String {
    url::Url::parse(url)
        .map(|u| u.path().to_string())
        .unwrap_or_else(|_| url.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_become_paths() {
        assert_eq!(path_of("https://www.x.com.au/cars/a-1/"), "/cars/a-1/");
        assert_eq!(path_of("/special-offers/"), "/special-offers/");
    }
}
