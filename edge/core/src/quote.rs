//! `POST /api/youx/quote` (docs/behaviour/car-page.md §7): the request the car page sends for
//! a finance quote, its checks, and the quote service's answer. The worker
//! forwards the request to the dealer's quote service and answers its
//! figures as they came; a dealer without a service has no quotes (404),
//! and a service that fails gives no quote (502). The worker never makes a
//! quote up: a comparison rate is the lender's figure on the standard
//! example (a $30,000 secured loan over 5 years, all fees), and a computed
//! one would be a misleading credit advertisement.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::input::check_body;
use crate::input::FieldErrors;

/// Loan terms the calculator offers: 1 to 7 years in half years.
pub const MIN_TERM: f64 = 1.0;
pub const MAX_TERM: f64 = 7.0;
/// The spec's term when the request names none.
pub const DEFAULT_TERM: f64 = 5.0;
/// No car costs more: a larger price is a broken or hostile request.
pub const MAX_PRICE: f64 = 10_000_000.0;

/// The 404 of a dealer without a quote service.
pub const NO_SERVICE: &str = "No quote service for this dealer.";
/// The 502 when the quote service fails, times out or answers nonsense.
pub const SERVICE_FAILED: &str = "The quote service gave no quote.";

/// A checked quote request, re-serialised with the sites' field names for the
/// quote service (and as the cache key: same request, same answer).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QuoteRequest {
    pub purchase_price: f64,
    pub loan_term: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub self_assessed_credit_score: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vin: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nvic: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub who_is_helping: Option<String>,
}

/// The quote service's figures, as it gave them: the weekly repayment is
/// not rounded here (the page rounds it to whole dollars).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Quote {
    pub weekly_repayment_amount: f64,
    /// % p.a.: the lender's comparison rate.
    pub comparison_rate: f64,
    /// % p.a.
    pub advertised_rate: f64,
}

pub fn validate_quote(body: &Value) -> Result<QuoteRequest, FieldErrors> {
    check_body(body, |f| {
        let price = f.number("purchasePrice");
        match price {
            None if !f.errors.0.contains_key("purchasePrice") => f
                .errors
                .add("purchasePrice", "Please enter the purchase price."),
            Some(p) if p <= 0.0 => f.errors.add("purchasePrice", "Must be above 0."),
            Some(p) if p > MAX_PRICE => {
                f.errors.add("purchasePrice", "Must be at most 10,000,000.")
            }
            _ => {}
        }
        let term = f.number("loanTerm").unwrap_or(DEFAULT_TERM);
        if !(MIN_TERM..=MAX_TERM).contains(&term) || (term * 2.0).fract() != 0.0 {
            f.errors
                .add("loanTerm", "Loan term must be 1 to 7 years, in half years.");
        }
        let score = f.line("selfAssessedCreditScore", 32);
        let year = f.number("year");
        if let Some(y) = year {
            if !(1900.0..=2100.0).contains(&y) || y.fract() != 0.0 {
                f.errors.add("year", "Must be a year, e.g. 2021.");
            }
        }
        let vin = f.line("vin", 17);
        if vin
            .as_deref()
            .is_some_and(|v| !v.bytes().all(|b| b.is_ascii_alphanumeric()))
        {
            f.errors.add("vin", "A VIN has letters and digits only.");
        }
        let nvic = f.line("nvic", 10);
        if nvic
            .as_deref()
            .is_some_and(|v| !v.bytes().all(|b| b.is_ascii_alphanumeric()))
        {
            f.errors.add("nvic", "An NVIC has letters and digits only.");
        }
        let who = f.line("whoIsHelping", 100);

        price.map(|purchase_price| QuoteRequest {
            purchase_price,
            loan_term: term,
            self_assessed_credit_score: score,
            year: year.map(|y| y as u32),
            vin,
            nvic,
            who_is_helping: who,
        })
    })
}

/// The body sent to the quote service, and the key its answer is cached
/// under: the same request to the same service for the same dealer gets
/// the same answer.
pub fn upstream_body_and_cache_key(
    dealer: &str,
    provider_url: &str,
    request: &QuoteRequest,
) -> Option<(String, String)> {
    let canonical = serde_json::to_string(request).ok()?;
    let key = format!("{dealer}|{provider_url}|{canonical}");
    Some((canonical, key))
}

