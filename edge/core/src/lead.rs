//! Lead capture: the JSON a site's enquiry, test-drive, finance, trade-in...
//! forms post to `POST /api/leads`, and the rules it must pass before the
//! worker stores it.
//!
//! Validation works on an already parsed [`serde_json::Value`] rather than
//! through `#[derive(Deserialize)]`, so that every field gets its own message
//! for the shopper ("Please enter your phone number.") instead of one serde
//! error about the first bad field, and so that all problems are reported at
//! once.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::input::{FieldErrors, Fields, URL_MAX};
use dealer_rules::contact::{self, EMAIL_MESSAGE, PHONE_MESSAGE, POSTCODE_MESSAGE};
use dealer_rules::edge_config::EdgeConfig;

/// Wording the dealer sites have always shown for an unticked terms checkbox.
pub const TERMS_MESSAGE: &str = "*You must agree to the terms of use before submitting.";
/// Title of the sites' form error panel; used as the top-level error.
pub const FORM_ERROR: &str = "Please fix the following errors:";
/// Messages for a required field left empty (or blank). The site's form
/// shows the same words (`rules/vectors/forms.json` pins both).
pub const NAME_MISSING: &str = "Please enter your name.";
pub const EMAIL_MISSING: &str = "Please enter your email address.";
pub const PHONE_MISSING: &str = "Please enter your phone number.";
pub const MESSAGE_MISSING: &str = "Please enter a message.";

/// Longest accepted values, in characters.
pub const NAME_MAX: usize = 100;
pub const MESSAGE_MAX: usize = 5000;
pub const IDEMPOTENCY_KEY_MAX: usize = 128;

/// Keys a client could use to claim a tenant. The dealer always comes from
/// the request's origin, so these are dropped rather than stored where a
/// later reader might believe them.
const TENANT_KEYS: [&str; 3] = ["dealer", "dealership_slug", "dealership_id"];

/// What the shopper asked for; decides routing later and which fields are
/// required now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeadCategory {
    Enquiry,
    TestDrive,
    Finance,
    TradeIn,
    Fleet,
    PhotoRequest,
    Offer,
    FindMeSimilar,
    General,
    Careers,
    Service,
}

impl LeadCategory {
    pub const ALL: [LeadCategory; 11] = [
        LeadCategory::Enquiry,
        LeadCategory::TestDrive,
        LeadCategory::Finance,
        LeadCategory::TradeIn,
        LeadCategory::Fleet,
        LeadCategory::PhotoRequest,
        LeadCategory::Offer,
        LeadCategory::FindMeSimilar,
        LeadCategory::General,
        LeadCategory::Careers,
        LeadCategory::Service,
    ];

