//! The ads feeds' side of a diff: the rows a change adds to, removes from
//! or changes in each feed the dealer publishes (Google vehicle ads, Meta
//! vehicles), named by car, with why a removed row's car is left out now.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::snapshot::{AdsFeed, Snapshot, State};
use crate::pipeline::syndication::Platform;

/// What a change does to one ads feed.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedChange {
    /// "Google vehicle ads feed".
    pub title: &'static str,
    /// Its file under the site's `/feeds/`.
    pub file: &'static str,
    /// Its rows before and after (None: not published on that side).
    pub rows: (Option<usize>, Option<usize>),
    pub added: Vec<FeedRow>,
    pub removed: Vec<FeedRow>,
    pub changed: Vec<FeedRowEdit>,
}

/// A row that comes or goes, named by its car.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedRow {
    /// The vehicle id (the car's feed id).
    pub id: String,
    pub name: String,
    /// The car's page on the side where it is shown ("" when on neither).
    pub url: String,
    /// For a removed row: why the car is not a row now.
    pub why: Option<String>,
}

/// A row on both sides whose cells differ.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedRowEdit {
    pub id: String,
    pub name: String,
    pub url: String,
    /// Column, old cell, new cell.
    pub cells: Vec<(String, String, String)>,
}

impl FeedChange {
    pub fn is_empty(&self) -> bool {
        self.rows.0 == self.rows.1
            && self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
    }

    /// How many changed rows each column changed in, most first: a setting
    /// that changes every row (a tracking parameter) reads as one line.
    pub fn columns(&self) -> Vec<(&str, usize)> {
        let mut n: BTreeMap<&str, usize> = BTreeMap::new();
        for e in &self.changed {
            for (column, _, _) in &e.cells {
                *n.entry(column.as_str()).or_default() += 1;
            }
        }
        let mut out: Vec<(&str, usize)> = n.into_iter().collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        out
    }
}

/// Every feed published on either side whose rows change.
pub fn compare_feeds(b: &Snapshot, h: &Snapshot) -> Vec<FeedChange> {
    let platforms: BTreeSet<Platform> = b.feeds.keys().chain(h.feeds.keys()).copied().collect();
    platforms
        .into_iter()
        .map(|p| compare_feed(p, b, h))
        .filter(|c| !c.is_empty())
        .collect()
}

fn compare_feed(p: Platform, b: &Snapshot, h: &Snapshot) -> FeedChange {
    let empty = AdsFeed::default();
    let (bf, hf) = (
        b.feeds.get(&p).unwrap_or(&empty),
        h.feeds.get(&p).unwrap_or(&empty),
    );
    let mut change = FeedChange {
        title: p.title(),
        file: p.file(),
        rows: (
            b.feeds.get(&p).map(|f| f.rows.len()),
            h.feeds.get(&p).map(|f| f.rows.len()),
        ),
        added: Vec::new(),
        removed: Vec::new(),
        changed: Vec::new(),
    };
    for (id, row) in &hf.rows {
        match bf.rows.get(id) {
            None => {
                let (name, url) = car_of(h, id).or_else(|| car_of(b, id)).unwrap_or_default();
                change.added.push(FeedRow {
                    id: id.clone(),
                    name,
                    url,
                    why: None,
                });
            }
            Some(old) => {
                let columns: BTreeSet<&String> = old.keys().chain(row.keys()).collect();
                let cells: Vec<(String, String, String)> = columns
                    .into_iter()
                    .filter_map(|c| {
                        let (a, n) = (old.get(c).cloned(), row.get(c).cloned());
                        (a != n).then(|| (c.clone(), a.unwrap_or_default(), n.unwrap_or_default()))
                    })
                    .collect();
                if !cells.is_empty() {
                    let (name, url) = car_of(h, id).unwrap_or_default();
                    change.changed.push(FeedRowEdit {
                        id: id.clone(),
                        name,
                        url,
                        cells,
                    });
                }
            }
        }
    }
    for id in bf.rows.keys().filter(|id| !hf.rows.contains_key(*id)) {
        // The build gives every car the site shows that is not a row its
        // reason; a car not in `left_out` is not on the site now.
        let why = if !h.feeds.contains_key(&p) {
            "the dealer no longer publishes this feed".to_string()
        } else {
            hf.left_out
                .get(id)
                .cloned()
                .unwrap_or_else(|| off_site_reason(b, h, id))
        };
        let (name, url) = car_of(h, id).or_else(|| car_of(b, id)).unwrap_or_default();
        change.removed.push(FeedRow {
            id: id.clone(),
            name,
            url,
            why: Some(why),
        });
    }
    change
}

/// Why the car with feed id `id` (shown at the base) is not on the site
/// now: the rule that hides it, as the Cars section says.
fn off_site_reason(b: &Snapshot, h: &Snapshot, id: &str) -> String {
    let state = car_by_id(b, id)
        .and_then(|c| h.records.get(slug_of(c)))
        .map(|r| &r.state);
    match state {
        Some(State::Hidden { rule, why }) => format!("not on the site now: {rule}: {why}"),
        Some(State::Skipped { why }) => format!("not on the site now: malformed record: {why}"),
        _ => "not on the site now: no longer in the stock feed".to_string(),
    }
}

