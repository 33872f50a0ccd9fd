//! Reserving a car online: the hold request, how long a hold and a
//! reservation last, the Stripe Checkout Session the deposit is paid
//! through, the Stripe webhook's signature and events, the car's status
//! for the Reserved badge, and the lead a paid reservation sends.
//!
//! Life of a hold (D1 `checkout_holds`, at most one `pending` or `reserved`
//! row per car, enforced by a unique index):
//!
//! ```text
//! pending ──paid (webhook)──► reserved ──hold_hours pass (cron)──► ended
//!    │                            ▲
//!    ├──session expired (webhook)─┼──► released
//!    ├──payment window passed (cron)──► expired ──paid late, car free──┘
//!    │                                      └──paid late, car taken──► refund_needed
//! ```
//!
//! The payment window is the Stripe session's life (Stripe's minimum, 30
//! minutes, plus a minute of slack for clocks) and a few minutes' grace
//! for the webhook to arrive; the reservation then lasts the dealer's
//! `hold_hours` (default 48) from the payment.

use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::Sha256;

use crate::http::ApiError;
use crate::input::{check_body, FieldErrors};
use crate::lead::{
    read_contact, Contact, Lead, LeadCategory, FORM_ERROR, SOURCE, TERMS_MESSAGE, TURNSTILE_FIELD,
};
use crate::lead_parts::iso8601;
use crate::vehicle::from_stock;
use dealer_rules::edge_config::{EdgeCar, EdgeConfig};
use dealer_rules::slug::{is_car_slug, CAR_SLUG_MAX};

/// Seconds the shopper has to pay: the life of the Stripe Checkout Session
/// (`expires_at`), Stripe's minimum of 30 minutes plus a minute so that
/// Stripe never finds it too short by its own clock.
pub const PAY_WINDOW_SECS: u64 = 31 * 60;
/// Seconds a pending hold outlives its session, for the
/// `checkout.session.completed` webhook of a payment made at the last
/// moment to arrive before the cron releases the car.
pub const WEBHOOK_GRACE_SECS: u64 = 5 * 60;
/// Largest deposit taken online, in dollars (a reservation, not a sale).
pub const MAX_DEPOSIT: u32 = 100_000;

/// Stripe's API. A worker variable may point elsewhere only in tests
/// (`STRIPE_API_BASE`, a local stand-in).
pub const STRIPE_API_BASE: &str = "https://api.stripe.com";
/// How far a webhook's signed timestamp may be from now (Stripe's default
/// tolerance).
pub const SIGNATURE_TOLERANCE_SECS: u64 = 300;

pub const NOT_OFFERED: &str = "This dealer does not take reservations online.";
pub const NO_SUCH_CAR: &str = "No such car.";
pub const NOT_ELIGIBLE: &str = "This car cannot be reserved online; please call the dealership.";
pub const ALREADY_RESERVED: &str = "Sorry, this car has just been reserved by someone else.";
pub const BEING_RESERVED: &str = "Someone is reserving this car right now. Please try again in half an hour, or call the dealership.";
pub const ONE_HOLD_AT_A_TIME: &str = "You already have a car on hold with us. Please finish that reservation, or call the dealership to hold another.";
pub const UNPAID_HOLDS_FULL: &str =
    "No more cars can be reserved online without a deposit just now; please call the dealership.";

/// The most holds without a deposit (reserved at once, nothing paid) a
/// dealer has at one time: a stranger with a few phones cannot take the
/// whole showroom off the market. Paid holds are bounded by the payment.
pub const UNPAID_HOLDS_MAX: u64 = 5;

pub const VERIFY_MOBILE: &str =
    "To reserve a car without a deposit, first confirm your mobile number with the code we text you.";
pub const VERIFIED_MOBILE_ONLY: &str =
    "Please use the mobile number you confirmed, or confirm this one.";

