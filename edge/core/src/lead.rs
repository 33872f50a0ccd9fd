//! Lead capture: the body a site's forms send to `POST /api/leads` (JSON,
//! or a form post without JavaScript turned into the same JSON by
//! [`crate::form_post`]), and the rules it must pass before the worker
//! stores it. Field names follow the dealer platforms' lead payload
//! (docs/behaviour/car-page.md §3, "Lead payload" and "Car form defaults";
//! §7 for the trade-in valuation); `edge/openapi.yaml` (LeadBody,
//! StoredLead) documents each one.
//!
//! Validation works on an already parsed [`serde_json::Value`] rather than
//! through `#[derive(Deserialize)]`, so that every field gets its own message
//! for the shopper ("Please enter your phone number.") instead of one serde
//! error about the first bad field, and so that all problems are reported at
//! once.
//!
//! The vehicle is not read from the body: `vehicle::fill` fills it
//! from the dealer's published stock afterwards.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::input::{FieldErrors, Fields, URL_MAX};
use crate::lead_parts::{
    is_time, parse_date, ClaimedVehicle, LeadAttributes, LeadVehicle, TradeInVehicle, CLAIM_KEYS,
    KMS_MAX, KMS_MESSAGE, REGO_STATE_MESSAGE, STATES,
};
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
/// An unsubscribe with neither an e-mail address nor a phone number.
pub const UNSUBSCRIBE_MISSING: &str =
    "Please enter the email address or mobile number to unsubscribe.";
pub const OFFER_MISSING: &str = "Please enter your offer amount.";
pub const OFFER_MESSAGE: &str = "Please enter your offer as an amount in dollars.";
pub const DATE_MESSAGE: &str = "Please choose a date from today on, within a year.";
pub const TIME_MESSAGE: &str = "Please choose a time as HH:MM.";

/// Longest accepted values, in characters.
pub const NAME_MAX: usize = 100;
pub const MESSAGE_MAX: usize = 5000;
pub const IDEMPOTENCY_KEY_MAX: usize = 128;
pub const USER_AGENT_MAX: usize = 512;
/// Largest offer accepted, in dollars.
pub const OFFER_MAX: f64 = 10_000_000.0;
/// The value of `source` every lead carries (spec: source "Website").
pub const SOURCE: &str = "Website";

/// The body fields of the Turnstile token and the honeypot.
pub const TURNSTILE_FIELD: &str = "cf-turnstile-response";
pub const HONEYPOT_FIELD: &str = "website";
/// The body field of a later step's flow token ([`crate::lead_flow`]).
pub const FLOW_TOKEN_FIELD: &str = "flow_token";

/// Keys a client could use to claim a tenant. The dealer always comes from
/// the request's origin, so these are dropped rather than stored where a
/// later reader might believe them; the worker stores the real ones.
const TENANT_KEYS: [&str; 4] = [
    "dealer",
    "dealership_slug",
    "dealership_id",
    "car_dealership_id",
];

/// Older or spec spellings of a field, and the field they mean.
const ALIASES: [(&str, &str); 6] = [
    ("location", "location_id"),
    ("Rego", "rego"),
    ("Vehicle Make", "make"),
    ("Vehicle Model", "model"),
    ("PreferredContactMethod", "preferred_contact_method"),
    ("offer_from_client", "offer_amount"),
];

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
    /// A parts enquiry (the parts page, the contact page's Parts Enquiry).
    Parts,
    /// The customer feedback survey (`/customer-feedback-survey/`): a
    /// shopper who had a bad experience tells the dealer.
    Feedback,
    /// A withdrawal of marketing consent (`/unsubscribe/`): the CRM stops
    /// the shopper's offers. Needs only an e-mail address or a mobile.
    Unsubscribe,
    /// A paid (or deposit-free) online reservation; created by the worker
    /// when the payment is confirmed, never accepted from a form.
    Reserve,
}

impl LeadCategory {
    /// The categories a form may send.
    pub const ALL: [LeadCategory; 14] = [
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
        LeadCategory::Parts,
        LeadCategory::Feedback,
        LeadCategory::Unsubscribe,
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
            LeadCategory::Parts => "parts",
            LeadCategory::Feedback => "feedback",
            LeadCategory::Unsubscribe => "unsubscribe",
            LeadCategory::Reserve => "reserve",
        }
    }

    /// A category a form may send (never [`LeadCategory::Reserve`]).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// Whether the free-text message must be filled in.
    ///
    /// Forms whose intent is already fully stated by the category (book a test
    /// drive, ask for finance, value my trade-in, send me photos, make an
    /// offer, book a service) leave the message optional; open questions need
    /// one. "Find me something similar" is pre-filled by the site, so
    /// requiring it costs nothing. A parts enquiry names the parts and a
    /// survey says what went wrong; an unsubscribe needs no words. The site's forms use the same table
    /// (`rules/vectors/forms.json`).
    pub fn message_required(self) -> bool {
        matches!(
            self,
            LeadCategory::Enquiry
                | LeadCategory::Fleet
                | LeadCategory::FindMeSimilar
                | LeadCategory::General
                | LeadCategory::Careers
                | LeadCategory::Parts
                | LeadCategory::Feedback
        )
    }
}

/// How the captcha was judged for a stored lead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptchaCheck {
    /// Turnstile's siteverify accepted the token.
    Verified,
    /// siteverify could not be reached in time: stored anyway (a lead is
    /// never lost to an outage), marked so the dealer can judge.
    Unverified,
    /// A later step of a flow whose first lead passed the captcha.
    NotRequired,
    /// The dealer has no captcha.
    Off,
}

fn is_false(b: &bool) -> bool {
    !b
}

fn website() -> String {
    SOURCE.to_string()
}