    /// The wire name (`test_drive`), also stored in the `category` column.
    pub fn as_str(self) -> &'static str {
        match self {
            LeadCategory::Enquiry => "enquiry",
            LeadCategory::TestDrive => "test_drive",
            LeadCategory::Finance => "finance",
            LeadCategory::TradeIn => "trade_in",
            LeadCategory::Fleet => "fleet",
            LeadCategory::PhotoRequest => "photo_request",
            LeadCategory::Offer => "offer",
            LeadCategory::FindMeSimilar => "find_me_similar",
            LeadCategory::General => "general",
            LeadCategory::Careers => "careers",
            LeadCategory::Service => "service",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// Whether the free-text message must be filled in.
    ///
    /// Forms whose intent is already fully stated by the category (book a test
    /// drive, ask for finance, value my trade-in, send me photos, make an
    /// offer, book a service) leave the message optional; open questions need
    /// one. "Find me something similar" is pre-filled by the site, so
    /// requiring it costs nothing. The site's forms use the same table
    /// (`rules/vectors/forms.json`).
    pub fn message_required(self) -> bool {
        matches!(
            self,
            LeadCategory::Enquiry
                | LeadCategory::Fleet
                | LeadCategory::FindMeSimilar
                | LeadCategory::General
                | LeadCategory::Careers
        )
    }
}

/// A lead that passed validation, normalised (trimmed text, phone in
/// national format). Serialised as the `payload` column, and read back from
/// it by the delivery step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lead {
    pub category: LeadCategory,
    pub name: String,
    pub email: String,
    /// National format, `0412345678`.
    pub phone: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub car_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postcode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Always true for a valid lead; kept so the stored record shows consent.
    pub terms_conditions: bool,
    /// Stored in its own column (unique per dealer), not in the payload.
    #[serde(skip)]
    pub idempotency_key: Option<String>,
    /// Fields the form sent that this contract does not name (subcategory,
    /// lead_attributes, opt_in...), kept verbatim for the dealer's CRM.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

/// Validates a parsed lead body for the dealer `config` (the tenant derived
/// from the request origin). Returns every field problem at once.
pub fn validate_lead(body: &Value, config: &EdgeConfig) -> Result<Lead, FieldErrors> {
    let mut errors = FieldErrors::default();
    let Some(obj) = body.as_object() else {
        errors.add("body", "Expected a JSON object.");
        return Err(errors);
    };
    let mut fields = Fields {
        obj,
        errors: &mut errors,
    };

    let category = match fields.line("category", 40) {
        None => {
            fields.require("category", "Please choose an enquiry category.");
            None
        }
        Some(name) => LeadCategory::parse(&name).or_else(|| {
            let expected: Vec<&str> = LeadCategory::ALL.iter().map(|c| c.as_str()).collect();
            fields.errors.add(
                "category",
                format!(
                    "Unknown category; expected one of: {}.",
                    expected.join(", ")
                ),
            );
            None
        }),
    };

    let name = fields.line("name", NAME_MAX);
    if name.is_none() {
        fields.require("name", NAME_MISSING);
    }

    let email = fields.line("email", contact::EMAIL_MAX_LEN);
    match &email {
        None => fields.require("email", EMAIL_MISSING),
        Some(e) if !contact::is_valid_email(e) => fields.errors.add("email", EMAIL_MESSAGE),
        Some(_) => {}
    }

    let phone = match fields.line("phone", contact::PHONE_INPUT_MAX_LEN) {
        None => {
            fields.require("phone", PHONE_MISSING);
            None
        }
        Some(raw) => contact::parse_au_phone(&raw).or_else(|| {
            fields.errors.add("phone", PHONE_MESSAGE);
            None
        }),
    };

    let message = fields.text("message", MESSAGE_MAX, true);
    if message.is_none()
        && config.forms.message_required
        && category.is_some_and(LeadCategory::message_required)
    {
        fields.require("message", MESSAGE_MISSING);
    }

    let car_id = fields.id("car_id");
    let location_id = fields.id("location_id");
    if let Some(id) = &location_id {
        if !config.locations.iter().any(|l| &l.id == id) {
            fields
                .errors
                .add("location_id", "Unknown location for this dealer.");
        }
    }

    let postcode = fields.line("postcode", 16);
    if postcode
        .as_deref()
        .is_some_and(|p| !contact::is_valid_postcode(p))
    {
        fields.errors.add("postcode", POSTCODE_MESSAGE);
    }

    let url = fields.line("url", URL_MAX);
    if url
        .as_deref()
        .is_some_and(|u| !(u.starts_with("https://") || u.starts_with("http://")))
    {
        fields.errors.add("url", "Must be an http(s) address.");
    }

    if obj.get("terms_conditions") != Some(&Value::Bool(true)) {
        fields.errors.add("terms_conditions", TERMS_MESSAGE);
    }

    let idempotency_key = fields.line("idempotency_key", IDEMPOTENCY_KEY_MAX);
    if idempotency_key
        .as_deref()
        .is_some_and(|k| !k.bytes().all(|b| b.is_ascii_graphic()))
    {
        fields.errors.add(
            "idempotency_key",
            "Must be visible ASCII characters without spaces.",
        );
    }

    let extra: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()) && !TENANT_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();

    match (category, name, email, phone) {
        (Some(category), Some(name), Some(email), Some(phone)) if errors.is_empty() => Ok(Lead {
            category,
            name,
            email,
            phone: phone.national().to_string(),
            message,
            car_id,
            location_id,
            postcode,
            url,
            terms_conditions: true,
            idempotency_key,
            extra,
        }),
        _ => Err(errors),
    }
}

/// Answer to a retry whose idempotency key was first used with another
/// request (422, as the IETF Idempotency-Key draft has it). Written for the
/// shopper: this happens when a sent enquiry's answer was lost and the form
/// is sent again with changes.
pub const KEY_REUSED_MESSAGE: &str = "We already received an earlier version of this enquiry (its idempotency_key was used for different details). To send a changed enquiry, please reload the page.";

