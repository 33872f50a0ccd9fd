//! Bodies of the smaller API calls (watchlist, sign-in, phone reveal,
//! analytics events, valuation) and their checks. Each returns all bad fields
//! at once, like leads.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::events;
use crate::input::{check_body, FieldErrors, Fields, ID_MAX};
use crate::lead::TURNSTILE_FIELD;
use crate::session::{is_code_shaped, parse_mobile, MOBILE_MESSAGE};
use dealer_rules::edge_config::{EdgeConfig, EdgeLocation};

fn required_id(f: &mut Fields<'_>, key: &str, message: &str) -> Option<String> {
    let id = f.id(key);
    if id.is_none() && !f.errors.0.contains_key(key) {
        f.errors.add(key, message);
    }
    id
}

/// `phone_number` as a normalised Australian mobile, or its message.
fn required_mobile(f: &mut Fields<'_>) -> Option<String> {
    let mobile = f.line("phone_number", 32).as_deref().and_then(parse_mobile);
    if mobile.is_none() && !f.errors.0.contains_key("phone_number") {
        f.errors.add("phone_number", MOBILE_MESSAGE);
    }
    mobile
}

/// The most cars one shopper's watchlist holds: far more than anyone
/// compares, few enough that a list stays one small read.
pub const WATCHLIST_MAX: u32 = 200;

/// What saving one more car to a full watchlist answers (409).
pub const WATCHLIST_FULL_MESSAGE: &str =
    "Your watchlist is full (200 cars). Please remove a car before saving another.";

/// `POST /api/watchlist/save-car` and `remove-car`.
#[derive(Debug, Clone, PartialEq)]
pub struct WatchlistChange {
    pub car_id: String,
    /// The phone the body names, normalised; must equal the session's.
    pub phone_number: Option<String>,
}

pub fn validate_watchlist_change(body: &Value) -> Result<WatchlistChange, FieldErrors> {
    check_body(body, |f| {
        let car_id = required_id(f, "car_id", "Please say which car.");
        let phone_number = f.line("phone_number", 32).and_then(|raw| {
            parse_mobile(&raw).or_else(|| {
                f.errors.add("phone_number", MOBILE_MESSAGE);
                None
            })
        });
        car_id.map(|car_id| WatchlistChange {
            car_id,
            phone_number,
        })
    })
}

/// Whether a body's phone (if any) may act on the session's list: a list is
/// only ever the session's own.
pub fn phone_matches_session(body_phone: Option<&str>, session_phone: &str) -> bool {
    body_phone.is_none_or(|p| p == session_phone)
}

/// `POST /api/auth/request-code`: the mobile number, and the Turnstile
/// token the dealer's captcha asks for (`cf-turnstile-response`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeRequest {
    pub phone: String,
    pub turnstile_token: Option<String>,
}

pub fn validate_code_request(body: &Value) -> Result<CodeRequest, FieldErrors> {
    check_body(body, |f| {
        let turnstile_token = f.line(TURNSTILE_FIELD, 2048);
        required_mobile(f).map(|phone| CodeRequest {
            phone,
            turnstile_token,
        })
    })
}

/// `POST /api/auth/verify`: (phone, code).
pub fn validate_code_check(body: &Value) -> Result<(String, String), FieldErrors> {
    check_body(body, |f| {
        let mobile = required_mobile(f);
        let code = f.line("code", 16).filter(|c| is_code_shaped(c));
        if code.is_none() && !f.errors.0.contains_key("code") {
            f.errors.add("code", "Enter the 6-digit code we sent you.");
        }
        mobile.zip(code)
    })
}

/// `POST /api/phone-reveal` (car_id, dealership_id, website_id). The phone comes from the dealer's configuration for the
/// named location (or the dealer's only one), never from the body.
#[derive(Debug, Clone, PartialEq)]
pub struct RevealRequest {
    pub car_id: String,
    pub location_id: Option<String>,
}

pub fn validate_reveal(body: &Value) -> Result<RevealRequest, FieldErrors> {
    check_body(body, |f| {
        let car_id = required_id(f, "car_id", "Please say which car.");
        let location_id = f.id("location_id");
        // dealership_id and website_id are accepted (the site sends them) but
        // the recorded ones come from configuration: a client cannot claim a tenant.
        let _ = f.id("dealership_id");
        let _ = f.id("website_id");
        car_id.map(|car_id| RevealRequest {
            car_id,
            location_id,
        })
    })
}

/// The location whose phone a reveal returns: the named one, or the
/// dealer's first when none is named. `Err` names the problem.
pub fn reveal_location<'a>(
    config: &'a EdgeConfig,
    location_id: Option<&str>,
) -> Result<&'a EdgeLocation, FieldErrors> {
    let found = match location_id {
        Some(id) => config.locations.iter().find(|l| l.id == id),
        None => config.locations.first(),
    };
    found.ok_or_else(|| {
        let mut e = FieldErrors::default();
        e.add("location_id", "Unknown location for this dealer.");
        e
    })
}

/// `POST /api/events`: one analytics event.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AnalyticsEvent {
    pub event_id: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub car_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Small free-form details (vehicle make, model...), kept verbatim.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub data: Map<String, Value>,
}