/// A lead that passed validation, normalised (trimmed text, phone in
/// national format). Serialised as the `payload` column, the `lead` of the
/// webhook JSON, and read back from it by the delivery step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lead {
    pub category: LeadCategory,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subcategory: Option<String>,
    /// The full name, or the first name when `last_name` is given.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    pub email: String,
    /// National format, `0412345678`.
    pub phone: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub car_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub car_slug: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postcode: Option<String>,
    /// The page the form was sent from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Always "Website".
    #[serde(default = "website")]
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_agent: Option<String>,
    /// The dealer, from the request's Origin (filled by the worker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealership_slug: Option<String>,
    /// The dealer's id in the stock system (filled by the worker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub car_dealership_id: Option<u64>,
    /// The car, from the dealer's stock (filled by the worker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vehicle: Option<LeadVehicle>,
    /// What the client said about a car that is not in the stock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed_vehicle: Option<ClaimedVehicle>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead_attributes: Option<LeadAttributes>,
    /// The first lead of a multi-step flow (the body's `lead_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_lead_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form_completed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_accepted: Option<bool>,
    /// Registration plate, upper case without spaces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rego: Option<String>,
    #[serde(rename = "regoState", default, skip_serializing_if = "Option::is_none")]
    pub rego_state: Option<String>,
    /// Odometer of the shopper's car.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trade_in_vehicle: Option<TradeInVehicle>,
    #[serde(
        rename = "adjustmentAnswers",
        default,
        skip_serializing_if = "Map::is_empty"
    )]
    pub adjustment_answers: Map<String, Value>,
    /// Marketing opt-in: true only when the shopper ticked the box, which
    /// is never ticked for them (the Spam Act regulator, ACMA, does not take
    /// a pre-ticked box as consent). Absent: not ticked.
    #[serde(default)]
    pub opt_in: bool,
    /// What the shopper agreed to by ticking it (filled from the dealer's
    /// config and the request): the record of consent the CRM keeps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consent: Option<Consent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt_in_finance: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt_in_trade: Option<bool>,
    /// "do-you-have-a-trade-in".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_trade_in: Option<bool>,
    /// The valuation form's "finance" Yes/No.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wants_finance: Option<bool>,
    /// Phone, Email or SMS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_contact_method: Option<String>,
    /// Test drive: YYYY-MM-DD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_date: Option<String>,
    /// Test drive: HH:MM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_time: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distribution_location: Option<String>,
    /// Make an offer: dollars.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offer_amount: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_id: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_services: Vec<String>,
    /// Whether the terms box was ticked (always true where the dealer
    /// requires it); kept so the stored record shows consent.
    #[serde(default, skip_serializing_if = "is_false")]
    pub terms_conditions: bool,
    /// How the captcha was judged (filled by the worker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captcha: Option<CaptchaCheck>,
    /// The form asked for the captcha (a step-up) could not get a token:
    /// stored held rather than refused, and the dealer sees why.
    #[serde(default, skip_serializing_if = "is_false")]
    pub captcha_unavailable: bool,
    /// A reservation lead's hold (filled by the worker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold_id: Option<String>,
    /// Stored in its own column (unique per dealer), not in the payload.
    #[serde(skip)]
    pub idempotency_key: Option<String>,
    /// The Turnstile token: checked once, never stored.
    #[serde(skip)]
    pub turnstile_token: Option<String>,
    /// The flow token a later step carries ([`crate::lead_flow`]):
    /// checked, never stored.
    #[serde(skip)]
    pub flow_token: Option<String>,
    /// Fields the form sent that this contract does not name (a
    /// campaign's tag, a dealer's own hidden input), kept verbatim for the
    /// dealer's CRM within [`EXTRA_FIELDS_MAX`] scalar fields.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
    /// How many such fields were not kept (past the bounds): the CRM is
    /// told that the post carried more than it received.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_dropped: u32,
}

/// A shopper's marketing consent, kept as the regulator expects a sender
/// to be able to show it: the terms agreed to, when, where and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Consent {
    /// The opt-in's words as the site showed them beside the box
    /// (`forms.opt_in_text`).
    pub text: String,
    /// When the edge received the ticked box, `YYYY-MM-DDTHH:MM:SSZ`.
    pub given_at: String,
    /// The page the form was on (the form's `url`), when it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// How it was given: [`CONSENT_METHOD`].
    pub method: String,
}

/// How every consent the site collects is given.
pub const CONSENT_METHOD: &str = "ticked an unticked box on the website's form";

