//! Decoders for single feed values. Each takes one JSON value and returns
//! the typed value, or `None` when the value is not in a shape the decoder
//! understands; `Shape` says, in words a marketer reads, what was expected.
//! Feeds are written by many dealer management systems, so every decoder
//! accepts the spellings that are unambiguous ("12,990", "$12,990",
//! "12990.00", "2021", "Yes") and refuses the rest rather than guess.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde_json::Value;

/// What a field should look like, for the warning when it does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape(pub &'static str);

pub const TEXT: Shape = Shape("text");
pub const NON_EMPTY: Shape = Shape("text, not empty");
pub const MONEY: Shape = Shape("a dollar amount such as 12990 or \"$12,990\"");
pub const KM: Shape = Shape("kilometres such as 42000 or \"42,000 km\"");
pub const WHOLE: Shape = Shape("a whole number such as 5");
pub const YEAR: Shape = Shape("a year such as 2021");
pub const FLAG: Shape = Shape("true or false");
pub const TIME: Shape =
    Shape("a date and time such as \"2026-06-08T00:57:10Z\", a date such as \"2026-06-08\", or unix seconds");
pub const DATE: Shape = Shape("a date such as \"2026-12-31\"");
pub const ID: Shape = Shape("a number or text such as 410033 or \"BMG-410033\"");
pub const SLUG: Shape =
    Shape("letters, digits, - and _ only (at most 200), such as \"2022-kia-rio-s-4711\"");
pub const CAR_TYPE: Shape = Shape("new, demo or used");
pub const STATUS: Shape = Shape("in_stock, coming_soon or sold");
pub const LOCATION: Shape = Shape("the id of one of the dealer's locations (locations[].id)");
pub const FEET: Shape = Shape("a length in feet such as 21.5");
pub const KG: Shape = Shape("a weight in kg such as 1850");
pub const RATE: Shape = Shape("a percentage such as 8.95 or \"8.95%\"");
pub const IMAGE: Shape = Shape(
    "a photo URL (\"https://…/photo.jpg\" or a site path \"/images/photo.jpg\"), {\"url\": …} or {\"image\": {\"url\": …}}",
);
pub const DEALERSHIP: Shape = Shape("a dealership number such as 1041");
pub const VARIANT: Shape =
    Shape("named values such as {\"cylinders\": 4, \"induction\": \"Turbo\"}");
pub const LENDER: Shape =
    Shape("the lender's figures such as {\"interestRate\": 8.95, \"paymentWeek\": 211}");
pub const PROVIDER: Shape = Shape(
    "a finance provider: Taurus, Powertorque, AusLoans, Angle, 360 Finance, Nissan Finance, Manual or Car Clarity",
);
pub const LENDERS: Shape =
    Shape("lender figures by finance provider such as {\"Manual\": {\"interestRate\": 8.95}}");

pub const RANK: Shape = Shape("a number such as 120");
pub const TEXT_LIST: Shape = Shape("a list of texts such as [\"4x4\", \"Family\"]");
pub const FILE: Shape = Shape(
    "a link to the history report (\"https://…/report.pdf\" or a site path), or {\"url\": …}",
);
pub const TEXTS: Shape = Shape(
    "a list of texts such as [\"Reversing Camera\", \"Cruise Control\"], or one text with the items separated by \"|\"",
);
pub const TEXT_ITEM: Shape = Shape("text such as \"Reversing Camera\"");
pub const QUOTE: Shape = Shape(
    "a finance quote with all three figures such as {\"weeklyRepaymentAmount\": 99, \"comparisonRate\": 9.15, \"advertisedRate\": 8.95}",
);
pub const MARKET: Shape = Shape(
    "market prices such as {\"average_market_price\": 31990, \"state_average_market_price\": 32490}",
);
pub const DISTRIBUTION_LOCATION: Shape =
    Shape("a place name such as \"Logan\" or {\"name\": \"Logan\"} (at most 100 characters)");

/// One of a location's distribution locations (where a car can be seen or
/// delivered for a test drive): a name, or an object with a `name`.
pub fn distribution_location(v: &Value) -> Option<String> {
    let name = match v {
        Value::Object(o) => o.get("name").and_then(text),
        other => text(other),
    }?;
    let name = name.trim();
    (!name.is_empty() && name.chars().count() <= 100).then(|| name.to_string())
}

pub const NVIC: Shape = Shape("an NVIC of 1 to 10 letters and digits such as \"0AB12C\"");

/// The car's NVIC (the quote service's vehicle code), trimmed: 1 to 10
/// letters and digits, as the quote endpoint accepts. A malformed one is
/// left out (with a warning) so the car is quoted without it.
pub fn nvic(v: &Value) -> Option<String> {
    let t = text(v)?;
    let n = t.trim();
    (!n.is_empty() && n.len() <= 10 && n.bytes().all(|b| b.is_ascii_alphanumeric()))
        .then(|| n.to_string())
}