/// Reads the quote service's answer; `None` unless all three figures are
/// finite, non-negative numbers (a broken service must not reach the page,
/// and a quote without its comparison rate may not be shown at all).
pub fn parse_upstream(body: &Value) -> Option<Quote> {
    let num = |k: &str| body.get(k)?.as_f64().filter(|n| n.is_finite() && *n >= 0.0);
    let quote = Quote {
        weekly_repayment_amount: num("weeklyRepaymentAmount")?,
        comparison_rate: num("comparisonRate")?,
        advertised_rate: num("advertisedRate")?,
    };
    // No lender quotes 100% a year or more; such a figure is a broken answer.
    (quote.comparison_rate < 100.0 && quote.advertised_rate < 100.0).then_some(quote)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn spec_payload_is_accepted() {
        let q = validate_quote(
            &json!({"purchasePrice": 30000, "loanTerm": 5, "selfAssessedCreditScore": "GREAT",
                    "year": 2021, "vin": "JTEBR3FJ10K123456", "nvic": "0AB123", "whoIsHelping": ""}),
        )
        .unwrap();
        assert_eq!(q.purchase_price, 30000.0);
        assert_eq!(q.loan_term, 5.0);
        assert_eq!(q.who_is_helping, None, "empty means absent");
        assert_eq!(
            serde_json::to_value(&q).unwrap(),
            json!({"purchasePrice": 30000.0, "loanTerm": 5.0, "selfAssessedCreditScore": "GREAT",
                   "year": 2021, "vin": "JTEBR3FJ10K123456", "nvic": "0AB123"})
        );
    }

    #[test]
    fn term_defaults_to_five_years() {
        let q = validate_quote(&json!({"purchasePrice": "25000"})).unwrap();
        assert_eq!((q.purchase_price, q.loan_term), (25000.0, 5.0));
    }

    #[test]
    fn any_real_price_is_quoted_by_the_service_not_refused_here() {
        // The car page asks for every priced car: a $800 car or a $400,000
        // motorhome is the quote service's call, not the calculator's bounds.
        assert!(validate_quote(&json!({"purchasePrice": 800})).is_ok());
        assert!(validate_quote(&json!({"purchasePrice": 400000})).is_ok());
    }

    #[test]
    fn each_bad_field_has_its_message() {
        let e = validate_quote(
            &json!({"purchasePrice": 0, "loanTerm": 7.25, "year": 20.5, "vin": "ABC-123", "nvic": {}, "selfAssessedCreditScore": 3}),
        )
        .unwrap_err();
        assert_eq!(e.get("purchasePrice"), Some("Must be above 0."));
        assert!(e.get("loanTerm").unwrap().contains("half years"));
        assert_eq!(e.get("year"), Some("Must be a year, e.g. 2021."));
        assert!(e.get("vin").is_some());
        assert_eq!(e.get("nvic"), Some("Must be text."));
        assert_eq!(e.get("selfAssessedCreditScore"), Some("Must be text."));
        assert_eq!(
            validate_quote(&json!({})).unwrap_err().get("purchasePrice"),
            Some("Please enter the purchase price.")
        );
        assert_eq!(
            validate_quote(&json!({"purchasePrice": "lots"}))
                .unwrap_err()
                .get("purchasePrice"),
            Some("Must be a number.")
        );
        assert_eq!(
            validate_quote(&json!([1])).unwrap_err().get("body"),
            Some("Send a JSON object.")
        );
        assert_eq!(
            validate_quote(&json!({"purchasePrice": 1e8}))
                .unwrap_err()
                .get("purchasePrice"),
            Some("Must be at most 10,000,000.")
        );
        assert!(validate_quote(&json!({"purchasePrice": 1e308, "loanTerm": -1})).is_err());
    }

    #[test]
    fn cache_key_per_dealer_provider_and_request() {
        let q = validate_quote(&json!({"purchasePrice": 30000, "loanTerm": 5})).unwrap();
        let (body, key) = upstream_body_and_cache_key("alpha", "https://p.example/q", &q).unwrap();
        assert_eq!(body, r#"{"purchasePrice":30000.0,"loanTerm":5.0}"#);
        assert_eq!(key, format!("alpha|https://p.example/q|{body}"));
        let (_, other) = upstream_body_and_cache_key("beta", "https://p.example/q", &q).unwrap();
        assert_ne!(key, other, "never another dealer's cached answer");
    }

    #[test]
    fn the_services_figures_pass_as_they_came() {
        let q = parse_upstream(
            &json!({"weeklyRepaymentAmount": 146.2, "comparisonRate": 10.55, "advertisedRate": 9.99}),
        )
        .unwrap();
        assert_eq!(
            serde_json::to_value(&q).unwrap(),
            json!({"weeklyRepaymentAmount": 146.2, "comparisonRate": 10.55, "advertisedRate": 9.99}),
            "not rounded, not recomputed"
        );
    }

    #[test]
    fn a_broken_answer_is_no_quote() {
        for bad in [
            json!({"weeklyRepaymentAmount": "146"}),
            json!({"weeklyRepaymentAmount": 146, "advertisedRate": 9.99}),
            json!({"weeklyRepaymentAmount": 146, "comparisonRate": null, "advertisedRate": 9.99}),
            json!({"weeklyRepaymentAmount": -1, "comparisonRate": 1, "advertisedRate": 1}),
            json!({"weeklyRepaymentAmount": 146, "comparisonRate": 180, "advertisedRate": 9.99}),
            json!(null),
            json!([]),
        ] {
            assert_eq!(parse_upstream(&bad), None, "{bad}");
        }
    }
}
