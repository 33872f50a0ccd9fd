//! A lead sent as a plain HTML form post (`application/x-www-form-urlencoded`,
//! no JavaScript) read into the same JSON the islands send, so one
//! validation serves both.
//!
//! Names: `key=value` is text; a repeated key or `key[]` is a list;
//! `key[name]=value` is an object (one level: `adjustmentAnswers[accident]=no`).
//! The checkbox fields are turned into booleans the way browsers send them:
//! a ticked box sends its value (`on` unless the page sets another), an
//! unticked one sends nothing; a box ticked by default (the marketing
//! opt-in) is preceded by a hidden `false`, and the last value counts.

use serde_json::{Map, Value};

use crate::http::ApiError;

/// Most name/value pairs read from one form post (a lead form has a few
/// dozen at most).
pub const MAX_PAIRS: usize = 300;
/// Longest field name read.
pub const MAX_NAME: usize = 100;

/// The fields whose text a form sends for a checkbox or a yes/no choice.
const BOOLEAN_FIELDS: [&str; 6] = [
    "terms_conditions",
    "opt_in",
    "opt_in_finance",
    "opt_in_trade",
    "form_completed",
    "offer_accepted",
];

/// `on`, `true`, `1`, `yes` → true; `off`, `false`, `0`, `no` and empty →
/// false; anything else stays text (and the validation names the field).
fn checkbox(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Some(true),
        "off" | "false" | "0" | "no" | "" => Some(false),
        _ => None,
    }
}

/// `key[name]` → (key, Some(name)); `key[]` → (key, Some("")); `key` →
/// (key, None). Anything else (nested brackets) is kept as a plain name.
fn split_name(name: &str) -> (&str, Option<&str>) {
    if let Some(open) = name.find('[') {
        if let Some(inner) = name[open + 1..].strip_suffix(']') {
            if open > 0 && !inner.contains(['[', ']']) {
                return (&name[..open], Some(inner));
            }
        }
    }
    (name, None)
}

fn push(target: &mut Map<String, Value>, key: &str, value: Value) {
    match target.get_mut(key) {
        None => {
            target.insert(key.to_string(), value);
        }
        Some(Value::Array(items)) => items.push(value),
        Some(existing) => {
            let first = existing.take();
            *existing = Value::Array(vec![first, value]);
        }
    }
}

/// Reads a urlencoded body into a JSON object.
pub fn parse_form(body: &[u8]) -> Result<Value, ApiError> {
    let mut out = Map::new();
    for (i, (name, value)) in form_urlencoded::parse(body).enumerate() {
        if i >= MAX_PAIRS {
            return Err(ApiError::new(
                400,
                format!("The form has more than {MAX_PAIRS} fields."),
            ));
        }
        if name.is_empty() || name.chars().count() > MAX_NAME {
            continue;
        }
        let value = Value::String(value.into_owned());
        match split_name(&name) {
            (key, None) => push(&mut out, key, value),
            (key, Some("")) => match out.get_mut(key) {
                Some(Value::Array(items)) => items.push(value),
                _ => {
                    out.insert(key.to_string(), Value::Array(vec![value]));
                }
            },
            (key, Some(inner)) => {
                let entry = out
                    .entry(key.to_string())
                    .or_insert_with(|| Value::Object(Map::new()));
                match entry {
                    Value::Object(obj) => push(obj, inner, value),
                    // `key=x` and `key[a]=y` together: keep the first.
                    _ => continue,
                }
            }
        }
    }
    for field in BOOLEAN_FIELDS {
        // A box ticked by default sends a hidden "false" before itself, so
        // that unticking it is heard: the last value is the box's.
        let text = match out.get(field) {
            Some(Value::String(text)) => Some(text.as_str()),
            Some(Value::Array(items)) => items.last().and_then(Value::as_str),
            _ => None,
        };
        if let Some(b) = text.and_then(checkbox) {
            out.insert(field.to_string(), Value::Bool(b));
        }
    }
    Ok(Value::Object(out))
}