/// Text; a number is taken as its digits (stock numbers, VINs and
/// engine sizes arrive as numbers from some systems).
pub fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Text that must say something: empty or blank is refused.
pub fn non_empty_text(v: &Value) -> Option<String> {
    text(v).filter(|s| !s.trim().is_empty())
}

/// A number written as a JSON number or as text: "12990", "12,990",
/// "$12,990", "12990.00", with one of `units` after it ("42,000 km").
/// Thousands separators must group by three, so "12,99" (a decimal comma?)
/// and "1.234.567" are refused instead of guessed.
pub fn number(v: &Value, units: &[&str]) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => parse_number(s, units),
        _ => None,
    }
}

fn parse_number(s: &str, units: &[&str]) -> Option<f64> {
    let mut s = s.trim();
    for unit in units {
        if let Some(rest) = strip_suffix_ignore_case(s, unit) {
            s = rest.trim_end();
            break;
        }
    }
    let (negative, rest) = match s.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, s),
    };
    let digits = rest.strip_prefix('$').unwrap_or(rest);
    let (whole, fraction) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    if let Some(f) = fraction {
        if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
    }
    let groups: Vec<&str> = whole.split(',').collect();
    let grouped_by_three = groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3);
    if whole.is_empty()
        || groups.iter().any(|g| g.is_empty())
        || !groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit()))
        || (groups.len() > 1 && !grouped_by_three)
    {
        return None;
    }
    let plain = format!("{}.{}", groups.concat(), fraction.unwrap_or("0"));
    let n: f64 = plain.parse().ok()?;
    Some(if negative { -n } else { n })
}

fn strip_suffix_ignore_case<'a>(s: &'a str, suffix: &str) -> Option<&'a str> {
    let cut = s.len().checked_sub(suffix.len())?;
    (s.is_char_boundary(cut) && s[cut..].eq_ignore_ascii_case(suffix)).then(|| &s[..cut])
}

/// A dollar amount of 0 or more.
pub fn money(v: &Value) -> Option<f64> {
    number(v, &[]).filter(|n| *n >= 0.0)
}

/// Kilometres, 0 or more.
pub fn km(v: &Value) -> Option<f64> {
    number(v, &["km", "kms"]).filter(|n| *n >= 0.0)
}

/// A length in feet, above 0.
pub fn feet(v: &Value) -> Option<f64> {
    number(v, &["ft", "feet"]).filter(|n| *n > 0.0)
}

/// A weight in kilograms, above 0.
pub fn kg(v: &Value) -> Option<f64> {
    number(v, &["kg"]).filter(|n| *n > 0.0)
}

/// A percentage, 0 or more ("8.95" or "8.95%").
pub fn rate(v: &Value) -> Option<f64> {
    number(v, &["%"]).filter(|n| *n >= 0.0)
}

/// A whole number of 0 or more; "5" and 5.0 count, 5.5 does not.
pub fn whole(v: &Value) -> Option<u64> {
    let n = number(v, &[])?;
    (n >= 0.0 && n.fract() == 0.0 && n <= u64::MAX as f64).then_some(n as u64)
}

pub fn whole_u32(v: &Value) -> Option<u32> {
    whole(v).and_then(|n| u32::try_from(n).ok())
}

/// A model year between 1900 and 2100.
pub fn year(v: &Value) -> Option<u16> {
    whole(v)
        .filter(|y| (1900..=2100).contains(y))
        .map(|y| y as u16)
}

/// true/false, also written "true", "yes", "y", "1" and their opposites.
pub fn flag(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => match n.as_u64() {
            Some(1) => Some(true),
            Some(0) => Some(false),
            _ => None,
        },
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" | "1" => Some(true),
            "false" | "no" | "n" | "0" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// A moment: RFC 3339 ("2026-06-08T00:57:10Z", "...+10:00"), a date-time
/// without zone ("2026-06-08 00:57:10", taken as UTC), a date (midnight
/// UTC), or unix seconds (milliseconds are recognised by their size:
/// above 10^11 seconds is the year 5138).
pub fn time(v: &Value) -> Option<DateTime<Utc>> {
    match v {
        Value::Number(_) => unix(number(v, &[])?),
        Value::String(s) => {
            let s = s.trim();
            if let Ok(t) = DateTime::parse_from_rfc3339(s) {
                return Some(t.with_timezone(&Utc));
            }
            for format in ["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"] {
                if let Ok(t) = NaiveDateTime::parse_from_str(s, format) {
                    return Some(t.and_utc());
                }
            }
            if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
                return d.and_hms_opt(0, 0, 0).map(|t| t.and_utc());
            }
            unix(parse_number(s, &[])?)
        }
        _ => None,
    }
}

