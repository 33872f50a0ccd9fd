//! `POST /api/trade-in/valuation`: the shopper's car (rego and state, or
//! year/make/model; kilometres; the adjustment answers) and the estimate the
//! dealer's valuation service gives for it, or none. docs/behaviour/content.md §9: generally
//! no estimate for cars over 7 years old or 100,000 km; the worker does not
//! even ask the service then. The service's request and response are
//! documented in `edge/openapi.yaml` (ValuationServiceRequest/Response).

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::input::{check_body, FieldErrors, ID_MAX};
use crate::lead_parts::{TradeInVehicle, KMS_MAX, KMS_MESSAGE, REGO_STATE_MESSAGE, STATES};

/// No estimate above this odometer reading.
pub const MAX_KMS: u64 = 100_000;
/// No estimate for cars older than this many years.
pub const MAX_AGE_YEARS: i64 = 7;
/// Largest estimate believed, in dollars: anything above is a broken answer.
pub const MAX_ESTIMATE: f64 = 5_000_000.0;

pub const IDENTIFY_MESSAGE: &str =
    "Please enter the registration and its state, or the car's year, make and model.";

/// A checked valuation request.
#[derive(Debug, Clone, PartialEq)]
pub struct ValuationRequest {
    pub rego: Option<String>,
    pub rego_state: Option<String>,
    pub kms: u64,
    pub vehicle: TradeInVehicle,
    pub answers: Map<String, Value>,
    /// The flow's first lead (checked by the worker to be the dealer's).
    pub lead_id: Option<String>,
}

pub fn validate_valuation(body: &Value) -> Result<ValuationRequest, FieldErrors> {
    check_body(body, |f| {
        let rego = f.rego("rego");
        let rego_state = f
            .one_of("regoState", &STATES, REGO_STATE_MESSAGE)
            .map(String::from);
        let kms = f.whole("kms", 0..=KMS_MAX, KMS_MESSAGE);
        if kms.is_none() && !f.errors.0.contains_key("kms") {
            f.errors.add("kms", KMS_MESSAGE);
        }
        let vehicle = f.trade_in_vehicle();
        let answers = f.answers("adjustmentAnswers");
        let lead_id = f.line("lead_id", ID_MAX);
        let by_rego = rego.is_some() && rego_state.is_some();
        let by_model = vehicle.year.is_some() && vehicle.make.is_some() && vehicle.model.is_some();
        if !by_rego && !by_model && f.errors.is_empty() {
            f.errors.add(
                if rego.is_some() { "regoState" } else { "rego" },
                IDENTIFY_MESSAGE,
            );
        }
        kms.map(|kms| ValuationRequest {
            rego,
            rego_state,
            kms,
            vehicle,
            answers,
            lead_id,
        })
    })
}

/// Why there is, or is not, an estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    Valued,
    TooOld,
    TooManyKm,
    NotFound,
    NoService,
    Unavailable,
}

/// An estimate range in whole dollars.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Estimate {
    pub low: u64,
    pub high: u64,
    pub currency: &'static str,
}

/// The answer of `POST /api/trade-in/valuation`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Valuation {
    pub estimate: Option<Estimate>,
    pub reason: Reason,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vehicle: Option<TradeInVehicle>,
}

impl Valuation {
    pub fn none(reason: Reason) -> Self {
        Valuation {
            estimate: None,
            reason,
            vehicle: None,
        }
    }
}

/// The calendar year (UTC) of unix time `now`.
pub fn year_of(now: u64) -> i64 {
    // Days to civil year (H. Hinnant's civil_from_days, year only).
    let z = (now / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    yoe + era * 400 + i64::from(month <= 2)
}

/// The spec's rule: no estimate for a car over 7 years old (by model year)
/// or over 100,000 km. `None`: it may be valued.
pub fn out_of_range(kms: u64, year: Option<u16>, now: u64) -> Option<Reason> {
    if kms > MAX_KMS {
        return Some(Reason::TooManyKm);
    }
    match year {
        Some(y) if year_of(now) - i64::from(y) > MAX_AGE_YEARS => Some(Reason::TooOld),
        _ => None,
    }
}

/// What the worker sends the valuation service.
pub fn service_request(dealer: &str, req: &ValuationRequest) -> Value {
    let mut body = json!({ "dealer": dealer, "kms": req.kms, "adjustment_answers": req.answers });
    let set = |body: &mut Value, key: &str, value: Option<Value>| {
        if let Some(v) = value {
            body[key] = v;
        }
    };
    set(&mut body, "rego", req.rego.clone().map(Value::from));
    set(
        &mut body,
        "rego_state",
        req.rego_state.clone().map(Value::from),
    );
    set(&mut body, "year", req.vehicle.year.map(Value::from));
    set(&mut body, "make", req.vehicle.make.clone().map(Value::from));
    set(
        &mut body,
        "model",
        req.vehicle.model.clone().map(Value::from),
    );
    set(
        &mut body,
        "variant",
        req.vehicle.variant.clone().map(Value::from),
    );
    body
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty() && s.chars().count() <= 100)
        .map(String::from)
}