/// A hold without a deposit takes the car off the market with nothing
/// paid, so it needs a mobile the shopper proved is theirs: a live
/// sign-in session (the code sent to that mobile) whose number is the
/// hold's. `session_phone`: the session's number, none when signed out;
/// `contact_phone`: the form's, national form. 401 when signed out (the
/// site sends the shopper to sign in); 400 naming the phone field when
/// the form's number is another.
pub fn verified_for_unpaid_hold(
    session_phone: Option<&str>,
    contact_phone: &str,
) -> Result<(), ApiError> {
    match session_phone {
        None => Err(ApiError::new(401, VERIFY_MOBILE)),
        Some(phone) if phone == contact_phone => Ok(()),
        Some(_) => {
            let mut fields = FieldErrors::default();
            fields.add("phone", VERIFIED_MOBILE_ONLY);
            Err(ApiError::with_fields(400, FORM_ERROR, fields))
        }
    }
}

/// Inserts a hold unless the same shopper (phone or client network)
/// already has an active one at the dealer, or, for a hold without a
/// deposit, the dealer has [`UNPAID_HOLDS_MAX`] of those active; the
/// per-car unique index refuses a second active hold of the car. One
/// statement, so two requests at once cannot both pass a check. Params:
/// id, dealer, car_slug, car_id, state, email, contact, amount_cents,
/// now, expires_at, phone, client, unpaid max.
pub const INSERT_HOLD: &str = "INSERT INTO checkout_holds \
     (id, dealer, car_slug, car_id, state, email, contact, amount_cents, created_at, expires_at, paid_at, phone, client) \
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, CASE WHEN ?5 = 'reserved' THEN ?9 END, ?11, ?12 \
     WHERE NOT EXISTS (SELECT 1 FROM checkout_holds WHERE dealer = ?2 AND state IN ('pending', 'reserved') \
         AND expires_at > ?9 AND (phone = ?11 OR client = ?12)) \
       AND (?8 > 0 OR (SELECT count(*) FROM checkout_holds WHERE dealer = ?2 AND state = 'reserved' \
         AND amount_cents = 0 AND expires_at > ?9) < ?13) \
     ON CONFLICT DO NOTHING RETURNING id";

pub const PAYMENT_UNAVAILABLE: &str =
    "The payment service is unavailable just now; please try again shortly or call the dealership.";

/// A checked `POST /api/checkout/hold` body.
#[derive(Debug, Clone, PartialEq)]
pub struct HoldRequest {
    pub car_slug: String,
    pub contact: Contact,
    pub terms_conditions: bool,
    pub turnstile_token: Option<String>,
}

pub fn validate_hold(body: &Value, config: &EdgeConfig) -> Result<HoldRequest, FieldErrors> {
    check_body(body, |f| {
        let slug = f.line("car_slug", CAR_SLUG_MAX);
        match &slug {
            None => f.require("car_slug", "Please say which car."),
            Some(s) if !is_car_slug(s) => f.errors.add("car_slug", "Must be a car's page slug."),
            Some(_) => {}
        }
        let contact = read_contact(f, config);
        let terms = f.boolean("terms_conditions");
        if config.forms.terms_required && terms != Some(true) {
            f.errors.0.remove("terms_conditions");
            f.errors.add("terms_conditions", TERMS_MESSAGE);
        }
        let turnstile_token = f.line(TURNSTILE_FIELD, 2048);
        match (slug, contact) {
            (Some(car_slug), Some(contact)) => Some(HoldRequest {
                car_slug,
                contact,
                terms_conditions: terms == Some(true),
                turnstile_token,
            }),
            _ => None,
        }
    })
}

/// What is kept with a hold for the reservation lead: the contact and the
/// car as the stock had it when the hold was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HoldDetails {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    pub email: String,
    pub phone: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub postcode: Option<String>,
    pub terms_conditions: bool,
    pub car: EdgeCar,
}

impl HoldDetails {
    pub fn new(req: &HoldRequest, car: &EdgeCar) -> Self {
        HoldDetails {
            name: req.contact.name.clone(),
            last_name: req.contact.last_name.clone(),
            email: req.contact.email.clone(),
            phone: req.contact.phone.clone(),
            postcode: req.contact.postcode.clone(),
            terms_conditions: req.terms_conditions,
            car: car.clone(),
        }
    }
}