/// Largest `data` object of an event, serialised.
pub const EVENT_DATA_MAX: usize = 4096;

pub fn validate_event(body: &Value) -> Result<AnalyticsEvent, FieldErrors> {
    check_body(body, |f| {
        let id = f.number("event_id");
        let event_id = match id {
            Some(n) if n.fract() == 0.0 && n >= 0.0 && events::is_known(n as u32) => Some(n as u32),
            Some(_) => {
                f.errors.add(
                    "event_id",
                    format!("Unknown event id; expected one of {:?}.", events::ids()),
                );
                None
            }
            None => {
                if !f.errors.0.contains_key("event_id") {
                    f.errors.add("event_id", "Please give an event_id.");
                }
                None
            }
        };
        let car_id = f.id("car_id");
        let url = f.line("url", crate::input::URL_MAX);
        let data = match f.obj.get("data") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m))
                if serde_json::to_string(m).map_or(0, |s| s.len()) <= EVENT_DATA_MAX =>
            {
                m.clone()
            }
            Some(Value::Object(_)) => {
                f.errors
                    .add("data", format!("Must be at most {EVENT_DATA_MAX} bytes."));
                Map::new()
            }
            Some(_) => {
                f.errors.add("data", "Must be an object.");
                Map::new()
            }
        };
        event_id.map(|event_id| AnalyticsEvent {
            event_id,
            car_id,
            url,
            data,
        })
    })
}

/// `POST /api/miscellaneous`: extra data for a lead; its only use is the
/// trade-in valuation (`column_name: "valuation"`).
#[derive(Debug, Clone, PartialEq)]
pub struct Miscellaneous {
    pub column_name: String,
    /// The trade-in flow's first lead, which the data belongs to.
    pub lead_id: String,
    /// The flow's latest token ([`crate::lead_flow`]): it proves the
    /// client continues that lead's flow (a lead id alone is no proof).
    pub flow_token: String,
    /// The whole body minus the routing fields, kept verbatim.
    pub data: Map<String, Value>,
}

pub const MISC_COLUMNS: [&str; 1] = ["valuation"];

