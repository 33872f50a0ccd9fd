//! Reading a stock feed (docs/ARCHITECTURE.md, contract 1): a JSON array or JSON Lines
//! file of cars. Each record is decoded field by field (`car`, with the
//! value decoders in `decode`): a field that does not fit is left out with
//! a warning naming the car, the field and the shape expected; a record
//! without the essentials of a car page is skipped and named; unknown
//! fields are ignored. The rest of the feed is always used.

mod car;
pub mod decode;

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

pub use car::{CaravanFacts, Decoded, Effect, FeedCar, FieldProblem, KnownQuote, LenderFigures};
pub use decode::FeedId;

/// How a record is named in messages: by stock number when it has one
/// (what a dealer looks a car up by), then its place in the feed, id and slug.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RecordRef {
    /// "record 12" (JSON array) or "line 12" (JSON Lines).
    pub position: String,
    pub stocknum: Option<String>,
    pub id: Option<String>,
    pub slug: Option<String>,
}

impl RecordRef {
    /// Names `record`, found at `position`, by what it carries.
    pub fn of(record: &Value, position: String) -> Self {
        let scalar = |key: &str| -> Option<String> {
            match record.get(key)? {
                Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            }
        };
        RecordRef {
            position,
            stocknum: scalar("stocknum"),
            id: scalar("id"),
            slug: scalar("slug"),
        }
    }
}

impl std::fmt::Display for RecordRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut details = Vec::new();
        if let Some(s) = &self.stocknum {
            write!(f, "stock number {s} (")?;
            details.push(self.position.clone());
        } else {
            write!(f, "{}", self.position)?;
        }
        if let Some(id) = &self.id {
            details.push(format!("id {id}"));
        }
        if let Some(slug) = &self.slug {
            details.push(format!("slug {slug}"));
        }
        match (self.stocknum.is_some(), details.is_empty()) {
            (true, _) => write!(f, "{})", details.join(", ")),
            (false, true) => Ok(()),
            (false, false) => write!(f, " ({})", details.join(", ")),
        }
    }
}

/// A record that was skipped, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct SkippedRecord {
    pub record: RecordRef,
    pub reason: String,
}

impl std::fmt::Display for SkippedRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "skipped {}: {}", self.record, self.reason)
    }
}

/// A field left out of a car that was kept.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedWarning {
    pub record: RecordRef,
    pub problem: FieldProblem,
}

impl std::fmt::Display for FeedWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.record, self.problem)
    }
}

#[derive(Debug, Default)]
pub struct Feed {
    pub cars: Vec<FeedCar>,
    pub skipped: Vec<SkippedRecord>,
    pub warnings: Vec<FeedWarning>,
    /// Slug → where it was first seen, for the duplicate check.
    seen: HashMap<String, String>,
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
    let mut feed = Feed::default();
    if trimmed.starts_with('[') {
        // A JSON array must parse as a whole; its records are then checked one by one.
        let records: Vec<Value> = serde_json::from_str(text).map_err(|e| FeedError::Syntax {
            path: path.to_string(),
            line: e.line(),
            column: e.column(),
            message: json_problem(&e),
        })?;
        for (i, record) in records.into_iter().enumerate() {
            feed.accept(record, format!("record {}", i + 1));
        }
    } else {
        // JSON Lines: a broken line loses only that line.
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let position = format!("line {}", i + 1);
            match serde_json::from_str::<Value>(line) {
                Ok(record) => feed.accept(record, position),
                Err(e) => feed.skipped.push(SkippedRecord {
                    record: RecordRef::of(&Value::Null, position),
                    reason: format!(
                        "not valid JSON at column {} ({}); each line must be one car as a JSON object",
                        e.column(),
                        json_problem(&e)
                    ),
                }),
            }
        }
    }
    Ok(feed)
}