/// Why a car cannot be held, before any row is written.
pub fn refusal(config: &EdgeConfig, car: &EdgeCar) -> Option<(u16, &'static str)> {
    if !config.checkout.enabled {
        return Some((404, NOT_OFFERED));
    }
    if car.reserved {
        return Some((409, ALREADY_RESERVED));
    }
    if !car.checkout {
        return Some((422, NOT_ELIGIBLE));
    }
    if car.deposit > 0 && config.checkout.payment.is_none() {
        // The config check makes this an error; a stale KV value must still
        // not take a hold it cannot charge for.
        return Some((404, NOT_OFFERED));
    }
    None
}

/// The deposit in cents, capped at [`MAX_DEPOSIT`] dollars.
pub fn deposit_cents(car: &EdgeCar) -> u64 {
    u64::from(car.deposit.min(MAX_DEPOSIT)) * 100
}

/// The car's checkout page on the dealer's site, where the payment page
/// sends the shopper back.
pub fn checkout_page(origin: &str, path: &str, slug: &str) -> String {
    format!("{origin}/cars/{slug}/{path}/")
}

/// `checkout_page?hold_id=<id>&payment=<outcome>` (`success`, `cancelled`).
pub fn return_url(origin: &str, path: &str, slug: &str, hold_id: &str, outcome: &str) -> String {
    format!(
        "{}?hold_id={hold_id}&payment={outcome}",
        checkout_page(origin, path, slug)
    )
}

/// The form-encoded body of `POST /v1/checkout/sessions`
/// (https://docs.stripe.com/api/checkout/sessions/create): one line item,
/// the deposit in AUD cents; the hold id as client_reference_id and in the
/// metadata of the session and its payment (the webhook finds the hold by
/// it, the dealer sees it in their Stripe dashboard).
pub fn stripe_session_form(
    config: &EdgeConfig,
    car: &EdgeCar,
    details: &HoldDetails,
    hold_id: &str,
    origin: &str,
    now: u64,
) -> String {
    let path = config.checkout.path.as_str();
    let mut name = format!("Refundable deposit: {}", car.name);
    if let Some(stock) = &car.stock_number {
        name.push_str(&format!(" (stock {stock})"));
    }
    let amount = deposit_cents(car).to_string();
    let expires = (now + PAY_WINDOW_SECS).to_string();
    let success = return_url(origin, path, &car.slug, hold_id, "success");
    let cancel = return_url(origin, path, &car.slug, hold_id, "cancelled");
    let mut form = form_urlencoded::Serializer::new(String::new());
    for (k, v) in [
        ("mode", "payment"),
        ("line_items[0][quantity]", "1"),
        ("line_items[0][price_data][currency]", "aud"),
        ("line_items[0][price_data][unit_amount]", amount.as_str()),
        (
            "line_items[0][price_data][product_data][name]",
            name.as_str(),
        ),
        ("customer_email", details.email.as_str()),
        ("client_reference_id", hold_id),
        ("success_url", success.as_str()),
        ("cancel_url", cancel.as_str()),
        ("expires_at", expires.as_str()),
        ("metadata[hold_id]", hold_id),
        ("metadata[dealer]", config.dealer.as_str()),
        ("metadata[car_slug]", car.slug.as_str()),
        ("payment_intent_data[metadata][hold_id]", hold_id),
        (
            "payment_intent_data[metadata][dealer]",
            config.dealer.as_str(),
        ),
    ] {
        form.append_pair(k, v);
    }
    if let Some(stock) = &car.stock_number {
        form.append_pair("metadata[stock_number]", stock);
    }
    form.finish()
}

/// The session's id and hosted page URL from Stripe's answer.
pub fn read_session(answer: &Value) -> Result<(String, String), String> {
    let id = answer.get("id").and_then(Value::as_str);
    let url = answer.get("url").and_then(Value::as_str);
    match (id, url) {
        (Some(id), Some(url)) if id.starts_with("cs_") && url.starts_with("https://") => {
            Ok((id.to_string(), url.to_string()))
        }
        (Some(id), Some(url)) if id.starts_with("cs_") && url.starts_with("http://127.0.0.1") => {
            // The local stand-in of the tests serves its page over http.
            Ok((id.to_string(), url.to_string()))
        }
        _ => Err(
            match answer.pointer("/error/message").and_then(Value::as_str) {
                Some(m) => format!("Stripe refused the session: {m}"),
                None => "Stripe's answer has no session id and url".into(),
            },
        ),
    }
}

