//! Reading typed, per-field-checked values out of a parsed JSON body. Every
//! endpoint reports all bad fields at once, each with its own message, so
//! the same reader serves leads, quotes, watchlist and sign-in bodies.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

/// Longest id (car, location, lead) accepted, in characters.
pub const ID_MAX: usize = 64;
/// Longest URL accepted, in characters.
pub const URL_MAX: usize = 2048;

/// Per-field messages, keyed by the JSON field name; sorted for stable output.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct FieldErrors(pub BTreeMap<String, String>);

impl FieldErrors {
    pub(crate) fn add(&mut self, field: &str, message: impl Into<String>) {
        // The first problem of a field is the one worth telling.
        self.0
            .entry(field.to_string())
            .or_insert_with(|| message.into());
    }

    pub fn get(&self, field: &str) -> Option<&str> {
        self.0.get(field).map(String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Reads typed fields out of the body, recording a message per bad field.
pub(crate) struct Fields<'a> {
    pub obj: &'a Map<String, Value>,
    pub errors: &'a mut FieldErrors,
}

impl Fields<'_> {
    pub fn require(&mut self, key: &str, message: &str) {
        // A field present but of the wrong type already has its message.
        self.errors.add(key, message);
    }

    /// Optional single-line text: trimmed, empty means absent, no control
    /// characters, at most `max` characters.
    pub fn line(&mut self, key: &str, max: usize) -> Option<String> {
        self.text(key, max, false)
    }

    pub fn text(&mut self, key: &str, max: usize, multiline: bool) -> Option<String> {
        let value = match self.obj.get(key) {
            None | Some(Value::Null) => return None,
            Some(Value::String(s)) => s.trim(),
            Some(_) => {
                self.errors.add(key, "Must be text.");
                return None;
            }
        };
        if value.is_empty() {
            return None;
        }
        if value.chars().count() > max {
            self.errors
                .add(key, format!("Must be at most {max} characters."));
            return None;
        }
        let allowed = |c: char| !c.is_control() || (multiline && matches!(c, '\n' | '\r' | '\t'));
        if !value.chars().all(allowed) {
            self.errors.add(key, "Must not contain control characters.");
            return None;
        }
        Some(value.to_string())
    }

    /// An id from the stock feed: text or a non-negative whole number.
    pub fn id(&mut self, key: &str) -> Option<String> {
        match self.obj.get(key) {
            Some(Value::Number(n)) => match n.as_u64() {
                Some(n) => Some(n.to_string()),
                None => {
                    self.errors.add(key, "Must be a whole number or text.");
                    None
                }
            },
            _ => self.line(key, ID_MAX),
        }
    }
}

impl Fields<'_> {
    /// Optional finite number (JSON number, or numeric text as forms send).
    pub fn number(&mut self, key: &str) -> Option<f64> {
        let n = match self.obj.get(key) {
            None | Some(Value::Null) => return None,
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(s)) if s.trim().is_empty() => return None,
            Some(Value::String(s)) => s.trim().parse::<f64>().ok(),
            Some(_) => None,
        };
        match n.filter(|n| n.is_finite()) {
            Some(n) => Some(n),
            None => {
                self.errors.add(key, "Must be a number.");
                None
            }
        }
    }
}

impl Fields<'_> {
    /// Optional JSON boolean. (Form posts arrive as text; they are turned
    /// into booleans before validation, see `form_post`.)
    pub fn boolean(&mut self, key: &str) -> Option<bool> {
        match self.obj.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(_) => {
                self.errors.add(key, "Must be true or false.");
                None
            }
        }
    }

    /// Optional whole number within `range`: a JSON integer, or text of
    /// digits with optional thousands separators ("85,000") as a form
    /// sends it. `message` is the problem told when it is anything else.
    pub fn whole(
        &mut self,
        key: &str,
        range: std::ops::RangeInclusive<u64>,
        message: &str,
    ) -> Option<u64> {
        let n = match self.obj.get(key) {
            None | Some(Value::Null) => return None,
            Some(Value::Number(n)) => n.as_u64(),
            Some(Value::String(s)) if s.trim().is_empty() => return None,
            Some(Value::String(s)) => {
                let digits: String = s.trim().chars().filter(|c| *c != ',').collect();
                if !digits.is_empty()
                    && digits.len() <= 12
                    && digits.bytes().all(|b| b.is_ascii_digit())
                {
                    digits.parse().ok()
                } else {
                    None
                }
            }
            Some(_) => None,
        };
        match n.filter(|n| range.contains(n)) {
            Some(n) => Some(n),
            None => {
                self.errors.add(key, message);
                None
            }
        }
    }

    /// Optional text that must be one of `allowed` (compared without
    /// letter case); answers the canonical spelling.
    pub fn one_of(
        &mut self,
        key: &str,
        allowed: &[&'static str],
        message: &str,
    ) -> Option<&'static str> {
        let value = self.line(key, 64)?;
        match allowed.iter().find(|a| a.eq_ignore_ascii_case(&value)) {
            Some(a) => Some(a),
            None => {
                self.errors.add(key, message);
                None
            }
        }
    }
}

/// The body as an object, or the message for a body that is not one.
pub fn object(body: &Value) -> Result<&Map<String, Value>, FieldErrors> {
    body.as_object().ok_or_else(|| {
        let mut errors = FieldErrors::default();
        errors.add("body", "Send a JSON object.");
        errors
    })
}

/// Reads a JSON object body field by field; every bad field gets its
/// message, and the value counts only when no field was bad.
pub(crate) fn check_body<T>(
    body: &Value,
    read: impl FnOnce(&mut Fields<'_>) -> Option<T>,
) -> Result<T, FieldErrors> {
    let obj = object(body)?;
    let mut errors = FieldErrors::default();
    let value = read(&mut Fields {
        obj,
        errors: &mut errors,
    });
    match value {
        Some(v) if errors.is_empty() => Ok(v),
        _ => Err(errors),
    }
}
