//! Reading a stock feed (DESIGN.md contract 1): a JSON array or JSON Lines
//! file of cars. Unknown fields are ignored; a record that does not fit is
//! skipped with a warning that names it, and the rest of the feed is used.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

/// A car as the feed describes it. Only the fields the site uses are typed;
/// everything else in the record is ignored.
#[derive(Debug, Clone, Deserialize)]
pub struct FeedCar {
    pub id: FeedId,
    pub slug: String,
    #[serde(default)]
    pub name: Option<String>,
    pub make: String,
    pub model: String,
    #[serde(default)]
    pub badge: Option<String>,
    #[serde(default)]
    pub series: Option<String>,
    pub year: u16,
    pub car_type: String,
    pub status: String,
    #[serde(default)]
    pub tag: Option<String>,
    #[serde(default)]
    pub reserved: Option<bool>,
    #[serde(default)]
    pub certified: Option<bool>,
    #[serde(default)]
    pub preorder: Option<bool>,
    #[serde(default)]
    pub price: Option<f64>,
    #[serde(default)]
    pub before_price: Option<f64>,
    #[serde(default)]
    pub offer_price: Option<f64>,
    #[serde(default)]
    pub subscription_price: Option<f64>,
    #[serde(default)]
    pub price_type: Option<String>,
    #[serde(default)]
    pub km: Option<f64>,
    #[serde(default)]
    pub colour: Option<String>,
    #[serde(default)]
    pub interior_colour: Option<String>,
    #[serde(default)]
    pub simple_fuel: Option<String>,
    #[serde(default)]
    pub fuel: Option<String>,
    #[serde(default)]
    pub simple_body: Option<String>,
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub simple_transmission: Option<String>,
    #[serde(default)]
    pub trans: Option<String>,
    #[serde(default)]
    pub drive: Option<String>,
    #[serde(default)]
    pub seats: Option<u32>,
    #[serde(default)]
    pub doors: Option<u32>,
    #[serde(default)]
    pub engine_size: Option<String>,
    #[serde(default)]
    pub stocknum: Option<String>,
    #[serde(default)]
    pub vin: Option<String>,
    #[serde(default)]
    pub regplate: Option<String>,
    #[serde(default)]
    pub rego_expiry: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub sold_date_timestamp: Option<i64>,
    #[serde(default = "yes")]
    pub show_on_dealer_website: bool,
    #[serde(default)]
    pub photos_count: Option<u32>,
    #[serde(default)]
    pub images: Vec<ImageRef>,
    #[serde(default)]
    pub dealercomments: Option<String>,
    #[serde(default)]
    pub dealership_id: Option<u64>,
    #[serde(default)]
    pub location_id: Option<FeedId>,
    #[serde(default)]
    pub item_type: Option<String>,
    #[serde(default)]
    pub variant: Option<serde_json::Map<String, Value>>,
    /// Caravan sizes and weights live at the top level of the record.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, Value>,
}

fn yes() -> bool {
    true
}

/// Ids arrive as numbers from some feeds and strings from others.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(untagged)]
pub enum FeedId {
    Num(u64),
    Text(String),
}

impl std::fmt::Display for FeedId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FeedId::Num(n) => write!(f, "{n}"),
            FeedId::Text(s) => write!(f, "{s}"),
        }
    }
}

/// An image is a URL string or an object with `url`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum ImageRef {
    Url(String),
    Object { url: String },
}

impl ImageRef {
    pub fn url(&self) -> &str {
        match self {
            ImageRef::Url(u) | ImageRef::Object { url: u } => u,
        }
    }
}

/// A record that was skipped, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct SkippedRecord {
    /// "record 12 (id 4711, slug 2020-kia-rio-4711)" or "line 12".
    pub which: String,
    pub reason: String,
}

#[derive(Debug)]
pub struct Feed {
    pub cars: Vec<FeedCar>,
    pub skipped: Vec<SkippedRecord>,
}

#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    #[error("cannot read stock feed {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("stock feed {path} is not valid JSON (line {line}, column {column}): {message}. It must be a JSON array of cars or one car per line (JSON Lines)")]
    Syntax {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
}

pub fn load(path: &Path) -> Result<Feed, FeedError> {
    let text = std::fs::read_to_string(path).map_err(|source| FeedError::Read {
        path: path.display().to_string(),
        source,
    })?;
    parse(&text, &path.display().to_string())
}