/// Whether a Content-Type is a form post (`application/x-www-form-urlencoded`
/// with or without parameters, any letter case).
pub fn is_form_post(content_type: Option<&str>) -> bool {
    content_type
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .eq_ignore_ascii_case("application/x-www-form-urlencoded")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_form_post_reads_as_the_json_the_islands_send() {
        let body =
            b"category=test_drive&name=Jo+Bloggs&email=jo%40example.com.au&phone=0412+345+678\
            &terms_conditions=on&opt_in=false&car_id=1234&additional_services=Tinting\
            &additional_services=Paint%20protection&adjustmentAnswers%5Baccident%5D=no\
            &adjustmentAnswers[owners]=2&visited[]=%2F&message=Line+1%0D%0ALine+2&kms=85%2C000";
        let v = parse_form(body).unwrap();
        assert_eq!(
            v,
            json!({
                "category": "test_drive", "name": "Jo Bloggs", "email": "jo@example.com.au",
                "phone": "0412 345 678", "terms_conditions": true, "opt_in": false, "car_id": "1234",
                "additional_services": ["Tinting", "Paint protection"],
                "adjustmentAnswers": {"accident": "no", "owners": "2"},
                "visited": ["/"], "message": "Line 1\r\nLine 2", "kms": "85,000"
            })
        );
    }

    #[test]
    fn checkbox_values() {
        for (text, want) in [
            ("on", Some(true)),
            ("YES", Some(true)),
            ("1", Some(true)),
            ("", Some(false)),
            ("off", Some(false)),
            ("maybe", None),
        ] {
            assert_eq!(checkbox(text), want, "{text:?}");
        }
        let v = parse_form(b"terms_conditions=maybe").unwrap();
        assert_eq!(
            v["terms_conditions"],
            json!("maybe"),
            "left for the validation to name"
        );
    }

    #[test]
    fn odd_names_and_limits() {
        let v = parse_form(b"=x&a[b][c]=1&[x]=2&k=1&k[a]=2&cf-turnstile-response=t%2Bk").unwrap();
        assert_eq!(
            v,
            json!({"a[b][c]": "1", "[x]": "2", "k": "1", "cf-turnstile-response": "t+k"})
        );
        let many: Vec<String> = (0..=MAX_PAIRS).map(|i| format!("f{i}=1")).collect();
        let e = parse_form(many.join("&").as_bytes()).unwrap_err();
        assert_eq!(e.status, 400);
        let long = format!("{}=1&ok=2", "n".repeat(MAX_NAME + 1));
        assert_eq!(parse_form(long.as_bytes()).unwrap(), json!({"ok": "2"}));
        assert_eq!(parse_form(b"").unwrap(), json!({}));
        // Invalid UTF-8 is replaced, not a failure.
        assert_eq!(
            parse_form(b"name=%FF").unwrap(),
            json!({"name": "\u{fffd}"})
        );
    }

    #[test]
    fn content_types() {
        assert!(is_form_post(Some("application/x-www-form-urlencoded")));
        assert!(is_form_post(Some(
            "Application/X-WWW-Form-Urlencoded; charset=UTF-8"
        )));
        assert!(!is_form_post(Some("application/json")));
        assert!(!is_form_post(Some("multipart/form-data; boundary=x")));
        assert!(!is_form_post(None));
    }

    #[test]
    fn a_box_ticked_by_default_is_read_by_its_last_value() {
        let unticked = parse_form(b"name=Sam&opt_in=false").unwrap();
        assert_eq!(unticked["opt_in"], Value::Bool(false));
        let ticked = parse_form(b"name=Sam&opt_in=false&opt_in=true").unwrap();
        assert_eq!(ticked["opt_in"], Value::Bool(true));
        // Other repeated fields stay lists.
        let many = parse_form(b"additional_services=Tinting&additional_services=Mats").unwrap();
        assert_eq!(
            many["additional_services"],
            serde_json::json!(["Tinting", "Mats"])
        );
    }
}