fn unix(n: f64) -> Option<DateTime<Utc>> {
    if n < 0.0 || n.fract() != 0.0 {
        return None;
    }
    let seconds = if n > 1e11 { n / 1000.0 } else { n };
    DateTime::from_timestamp(seconds.floor() as i64, 0)
}

/// A calendar date "2026-12-31"; a full time is cut to its date.
pub fn date(v: &Value) -> Option<NaiveDate> {
    let s = v.as_str()?.trim();
    NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .or_else(|| time(v).map(|t| t.date_naive()))
}

/// A feed id: a whole number or non-empty text.
pub fn id(v: &Value) -> Option<FeedId> {
    match v {
        Value::Number(_) => whole(v).map(FeedId::Num),
        Value::String(s) if !s.trim().is_empty() => Some(FeedId::Text(s.trim().to_string())),
        _ => None,
    }
}

/// Ids arrive as numbers from some feeds and strings from others.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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

/// A URL path segment: /cars/{slug}/, by the rule the worker shares
/// (`dealer_rules::slug`), so every car page can count its views.
pub fn slug(v: &Value) -> Option<String> {
    let s = v.as_str()?;
    dealer_rules::slug::is_car_slug(s).then(|| s.to_string())
}

pub fn car_type(v: &Value) -> Option<dealer_config::model::CarType> {
    dealer_config::model::CarType::parse(v.as_str()?)
}

/// One photo in any shape the feeds use: a URL, `{"url": …}` or
/// `{"image": {"url": …}}` (docs/behaviour/content.md: "the first has image.url"). The
/// URL must be absolute (http/https) or a site path; anything else
/// (`javascript:`, `data:`, a relative "photo.jpg" that would resolve
/// against each page's own folder) is refused.
pub fn image(v: &Value) -> Option<String> {
    let url = match v {
        Value::String(s) => s.as_str(),
        Value::Object(o) => match (o.get("url"), o.get("image")) {
            (Some(Value::String(u)), _) => u.as_str(),
            (None | Some(Value::Null), Some(inner)) => return image(inner),
            _ => return None,
        },
        _ => return None,
    };
    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    let allowed =
        lower.starts_with("https://") || lower.starts_with("http://") || url.starts_with('/');
    let clean = !url.chars().any(|c| c.is_whitespace() || c.is_control());
    (allowed && clean && url.len() > 1).then(|| url.to_string())
}

