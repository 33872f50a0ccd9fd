//! The parts of a lead beyond the contact details: the car as the stock
//! has it ([`LeadVehicle`]) and as the client claimed it
//! ([`ClaimedVehicle`]), where the shopper came from ([`LeadAttributes`]),
//! the trade-in car and its answers, the test-drive appointment. Each with
//! the reader that checks it field by field.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::input::{Fields, URL_MAX};

/// The car of interest, filled by the worker from the dealer's published
/// stock (`EdgeCar` in KV), never from the client.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LeadVehicle {
    /// false: the car named was not in the published stock (sold and
    /// removed since the page was built); only its id or slug is known.
    pub verified: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stock_number: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub make: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub car_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The price shown on the site, in dollars (0: none shown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub km: Option<u64>,
    /// The car's page on the dealer's site.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manufacturer_slug: Option<String>,
}

/// What the client said about the car (the car form defaults). Never
/// trusted: compared with the stock and kept only when the car is not in
/// the published stock, for the dealer to judge.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClaimedVehicle {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stock_number: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub make: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub car_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vehicle_status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manufacturer_slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<String>,
}

impl ClaimedVehicle {
    pub fn is_empty(&self) -> bool {
        self == &ClaimedVehicle::default()
    }

    /// The claims, read leniently: each is only ever compared or shown,
    /// so a claim that is not short text is dropped rather than costing
    /// the shopper their enquiry.
    pub(crate) fn read(obj: &Map<String, Value>) -> ClaimedVehicle {
        let text = |key: &str| match obj.get(key) {
            Some(Value::String(s)) => {
                let t = s.trim();
                (!t.is_empty() && t.chars().count() <= 64 && !t.chars().any(char::is_control))
                    .then(|| t.to_string())
            }
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        ClaimedVehicle {
            stock_number: text("stock_number"),
            make: text("make"),
            model: text("model"),
            year: text("year"),
            car_type: text("car_type").map(|t| t.to_ascii_lowercase()),
            vehicle_status: text("vehicle_status"),
            manufacturer_slug: text("manufacturer_slug"),
            price: text("price"),
        }
    }
}

/// Keys of [`ClaimedVehicle`] in a body (plus the older names, mapped
/// before reading).
pub(crate) const CLAIM_KEYS: [&str; 8] = [
    "stock_number",
    "make",
    "model",
    "year",
    "car_type",
    "vehicle_status",
    "manufacturer_slug",
    "price",
];

/// Where the shopper came from (spec "Lead payload": lead_attributes).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LeadAttributes {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub visited_pages: Vec<String>,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub linked_query_params: Map<String, Value>,
}

pub const VISITED_PAGES_MAX: usize = 50;
pub const QUERY_PARAMS_MAX: usize = 50;
pub const QUERY_VALUE_MAX: usize = 500;

/// The shopper's own car in a trade-in flow.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TradeInVehicle {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub make: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
}

impl TradeInVehicle {
    pub fn is_empty(&self) -> bool {
        self == &TradeInVehicle::default()
    }
}

/// Most answers a trade-in's adjustment questions may have.
pub const ANSWERS_MAX: usize = 40;
/// Longest text answer.
pub const ANSWER_MAX: usize = 500;

/// Australian states and territories, as registration authorities name them.
pub const STATES: [&str; 8] = ["ACT", "NSW", "NT", "QLD", "SA", "TAS", "VIC", "WA"];
pub const REGO_MESSAGE: &str = "Please enter the registration as letters and numbers (at most 12).";
pub const REGO_STATE_MESSAGE: &str = "Please choose the state the car is registered in.";
pub const KMS_MESSAGE: &str = "Please enter the kilometres as a whole number.";
pub const KMS_MAX: u64 = 2_000_000;