/// Why a webhook's signature is not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureError {
    /// No `t=` or no `v1=` in the header.
    Malformed,
    /// The signed time is more than the tolerance away from now (a replay).
    Stale,
    /// No `v1` matches.
    Mismatch,
}

impl std::fmt::Display for SignatureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SignatureError::Malformed => "The Stripe-Signature header is missing or malformed.",
            SignatureError::Stale => "The Stripe-Signature timestamp is too old or in the future.",
            SignatureError::Mismatch => "The Stripe-Signature does not match the body.",
        })
    }
}

fn signer(secret: &str, t: &str, payload: &[u8]) -> Hmac<Sha256> {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(t.as_bytes());
    mac.update(b".");
    mac.update(payload);
    mac
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || s.len() > 256 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Verifies a `Stripe-Signature` header
/// (https://docs.stripe.com/webhooks#verify-manually): `t=<unix
/// seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">[,v1=...]` with the
/// endpoint's signing secret; any `v1` may match (Stripe sends one per
/// active secret while a secret is rolled); compared in constant time.
pub fn verify_signature(
    header: &str,
    payload: &[u8],
    secret: &str,
    now: u64,
) -> Result<(), SignatureError> {
    let mut t = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = Some(v),
            Some(("v1", v)) => signatures.push(v),
            _ => {}
        }
    }
    let t = t.ok_or(SignatureError::Malformed)?;
    let at: u64 = t.parse().map_err(|_| SignatureError::Malformed)?;
    if signatures.is_empty() {
        return Err(SignatureError::Malformed);
    }
    if at.abs_diff(now) > SIGNATURE_TOLERANCE_SECS {
        return Err(SignatureError::Stale);
    }
    for sig in signatures {
        if let Some(bytes) = unhex(sig) {
            if signer(secret, t, payload).verify_slice(&bytes).is_ok() {
                return Ok(());
            }
        }
    }
    Err(SignatureError::Mismatch)
}

/// The header Stripe would send for `payload` at `t` (tests and tools).
pub fn sign(payload: &[u8], secret: &str, t: u64) -> String {
    let bytes = signer(secret, &t.to_string(), payload)
        .finalize()
        .into_bytes();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("t={t},v1={hex}")
}

/// The webhook events the worker acts on.
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    /// The deposit is paid: reserve the car.
    Paid,
    /// The session ended unpaid: release the car.
    Expired,
    /// Anything else (acknowledged, ignored).
    Other,
}

/// One webhook event, as far as the worker reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct PaymentEvent {
    pub id: String,
    pub kind_name: String,
    pub kind: EventKind,
    pub session_id: Option<String>,
    pub hold_id: Option<String>,
    pub dealer: Option<String>,
    pub amount_total: Option<u64>,
}

/// Reads a Stripe event. `checkout.session.completed` counts as paid only
/// with `payment_status: "paid"` (a delayed payment method completes
/// unpaid and is paid by `checkout.session.async_payment_succeeded`).
pub fn read_event(event: &Value) -> Result<PaymentEvent, String> {
    let id = event
        .get("id")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty() && id.len() <= 255)
        .ok_or("The event has no id.")?;
    let kind_name = event
        .get("type")
        .and_then(Value::as_str)
        .filter(|t| t.len() <= 100)
        .ok_or("The event has no type.")?;
    let object = event
        .pointer("/data/object")
        .ok_or("The event has no data.object.")?;
    let text = |v: Option<&Value>| v.and_then(Value::as_str).map(String::from);
    let paid = object.get("payment_status").and_then(Value::as_str) == Some("paid");
    let kind = match kind_name {
        "checkout.session.completed" if paid => EventKind::Paid,
        "checkout.session.async_payment_succeeded" => EventKind::Paid,
        "checkout.session.expired" => EventKind::Expired,
        _ => EventKind::Other,
    };
    Ok(PaymentEvent {
        id: id.to_string(),
        kind_name: kind_name.to_string(),
        kind,
        session_id: text(object.get("id")),
        hold_id: text(object.pointer("/metadata/hold_id"))
            .or_else(|| text(object.get("client_reference_id"))),
        dealer: text(object.pointer("/metadata/dealer")),
        amount_total: object.get("amount_total").and_then(Value::as_u64),
    })
}