pub fn validate_miscellaneous(body: &Value) -> Result<Miscellaneous, FieldErrors> {
    check_body(body, |f| {
        let column = f.line("column_name", 40);
        match column.as_deref() {
            Some(c) if MISC_COLUMNS.contains(&c) => {}
            Some(_) => f.errors.add(
                "column_name",
                "Unknown column_name; expected \"valuation\".",
            ),
            None => {
                if !f.errors.0.contains_key("column_name") {
                    f.errors.add("column_name", "Please give column_name.");
                }
            }
        }
        let lead_id = f.line("lead_id", ID_MAX);
        if lead_id.is_none() && !f.errors.0.contains_key("lead_id") {
            f.errors
                .add("lead_id", "Please give the lead this belongs to.");
        }
        let flow_token = f.line(crate::lead::FLOW_TOKEN_FIELD, 256);
        if flow_token.is_none() && !f.errors.0.contains_key(crate::lead::FLOW_TOKEN_FIELD) {
            f.errors.add(
                crate::lead::FLOW_TOKEN_FIELD,
                "Please give the flow token the lead's answer carried.",
            );
        }
        let mut data = f.obj.clone();
        for key in [
            "column_name",
            "lead_id",
            crate::lead::FLOW_TOKEN_FIELD,
            "dealer",
            "dealership_slug",
            "dealership_id",
        ] {
            data.remove(key);
        }
        match (column, lead_id, flow_token) {
            (Some(column_name), Some(lead_id), Some(flow_token)) => Some(Miscellaneous {
                column_name,
                lead_id,
                flow_token,
                data,
            }),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dealer_rules::edge_config::EdgeConfig;
    use serde_json::json;

    #[test]
    fn watchlist_change_needs_a_car_and_a_mobile_if_any() {
        let c =
            validate_watchlist_change(&json!({"phone_number": "+61 412 345 678", "car_id": 42}))
                .unwrap();
        assert_eq!(
            c,
            WatchlistChange {
                car_id: "42".into(),
                phone_number: Some("0412345678".into())
            }
        );
        let c = validate_watchlist_change(&json!({"car_id": "abc"})).unwrap();
        assert_eq!(c.phone_number, None);
        let e = validate_watchlist_change(&json!({"phone_number": "0891234567"})).unwrap_err();
        assert_eq!(e.get("car_id"), Some("Please say which car."));
        assert_eq!(e.get("phone_number"), Some(MOBILE_MESSAGE));
        assert_eq!(
            validate_watchlist_change(&json!({"car_id": -1}))
                .unwrap_err()
                .get("car_id"),
            Some("Must be a whole number or text.")
        );
        assert!(validate_watchlist_change(&json!("x")).is_err());
    }

    #[test]
    fn a_body_phone_other_than_the_session_is_refused() {
        assert!(phone_matches_session(None, "0412345678"));
        assert!(phone_matches_session(Some("0412345678"), "0412345678"));
        assert!(!phone_matches_session(Some("0499999999"), "0412345678"));
    }

    #[test]
    fn sign_in_bodies() {
        assert_eq!(
            validate_code_request(&json!({"phone_number": "0412 345 678"})).unwrap(),
            CodeRequest {
                phone: "0412345678".into(),
                turnstile_token: None
            }
        );
        assert_eq!(
            validate_code_request(
                &json!({"phone_number": "0412345678", "cf-turnstile-response": "tok"})
            )
            .unwrap()
            .turnstile_token
            .as_deref(),
            Some("tok")
        );
        assert_eq!(
            validate_code_request(&json!({"phone_number": "0891234567"}))
                .unwrap_err()
                .get("phone_number"),
            Some(MOBILE_MESSAGE)
        );
        assert_eq!(
            validate_code_request(&json!({}))
                .unwrap_err()
                .get("phone_number"),
            Some(MOBILE_MESSAGE)
        );
        assert_eq!(
            validate_code_request(&json!({"phone_number": 412}))
                .unwrap_err()
                .get("phone_number"),
            Some("Must be text.")
        );
        assert_eq!(
            validate_code_check(&json!({"phone_number": "0412345678", "code": " 012345 "}))
                .unwrap(),
            ("0412345678".to_string(), "012345".to_string())
        );
        let e = validate_code_check(&json!({"phone_number": "0412345678", "code": "12345"}))
            .unwrap_err();
        assert_eq!(e.get("code"), Some("Enter the 6-digit code we sent you."));
    }

    fn config() -> EdgeConfig {
        serde_json::from_value(json!({
            "dealer": "a", "name": "A", "origins": [],
            "locations": [
                {"id": "perth", "name": "Perth", "phone": "08 9123 4567", "lead_email": null},
                {"id": "fremantle", "name": "Freo", "phone": "08 9335 0000", "lead_email": null}
            ],
            "leads": {"email": null, "webhook_url": null},
            "features": {"watchlist": true, "phone_reveal": true}
        }))
        .unwrap()
    }

    #[test]
    fn reveal_uses_the_configured_location() {
        let r = validate_reveal(&json!({"car_id": 7, "dealership_id": 99, "website_id": "x", "location_id": "fremantle"})).unwrap();
        assert_eq!(r.car_id, "7");
        let c = config();
        assert_eq!(
            reveal_location(&c, r.location_id.as_deref()).unwrap().phone,
            "08 9335 0000"
        );
        assert_eq!(
            reveal_location(&c, None).unwrap().id,
            "perth",
            "first location by default"
        );
        assert_eq!(
            reveal_location(&c, Some("sydney"))
                .unwrap_err()
                .get("location_id"),
            Some("Unknown location for this dealer.")
        );
        assert_eq!(
            validate_reveal(&json!({})).unwrap_err().get("car_id"),
            Some("Please say which car.")
        );
        assert!(validate_reveal(&json!({"car_id": 1, "dealership_id": [1]})).is_err());
    }

    #[test]
    fn analytics_events() {
        let e = validate_event(&json!({"event_id": 25, "car_id": 9, "data": {"make": "Toyota"}}))
            .unwrap();
        assert_eq!((e.event_id, e.car_id.as_deref()), (25, Some("9")));
        for bad in [
            json!({"event_id": 999}),
            json!({"event_id": 25.5}),
            json!({"event_id": -25}),
            json!({}),
        ] {
            assert!(
                validate_event(&bad).unwrap_err().get("event_id").is_some(),
                "{bad}"
            );
        }
        let big = json!({"event_id": 39, "data": {"x": "y".repeat(EVENT_DATA_MAX)}});
        assert!(validate_event(&big).unwrap_err().get("data").is_some());
        assert_eq!(
            validate_event(&json!({"event_id": 39, "data": 1}))
                .unwrap_err()
                .get("data"),
            Some("Must be an object.")
        );
    }

    #[test]
    fn miscellaneous_is_the_valuation_only() {
        let m = validate_miscellaneous(&json!({"column_name": "valuation", "lead_id": "abc", "flow_token": "f1.abc", "value": 12000, "dealer": "beta"})).unwrap();
        assert_eq!(m.column_name, "valuation");
        assert_eq!(
            (m.lead_id.as_str(), m.flow_token.as_str()),
            ("abc", "f1.abc")
        );
        assert_eq!(
            Value::Object(m.data),
            json!({"value": 12000}),
            "routing and tenant claims dropped"
        );
        assert!(validate_miscellaneous(&json!({"column_name": "password"}))
            .unwrap_err()
            .get("column_name")
            .is_some());
        assert!(validate_miscellaneous(&json!({}))
            .unwrap_err()
            .get("column_name")
            .is_some());
        // Data belongs to a lead the client proves it continues.
        let orphan = validate_miscellaneous(&json!({"column_name": "valuation"})).unwrap_err();
        assert!(orphan.get("lead_id").is_some() && orphan.get("flow_token").is_some());
        let unproven =
            validate_miscellaneous(&json!({"column_name": "valuation", "lead_id": "abc"}))
                .unwrap_err();
        assert!(unproven.get("lead_id").is_none() && unproven.get("flow_token").is_some());
    }
}