/// Whether `lead` is the same request as the one stored with the same
/// idempotency key (`stored_payload`, the `payload` column). Compared as
/// normalised leads, so a retry that differs only in white space around a
/// value or in the order of its keys is the same request.
pub fn same_request(stored_payload: &str, lead: &Lead) -> bool {
    match (
        serde_json::from_str::<Value>(stored_payload),
        serde_json::to_value(lead),
    ) {
        (Ok(stored), Ok(new)) => stored == new,
        _ => false,
    }
}

const KNOWN_KEYS: [&str; 11] = [
    "category",
    "name",
    "email",
    "phone",
    "message",
    "car_id",
    "location_id",
    "postcode",
    "url",
    "terms_conditions",
    "idempotency_key",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::ID_MAX;
    use dealer_rules::edge_config::{EdgeFeatures, EdgeLocation, LeadRouting};
    use serde_json::json;

    fn config() -> EdgeConfig {
        EdgeConfig {
            dealer: "demo".into(),
            name: "Demo Motors".into(),
            origins: vec!["https://demo.example".into()],
            locations: vec![EdgeLocation {
                id: "loc-1".into(),
                name: "Perth".into(),
                phone: "0891234567".into(),
                lead_email: None,
            }],
            leads: LeadRouting {
                email: Some("leads@demo.example".into()),
                webhook_url: None,
            },
            features: EdgeFeatures {
                watchlist: true,
                phone_reveal: true,
                trade_in: true,
            },
            ..serde_json::from_value(
                json!({"dealer": "", "name": "", "origins": [], "locations": [],
                "leads": {"email": null, "webhook_url": null},
                "features": {"watchlist": false, "phone_reveal": false}}),
            )
            .unwrap()
        }
    }

    fn valid() -> Value {
        json!({
            "category": "enquiry",
            "name": "  Jo Bloggs ",
            "email": "jo@example.com.au",
            "phone": "0412 345 678",
            "message": "Is it still available?\nThanks",
            "terms_conditions": true
        })
    }

    fn with(mut body: Value, key: &str, value: Value) -> Value {
        body[key] = value;
        body
    }

    fn without(mut body: Value, key: &str) -> Value {
        body.as_object_mut().unwrap().remove(key);
        body
    }

    fn errors(body: Value) -> FieldErrors {
        validate_lead(&body, &config()).expect_err("should be invalid")
    }

    #[test]
    fn valid_lead_is_normalised() {
        let lead = validate_lead(&valid(), &config()).unwrap();
        assert_eq!(lead.category, LeadCategory::Enquiry);
        assert_eq!(lead.name, "Jo Bloggs");
        assert_eq!(lead.phone, "0412345678");
        assert_eq!(
            lead.message.as_deref(),
            Some("Is it still available?\nThanks")
        );
        assert!(lead.terms_conditions);
        assert_eq!(lead.idempotency_key, None);
    }

    #[test]
    fn every_category_round_trips_and_unknown_is_named() {
        for c in LeadCategory::ALL {
            assert_eq!(LeadCategory::parse(c.as_str()), Some(c));
            assert_eq!(serde_json::to_value(c).unwrap(), json!(c.as_str()));
            let body = with(valid(), "category", json!(c.as_str()));
            assert_eq!(validate_lead(&body, &config()).unwrap().category, c);
        }
        let e = errors(with(valid(), "category", json!("spam")));
        assert!(e
            .get("category")
            .unwrap()
            .starts_with("Unknown category; expected one of: enquiry, test_drive,"));
        assert_eq!(
            errors(without(valid(), "category")).get("category"),
            Some("Please choose an enquiry category.")
        );
    }

    #[test]
    fn terms_must_be_true() {
        for terms in [json!(false), json!("true"), json!(1), Value::Null] {
            assert_eq!(
                errors(with(valid(), "terms_conditions", terms)).get("terms_conditions"),
                Some(TERMS_MESSAGE)
            );
        }
        assert_eq!(
            errors(without(valid(), "terms_conditions")).get("terms_conditions"),
            Some(TERMS_MESSAGE)
        );
        assert_eq!(
            TERMS_MESSAGE,
            "*You must agree to the terms of use before submitting."
        );
    }

    #[test]
    fn required_contact_fields_each_have_a_message() {
        let e = errors(json!({"category": "enquiry", "message": "hi", "terms_conditions": true}));
        assert_eq!(e.get("name"), Some("Please enter your name."));
        assert_eq!(e.get("email"), Some("Please enter your email address."));
        assert_eq!(e.get("phone"), Some("Please enter your phone number."));
        assert_eq!(e.0.len(), 3, "{e:?}");
        // Blank counts as missing.
        assert_eq!(
            errors(with(valid(), "name", json!("   "))).get("name"),
            Some("Please enter your name.")
        );
    }

    #[test]
    fn bad_contact_details_use_the_shared_messages() {
        let e = errors(with(
            with(valid(), "email", json!("jo@")),
            "phone",
            json!("0512 345 678"),
        ));
        assert_eq!(e.get("email"), Some(EMAIL_MESSAGE));
        assert_eq!(e.get("phone"), Some(PHONE_MESSAGE));
        let landline = with(valid(), "phone", json!("+61 2 9876 5432"));
        assert_eq!(
            validate_lead(&landline, &config()).unwrap().phone,
            "0298765432"
        );
    }

    #[test]
    fn message_required_only_for_open_questions() {
        for c in LeadCategory::ALL {
            let body = with(without(valid(), "message"), "category", json!(c.as_str()));
            let result = validate_lead(&body, &config());
            if c.message_required() {
                assert_eq!(
                    result.unwrap_err().get("message"),
                    Some("Please enter a message."),
                    "{c:?}"
                );
            } else {
                assert_eq!(result.unwrap().message, None, "{c:?}");
            }
        }
        assert!(LeadCategory::Enquiry.message_required());
        assert!(LeadCategory::General.message_required());
        assert!(!LeadCategory::TestDrive.message_required());
        assert!(!LeadCategory::TradeIn.message_required());
    }

    #[test]
    fn stored_payload_reads_back_as_the_same_lead() {
        let lead = validate_lead(&valid(), &config()).unwrap();
        let json = serde_json::to_string(&lead).unwrap();
        let back: Lead = serde_json::from_str(&json).unwrap();
        assert_eq!(
            back,
            Lead {
                idempotency_key: None,
                ..lead
            }
        );
    }

    #[test]
    fn dealer_switch_makes_the_message_optional() {
        let mut relaxed = config();
        relaxed.forms.message_required = false;
        let body = without(valid(), "message");
        assert!(validate_lead(&body, &config()).is_err());
        assert_eq!(validate_lead(&body, &relaxed).unwrap().message, None);
    }

    #[test]
    fn length_limits() {
        let e = errors(with(valid(), "name", json!("x".repeat(NAME_MAX + 1))));
        assert_eq!(e.get("name"), Some("Must be at most 100 characters."));
        assert!(
            validate_lead(
                &with(valid(), "name", json!("é".repeat(NAME_MAX))),
                &config()
            )
            .is_ok(),
            "limit counts characters"
        );
        let e = errors(with(valid(), "message", json!("x".repeat(MESSAGE_MAX + 1))));
        assert_eq!(e.get("message"), Some("Must be at most 5000 characters."));
        let e = errors(with(valid(), "car_id", json!("x".repeat(ID_MAX + 1))));
        assert_eq!(e.get("car_id"), Some("Must be at most 64 characters."));
        let e = errors(with(
            valid(),
            "idempotency_key",
            json!("k".repeat(IDEMPOTENCY_KEY_MAX + 1)),
        ));
        assert!(e.get("idempotency_key").is_some());
    }

    #[test]
    fn wrong_types_and_control_characters() {
        let e = errors(with(
            with(valid(), "name", json!(42)),
            "email",
            json!(["jo@example.com"]),
        ));
        assert_eq!(e.get("name"), Some("Must be text."));
        assert_eq!(e.get("email"), Some("Must be text."));
        let e = errors(with(valid(), "name", json!("Jo\u{0}Bloggs")));
        assert_eq!(e.get("name"), Some("Must not contain control characters."));
        let e = errors(with(valid(), "message", json!("hi\u{1b}[31m")));
        assert_eq!(
            e.get("message"),
            Some("Must not contain control characters.")
        );
        assert_eq!(
            errors(json!(["not", "an", "object"])).get("body"),
            Some("Expected a JSON object.")
        );
    }

    #[test]
    fn postcode_checked_only_when_present() {
        assert_eq!(
            errors(with(valid(), "postcode", json!("600"))).get("postcode"),
            Some(POSTCODE_MESSAGE)
        );
        assert_eq!(
            errors(with(valid(), "postcode", json!("60000"))).get("postcode"),
            Some(POSTCODE_MESSAGE)
        );
        let lead = validate_lead(&with(valid(), "postcode", json!(" 6000 ")), &config()).unwrap();
        assert_eq!(lead.postcode.as_deref(), Some("6000"));
        assert_eq!(
            validate_lead(&with(valid(), "postcode", json!("")), &config())
                .unwrap()
                .postcode,
            None
        );
    }

    #[test]
    fn ids_location_and_url() {
        let body = with(
            with(valid(), "car_id", json!(12345)),
            "location_id",
            json!("loc-1"),
        );
        let lead = validate_lead(&body, &config()).unwrap();
        assert_eq!(lead.car_id.as_deref(), Some("12345"));
        assert_eq!(lead.location_id.as_deref(), Some("loc-1"));
        assert_eq!(
            errors(with(valid(), "car_id", json!(-1))).get("car_id"),
            Some("Must be a whole number or text.")
        );
        assert_eq!(
            errors(with(valid(), "location_id", json!("other-dealers-loc"))).get("location_id"),
            Some("Unknown location for this dealer.")
        );
        assert_eq!(
            errors(with(valid(), "url", json!("javascript:alert(1)"))).get("url"),
            Some("Must be an http(s) address.")
        );
        let lead = validate_lead(
            &with(valid(), "url", json!("https://demo.example/cars/x")),
            &config(),
        )
        .unwrap();
        assert_eq!(lead.url.as_deref(), Some("https://demo.example/cars/x"));
    }

    #[test]
    fn idempotency_key_is_kept_out_of_the_payload() {
        let lead = validate_lead(
            &with(valid(), "idempotency_key", json!("abc-123")),
            &config(),
        )
        .unwrap();
        assert_eq!(lead.idempotency_key.as_deref(), Some("abc-123"));
        assert!(serde_json::to_value(&lead)
            .unwrap()
            .get("idempotency_key")
            .is_none());
        assert!(errors(with(valid(), "idempotency_key", json!("has space")))
            .get("idempotency_key")
            .is_some());
    }

    #[test]
    fn a_retry_is_the_same_request_only_with_the_same_content() {
        let lead =
            validate_lead(&with(valid(), "idempotency_key", json!("k-1")), &config()).unwrap();
        let stored = serde_json::to_string(&lead).unwrap();
        let retry = json!({
            "terms_conditions": true, "message": "Is it still available?\nThanks",
            "phone": "0412345678", "email": "jo@example.com.au", "name": "Jo Bloggs",
            "category": "enquiry", "idempotency_key": "k-1"
        });
        let retry = validate_lead(&retry, &config()).unwrap();
        assert!(
            same_request(&stored, &retry),
            "normalised, in another key order"
        );
        let other = validate_lead(
            &with(valid(), "message", json!("Another question")),
            &config(),
        )
        .unwrap();
        assert!(!same_request(&stored, &other));
        let extra =
            validate_lead(&with(valid(), "subcategory", json!("Finance")), &config()).unwrap();
        assert!(
            !same_request(&stored, &extra),
            "extra fields are part of the request"
        );
        assert!(!same_request("not json", &lead));
    }

    #[test]
    fn extra_fields_kept_but_tenant_claims_dropped() {
        let body = with(
            with(
                with(valid(), "subcategory", json!("Find me something similar")),
                "dealership_slug",
                json!("other"),
            ),
            "dealer",
            json!("other"),
        );
        let lead = validate_lead(&body, &config()).unwrap();
        assert_eq!(
            lead.extra.get("subcategory"),
            Some(&json!("Find me something similar"))
        );
        assert!(!lead.extra.contains_key("dealership_slug"));
        assert!(!lead.extra.contains_key("dealer"));
        let payload = serde_json::to_value(&lead).unwrap();
        assert_eq!(
            payload["extra"]["subcategory"],
            json!("Find me something similar")
        );
        assert_eq!(payload["phone"], json!("0412345678"));
    }

    #[test]
    fn all_problems_reported_at_once() {
        let e = errors(
            json!({"category": "enquiry", "email": "nope", "phone": "123", "postcode": "x"}),
        );
        let fields: Vec<&str> = e.0.keys().map(String::as_str).collect();
        assert_eq!(
            fields,
            [
                "email",
                "message",
                "name",
                "phone",
                "postcode",
                "terms_conditions"
            ]
        );
    }
}