/// What is wrong with the JSON, without the parser's own position (the
/// messages give it as line and column).
fn json_problem(e: &serde_json::Error) -> String {
    if e.is_eof() {
        return "the text ends before the JSON does; was the file cut off?".into();
    }
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

impl Feed {
    fn accept(&mut self, record: Value, position: String) {
        let which = RecordRef::of(&record, position);
        let Some(fields) = record.as_object() else {
            self.skipped.push(SkippedRecord {
                record: which,
                reason: format!(
                    "is {}, not a car; expected an object of fields such as {{\"id\": 4711, \"slug\": …}}",
                    decode::show(&record)
                ),
            });
            return;
        };
        match FeedCar::decode(fields, which.clone()) {
            Err(reason) => self.skipped.push(SkippedRecord {
                record: which,
                reason,
            }),
            Ok((car, problems)) => {
                if let Some(first) = self.seen.get(&car.slug) {
                    self.skipped.push(SkippedRecord {
                        reason: format!(
                            "slug `{}` is already used by {first}; each car needs its own page",
                            car.slug
                        ),
                        record: which,
                    });
                    return;
                }
                self.seen.insert(car.slug.clone(), which.position.clone());
                self.warnings
                    .extend(problems.into_iter().map(|problem| FeedWarning {
                        record: which.clone(),
                        problem,
                    }));
                self.cars.push(car);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"id": 1, "slug": "a-1", "make": "Kia", "model": "Rio", "year": 2020, "car_type": "used", "status": "in_stock", "images": ["/a.jpg", {"url": "/b.jpg"}], "legacy_feed_ref": "x"}"#;

    #[test]
    fn arrays_keep_good_records_and_name_bad_ones() {
        let text = format!(
            r#"[{GOOD}, {{"id": 2, "slug": "b-2", "stocknum": "TM2", "make": "Kia", "model": "Rio", "year": "twenty", "car_type": "used", "status": "in_stock"}}, 7]"#
        );
        let feed = parse(&text, "f.json").unwrap();
        assert_eq!(feed.cars.len(), 1);
        assert_eq!(feed.cars[0].images[1], "/b.jpg");
        assert_eq!(feed.skipped.len(), 2);
        assert_eq!(
            feed.skipped[0].to_string(),
            "skipped stock number TM2 (record 2, id 2, slug b-2): `year` is \"twenty\"; expected a year such as 2021. \
             Every car needs id, slug, make, model, year, car_type and status"
        );
        assert_eq!(
            feed.skipped[1].to_string(),
            "skipped record 3: is 7, not a car; expected an object of fields such as {\"id\": 4711, \"slug\": …}"
        );
        assert!(feed.warnings.is_empty());
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
        assert_eq!(
            feed.skipped[0].to_string(),
            "skipped line 2: not valid JSON at column 11 (key must be a string); each line must be one car as a JSON object"
        );
    }

    #[test]
    fn missing_required_fields_and_bad_slugs_are_skipped() {
        let text = r#"[{"id": 9, "slug": "x-9", "model": "Rio", "year": 2020, "car_type": "used", "status": "in_stock"},
                      {"id": 10, "slug": "../etc", "make": "Kia", "model": "Rio", "year": 2020, "car_type": "used", "status": "in_stock"}]"#;
        let feed = parse(text, "f.json").unwrap();
        assert!(feed.cars.is_empty());
        assert!(
            feed.skipped[0].reason.starts_with("`make` is missing"),
            "{}",
            feed.skipped[0].reason
        );
        assert!(feed.skipped[1].reason.starts_with("`slug` is \"../etc\""));
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
            feed.skipped[0]
                .reason
                .contains("`car_type` is \"van\"; expected new, demo or used"),
            "{:?}",
            feed.skipped
        );
    }

    #[test]
    fn duplicate_slugs_keep_the_first() {
        let text = format!("[{GOOD}, {GOOD}]");
        let feed = parse(&text, "f.json").unwrap();
        assert_eq!(feed.cars.len(), 1);
        assert_eq!(
            feed.skipped[0].reason,
            "slug `a-1` is already used by record 1; each car needs its own page"
        );
    }

    #[test]
    fn warnings_name_the_car_by_stock_number_then_position() {
        let text = format!(
            "[{}, {}]",
            GOOD.replace("\"x\"", "\"x\", \"stocknum\": \"TM1\", \"price\": \"POA\""),
            GOOD.replace("a-1", "b-2")
                .replace("\"x\"", "\"x\", \"km\": true")
        );
        let feed = parse(&text, "f.json").unwrap();
        assert_eq!(feed.cars.len(), 2);
        let lines: Vec<String> = feed.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(
            lines,
            [
                "stock number TM1 (record 1, id 1, slug a-1): `price` is \"POA\"; expected a dollar amount such as 12990 or \"$12,990\". The car is shown without it.",
                "record 2 (id 1, slug b-2): `km` is true; expected kilometres such as 42000 or \"42,000 km\". The car is shown without it.",
            ]
        );
    }

    #[test]
    fn a_cut_off_feed_says_so() {
        let err = parse("[{\"id\": 1, \"slug\": \"a", "f.json").unwrap_err();
        assert!(
            err.to_string()
                .contains("the text ends before the JSON does; was the file cut off?"),
            "{err}"
        );
    }

    #[test]
    fn a_broken_array_is_an_error_with_a_position() {
        let err = parse("[{\"id\": 1,,}]", "f.json").unwrap_err();
        assert!(matches!(err, FeedError::Syntax { line: 1, .. }), "{err}");
        assert_eq!(
            err.to_string(),
            "stock feed f.json is not valid JSON (line 1, column 11): key must be a string. \
             It must be a JSON array of cars or one car per line (JSON Lines)"
        );
    }
}
