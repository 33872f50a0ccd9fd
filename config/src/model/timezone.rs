//! The dealer's time zone, checked once when the file is read.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An IANA time zone that exists, e.g. "Australia/Perth". Only a name the
/// time zone database knows deserialises, so code using the config never
/// parses the name again and never needs a fallback zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeZone(chrono_tz::Tz);

impl TimeZone {
    /// For date and time arithmetic (chrono).
    pub fn tz(self) -> chrono_tz::Tz {
        self.0
    }

    /// The IANA name, e.g. "Australia/Perth".
    pub fn name(self) -> &'static str {
        self.0.name()
    }
}

/// Brisbane: most of the platform's dealers are in Queensland.
impl Default for TimeZone {
    fn default() -> Self {
        TimeZone(chrono_tz::Australia::Brisbane)
    }
}

impl FromStr for TimeZone {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        chrono_tz::Tz::from_str(s)
            .map(TimeZone)
            .map_err(|_| format!("time zone `{s}` does not exist"))
    }
}

/// Reads as its name wherever text is wanted (site data, messages).
impl Deref for TimeZone {
    type Target = str;

    fn deref(&self) -> &str {
        self.name()
    }
}

impl fmt::Display for TimeZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for TimeZone {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for TimeZone {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = Cow::<str>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// Text in the schema: listing the ~600 zone names as an enum would turn
/// the "did you mean" message into a 600-item "expected" line. The name is
/// checked before the config is typed (check::values).
impl JsonSchema for TimeZone {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "TimeZone".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_existing_zones_deserialise() {
        let tz: TimeZone = serde_json::from_value(serde_json::json!("Australia/Perth")).unwrap();
        assert_eq!(tz.name(), "Australia/Perth");
        assert_eq!(serde_json::to_value(tz).unwrap(), "Australia/Perth");
        let err = serde_json::from_value::<TimeZone>(serde_json::json!("Australia/Brisbain"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("`Australia/Brisbain` does not exist"), "{err}");
        assert!(serde_json::from_value::<TimeZone>(serde_json::json!(10)).is_err());
    }

    #[test]
    fn reads_as_its_name() {
        let tz = TimeZone::default();
        assert_eq!(&*tz, "Australia/Brisbane");
        assert_eq!(tz.to_string(), "Australia/Brisbane");
        assert_eq!(tz.tz(), chrono_tz::Australia::Brisbane);
    }
}