impl Consent {
    /// The consent of a shopper who ticked the opt-in of `config`'s forms
    /// on `page`, received at `now` (unix seconds).
    pub fn marketing(config: &EdgeConfig, page: Option<String>, now: u64) -> Self {
        Consent {
            text: config.forms.opt_in_text.clone(),
            given_at: crate::lead_parts::iso8601(now),
            page,
            method: CONSENT_METHOD.into(),
        }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// At most this many fields the contract does not name are kept with a
/// lead: enough for campaign tags and a dealer's own hidden inputs, not a
/// bot's thousands.
pub const EXTRA_FIELDS_MAX: usize = 20;
/// The longest name of such a field.
pub const EXTRA_KEY_MAX: usize = 64;
/// The longest text value of such a field, in characters.
pub const EXTRA_VALUE_MAX: usize = 500;

/// The unknown fields kept (scalars with short names and values, the
/// first [`EXTRA_FIELDS_MAX`] by name) and how many were dropped.
fn bounded_extra<'a>(
    fields: impl Iterator<Item = (&'a String, &'a Value)>,
) -> (Map<String, Value>, u32) {
    let mut kept = Map::new();
    let mut dropped = 0u32;
    for (key, value) in fields {
        let key_ok = !key.is_empty()
            && key.chars().count() <= EXTRA_KEY_MAX
            && !key.chars().any(char::is_control);
        let value_ok = match value {
            Value::String(s) => s.chars().count() <= EXTRA_VALUE_MAX,
            Value::Bool(_) | Value::Number(_) | Value::Null => true,
            Value::Array(_) | Value::Object(_) => false,
        };
        if key_ok && value_ok && kept.len() < EXTRA_FIELDS_MAX {
            kept.insert(key.clone(), value.clone());
        } else {
            dropped = dropped.saturating_add(1);
        }
    }
    (kept, dropped)
}

/// Whether a body's honeypot field is filled in: only a bot fills a field
/// people cannot see. Such a call gets a fake success and stores nothing.
pub fn is_honeypot_hit(body: &Value) -> bool {
    match body.get(HONEYPOT_FIELD) {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(_) => true,
    }
}

/// The body with the older field names moved to the ones this contract
/// uses (a name already present wins).
fn with_aliases(obj: &Map<String, Value>) -> Map<String, Value> {
    let mut out = obj.clone();
    for (alias, name) in ALIASES {
        if let Some(v) = out.remove(alias) {
            out.entry(name).or_insert(v);
        }
    }
    out
}

/// Validates a parsed lead body for the dealer `config` (the tenant derived
/// from the request origin) at unix time `now`. Returns every field problem
/// at once.
pub fn validate_lead(body: &Value, config: &EdgeConfig, now: u64) -> Result<Lead, FieldErrors> {
    let mut errors = FieldErrors::default();
    let Some(obj) = body.as_object() else {
        errors.add("body", "Expected a JSON object.");
        return Err(errors);
    };
    let obj = with_aliases(obj);
    let mut fields = Fields {
        obj: &obj,
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
    let subcategory = fields.line("subcategory", 100);

    // Withdrawing consent asks for nothing but the address to stop (the
    // Spam Act's functional unsubscribe): no name, and an e-mail or a mobile.
    let withdrawal = category == Some(LeadCategory::Unsubscribe);
    let contact = if withdrawal {
        read_withdrawal_contact(&mut fields)
    } else {
        read_contact(&mut fields, config)
    };

    let message = fields.text("message", MESSAGE_MAX, true);
    if message.is_none()
        && config.forms.message_required
        && category.is_some_and(LeadCategory::message_required)
    {
        fields.require("message", MESSAGE_MISSING);
    }

    let car_id = fields.id("car_id");
    let car_slug = fields.line("car_slug", dealer_rules::slug::CAR_SLUG_MAX);
    if car_slug
        .as_deref()
        .is_some_and(|s| !dealer_rules::slug::is_car_slug(s))
    {
        fields.errors.add("car_slug", "Must be a car's page slug.");
    }
    let location_id = fields.id("location_id");
    if let Some(id) = &location_id {
        if !config.locations.iter().any(|l| &l.id == id) {
            fields
                .errors
                .add("location_id", "Unknown location for this dealer.");
        }
    }

    let url = fields.line("url", URL_MAX);
    if url
        .as_deref()
        .is_some_and(|u| !(u.starts_with("https://") || u.starts_with("http://")))
    {
        fields.errors.add("url", "Must be an http(s) address.");
    }
    if let Some(source) = fields.line("source", 40) {
        if !source.eq_ignore_ascii_case(SOURCE) {
            fields.errors.add("source", "Must be \"Website\".");
        }
    }
    // Metadata, not the shopper's words: a very long one is cut, never a
    // reason to refuse the enquiry.
    let user_agent = match obj.get("user_agent") {
        Some(Value::String(ua)) => clean_user_agent(ua),
        _ => None,
    };

    let lead_attributes = fields.lead_attributes("lead_attributes");
    let previous_lead_id = fields.line("lead_id", crate::input::ID_MAX);
    let form_completed = fields.boolean("form_completed");
    let offer_accepted = fields.boolean("offer_accepted");
    let rego = fields.rego("rego");
    let rego_state = fields
        .one_of("regoState", &STATES, REGO_STATE_MESSAGE)
        .map(String::from);
    let kms = fields.whole("kms", 0..=KMS_MAX, KMS_MESSAGE);
    let trade_in_vehicle = Some(fields.trade_in_vehicle()).filter(|v| !v.is_empty());
    let adjustment_answers = fields.answers("adjustmentAnswers");

    // An unsubscribe is never consent, whatever the post says.
    let opt_in = fields.boolean("opt_in").unwrap_or(false) && !withdrawal;
    let opt_in_finance = fields.boolean("opt_in_finance");
    let opt_in_trade = fields.boolean("opt_in_trade");
    let has_trade_in = fields.yes_no("do-you-have-a-trade-in");
    let wants_finance = fields.yes_no("finance");
    let preferred_contact_method = fields
        .one_of(
            "preferred_contact_method",
            &["Phone", "Email", "SMS"],
            "Please choose Phone, Email or SMS.",
        )
        .map(String::from);

    let preferred_date = fields.line("preferred_date", 10);
    if let Some(date) = &preferred_date {
        let today = (now / 86_400) as i64;
        // A day either side of UTC's today: the shopper's "today" in
        // Australia is up to 14 hours ahead of UTC.
        let ok = parse_date(date).is_some_and(|d| d >= today - 1 && d <= today + 366);
        if !ok {
            fields.errors.add("preferred_date", DATE_MESSAGE);
        }
    }
    let preferred_time = fields.line("preferred_time", 5);
    if preferred_time.as_deref().is_some_and(|t| !is_time(t)) {
        fields.errors.add("preferred_time", TIME_MESSAGE);
    }
    let distribution_location = fields.line("distribution_location", 100);

    let offer_amount = fields.dollars("offer_amount", OFFER_MAX, OFFER_MESSAGE);
    if offer_amount.is_none() && category == Some(LeadCategory::Offer) {
        fields.require("offer_amount", OFFER_MISSING);
    }
    let page_id = fields.line("page_id", 64);
    let additional_services = fields.text_list("additional_services", 20, 100);

    let terms = fields.boolean("terms_conditions");
    // Withdrawing consent never waits on agreeing to terms.
    if config.forms.terms_required && terms != Some(true) && !withdrawal {
        // One message for unticked, missing or malformed: the shopper's fix
        // is the same.
        fields.errors.0.remove("terms_conditions");
        fields.errors.add("terms_conditions", TERMS_MESSAGE);
    }

    let idempotency_key = read_idempotency_key(&mut fields);
    let turnstile_token = fields.line(TURNSTILE_FIELD, 2048);
    let flow_token = fields.line(FLOW_TOKEN_FIELD, 256);
    let captcha_unavailable = fields
        .boolean(crate::turnstile::CAPTCHA_UNAVAILABLE_FIELD)
        .unwrap_or(false);

    let (extra, extra_dropped) = bounded_extra(obj.iter().filter(|(k, _)| {
        !KNOWN_KEYS.contains(&k.as_str())
            && !TENANT_KEYS.contains(&k.as_str())
            && !CLAIM_KEYS.contains(&k.as_str())
    }));
    let claims = ClaimedVehicle::read(&obj);

    match (category, contact) {
        (Some(category), Some(contact)) if errors.is_empty() => Ok(Lead {
            category,
            subcategory,
            name: contact.name,
            last_name: contact.last_name,
            email: contact.email,
            phone: contact.phone,
            message,
            car_id,
            car_slug,
            location_id,
            postcode: contact.postcode,
            source: SOURCE.into(),
            user_agent,
            dealership_slug: None,
            car_dealership_id: None,
            vehicle: None,
            claimed_vehicle: Some(claims).filter(|c| !c.is_empty()),
            lead_attributes,
            previous_lead_id,
            form_completed,
            offer_accepted,
            rego,
            rego_state,
            kms,
            trade_in_vehicle,
            adjustment_answers,
            consent: opt_in.then(|| Consent::marketing(config, url.clone(), now)),
            url,
            opt_in,
            opt_in_finance,
            opt_in_trade,
            has_trade_in,
            wants_finance,
            preferred_contact_method,
            preferred_date,
            preferred_time,
            distribution_location,
            offer_amount,
            page_id,
            additional_services,
            terms_conditions: terms == Some(true),
            captcha: None,
            captcha_unavailable,
            hold_id: None,
            idempotency_key,
            turnstile_token,
            flow_token,
            extra,
            extra_dropped,
        }),
        _ => Err(errors),
    }
}

/// A User-Agent as stored: control characters dropped, at most
/// [`USER_AGENT_MAX`] characters.
pub fn clean_user_agent(ua: &str) -> Option<String> {
    let cleaned: String = ua
        .trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(USER_AGENT_MAX)
        .collect();
    Some(cleaned).filter(|s| !s.is_empty())
}

/// The shopper's contact details, as every form that stores them checks
/// them (leads, checkout holds).
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    pub name: String,
    pub last_name: Option<String>,
    pub email: String,
    /// National format.
    pub phone: String,
    pub postcode: Option<String>,
}

/// Reads name (required), last_name, email (required), phone (required,
/// Australian) and postcode (4 digits when given).
pub(crate) fn read_contact(fields: &mut Fields<'_>, _config: &EdgeConfig) -> Option<Contact> {
    let name = fields.line("name", NAME_MAX);
    if name.is_none() {
        fields.require("name", NAME_MISSING);
    }
    let last_name = fields.line("last_name", NAME_MAX);

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

    let postcode = fields.line("postcode", 16);
    if postcode
        .as_deref()
        .is_some_and(|p| !contact::is_valid_postcode(p))
    {
        fields.errors.add("postcode", POSTCODE_MESSAGE);
    }
    match (name, email, phone) {
        (Some(name), Some(email), Some(phone)) => Some(Contact {
            name,
            last_name,
            email,
            phone: phone.national().to_string(),
            postcode,
        }),
        _ => None,
    }
}

/// An unsubscribe's contact: the name when given, and an e-mail address or
/// a phone number (at least one, each checked when given); what is not
/// given is stored empty.
fn read_withdrawal_contact(fields: &mut Fields<'_>) -> Option<Contact> {
    let name = fields.line("name", NAME_MAX).unwrap_or_default();
    let last_name = fields.line("last_name", NAME_MAX);
    let email = fields.line("email", contact::EMAIL_MAX_LEN);
    let email_ok = email.as_deref().is_none_or(contact::is_valid_email);
    if !email_ok {
        fields.errors.add("email", EMAIL_MESSAGE);
    }
    let phone = fields.line("phone", contact::PHONE_INPUT_MAX_LEN);
    let parsed = phone.as_deref().map(contact::parse_au_phone);
    if parsed.as_ref().is_some_and(Option::is_none) {
        fields.errors.add("phone", PHONE_MESSAGE);
    }
    if email.is_none() && phone.is_none() {
        fields.require("email", UNSUBSCRIBE_MISSING);
        return None;
    }
    if !email_ok || parsed.as_ref().is_some_and(Option::is_none) {
        return None;
    }
    Some(Contact {
        name,
        last_name,
        email: email.unwrap_or_default(),
        phone: parsed
            .flatten()
            .map(|p| p.national().to_string())
            .unwrap_or_default(),
        postcode: None,
    })
}

pub(crate) fn read_idempotency_key(fields: &mut Fields<'_>) -> Option<String> {
    let key = fields.line("idempotency_key", IDEMPOTENCY_KEY_MAX);
    if key
        .as_deref()
        .is_some_and(|k| !k.bytes().all(|b| b.is_ascii_graphic()))
    {
        fields.errors.add(
            "idempotency_key",
            "Must be visible ASCII characters without spaces.",
        );
    }
    key
}

/// Answer to a retry whose idempotency key was first used with another
/// request (422, as the IETF Idempotency-Key draft has it). Written for the
/// shopper: this happens when a sent enquiry's answer was lost and the form
/// is sent again with changes.
pub const KEY_REUSED_MESSAGE: &str = "We already received an earlier version of this enquiry (its idempotency_key was used for different details). To send a changed enquiry, please reload the page.";

/// Parts of a stored lead the worker fills in, which a retry of the same
/// request may see differently (the stock changed, the captcha token was
/// used up, the consent's time is the retry's); they do not make two
/// requests different.
const FILLED_BY_WORKER: [&str; 7] = [
    "vehicle",
    "consent",
    "claimed_vehicle",
    "captcha",
    "dealership_slug",
    "car_dealership_id",
    "location_id",
];

/// Whether `lead` is the same request as the one stored with the same
/// idempotency key (`stored_payload`, the `payload` column). Compared as
/// normalised leads, so a retry that differs only in white space around a
/// value or in the order of its keys is the same request; what the worker
/// filled in is left out of the comparison.
pub fn same_request(stored_payload: &str, lead: &Lead) -> bool {
    let strip = |mut v: Value| {
        if let Some(o) = v.as_object_mut() {
            for key in FILLED_BY_WORKER {
                o.remove(key);
            }
        }
        v
    };
    match (
        serde_json::from_str::<Value>(stored_payload),
        serde_json::to_value(lead),
    ) {
        (Ok(stored), Ok(new)) => strip(stored) == strip(new),
        _ => false,
    }
}

/// Every key the contract names (read above), besides the tenant claims
/// and the vehicle claims.
const KNOWN_KEYS: [&str; 44] = [
    "category",
    "subcategory",
    "name",
    "last_name",
    "email",
    "phone",
    "message",
    "car_id",
    "car_slug",
    "location_id",
    "postcode",
    "url",
    "source",
    "user_agent",
    "lead_attributes",
    "lead_id",
    "form_completed",
    "offer_accepted",
    "rego",
    "regoState",
    "kms",
    "trade_in_year",
    "trade_in_make",
    "trade_in_model",
    "trade_in_variant",
    "adjustmentAnswers",
    "opt_in",
    "opt_in_finance",
    "opt_in_trade",
    "do-you-have-a-trade-in",
    "finance",
    "preferred_contact_method",
    "preferred_date",
    "preferred_time",
    "distribution_location",
    "offer_amount",
    "page_id",
    "additional_services",
    "terms_conditions",
    "idempotency_key",
    TURNSTILE_FIELD,
    FLOW_TOKEN_FIELD,
    crate::turnstile::CAPTCHA_UNAVAILABLE_FIELD,
    HONEYPOT_FIELD,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::ID_MAX;
    use dealer_rules::edge_config::{EdgeFeatures, EdgeLocation, LeadRouting};
    use serde_json::json;

    /// 2026-11-20 00:00 UTC.
    const NOW: u64 = 1_795_132_800;

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
        validate_lead(&body, &config(), NOW).expect_err("should be invalid")
    }