/// Reads the service's answer. The age rule is applied again to the car
/// the service identified (a rego tells the year the shopper may not have
/// given). An answer that is not a sane range is no estimate.
pub fn read_service_answer(answer: &Value, kms: u64, now: u64) -> Valuation {
    let vehicle = answer
        .get("vehicle")
        .filter(|v| v.is_object())
        .map(|v| TradeInVehicle {
            year: v
                .get("year")
                .and_then(Value::as_u64)
                .filter(|y| (1900..=2100).contains(y))
                .map(|y| y as u16),
            make: text(v, "make"),
            model: text(v, "model"),
            variant: text(v, "variant"),
        });
    let vehicle = vehicle.filter(|v| !v.is_empty());
    if let Some(reason) = out_of_range(kms, vehicle.as_ref().and_then(|v| v.year), now) {
        return Valuation {
            vehicle,
            ..Valuation::none(reason)
        };
    }
    let bound = |key: &str| {
        answer
            .get("estimate")
            .and_then(|e| e.get(key))
            .and_then(Value::as_f64)
            .filter(|n| n.is_finite() && *n > 0.0 && *n <= MAX_ESTIMATE)
    };
    match (bound("low"), bound("high")) {
        (Some(low), Some(high)) if low <= high => Valuation {
            estimate: Some(Estimate {
                low: low.round() as u64,
                high: high.round() as u64,
                currency: "AUD",
            }),
            reason: Reason::Valued,
            vehicle,
        },
        _ => Valuation {
            vehicle,
            ..Valuation::none(Reason::NotFound)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-11-20 00:00 UTC.
    const NOW: u64 = 1_795_132_800;

    #[test]
    fn a_car_is_named_by_rego_or_by_model() {
        let r = validate_valuation(
            &json!({"rego": "abc 123", "regoState": "nsw", "kms": "85,000",
            "adjustmentAnswers": {"accident": "no"}, "lead_id": "l-1"}),
        )
        .unwrap();
        assert_eq!(
            (r.rego.as_deref(), r.rego_state.as_deref(), r.kms),
            (Some("ABC123"), Some("NSW"), 85_000)
        );
        assert_eq!(r.answers["accident"], json!("no"));
        assert_eq!(r.lead_id.as_deref(), Some("l-1"));
        let r = validate_valuation(&json!({"trade_in_year": 2020, "trade_in_make": "Mazda", "trade_in_model": "3", "kms": 1}))
            .unwrap();
        assert_eq!(r.vehicle.year, Some(2020));
        let e = validate_valuation(&json!({"rego": "ABC123", "kms": 5})).unwrap_err();
        assert_eq!(e.get("regoState"), Some(IDENTIFY_MESSAGE));
        let e = validate_valuation(&json!({"kms": 5})).unwrap_err();
        assert_eq!(e.get("rego"), Some(IDENTIFY_MESSAGE));
        let e = validate_valuation(&json!({"rego": "ABC123", "regoState": "QLD"})).unwrap_err();
        assert_eq!(e.get("kms"), Some(KMS_MESSAGE));
        assert!(validate_valuation(&json!([1])).is_err());
    }

    #[test]
    fn no_estimate_over_seven_years_or_100000_km() {
        assert_eq!(year_of(NOW), 2026);
        assert_eq!(year_of(0), 1970);
        assert_eq!(year_of(951_782_400), 2000, "2000-02-29");
        assert_eq!(
            out_of_range(100_000, Some(2019), NOW),
            None,
            "exactly 100,000 km and 7 years"
        );
        assert_eq!(
            out_of_range(100_001, Some(2024), NOW),
            Some(Reason::TooManyKm)
        );
        assert_eq!(out_of_range(10, Some(2018), NOW), Some(Reason::TooOld));
        assert_eq!(out_of_range(10, None, NOW), None);
    }

    #[test]
    fn the_service_request_carries_what_the_shopper_gave() {
        let r = validate_valuation(&json!({"rego": "ABC123", "regoState": "QLD", "kms": 42000,
            "adjustmentAnswers": {"owners": 2}}))
        .unwrap();
        assert_eq!(
            service_request("alpha", &r),
            json!({"dealer": "alpha", "rego": "ABC123", "rego_state": "QLD", "kms": 42000, "adjustment_answers": {"owners": 2}})
        );
    }

    #[test]
    fn service_answers() {
        let v = read_service_answer(
            &json!({"estimate": {"low": 18000.4, "high": 21000}, "vehicle": {"year": 2021, "make": "Mazda", "model": "CX-5"}}),
            40_000,
            NOW,
        );
        assert_eq!(v.reason, Reason::Valued);
        assert_eq!(
            v.estimate,
            Some(Estimate {
                low: 18000,
                high: 21000,
                currency: "AUD"
            })
        );
        assert_eq!(v.vehicle.unwrap().make.as_deref(), Some("Mazda"));
        // The rego revealed an old car: no estimate, whatever the service says.
        let v = read_service_answer(
            &json!({"estimate": {"low": 5000, "high": 6000}, "vehicle": {"year": 2012}}),
            40_000,
            NOW,
        );
        assert_eq!((v.reason, v.estimate), (Reason::TooOld, None));
        for bad in [
            json!({"estimate": null}),
            json!({}),
            json!({"estimate": {"low": 9, "high": 3}}),
            json!({"estimate": {"low": -1, "high": 3}}),
            json!({"estimate": {"low": "1", "high": "2"}}),
            json!("x"),
        ] {
            assert_eq!(
                read_service_answer(&bad, 1, NOW).reason,
                Reason::NotFound,
                "{bad}"
            );
        }
        assert_eq!(
            serde_json::to_value(Valuation::none(Reason::NoService)).unwrap(),
            json!({"estimate": null, "reason": "no_service"})
        );
    }
}