pub fn parse(text: &str, path: &str) -> Result<Feed, FeedError> {
    let trimmed = text.trim_start();
    let mut feed = Feed {
        cars: Vec::new(),
        skipped: Vec::new(),
    };
    if trimmed.starts_with('[') {
        // A JSON array must parse as a whole; its records are then checked one by one.
        let records: Vec<Value> = serde_json::from_str(text).map_err(|e| FeedError::Syntax {
            path: path.to_string(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        for (i, record) in records.into_iter().enumerate() {
            accept(record, format!("record {}", i + 1), &mut feed);
        }
    } else {
        // JSON Lines: a broken line loses only that line.
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Value>(line) {
                Ok(record) => accept(record, format!("line {}", i + 1), &mut feed),
                Err(e) => feed.skipped.push(SkippedRecord {
                    which: format!("line {}", i + 1),
                    reason: format!("not valid JSON: {e}"),
                }),
            }
        }
    }
    Ok(feed)
}

fn accept(record: Value, position: String, feed: &mut Feed) {
    let which = describe(&record, &position);
    if !record.is_object() {
        feed.skipped.push(SkippedRecord {
            which,
            reason: "not a JSON object".into(),
        });
        return;
    }
    match serde_path_to_error::deserialize::<_, FeedCar>(record) {
        Ok(mut car) => {
            // Feeds disagree on case ("Used", "IN_STOCK"); the rules compare lower case.
            let car_type = dealer_config::model::CarType::parse(&car.car_type);
            if let Some(t) = car_type {
                car.car_type = t.as_str().to_string();
            }
            car.status = car.status.trim().to_ascii_lowercase();
            if car_type.is_none() {
                feed.skipped.push(SkippedRecord {
                    which,
                    reason: format!("car_type `{}` is not new, demo or used", car.car_type),
                });
            } else if !dealer_rules::slug::is_car_slug(&car.slug) {
                feed.skipped.push(SkippedRecord {
                    which,
                    reason: format!("slug `{}` cannot be a URL path segment", car.slug),
                });
            } else if feed.cars.iter().any(|c| c.slug == car.slug) {
                feed.skipped.push(SkippedRecord {
                    which,
                    reason: format!("slug `{}` is used by an earlier record", car.slug),
                });
            } else {
                feed.cars.push(car);
            }
        }
        Err(e) => {
            let field = e.path().to_string();
            let reason = if field == "." || field.is_empty() {
                e.inner().to_string()
            } else {
                format!("field `{field}`: {}", e.inner())
            };
            feed.skipped.push(SkippedRecord { which, reason });
        }
    }
}

fn describe(record: &Value, position: &str) -> String {
    let id = record
        .get("id")
        .map(|v| v.to_string().trim_matches('"').to_string());
    let slug = record.get("slug").and_then(Value::as_str);
    match (id, slug) {
        (Some(id), Some(slug)) => format!("{position} (id {id}, slug {slug})"),
        (Some(id), None) => format!("{position} (id {id})"),
        (None, Some(slug)) => format!("{position} (slug {slug})"),
        (None, None) => position.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"id": 1, "slug": "a-1", "make": "Kia", "model": "Rio", "year": 2020, "car_type": "used", "status": "in_stock", "images": ["/a.jpg", {"url": "/b.jpg"}], "legacy_feed_ref": "x"}"#;

    #[test]
    fn arrays_keep_good_records_and_name_bad_ones() {
        let text = format!(
            r#"[{GOOD}, {{"id": 2, "slug": "b-2", "make": "Kia", "model": "Rio", "year": "twenty", "car_type": "used", "status": "in_stock"}}, 7]"#
        );
        let feed = parse(&text, "f.json").unwrap();
        assert_eq!(feed.cars.len(), 1);
        assert_eq!(feed.cars[0].images[1].url(), "/b.jpg");
        assert_eq!(feed.skipped.len(), 2);
        assert_eq!(feed.skipped[0].which, "record 2 (id 2, slug b-2)");
        assert!(
            feed.skipped[0].reason.starts_with("field `year`"),
            "{}",
            feed.skipped[0].reason
        );
        assert_eq!(feed.skipped[1].reason, "not a JSON object");
    }

    #[test]
    fn json_lines_lose_only_the_broken_line() {
        let text = format!(
            "{GOOD}\n{{\"id\": 3, broken\n\n{}\n",
            GOOD.replace("a-1", "c-3")
        );
        let feed = parse(&text, "f.jsonl").unwrap();
        assert_eq!(feed.cars.len(), 2);
        assert_eq!(feed.skipped.len(), 1);
        assert_eq!(feed.skipped[0].which, "line 2");
    }

    #[test]
    fn missing_required_fields_and_bad_slugs_are_skipped() {
        let text = r#"[{"id": 9, "slug": "x-9", "model": "Rio", "year": 2020, "car_type": "used", "status": "in_stock"},
                      {"id": 10, "slug": "../etc", "make": "Kia", "model": "Rio", "year": 2020, "car_type": "used", "status": "in_stock"}]"#;
        let feed = parse(text, "f.json").unwrap();
        assert!(feed.cars.is_empty());
        assert!(
            feed.skipped[0].reason.contains("missing field `make`"),
            "{}",
            feed.skipped[0].reason
        );
        assert!(feed.skipped[1].reason.contains("URL path segment"));
    }

    #[test]
    fn car_types_and_statuses_are_normalised_or_refused() {
        let text = format!(
            "[{}, {}]",
            GOOD.replace("\"used\"", "\"Used\"")
                .replace("in_stock", "IN_STOCK"),
            GOOD.replace("a-1", "b-2").replace("\"used\"", "\"van\"")
        );
        let feed = parse(&text, "f.json").unwrap();
        assert_eq!(feed.cars.len(), 1);
        assert_eq!(
            (feed.cars[0].car_type.as_str(), feed.cars[0].status.as_str()),
            ("used", "in_stock")
        );
        assert!(
            feed.skipped[0].reason.contains("car_type `van`"),
            "{:?}",
            feed.skipped
        );
    }

    #[test]
    fn duplicate_slugs_keep_the_first() {
        let text = format!("[{GOOD}, {GOOD}]");
        let feed = parse(&text, "f.json").unwrap();
        assert_eq!(feed.cars.len(), 1);
        assert!(feed.skipped[0].reason.contains("earlier record"));
    }

    #[test]
    fn a_broken_array_is_an_error_with_a_position() {
        let err = parse("[{\"id\": 1,,}]", "f.json").unwrap_err();
        assert!(matches!(err, FeedError::Syntax { line: 1, .. }), "{err}");
    }
}