    #[test]
    fn valid_lead_is_normalised() {
        let lead = validate_lead(&valid(), &config(), NOW).unwrap();
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
            let body = with(
                with(valid(), "category", json!(c.as_str())),
                "offer_amount",
                json!(100),
            );
            assert_eq!(validate_lead(&body, &config(), NOW).unwrap().category, c);
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
            validate_lead(&landline, &config(), NOW).unwrap().phone,
            "0298765432"
        );
    }

    #[test]
    fn message_required_only_for_open_questions() {
        for c in LeadCategory::ALL {
            let body = with(
                with(without(valid(), "message"), "category", json!(c.as_str())),
                "offer_amount",
                json!(100),
            );
            let result = validate_lead(&body, &config(), NOW);
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
        let lead = validate_lead(&valid(), &config(), NOW).unwrap();
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
        assert!(validate_lead(&body, &config(), NOW).is_err());
        assert_eq!(validate_lead(&body, &relaxed, NOW).unwrap().message, None);
    }

    #[test]
    fn length_limits() {
        let e = errors(with(valid(), "name", json!("x".repeat(NAME_MAX + 1))));
        assert_eq!(e.get("name"), Some("Must be at most 100 characters."));
        assert!(
            validate_lead(
                &with(valid(), "name", json!("é".repeat(NAME_MAX))),
                &config(),
                NOW
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
        let lead =
            validate_lead(&with(valid(), "postcode", json!(" 6000 ")), &config(), NOW).unwrap();
        assert_eq!(lead.postcode.as_deref(), Some("6000"));
        assert_eq!(
            validate_lead(&with(valid(), "postcode", json!("")), &config(), NOW)
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
        let lead = validate_lead(&body, &config(), NOW).unwrap();
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
            NOW,
        )
        .unwrap();
        assert_eq!(lead.url.as_deref(), Some("https://demo.example/cars/x"));
    }

    #[test]
    fn idempotency_key_is_kept_out_of_the_payload() {
        let lead = validate_lead(
            &with(valid(), "idempotency_key", json!("abc-123")),
            &config(),
            NOW,
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
        let lead = validate_lead(
            &with(valid(), "idempotency_key", json!("k-1")),
            &config(),
            NOW,
        )
        .unwrap();
        let stored = serde_json::to_string(&lead).unwrap();
        let retry = json!({
            "terms_conditions": true, "message": "Is it still available?\nThanks",
            "phone": "0412345678", "email": "jo@example.com.au", "name": "Jo Bloggs",
            "category": "enquiry", "idempotency_key": "k-1"
        });
        let retry = validate_lead(&retry, &config(), NOW).unwrap();
        assert!(
            same_request(&stored, &retry),
            "normalised, in another key order"
        );
        let other = validate_lead(
            &with(valid(), "message", json!("Another question")),
            &config(),
            NOW,
        )
        .unwrap();
        assert!(!same_request(&stored, &other));
        let extra = validate_lead(
            &with(valid(), "subcategory", json!("Finance")),
            &config(),
            NOW,
        )
        .unwrap();
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
                with(valid(), "utm_campaign", json!("spring")),
                "dealership_slug",
                json!("other"),
            ),
            "dealer",
            json!("other"),
        );
        let body = with(body, "car_dealership_id", json!(99));
        let lead = validate_lead(&body, &config(), NOW).unwrap();
        assert_eq!(lead.extra.get("utm_campaign"), Some(&json!("spring")));
        for claim in ["dealership_slug", "dealer", "car_dealership_id"] {
            assert!(!lead.extra.contains_key(claim), "{claim}");
        }
        assert_eq!(
            lead.dealership_slug, None,
            "filled by the worker, not the body"
        );
        let payload = serde_json::to_value(&lead).unwrap();
        assert_eq!(payload["extra"]["utm_campaign"], json!("spring"));
        assert_eq!(payload["phone"], json!("0412345678"));
        assert_eq!(payload["source"], json!("Website"));
    }

    #[test]
    fn unknown_fields_are_bounded_and_the_crm_told_how_many_were_dropped() {
        // The attack: 3,272 arbitrary top-level fields in one 31 KiB post.
        let mut body = valid();
        let obj = body.as_object_mut().unwrap();
        for i in 0..3272 {
            obj.insert(format!("f{i:04}"), json!("x"));
        }
        obj.insert("nested".into(), json!({"a": [1, 2, 3]}));
        obj.insert("long".into(), json!("y".repeat(EXTRA_VALUE_MAX + 1)));
        let lead = validate_lead(&body, &config(), NOW).unwrap();
        assert_eq!(lead.extra.len(), EXTRA_FIELDS_MAX);
        assert_eq!(lead.extra_dropped, 3272 + 2 - EXTRA_FIELDS_MAX as u32);
        assert!(!lead.extra.contains_key("nested") && !lead.extra.contains_key("long"));
        let payload = serde_json::to_value(&lead).unwrap();
        assert_eq!(payload["extra_dropped"], json!(3254));
        assert!(
            payload.to_string().len() < 4096,
            "the stored lead stays small"
        );
        // A lead within the bounds says nothing of dropped fields.
        let small =
            validate_lead(&with(valid(), "utm_source", json!("fb")), &config(), NOW).unwrap();
        assert_eq!(small.extra_dropped, 0);
        assert!(serde_json::to_value(&small)
            .unwrap()
            .get("extra_dropped")
            .is_none());
    }

    /// Every field of the spec's lead payload, car form defaults, form
    /// payload and valuation form is read into its own place.
    #[test]
    fn every_payload_field_is_read() {
        let body = json!({
            "category": "trade_in", "subcategory": "2. Valuation", "name": "Jo", "last_name": "Bloggs",
            "email": "jo@example.com.au", "phone": "0412 345 678", "postcode": "6000",
            "url": "https://demo.example/trade-in", "source": "Website", "user_agent": "Mozilla/5.0 (X11)",
            "car_id": 77, "car_slug": "2021-kia-rio-77", "location": "loc-1",
            "lead_attributes": {"visited_pages": ["/", "/cars/2021-kia-rio-77/"],
                                "linked_query_params": {"utm_source": "google", "gclid": 123}},
            "lead_id": "first-lead", "form_completed": true, "offer_accepted": false,
            "Rego": "abc 12-3", "regoState": "qld", "kms": "85,000",
            "trade_in_year": "2017", "trade_in_make": "Mazda", "trade_in_model": "3", "trade_in_variant": "Maxx",
            "adjustmentAnswers": {"accident": "no", "owners": 2, "logbook": true},
        });
        let rest = json!({
            "opt_in": false, "opt_in_finance": true, "opt_in_trade": true, "do-you-have-a-trade-in": "yes",
            "PreferredContactMethod": "sms", "finance": "No",
            "preferred_date": "2026-11-22", "preferred_time": "09:30", "distribution_location": "Joondalup",
            "page_id": "p-1", "additional_services": ["Tinting", "Paint protection"],
            "terms_conditions": true, "idempotency_key": "k-9", "cf-turnstile-response": "tok",
            "website": "",
            "make": "Kia", "Vehicle Model": "Rio", "stock_number": "K77", "car_type": "Used",
            "vehicle_status": "in_stock", "manufacturer_slug": "kia", "dealership_slug": "other"
        });
        let mut body = body;
        for (k, v) in rest.as_object().unwrap() {
            body[k] = v.clone();
        }
        let lead = validate_lead(&body, &config(), NOW).unwrap();
        assert_eq!(lead.category, LeadCategory::TradeIn);
        assert_eq!(lead.subcategory.as_deref(), Some("2. Valuation"));
        assert_eq!(
            (lead.name.as_str(), lead.last_name.as_deref()),
            ("Jo", Some("Bloggs"))
        );
        assert_eq!(
            lead.location_id.as_deref(),
            Some("loc-1"),
            "`location` is location_id"
        );
        assert_eq!(lead.user_agent.as_deref(), Some("Mozilla/5.0 (X11)"));
        assert_eq!(
            (lead.car_id.as_deref(), lead.car_slug.as_deref()),
            (Some("77"), Some("2021-kia-rio-77"))
        );
        let attrs = lead.lead_attributes.as_ref().unwrap();
        assert_eq!(attrs.visited_pages, ["/", "/cars/2021-kia-rio-77/"]);
        assert_eq!(
            attrs.linked_query_params["gclid"],
            json!("123"),
            "numbers kept as text"
        );
        assert_eq!(lead.previous_lead_id.as_deref(), Some("first-lead"));
        assert_eq!(
            (lead.form_completed, lead.offer_accepted),
            (Some(true), Some(false))
        );
        assert_eq!(lead.rego.as_deref(), Some("ABC123"));
        assert_eq!(lead.rego_state.as_deref(), Some("QLD"));
        assert_eq!(lead.kms, Some(85_000));
        let t = lead.trade_in_vehicle.as_ref().unwrap();
        assert_eq!(
            (
                t.year,
                t.make.as_deref(),
                t.model.as_deref(),
                t.variant.as_deref()
            ),
            (Some(2017), Some("Mazda"), Some("3"), Some("Maxx"))
        );
        assert_eq!(lead.adjustment_answers["owners"], json!(2));
        assert_eq!(lead.adjustment_answers["logbook"], json!(true));
        assert!(!lead.opt_in);
        assert_eq!(
            (lead.opt_in_finance, lead.opt_in_trade),
            (Some(true), Some(true))
        );
        assert_eq!(
            (lead.has_trade_in, lead.wants_finance),
            (Some(true), Some(false))
        );
        assert_eq!(lead.preferred_contact_method.as_deref(), Some("SMS"));
        assert_eq!(lead.preferred_date.as_deref(), Some("2026-11-22"));
        assert_eq!(lead.preferred_time.as_deref(), Some("09:30"));
        assert_eq!(lead.distribution_location.as_deref(), Some("Joondalup"));
        assert_eq!(lead.page_id.as_deref(), Some("p-1"));
        assert_eq!(lead.additional_services, ["Tinting", "Paint protection"]);
        assert_eq!(lead.turnstile_token.as_deref(), Some("tok"));
        let claims = lead.claimed_vehicle.as_ref().unwrap();
        assert_eq!(
            (claims.make.as_deref(), claims.model.as_deref()),
            (Some("Kia"), Some("Rio"))
        );
        assert_eq!(
            (claims.stock_number.as_deref(), claims.car_type.as_deref()),
            (Some("K77"), Some("used"))
        );
        assert!(
            lead.extra.is_empty(),
            "every field has its place: {:?}",
            lead.extra
        );

        // Stored under the spec's names; the token never.
        let stored = serde_json::to_value(&lead).unwrap();
        assert_eq!(stored["regoState"], json!("QLD"));
        assert_eq!(stored["adjustmentAnswers"]["accident"], json!("no"));
        assert_eq!(stored["source"], json!("Website"));
        assert!(!stored.to_string().contains("\"tok\""));
        let back: Lead = serde_json::from_value(stored).unwrap();
        assert_eq!(
            back,
            Lead {
                idempotency_key: None,
                turnstile_token: None,
                flow_token: None,
                ..lead
            }
        );
    }

    #[test]
    fn opt_in_is_consent_only_when_ticked_and_source_is_website() {
        // Not sent (the box left unticked, or a client that has none): no
        // consent, whatever spec 002 §5's default said (docs/behaviour/forms.md).
        let lead = validate_lead(&valid(), &config(), NOW).unwrap();
        assert!(!lead.opt_in);
        assert_eq!(lead.consent, None);
        let unticked =
            validate_lead(&with(valid(), "opt_in", json!(false)), &config(), NOW).unwrap();
        assert!(!unticked.opt_in && unticked.consent.is_none());

        // Ticked: the words the site showed, when and where, kept and sent on.
        let mut worded = config();
        worded.forms.opt_in_text = "Send me Alpha offers by SMS.".into();
        let page = "https://alpha.example/cars/2021-kia-rio/";
        let ticked = with(with(valid(), "opt_in", json!(true)), "url", json!(page));
        let lead = validate_lead(&ticked, &worded, NOW).unwrap();
        assert!(lead.opt_in);
        let consent = lead.consent.clone().expect("a consent record");
        assert_eq!(consent.text, "Send me Alpha offers by SMS.");
        assert_eq!(consent.given_at, crate::lead_parts::iso8601(NOW));
        assert_eq!(consent.page.as_deref(), Some(page));
        assert_eq!(consent.method, CONSENT_METHOD);
        let stored = serde_json::to_value(&lead).unwrap();
        assert_eq!(
            stored["consent"]["text"],
            json!("Send me Alpha offers by SMS.")
        );
        // The client cannot write its own record: a `consent` it sends is
        // one of its unknown fields, never the record.
        let forged = with(ticked.clone(), "consent", json!({"text": "anything"}));
        let lead = validate_lead(&forged, &worded, NOW).unwrap();
        assert_eq!(lead.consent.unwrap().text, "Send me Alpha offers by SMS.");
        // A retry a second later is the same request.
        let later = validate_lead(&ticked, &worded, NOW + 1).unwrap();
        let first = validate_lead(&ticked, &worded, NOW).unwrap();
        assert!(same_request(
            &serde_json::to_string(&first).unwrap(),
            &later
        ));

        assert_eq!(lead.source, "Website");
        assert_eq!(
            errors(with(valid(), "source", json!("Facebook"))).get("source"),
            Some("Must be \"Website\".")
        );
        assert_eq!(
            errors(with(valid(), "opt_in", json!("yes"))).get("opt_in"),
            Some("Must be true or false.")
        );
    }

    #[test]
    fn offers_need_an_amount_in_dollars() {
        let offer = with(valid(), "category", json!("offer"));
        assert_eq!(
            errors(offer.clone()).get("offer_amount"),
            Some(OFFER_MISSING)
        );
        for (given, want) in [
            (json!(25000), 25000.0),
            (json!("$25,000"), 25000.0),
            (json!("19999.5"), 19999.5),
        ] {
            let lead =
                validate_lead(&with(offer.clone(), "offer_amount", given), &config(), NOW).unwrap();
            assert_eq!(lead.offer_amount, Some(want));
        }
        let lead = validate_lead(
            &with(offer.clone(), "offer_from_client", json!("30000")),
            &config(),
            NOW,
        )
        .unwrap();
        assert_eq!(
            lead.offer_amount,
            Some(30000.0),
            "the offer form's own name"
        );
        for bad in [
            json!(0),
            json!(-5),
            json!("lots"),
            json!(1e9),
            json!("$1,2a"),
        ] {
            assert_eq!(
                errors(with(offer.clone(), "offer_amount", bad.clone())).get("offer_amount"),
                Some(OFFER_MESSAGE),
                "{bad}"
            );
        }
    }

    #[test]
    fn test_drive_date_and_time() {
        let td = with(valid(), "category", json!("test_drive"));
        // NOW is 2026-11-20 00:00 UTC, when it is already the 20th in
        // Australia; a day's slack either side.
        for ok in ["2026-11-19", "2026-11-20", "2027-11-21"] {
            assert!(
                validate_lead(
                    &with(td.clone(), "preferred_date", json!(ok)),
                    &config(),
                    NOW
                )
                .is_ok(),
                "{ok}"
            );
        }
        for bad in ["2026-11-18", "2027-11-22", "2026-02-30", "21/11/2026"] {
            assert_eq!(
                errors(with(td.clone(), "preferred_date", json!(bad))).get("preferred_date"),
                Some(DATE_MESSAGE),
                "{bad}"
            );
        }
        assert_eq!(
            errors(with(td.clone(), "preferred_time", json!("9am"))).get("preferred_time"),
            Some(TIME_MESSAGE)
        );
    }

    #[test]
    fn trade_in_answers_are_bounded_and_checked() {
        let ti = with(valid(), "category", json!("trade_in"));
        assert_eq!(
            errors(with(ti.clone(), "rego", json!("ABC!23"))).get("rego"),
            Some(crate::lead_parts::REGO_MESSAGE)
        );
        assert_eq!(
            errors(with(ti.clone(), "regoState", json!("XX"))).get("regoState"),
            Some(REGO_STATE_MESSAGE)
        );
        for bad in [json!(-1), json!("lots"), json!(3_000_000), json!(1.5)] {
            assert_eq!(
                errors(with(ti.clone(), "kms", bad)).get("kms"),
                Some(KMS_MESSAGE)
            );
        }
        let many: Map<String, Value> = (0..41).map(|i| (format!("q{i}"), json!("a"))).collect();
        assert!(
            errors(with(ti.clone(), "adjustmentAnswers", Value::Object(many)))
                .get("adjustmentAnswers")
                .is_some()
        );
        assert!(errors(with(
            ti.clone(),
            "adjustmentAnswers",
            json!({"q": {"nested": 1}})
        ))
        .get("adjustmentAnswers")
        .is_some());
        assert!(errors(with(
            ti.clone(),
            "adjustmentAnswers",
            json!({"q": "x".repeat(501)})
        ))
        .get("adjustmentAnswers")
        .is_some());
        assert!(
            errors(with(ti.clone(), "do-you-have-a-trade-in", json!("Maybe")))
                .get("do-you-have-a-trade-in")
                .is_some()
        );
    }

    #[test]
    fn lead_attributes_are_bounded() {
        let pages: Vec<String> = (0..51).map(|i| format!("/p{i}")).collect();
        for bad in [
            json!({"visited_pages": pages}),
            json!({"visited_pages": "/"}),
            json!({"linked_query_params": {"a": {"b": 1}}}),
            json!({"linked_query_params": {"a": "x".repeat(501)}}),
            json!({"referrer": "x"}),
            json!("/"),
        ] {
            assert!(
                errors(with(valid(), "lead_attributes", bad.clone()))
                    .get("lead_attributes")
                    .is_some(),
                "{bad}"
            );
        }
    }

    #[test]
    fn an_unsubscribe_needs_only_an_email_or_a_mobile_and_is_never_consent() {
        let body = |v: Value| {
            let mut b = v;
            b["category"] = json!("unsubscribe");
            b
        };
        // Only a mobile: no name, no terms, no e-mail; the number normalised.
        let lead =
            validate_lead(&body(json!({"phone": "+61 412 345 678"})), &config(), NOW).unwrap();
        assert_eq!(lead.category, LeadCategory::Unsubscribe);
        assert_eq!(
            (lead.name.as_str(), lead.email.as_str(), lead.phone.as_str()),
            ("", "", "0412345678")
        );
        // A ticked opt-in on an unsubscribe records no consent.
        let lead = validate_lead(
            &body(json!({"email": "jo@example.com.au", "opt_in": true, "name": "Jo"})),
            &config(),
            NOW,
        )
        .unwrap();
        assert!(!lead.opt_in);
        assert!(lead.consent.is_none());
        assert_eq!((lead.name.as_str(), lead.phone.as_str()), ("Jo", ""));
        // Neither: one message, on the e-mail.
        let e = errors(body(json!({"name": "Jo"})));
        assert_eq!(e.get("email"), Some(UNSUBSCRIBE_MISSING));
        assert_eq!(e.0.len(), 1, "{e:?}");
        // What is given is checked.
        let e = errors(body(json!({"email": "jo@example.com.au", "phone": "123"})));
        assert_eq!(e.get("phone"), Some(PHONE_MESSAGE));
        // Every other category still needs the whole contact.
        let e = errors(
            json!({"category": "general", "email": "jo@example.com.au", "message": "hi", "terms_conditions": true}),
        );
        assert_eq!(e.get("name"), Some(NAME_MISSING));
        assert_eq!(e.get("phone"), Some(PHONE_MISSING));
    }

    #[test]
    fn terms_follow_the_dealer_switch() {
        let mut relaxed = config();
        relaxed.forms.terms_required = false;
        let body = without(valid(), "terms_conditions");
        assert_eq!(
            errors(body.clone()).get("terms_conditions"),
            Some(TERMS_MESSAGE)
        );
        let lead = validate_lead(&body, &relaxed, NOW).unwrap();
        assert!(!lead.terms_conditions);
        assert!(
            validate_lead(&valid(), &relaxed, NOW)
                .unwrap()
                .terms_conditions
        );
    }

    #[test]
    fn honeypot_and_reserve() {
        assert!(!is_honeypot_hit(&valid()));
        assert!(!is_honeypot_hit(&with(valid(), "website", json!(""))));
        assert!(!is_honeypot_hit(&with(valid(), "website", json!("  "))));
        assert!(is_honeypot_hit(&with(
            valid(),
            "website",
            json!("http://spam.example")
        )));
        assert!(is_honeypot_hit(&with(valid(), "website", json!(1))));
        assert_eq!(
            LeadCategory::parse("reserve"),
            None,
            "reservations come from checkout only"
        );
        assert_eq!(LeadCategory::Reserve.as_str(), "reserve");
    }

    #[test]
    fn a_long_user_agent_is_cut_not_refused() {
        let lead = validate_lead(
            &with(valid(), "user_agent", json!("x".repeat(2000))),
            &config(),
            NOW,
        )
        .unwrap();
        assert_eq!(lead.user_agent.unwrap().len(), USER_AGENT_MAX);
        assert_eq!(clean_user_agent(" a\u{0}b "), Some("ab".into()));
        assert_eq!(clean_user_agent("  "), None);
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