/// The name and page of the car with feed id `id` on a side's site.
fn car_of(s: &Snapshot, id: &str) -> Option<(String, String)> {
    let car = car_by_id(s, id)?;
    let name = car.get("name").and_then(Value::as_str).unwrap_or(id);
    let url = match s.records.get(slug_of(car)).map(|r| &r.state) {
        Some(State::Shown { url }) => url.clone(),
        _ => String::new(),
    };
    Some((name.to_string(), url))
}

/// The `cars.json` entry of a side whose feed id is `id` (the feeds' rows
/// are keyed by it; the snapshot's cars by slug).
fn car_by_id<'a>(s: &'a Snapshot, id: &str) -> Option<&'a Value> {
    s.cars
        .values()
        .find(|c| c.get("id").and_then(Value::as_str) == Some(id))
}

fn slug_of(car: &Value) -> &str {
    car.get("slug").and_then(Value::as_str).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::snapshot::Record;
    use serde_json::json;

    /// A Google feed: rows as (feed id, price cell), and the build's
    /// reasons for the cars left out.
    fn google(rows: &[(&str, &str)], left_out: &[(&str, &str)]) -> AdsFeed {
        let owned = |(a, b): &(&str, &str)| (a.to_string(), b.to_string());
        AdsFeed {
            rows: rows
                .iter()
                .map(|(id, price)| {
                    let row = BTreeMap::from([("price".to_string(), price.to_string())]);
                    (id.to_string(), row)
                })
                .collect(),
            left_out: left_out.iter().map(owned).collect(),
        }
    }

    /// A side whose site shows `shown` (feed id, slug) and whose Google
    /// feed has `rows` and `left_out`; `hidden` are records a rule hides.
    fn side(shown: &[(&str, &str)], hidden: &[(&str, &str)], google: Option<AdsFeed>) -> Snapshot {
        let mut records = BTreeMap::new();
        let mut cars = BTreeMap::new();
        for (id, slug) in shown {
            let url = format!("https://www.demo.com.au/cars/{slug}/");
            cars.insert(
                slug.to_string(),
                json!({"id": id, "slug": slug, "name": format!("Car {id}")}),
            );
            records.insert(
                slug.to_string(),
                Record {
                    name: format!("Car {id}"),
                    stocknum: None,
                    state: State::Shown { url },
                },
            );
        }
        for (slug, rule) in hidden {
            let state = State::Hidden {
                rule: rule.to_string(),
                why: "its reason".into(),
            };
            records.insert(
                slug.to_string(),
                Record {
                    name: slug.to_string(),
                    stocknum: None,
                    state,
                },
            );
        }
        let feeds = google
            .map(|f| BTreeMap::from([(Platform::Google, f)]))
            .unwrap_or_default();
        Snapshot {
            site: json!({}),
            edge: json!({}),
            pages: Vec::new(),
            records,
            cars,
            feeds,
            redirects: BTreeMap::new(),
        }
    }

    #[test]
    fn a_removed_row_says_why_its_car_is_left_out_now() {
        let base = side(
            &[("1", "a"), ("2", "b"), ("3", "c")],
            &[],
            Some(google(
                &[("1", "1.00 AUD"), ("2", "2.00 AUD"), ("3", "3.00 AUD")],
                &[],
            )),
        );
        // Car 1 is repriced, car 2 is still shown but refused by the
        // platform, car 3 is hidden by a rule, car 4 is new.
        let head = side(
            &[("1", "a"), ("2", "b"), ("4", "d")],
            &[("c", "sold window")],
            Some(google(
                &[("1", "9.00 AUD"), ("4", "4.00 AUD")],
                &[("2", "no VIN")],
            )),
        );
        let [change] = compare_feeds(&base, &head).try_into().unwrap();
        assert_eq!(change.rows, (Some(3), Some(2)));
        let added: Vec<&str> = change.added.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(added, ["4"]);
        let removed: Vec<(&str, Option<&str>)> = change
            .removed
            .iter()
            .map(|r| (r.id.as_str(), r.why.as_deref()))
            .collect();
        assert_eq!(
            removed,
            [
                ("2", Some("no VIN")),
                ("3", Some("not on the site now: sold window: its reason"))
            ]
        );
        assert_eq!(change.removed[0].url, "https://www.demo.com.au/cars/b/");
        assert_eq!(change.changed.len(), 1);
        assert_eq!(
            change.changed[0].cells,
            [(
                "price".to_string(),
                "1.00 AUD".to_string(),
                "9.00 AUD".to_string()
            )]
        );
        assert_eq!(change.columns(), [("price", 1)]);
    }

    #[test]
    fn a_feed_turned_off_removes_every_row_and_says_so() {
        let base = side(&[("1", "a")], &[], Some(google(&[("1", "1.00 AUD")], &[])));
        let head = side(&[("1", "a")], &[], None);
        let [change] = compare_feeds(&base, &head).try_into().unwrap();
        assert_eq!(change.rows, (Some(1), None));
        assert_eq!(
            change.removed[0].why.as_deref(),
            Some("the dealer no longer publishes this feed")
        );
        // No change, no section.
        assert!(compare_feeds(&base, &base).is_empty());
    }
}