/// The Reserved badge's facts for a car.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CarStatus {
    pub slug: String,
    pub reserved: bool,
    pub pending: bool,
    /// ISO 8601, UTC.
    pub held_until: Option<String>,
}

/// The status from the car's active hold (`state`, `expires_at`), if any,
/// and the stock's own reserved flag.
pub fn car_status(
    slug: &str,
    stock_reserved: bool,
    active: Option<(&str, u64)>,
    now: u64,
) -> CarStatus {
    let active = active.filter(|(_, until)| *until > now);
    CarStatus {
        slug: slug.to_string(),
        reserved: stock_reserved || matches!(active, Some(("reserved", _))),
        pending: matches!(active, Some(("pending", _))),
        held_until: active.map(|(_, until)| iso8601(until)),
    }
}

/// Subcategory of the lead a paid reservation sends.
pub const RESERVE_SUBCATEGORY: &str = "Reserve";
/// Subcategory when the deposit was paid after the hold lapsed and another
/// shopper holds the car: the dealer must refund or call.
pub const REFUND_SUBCATEGORY: &str = "Reserve - refund needed";

/// The lead of a reservation: the shopper and the car from the hold.
/// `paid_cents` is what was paid (0: reserved without a deposit).
pub fn reservation_lead(
    details: &HoldDetails,
    config: &EdgeConfig,
    hold_id: &str,
    reserved_until: u64,
    paid_cents: u64,
    refund_needed: bool,
) -> Lead {
    let car = &details.car;
    let mut message = if paid_cents > 0 {
        format!(
            "Reservation deposit of ${}.{:02} paid online.",
            paid_cents / 100,
            paid_cents % 100
        )
    } else {
        "Reserved online (no deposit).".to_string()
    };
    if refund_needed {
        message.push_str(" The payment came after the hold lapsed and another shopper now holds the car: please refund the deposit or call the shopper.");
    } else {
        message.push_str(&format!(
            " The car is held for them until {}.",
            iso8601(reserved_until)
        ));
    }
    let location_id =
        Some(car.location_id.clone()).filter(|id| config.locations.iter().any(|l| &l.id == id));
    Lead {
        category: LeadCategory::Reserve,
        subcategory: Some(
            if refund_needed {
                REFUND_SUBCATEGORY
            } else {
                RESERVE_SUBCATEGORY
            }
            .into(),
        ),
        name: details.name.clone(),
        last_name: details.last_name.clone(),
        email: details.email.clone(),
        phone: details.phone.clone(),
        message: Some(message),
        car_id: Some(car.id.clone()),
        car_slug: Some(car.slug.clone()),
        location_id,
        postcode: details.postcode.clone(),
        url: Some(car.url.clone()),
        source: SOURCE.into(),
        user_agent: None,
        dealership_slug: Some(config.dealer.clone()),
        car_dealership_id: config.dealership_id,
        vehicle: Some(from_stock(car)),
        claimed_vehicle: None,
        lead_attributes: None,
        previous_lead_id: None,
        form_completed: Some(true),
        offer_accepted: None,
        rego: None,
        rego_state: None,
        kms: None,
        trade_in_vehicle: None,
        adjustment_answers: Default::default(),
        // The reservation form asks for no marketing consent.
        opt_in: false,
        consent: None,
        opt_in_finance: None,
        opt_in_trade: None,
        has_trade_in: None,
        wants_finance: None,
        preferred_contact_method: None,
        preferred_date: None,
        preferred_time: None,
        distribution_location: None,
        offer_amount: None,
        page_id: None,
        additional_services: Vec::new(),
        terms_conditions: details.terms_conditions,
        captcha: None,
        captcha_unavailable: false,
        hold_id: Some(hold_id.to_string()),
        idempotency_key: Some(format!("reserve-{hold_id}")),
        turnstile_token: None,
        flow_token: None,
        extra: Default::default(),
        extra_dropped: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hold_without_a_deposit_needs_the_confirmed_mobile() {
        let signed_out = verified_for_unpaid_hold(None, "0412345678").unwrap_err();
        assert_eq!(
            (signed_out.status, signed_out.error.as_str()),
            (401, VERIFY_MOBILE)
        );
        assert!(verified_for_unpaid_hold(Some("0412345678"), "0412345678").is_ok());
        let other = verified_for_unpaid_hold(Some("0412345678"), "0499999999").unwrap_err();
        assert_eq!(other.status, 400);
        assert_eq!(
            other.fields.unwrap().0.get("phone").map(String::as_str),
            Some(VERIFIED_MOBILE_ONLY)
        );
    }
    use crate::vehicle::tests::car;
    use serde_json::json;

    const NOW: u64 = 1_795_132_800;

    fn config(enabled: bool) -> EdgeConfig {
        serde_json::from_value(json!({
            "dealer": "alpha", "name": "Alpha", "origins": ["https://alpha.example"],
            "locations": [{"id": "perth", "name": "Alpha Perth", "phone": "08 9123 4567", "lead_email": null}],
            "leads": {"email": null, "webhook_url": null},
            "features": {"watchlist": true, "phone_reveal": true},
            "checkout": {"enabled": enabled, "path": "buy-online", "hold_hours": 48,
                "payment": {"provider": "stripe", "secret_name": "SK", "webhook_secret_name": "WH"}}
        }))
        .unwrap()
    }

    fn hold_body() -> Value {
        json!({"car_slug": "2021-toyota-hilux-sr5-1234", "name": "Jo", "email": "jo@example.com",
            "phone": "0412 345 678", "terms_conditions": true, "cf-turnstile-response": "tok"})
    }

    #[test]
    fn a_hold_needs_a_car_the_contact_and_the_terms() {
        let h = validate_hold(&hold_body(), &config(true)).unwrap();
        assert_eq!(h.car_slug, "2021-toyota-hilux-sr5-1234");
        assert_eq!(h.contact.phone, "0412345678");
        assert_eq!(h.turnstile_token.as_deref(), Some("tok"));
        let e = validate_hold(
            &json!({"car_slug": "../x", "terms_conditions": "yes"}),
            &config(true),
        )
        .unwrap_err();
        assert_eq!(e.get("car_slug"), Some("Must be a car's page slug."));
        assert_eq!(e.get("terms_conditions"), Some(TERMS_MESSAGE));
        assert!(e.get("name").is_some() && e.get("email").is_some() && e.get("phone").is_some());
    }

    #[test]
    fn who_may_hold_which_car() {
        assert_eq!(refusal(&config(false), &car()), Some((404, NOT_OFFERED)));
        assert_eq!(refusal(&config(true), &car()), None);
        let mut reserved = car();
        reserved.reserved = true;
        assert_eq!(
            refusal(&config(true), &reserved),
            Some((409, ALREADY_RESERVED))
        );
        let mut excluded = car();
        excluded.checkout = false;
        assert_eq!(refusal(&config(true), &excluded), Some((422, NOT_ELIGIBLE)));
        let mut no_payment = config(true);
        no_payment.checkout.payment = None;
        assert_eq!(refusal(&no_payment, &car()), Some((404, NOT_OFFERED)));
        let mut free = car();
        free.deposit = 0;
        assert_eq!(
            refusal(&no_payment, &free),
            None,
            "no deposit, no payment needed"
        );
        assert_eq!(deposit_cents(&car()), 20_000);
    }

    #[test]
    fn the_stripe_session_request() {
        let details =
            HoldDetails::new(&validate_hold(&hold_body(), &config(true)).unwrap(), &car());
        let form = stripe_session_form(
            &config(true),
            &car(),
            &details,
            "h-1",
            "https://alpha.example",
            NOW,
        );
        let pairs: std::collections::BTreeMap<String, String> =
            form_urlencoded::parse(form.as_bytes())
                .into_owned()
                .collect();
        let get = |k: &str| pairs.get(k).map(String::as_str);
        assert_eq!(get("mode"), Some("payment"));
        assert_eq!(get("line_items[0][price_data][currency]"), Some("aud"));
        assert_eq!(get("line_items[0][price_data][unit_amount]"), Some("20000"));
        assert_eq!(get("line_items[0][quantity]"), Some("1"));
        assert_eq!(
            get("line_items[0][price_data][product_data][name]"),
            Some("Refundable deposit: 2021 Toyota HiLux SR5 (stock T1234)")
        );
        assert_eq!(get("metadata[hold_id]"), Some("h-1"));
        assert_eq!(get("metadata[dealer]"), Some("alpha"));
        assert_eq!(get("client_reference_id"), Some("h-1"));
        assert_eq!(get("customer_email"), Some("jo@example.com"));
        assert_eq!(
            get("success_url"),
            Some("https://alpha.example/cars/2021-toyota-hilux-sr5-1234/buy-online/?hold_id=h-1&payment=success")
        );
        assert_eq!(
            get("cancel_url"),
            Some("https://alpha.example/cars/2021-toyota-hilux-sr5-1234/buy-online/?hold_id=h-1&payment=cancelled")
        );
        let expires: u64 = get("expires_at").unwrap().parse().unwrap();
        assert!(expires - NOW >= 30 * 60, "Stripe's minimum session life");
    }

    #[test]
    fn stripe_answers() {
        assert_eq!(
            read_session(
                &json!({"id": "cs_test_1", "url": "https://checkout.stripe.com/c/pay/cs_test_1"})
            ),
            Ok((
                "cs_test_1".into(),
                "https://checkout.stripe.com/c/pay/cs_test_1".into()
            ))
        );
        assert!(
            read_session(&json!({"error": {"message": "Invalid API Key provided"}}))
                .unwrap_err()
                .contains("Invalid API Key")
        );
        assert!(read_session(&json!({"id": "cs_1", "url": "javascript:alert(1)"})).is_err());
    }

    /// Stripe's documented scheme, checked against a signature computed
    /// independently (Python: `hmac.new(b"whsec_test",
    /// b'1700000000.{"id":"evt_1"}', hashlib.sha256).hexdigest()`).
    #[test]
    fn webhook_signatures() {
        let body = br#"{"id":"evt_1"}"#;
        let header = sign(body, "whsec_test", 1_700_000_000);
        assert_eq!(
            header,
            "t=1700000000,v1=c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925"
        );
        let now = 1_700_000_100;
        assert_eq!(verify_signature(&header, body, "whsec_test", now), Ok(()));
        assert_eq!(
            verify_signature(&header, b"{\"id\":\"evt_2\"}", "whsec_test", now),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_signature(&header, body, "whsec_other", now),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_signature(&header, body, "whsec_test", now + 301),
            Err(SignatureError::Stale)
        );
        assert_eq!(
            verify_signature(&header, body, "whsec_test", 1_700_000_000 - 301),
            Err(SignatureError::Stale)
        );
        // A rolled secret: any v1 may match.
        let rolled = format!(
            "{},v1=00ff,{}",
            "t=1700000000",
            &header[header.find("v1=").unwrap()..]
        );
        assert_eq!(verify_signature(&rolled, body, "whsec_test", now), Ok(()));
        for bad in [
            "",
            "t=abc,v1=00",
            "v1=00",
            "t=1700000000",
            "t=1700000000,v0=00",
        ] {
            assert_eq!(
                verify_signature(bad, body, "whsec_test", now),
                Err(SignatureError::Malformed),
                "{bad}"
            );
        }
        assert_eq!(
            verify_signature("t=1700000000,v1=zz", body, "whsec_test", now),
            Err(SignatureError::Mismatch)
        );
    }

    #[test]
    fn a_known_hmac() {
        // RFC 4231 test case 2 is for raw HMAC; Stripe's payload is "t.body":
        // HMAC-SHA256(key="key", "1.The quick brown fox jumps over the lazy dog").
        let h = sign(b"The quick brown fox jumps over the lazy dog", "key", 1);
        let mut mac = Hmac::<Sha256>::new_from_slice(b"key").unwrap();
        mac.update(b"1.The quick brown fox jumps over the lazy dog");
        let want: String = mac
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(h, format!("t=1,v1={want}"));
    }

    #[test]
    fn events() {
        let completed = json!({"id": "evt_1", "type": "checkout.session.completed", "data": {"object": {
            "id": "cs_1", "payment_status": "paid", "amount_total": 20000, "client_reference_id": "h-1",
            "metadata": {"hold_id": "h-1", "dealer": "alpha"}}}});
        let e = read_event(&completed).unwrap();
        assert_eq!(e.kind, EventKind::Paid);
        assert_eq!(
            (e.hold_id.as_deref(), e.dealer.as_deref(), e.amount_total),
            (Some("h-1"), Some("alpha"), Some(20000))
        );
        let mut unpaid = completed.clone();
        unpaid["data"]["object"]["payment_status"] = json!("unpaid");
        assert_eq!(read_event(&unpaid).unwrap().kind, EventKind::Other);
        let mut expired = completed.clone();
        expired["type"] = json!("checkout.session.expired");
        assert_eq!(read_event(&expired).unwrap().kind, EventKind::Expired);
        let mut other = completed.clone();
        other["type"] = json!("payment_intent.created");
        assert_eq!(read_event(&other).unwrap().kind, EventKind::Other);
        assert!(read_event(&json!({"type": "x", "data": {"object": {}}})).is_err());
        assert!(read_event(&json!({"id": "evt", "type": "x"})).is_err());
    }

    #[test]
    fn status_of_a_car() {
        assert_eq!(
            car_status("a", false, Some(("reserved", NOW + 3600)), NOW),
            CarStatus {
                slug: "a".into(),
                reserved: true,
                pending: false,
                held_until: Some("2026-11-20T01:00:00Z".into())
            }
        );
        let s = car_status("a", false, Some(("pending", NOW + 60)), NOW);
        assert!(!s.reserved && s.pending);
        let s = car_status("a", false, Some(("reserved", NOW - 1)), NOW);
        assert!(
            !s.reserved && !s.pending && s.held_until.is_none(),
            "a lapsed hold counts for nothing"
        );
        assert!(
            car_status("a", true, None, NOW).reserved,
            "the stock says reserved"
        );
    }

    #[test]
    fn the_reservation_lead() {
        let details =
            HoldDetails::new(&validate_hold(&hold_body(), &config(true)).unwrap(), &car());
        let lead = reservation_lead(
            &details,
            &config(true),
            "h-1",
            NOW + 48 * 3600,
            20_000,
            false,
        );
        assert_eq!(lead.category, LeadCategory::Reserve);
        assert_eq!(lead.subcategory.as_deref(), Some("Reserve"));
        assert_eq!(
            lead.vehicle.as_ref().unwrap().stock_number.as_deref(),
            Some("T1234")
        );
        assert_eq!(lead.location_id.as_deref(), Some("perth"));
        assert_eq!(lead.idempotency_key.as_deref(), Some("reserve-h-1"));
        assert!(lead
            .message
            .as_deref()
            .unwrap()
            .starts_with("Reservation deposit of $200.00 paid online."));
        assert!(lead
            .message
            .as_deref()
            .unwrap()
            .contains("2026-11-22T00:00:00Z"));
        let refund = reservation_lead(&details, &config(true), "h-1", NOW, 20_000, true);
        assert_eq!(refund.subcategory.as_deref(), Some(REFUND_SUBCATEGORY));
        assert!(refund.message.unwrap().contains("refund"));
        let xml = crate::adf::render(&lead, &config(true), "l", "t");
        assert!(xml.contains("<stock>T1234</stock>") && xml.contains("Form: reserve (Reserve)"));
    }
}
