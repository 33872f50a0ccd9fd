//! One side of a diff: what a dealer's files make, from the build's own
//! functions (`build::generate`, `stock::judge`, `explain`'s wording):
//! the site data, the edge config, the page list, for every record of
//! the feed whether it is on the site and why, and the ads feeds' rows.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use chrono::{DateTime, Utc};
use dealer_config::{Loader, Severity};
use serde_json::Value;

use crate::pipeline::stock::{self, feed, Verdict};
use crate::pipeline::syndication::{self, Platform};
use crate::run::build::generate;

/// What one revision of a dealer makes.
#[derive(Debug)]
pub enum Side {
    /// The dealer file does not exist at this revision.
    Absent,
    /// The dealer file does not validate (its problems, one line each).
    Invalid(Vec<String>),
    /// The feed cannot be read.
    Broken(String),
    Built(Box<Snapshot>),
}

#[derive(Debug)]
pub struct Snapshot {
    /// `site.json`.
    pub site: Value,
    /// `edge-config.json`.
    pub edge: Value,
    /// Every page path.
    pub pages: Vec<String>,
    /// Every feed record by slug (or id / position when it has none).
    pub records: BTreeMap<String, Record>,
    /// `cars.json` entries by slug.
    pub cars: BTreeMap<String, Value>,
    /// Each ads feed the dealer publishes (`syndication:`).
    pub feeds: BTreeMap<Platform, AdsFeed>,
    /// The site's redirects of old addresses (the dealer's own and the
    /// platform's; a sold car's show as the car leaving): from → "to status".
    pub redirects: BTreeMap<String, String>,
}

/// One ads feed as the build wrote it.
#[derive(Debug, Default)]
pub struct AdsFeed {
    /// Its rows by vehicle id (the car's feed id): column → cell.
    pub rows: BTreeMap<String, BTreeMap<String, String>>,
    /// Each car the site shows that is not a row, by id: why, in the
    /// words of the build's summary.
    pub left_out: BTreeMap<String, String>,
}

/// A feed record and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// How the car is named: its name (or make and model), else the
    /// decoder's record reference.
    pub name: String,
    pub stocknum: Option<String>,
    pub state: State,
}

#[derive(Debug, Clone, PartialEq)]
pub enum State {
    Shown {
        url: String,
    },
    /// A rule keeps it off the site (rule name, the rule applied).
    Hidden {
        rule: String,
        why: String,
    },
    /// The decoder skipped the record.
    Skipped {
        why: String,
    },
}

impl Snapshot {
    pub fn shown(&self) -> usize {
        self.cars.len()
    }
}

/// Loads the dealer at `dealer_file` (with presets from `presets_dir`)
/// and derives everything the diff compares, at `now`, with the site's
/// public files in `public` (see [`crate::run::build::generate`]).
pub fn take(
    presets_dir: &Path,
    public: &Path,
    dealer_file: &Path,
    now: DateTime<Utc>,
) -> Result<Side> {
    if !dealer_file.is_file() {
        return Ok(Side::Absent);
    }
    let dealer = match Loader::new(presets_dir).load(dealer_file) {
        Ok(d) => d,
        Err(r) => {
            return Ok(Side::Invalid(
                r.diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .map(|d| {
                        let key = if d.key.is_empty() {
                            String::new()
                        } else {
                            format!(" `{}`", d.key)
                        };
                        format!("line {}{key}: {}", d.line, d.message)
                    })
                    .collect(),
            ))
        }
    };
    let outputs = match generate(&dealer, public, now) {
        Ok(o) => o,
        Err(e) => return Ok(Side::Broken(format!("{e:#}"))),
    };
    let json = |name: &str| -> Result<Value> {
        let text = outputs
            .file(name)
            .ok_or_else(|| anyhow::anyhow!("the build wrote no {name}"))?;
        Ok(serde_json::from_str(text)?)
    };
    let site = json("site.json")?;
    let feeds = ads_feeds(&outputs);
    let cars: BTreeMap<String, Value> = match json("cars.json")? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|c| Some((c.get("slug")?.as_str()?.to_string(), c)))
            .collect(),
        _ => BTreeMap::new(),
    };

    // The feed again, record by record, judged as the build judged it.
    let cfg = &dealer.config;
    let feed = feed::load(&dealer.dir().join(&cfg.stock.feed))?;
    let rules = stock::visibility_rules(cfg);
    let mut records = BTreeMap::new();
    for car in &feed.cars {
        let verdict = stock::judge(car, cfg, &rules, now);
        let state = match verdict {
            Verdict::Shown => State::Shown {
                url: crate::explain::car_url(cfg, &car.slug),
            },
            other => {
                let (rule, why) = crate::explain::hidden_reason(car, other, cfg, now);
                State::Hidden {
                    rule: rule.into(),
                    why,
                }
            }
        };
        let name = car
            .name
            .clone()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| format!("{} {} {}", car.year, car.make, car.model));
        records.insert(
            car.slug.clone(),
            Record {
                name,
                stocknum: car.stocknum.clone(),
                state,
            },
        );
    }
    for skipped in &feed.skipped {
        let r = &skipped.record;
        let key = r
            .slug
            .clone()
            .or_else(|| r.id.clone())
            .unwrap_or_else(|| r.position.clone());
        // A slug used twice: the first record keeps the page.
        records.entry(key).or_insert_with(|| Record {
            name: r.to_string(),
            stocknum: r.stocknum.clone(),
            state: State::Skipped {
                why: skipped.reason.clone(),
            },
        });
    }
    let redirects = outputs
        .plan
        .plan
        .redirects
        .iter()
        .filter(|r| {
            crate::publish::redirects::is_dynamic(r)
                || !r.from.starts_with("/cars/")
                || r.from.starts_with("/cars/trade-in")
        })
        .map(|r| (r.from.clone(), format!("{} {}", r.to, r.status)))
        .collect();
    Ok(Side::Built(Box::new(Snapshot {
        site,
        edge: serde_json::to_value(&outputs.edge)?,
        pages: outputs.pages,
        records,
        cars,
        feeds,
        redirects,
    })))
}

/// The rows of each ads feed the build wrote, read back from its text,
/// and why each other car the site shows is not a row (the build's own
/// refusals, `syndication::FeedFile::left_out`).
fn ads_feeds(outputs: &crate::run::build::Generated) -> BTreeMap<Platform, AdsFeed> {
    outputs
        .plan
        .plan
        .feeds
        .iter()
        .map(|f| {
            let feed = AdsFeed {
                rows: syndication::parse_rows(f.platform, &f.text),
                left_out: f.left_out.clone(),
            };
            (f.platform, feed)
        })
        .collect()
}