impl Fields<'_> {
    /// `lead_attributes`: an object of visited_pages (list of addresses)
    /// and linked_query_params (names to text).
    pub(crate) fn lead_attributes(&mut self, key: &str) -> Option<LeadAttributes> {
        let obj = match self.obj.get(key) {
            None | Some(Value::Null) => return None,
            Some(Value::Object(o)) => o,
            Some(_) => {
                self.errors.add(
                    key,
                    "Must be an object with visited_pages and linked_query_params.",
                );
                return None;
            }
        };
        let mut out = LeadAttributes::default();
        for (name, value) in obj {
            match (name.as_str(), value) {
                (_, Value::Null) => {}
                ("visited_pages", Value::Array(pages)) if pages.len() <= VISITED_PAGES_MAX => {
                    for page in pages {
                        match page {
                            Value::String(p)
                                if p.chars().count() <= URL_MAX
                                    && !p.chars().any(char::is_control) =>
                            {
                                if !p.trim().is_empty() {
                                    out.visited_pages.push(p.trim().to_string());
                                }
                            }
                            _ => {
                                self.errors.add(
                                    key,
                                    format!("visited_pages must be addresses of at most {URL_MAX} characters."),
                                );
                                return None;
                            }
                        }
                    }
                }
                ("visited_pages", _) => {
                    self.errors.add(
                        key,
                        format!("visited_pages must be a list of at most {VISITED_PAGES_MAX} addresses."),
                    );
                    return None;
                }
                ("linked_query_params", Value::Object(params))
                    if params.len() <= QUERY_PARAMS_MAX =>
                {
                    for (k, v) in params {
                        let text = match v {
                            Value::String(s) => s.clone(),
                            Value::Number(n) => n.to_string(),
                            _ => String::new(),
                        };
                        let ok = !k.is_empty()
                            && k.chars().count() <= 100
                            && matches!(v, Value::String(_) | Value::Number(_))
                            && text.chars().count() <= QUERY_VALUE_MAX
                            && !text.chars().any(char::is_control)
                            && !k.chars().any(char::is_control);
                        if !ok {
                            self.errors.add(
                                key,
                                format!("linked_query_params must map names to text of at most {QUERY_VALUE_MAX} characters."),
                            );
                            return None;
                        }
                        out.linked_query_params
                            .insert(k.clone(), Value::String(text));
                    }
                }
                ("linked_query_params", _) => {
                    self.errors.add(
                        key,
                        format!("linked_query_params must be an object of at most {QUERY_PARAMS_MAX} names."),
                    );
                    return None;
                }
                (other, _) => {
                    self.errors.add(
                        key,
                        format!("Unknown attribute `{}`; expected visited_pages or linked_query_params.", other.chars().take(40).collect::<String>()),
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    /// `adjustmentAnswers`: question id → text, number or true/false.
    pub(crate) fn answers(&mut self, key: &str) -> Map<String, Value> {
        let obj = match self.obj.get(key) {
            None | Some(Value::Null) => return Map::new(),
            Some(Value::Object(o)) if o.len() <= ANSWERS_MAX => o,
            Some(_) => {
                self.errors.add(
                    key,
                    format!("Must be an object of at most {ANSWERS_MAX} answers."),
                );
                return Map::new();
            }
        };
        let mut out = Map::new();
        for (question, answer) in obj {
            let ok_key = !question.is_empty()
                && question.chars().count() <= 100
                && !question.chars().any(char::is_control);
            let answer = match answer {
                Value::String(s)
                    if s.chars().count() <= ANSWER_MAX
                        && !s.chars().any(|c| c.is_control() && c != '\n') =>
                {
                    Value::String(s.trim().to_string())
                }
                Value::Number(_) | Value::Bool(_) => answer.clone(),
                _ => {
                    self.errors.add(
                        key,
                        format!("Each answer must be text of at most {ANSWER_MAX} characters, a number or true/false."),
                    );
                    return Map::new();
                }
            };
            if !ok_key {
                self.errors.add(
                    key,
                    "Each question id must be text of at most 100 characters.",
                );
                return Map::new();
            }
            out.insert(question.clone(), answer);
        }
        out
    }

    /// `rego`: a plate as the shopper types it; stored upper case without
    /// spaces or dashes.
    pub(crate) fn rego(&mut self, key: &str) -> Option<String> {
        let raw = self.line(key, 16)?;
        let plate: String = raw
            .chars()
            .filter(|c| !matches!(c, ' ' | '-'))
            .collect::<String>()
            .to_ascii_uppercase();
        if plate.is_empty() || plate.len() > 12 || !plate.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            self.errors.add(key, REGO_MESSAGE);
            return None;
        }
        Some(plate)
    }

    /// The trade-in car's year, make, model and variant.
    pub(crate) fn trade_in_vehicle(&mut self) -> TradeInVehicle {
        TradeInVehicle {
            year: self
                .whole(
                    "trade_in_year",
                    1900..=2100,
                    "Please enter the year as 4 digits.",
                )
                .map(|y| y as u16),
            make: self.line("trade_in_make", 64),
            model: self.line("trade_in_model", 64),
            variant: self.line("trade_in_variant", 100),
        }
    }

    /// A Yes/No select (e.g. "do-you-have-a-trade-in"), or a boolean.
    pub(crate) fn yes_no(&mut self, key: &str) -> Option<bool> {
        if let Some(Value::Bool(b)) = self.obj.get(key) {
            return Some(*b);
        }
        self.one_of(key, &["Yes", "No"], "Please choose Yes or No.")
            .map(|v| v == "Yes")
    }

    /// A list of short texts; a single text is a list of one (a form post
    /// with one box ticked).
    pub(crate) fn text_list(&mut self, key: &str, max_items: usize, max_len: usize) -> Vec<String> {
        let items: Vec<&Value> = match self.obj.get(key) {
            None | Some(Value::Null) => return Vec::new(),
            Some(Value::Array(a)) if a.len() <= max_items => a.iter().collect(),
            Some(v @ Value::String(_)) => vec![v],
            Some(_) => {
                self.errors
                    .add(key, format!("Must be a list of at most {max_items} texts."));
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for item in items {
            match item {
                Value::String(s)
                    if s.chars().count() <= max_len && !s.chars().any(char::is_control) =>
                {
                    if !s.trim().is_empty() {
                        out.push(s.trim().to_string());
                    }
                }
                _ => {
                    self.errors.add(
                        key,
                        format!("Each item must be text of at most {max_len} characters."),
                    );
                    return Vec::new();
                }
            }
        }
        out
    }

    /// A money amount in dollars: a JSON number, or text such as
    /// "$25,000" or "25000.50". Must be above 0 and at most `max`.
    pub(crate) fn dollars(&mut self, key: &str, max: f64, message: &str) -> Option<f64> {
        let n = match self.obj.get(key) {
            None | Some(Value::Null) => return None,
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(s)) if s.trim().is_empty() => return None,
            Some(Value::String(s)) => {
                let cleaned: String = s
                    .trim()
                    .trim_start_matches('$')
                    .chars()
                    .filter(|c| *c != ',')
                    .collect();
                if cleaned.len() <= 16
                    && !cleaned.is_empty()
                    && cleaned.bytes().all(|b| b.is_ascii_digit() || b == b'.')
                {
                    cleaned.parse::<f64>().ok()
                } else {
                    None
                }
            }
            Some(_) => None,
        };
        match n.filter(|n| n.is_finite() && *n > 0.0 && *n <= max) {
            Some(n) => Some((n * 100.0).round() / 100.0),
            None => {
                self.errors.add(key, message);
                None
            }
        }
    }
}

/// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ` (a hold's end, a consent's time).
pub fn iso8601(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // H. Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian), or None
/// for a date that does not exist. (H. Hinnant's days_from_civil.)
pub fn days_from_civil(year: i64, month: u32, day: u32) -> Option<i64> {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let month_len = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&month) || day == 0 || day > month_len[(month - 1) as usize] {
        return None;
    }
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// A `YYYY-MM-DD` date as days since 1970-01-01.
pub fn parse_date(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let s = text.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    days_from_civil(i64::from(num(0..4)?), num(5..7)?, num(8..10)?)
}

/// A 24-hour `HH:MM`.
pub fn is_time(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 5
        && b[2] == b':'
        && b[..2].iter().chain(&b[3..]).all(u8::is_ascii_digit)
        && text[..2].parse::<u32>().is_ok_and(|h| h < 24)
        && text[3..].parse::<u32>().is_ok_and(|m| m < 60)
}

/// "Toyota" → "toyota", "Mercedes-Benz" → "mercedes-benz", "Land Rover" →
/// "land-rover": a make as a URL slug (the manufacturer_slug of a lead).
pub fn make_slug(make: &str) -> String {
    let mut out = String::new();
    for c in make.trim().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_times() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_825_599), "2000-02-29T11:59:59Z");
    }

    #[test]
    fn civil_days() {
        assert_eq!(days_from_civil(1970, 1, 1), Some(0));
        assert_eq!(days_from_civil(2000, 3, 1), Some(11_017));
        assert_eq!(days_from_civil(2024, 2, 29), Some(19_782));
        assert_eq!(days_from_civil(2023, 2, 29), None);
        assert_eq!(days_from_civil(2024, 13, 1), None);
        assert_eq!(parse_date("2026-11-21"), Some(20_778));
        for bad in [
            "2026-1-21",
            "2026/11/21",
            "20261121xx",
            "2026-02-30",
            "abcd-ef-gh",
            "+026-11-21",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn times_and_slugs() {
        assert!(is_time("09:30") && is_time("23:59") && is_time("00:00"));
        for bad in ["9:30", "24:00", "12:60", "12-30", "12:3a"] {
            assert!(!is_time(bad), "{bad}");
        }
        assert_eq!(make_slug("Mercedes-Benz"), "mercedes-benz");
        assert_eq!(make_slug(" Land  Rover "), "land-rover");
        assert_eq!(make_slug("MG"), "mg");
    }
}
