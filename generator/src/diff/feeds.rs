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
        let now_shown = car_of(h, id);
        let why = if !h.feeds.contains_key(&p) {
            "the dealer no longer publishes this feed".to_string()
        } else if let Some(why) = hf.left_out.get(id) {
            why.clone()
        } else if now_shown.is_none() {
            off_site_reason(b, h, id)
        } else {
            "left out".to_string()
        };
        let (name, url) = now_shown.or_else(|| car_of(b, id)).unwrap_or_default();
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
    let slug = b
        .cars
        .values()
        .find(|c| c.get("id").and_then(Value::as_str) == Some(id))
        .and_then(|c| c.get("slug").and_then(Value::as_str));
    match slug.and_then(|s| h.records.get(s)).map(|r| &r.state) {
        Some(State::Hidden { rule, why }) => format!("not on the site now: {rule}: {why}"),
        Some(State::Skipped { why }) => format!("not on the site now: malformed record: {why}"),
        _ => "not on the site now: no longer in the stock feed".to_string(),
    }
}

/// The name and page of the car with feed id `id` on a side's site.
fn car_of(s: &Snapshot, id: &str) -> Option<(String, String)> {
    let car = s
        .cars
        .values()
        .find(|c| c.get("id").and_then(Value::as_str) == Some(id))?;
    let name = car.get("name").and_then(Value::as_str).unwrap_or(id);
    let slug = car.get("slug").and_then(Value::as_str).unwrap_or_default();
    let url = s
        .records
        .get(slug)
        .and_then(|r| match &r.state {
            State::Shown { url } => Some(url.clone()),
            _ => None,
        })
        .unwrap_or_default();
    Some((name.to_string(), url))
}