/// How a value is shown in a warning: short, and as the feed wrote it.
pub fn show(v: &Value) -> String {
    let text = match v {
        Value::Object(_) => "an object".to_string(),
        Value::Array(a) => format!("a list of {}", a.len()),
        other => other.to_string(),
    };
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}…")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nvic_is_kept_trimmed_and_refused_when_malformed() {
        assert_eq!(nvic(&json!("0AB12C")).as_deref(), Some("0AB12C"));
        assert_eq!(nvic(&json!(" 0AB12C ")).as_deref(), Some("0AB12C"));
        for bad in [
            json!(""),
            json!("  "),
            json!("0AB-12C"),
            json!("0AB12C34567"),
            json!(true),
        ] {
            assert_eq!(nvic(&bad), None, "{bad:?}");
        }
    }

    #[test]
    fn numbers_in_text_decode_when_unambiguous() {
        for (text, want) in [
            ("12990", 12990.0),
            ("12,990", 12990.0),
            ("$12,990", 12990.0),
            (" $12,990.50 ", 12990.5),
            ("12990.00", 12990.0),
            ("1,234,567", 1_234_567.0),
            ("-$5", -5.0),
        ] {
            assert_eq!(number(&json!(text), &[]), Some(want), "{text}");
        }
        for text in [
            "",
            "twelve",
            "12,99",
            "1,2345",
            "1.234.567",
            "12.",
            "$",
            "12 990",
            "1e5",
            "12,990 km",
        ] {
            assert_eq!(number(&json!(text), &[]), None, "{text}");
        }
        assert_eq!(number(&json!(12990), &[]), Some(12990.0));
        assert_eq!(number(&json!(true), &[]), None);
    }

    #[test]
    fn units_are_accepted_after_the_number_only_where_named() {
        assert_eq!(km(&json!("42,000 km")), Some(42000.0));
        assert_eq!(km(&json!("42000KM")), Some(42000.0));
        assert_eq!(money(&json!("42,000 km")), None);
        assert_eq!(rate(&json!("8.95%")), Some(8.95));
        assert_eq!(feet(&json!("21.5 ft")), Some(21.5));
        assert_eq!(kg(&json!("1,850 kg")), Some(1850.0));
    }

    #[test]
    fn amounts_below_zero_and_fractions_of_whole_numbers_are_refused() {
        assert_eq!(money(&json!(-1)), None);
        assert_eq!(money(&json!(0)), Some(0.0));
        assert_eq!(whole(&json!(5.0)), Some(5));
        assert_eq!(whole(&json!("5")), Some(5));
        assert_eq!(whole(&json!(5.5)), None);
        assert_eq!(whole(&json!(-5)), None);
        assert_eq!(year(&json!("2021")), Some(2021));
        assert_eq!(year(&json!("twenty")), None);
        assert_eq!(year(&json!(21)), None);
    }

    #[test]
    fn flags_accept_yes_no_and_one_zero() {
        for yes in [
            json!(true),
            json!("Yes"),
            json!("TRUE"),
            json!(1),
            json!("1"),
            json!("y"),
        ] {
            assert_eq!(flag(&yes), Some(true), "{yes}");
        }
        for no in [json!(false), json!("no"), json!(0), json!("0")] {
            assert_eq!(flag(&no), Some(false), "{no}");
        }
        for bad in [json!("maybe"), json!(2), json!([true])] {
            assert_eq!(flag(&bad), None, "{bad}");
        }
    }

    #[test]
    fn times_accept_rfc3339_dates_and_unix_seconds_or_milliseconds() {
        let want = DateTime::parse_from_rfc3339("2026-06-08T00:57:10Z")
            .unwrap()
            .with_timezone(&Utc);
        for v in [
            json!("2026-06-08T00:57:10Z"),
            json!("2026-06-08T10:57:10+10:00"),
            json!("2026-06-08 00:57:10"),
            json!(1_780_880_230),
            json!("1780880230"),
            json!(1_780_880_230_000_i64),
        ] {
            assert_eq!(time(&v), Some(want), "{v}");
        }
        assert_eq!(
            time(&json!("2026-06-08")).unwrap().to_rfc3339(),
            "2026-06-08T00:00:00+00:00"
        );
        for bad in [json!("08/06/2026"), json!("soon"), json!(-5), json!(true)] {
            assert_eq!(time(&bad), None, "{bad}");
        }
        assert_eq!(
            date(&json!("2026-12-31")),
            NaiveDate::from_ymd_opt(2026, 12, 31)
        );
        assert_eq!(
            date(&json!("2026-12-31T10:00:00Z")),
            NaiveDate::from_ymd_opt(2026, 12, 31)
        );
        assert_eq!(date(&json!("31/12/2026")), None);
    }

    #[test]
    fn every_image_shape_the_spec_names_decodes() {
        assert_eq!(image(&json!("/a.jpg")).as_deref(), Some("/a.jpg"));
        assert_eq!(
            image(&json!({"url": "https://cdn.example/a.jpg"})).as_deref(),
            Some("https://cdn.example/a.jpg")
        );
        assert_eq!(
            image(&json!({"image": {"url": "/b.jpg"}, "position": 2})).as_deref(),
            Some("/b.jpg")
        );
        for bad in [
            json!({"image": {"href": "/b.jpg"}}),
            json!({"url": 7}),
            json!("javascript:alert(1)"),
            json!("data:image/png;base64,AAAA"),
            json!("photo.jpg"),
            json!("/a b.jpg"),
            json!(""),
            json!(null),
            json!(3),
        ] {
            assert_eq!(image(&bad), None, "{bad}");
        }
    }

    #[test]
    fn ids_slugs_and_car_types() {
        assert_eq!(id(&json!(4711)), Some(FeedId::Num(4711)));
        assert_eq!(id(&json!(" A-1 ")), Some(FeedId::Text("A-1".into())));
        assert_eq!(id(&json!("")), None);
        assert_eq!(id(&json!(1.5)), None);
        assert_eq!(
            slug(&json!("2022-kia-rio_1")).as_deref(),
            Some("2022-kia-rio_1")
        );
        assert_eq!(slug(&json!("../etc")), None);
        assert_eq!(slug(&json!("")), None);
        assert_eq!(
            car_type(&json!("Used")),
            Some(dealer_config::model::CarType::Used)
        );
        assert_eq!(car_type(&json!("van")), None);
    }

    #[test]
    fn values_are_shown_short() {
        assert_eq!(show(&json!("abc")), "\"abc\"");
        assert_eq!(show(&json!({"a": 1})), "an object");
        assert_eq!(show(&json!([1, 2])), "a list of 2");
        assert!(show(&json!("x".repeat(100))).ends_with('…'));
    }
}
