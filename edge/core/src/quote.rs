//! `POST /api/youx/quote`: the request the car page sends for a finance
//! quote and its checks. The answer comes from the dealer's
//! upstream provider when one is configured, else from [`dealer_rules::finance`].

use serde::Serialize;
use serde_json::Value;

use crate::input::check_body;
use crate::input::FieldErrors;
use dealer_rules::finance::FinanceSettings;

/// Loan terms the calculator offers: 1 to 7 years in half years.
pub const MIN_TERM: f64 = 1.0;
pub const MAX_TERM: f64 = 7.0;

/// A checked quote request, re-serialised with the sites' field names for an
/// upstream provider (and as the cache key: same request, same answer).
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

/// Message for a price outside the calculator's range (the sites' wording).
pub fn price_message(s: &FinanceSettings) -> String {
    format!(
        "Cannot be less than {} or more than {}",
        s.min_price, s.max_price
    )
}

pub fn validate_quote(
    body: &Value,
    settings: &FinanceSettings,
) -> Result<QuoteRequest, FieldErrors> {
    check_body(body, |f| {
        let price = f.number("purchasePrice");
        match price {
            None if !f.errors.0.contains_key("purchasePrice") => f
                .errors
                .add("purchasePrice", "Please enter the purchase price."),
            Some(p) if p < f64::from(settings.min_price) || p > f64::from(settings.max_price) => {
                f.errors.add("purchasePrice", price_message(settings))
            }
            _ => {}
        }
        let term = f.number("loanTerm").unwrap_or(settings.default_term_years);
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

/// The body sent to an upstream provider, and the key its answer is cached
/// under: the same request to the same provider for the same dealer gets
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

/// Reads an upstream provider's answer; `None` unless all three figures are
/// finite, non-negative numbers (a broken provider must not reach the page).
pub fn parse_upstream(body: &Value) -> Option<dealer_rules::finance::Quote> {
    let num = |k: &str| body.get(k)?.as_f64().filter(|n| n.is_finite() && *n >= 0.0);
    Some(dealer_rules::finance::Quote {
        weekly_repayment_amount: num("weeklyRepaymentAmount")?.ceil() as u64,
        comparison_rate: num("comparisonRate")?,
        advertised_rate: num("advertisedRate")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn s() -> FinanceSettings {
        FinanceSettings::default()
    }

    #[test]
    fn spec_payload_is_accepted() {
        let q = validate_quote(
            &json!({"purchasePrice": 30000, "loanTerm": 5, "selfAssessedCreditScore": "GREAT",
                    "year": 2021, "vin": "JTEBR3FJ10K123456", "nvic": "0AB123", "whoIsHelping": ""}),
            &s(),
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
    fn term_defaults_to_the_dealer_setting() {
        let q = validate_quote(&json!({"purchasePrice": "25000"}), &s()).unwrap();
        assert_eq!((q.purchase_price, q.loan_term), (25000.0, 5.0));
    }

    #[test]
    fn each_bad_field_has_its_message() {
        let e = validate_quote(
            &json!({"purchasePrice": 999, "loanTerm": 7.25, "year": 20.5, "vin": "ABC-123", "nvic": {}, "selfAssessedCreditScore": 3}),
            &s(),
        )
        .unwrap_err();
        assert_eq!(
            e.get("purchasePrice"),
            Some("Cannot be less than 1000 or more than 250000")
        );
        assert!(e.get("loanTerm").unwrap().contains("half years"));
        assert_eq!(e.get("year"), Some("Must be a year, e.g. 2021."));
        assert!(e.get("vin").is_some());
        assert_eq!(e.get("nvic"), Some("Must be text."));
        assert_eq!(e.get("selfAssessedCreditScore"), Some("Must be text."));
        assert_eq!(
            validate_quote(&json!({}), &s())
                .unwrap_err()
                .get("purchasePrice"),
            Some("Please enter the purchase price.")
        );
        assert_eq!(
            validate_quote(&json!({"purchasePrice": "lots"}), &s())
                .unwrap_err()
                .get("purchasePrice"),
            Some("Must be a number.")
        );
        assert_eq!(
            validate_quote(&json!([1]), &s()).unwrap_err().get("body"),
            Some("Send a JSON object.")
        );
        assert!(validate_quote(&json!({"purchasePrice": 250001}), &s()).is_err());
        assert!(validate_quote(&json!({"purchasePrice": 1e308, "loanTerm": -1}), &s()).is_err());
    }

    #[test]
    fn cache_key_per_dealer_provider_and_request() {
        let q = validate_quote(&json!({"purchasePrice": 30000, "loanTerm": 5}), &s()).unwrap();
        let (body, key) = upstream_body_and_cache_key("alpha", "https://p.example/q", &q).unwrap();
        assert_eq!(body, r#"{"purchasePrice":30000.0,"loanTerm":5.0}"#);
        assert_eq!(key, format!("alpha|https://p.example/q|{body}"));
        let (_, other) = upstream_body_and_cache_key("beta", "https://p.example/q", &q).unwrap();
        assert_ne!(key, other, "never another dealer's cached answer");
    }

    #[test]
    fn upstream_answers_are_checked() {
        let q = parse_upstream(&json!({"weeklyRepaymentAmount": 146.2, "comparisonRate": 10.5, "advertisedRate": 9.99})).unwrap();
        assert_eq!(q.weekly_repayment_amount, 147, "rounded up like ours");
        assert_eq!(
            parse_upstream(&json!({"weeklyRepaymentAmount": "146"})),
            None
        );
        assert_eq!(
            parse_upstream(
                &json!({"weeklyRepaymentAmount": -1, "comparisonRate": 1, "advertisedRate": 1})
            ),
            None
        );
        assert_eq!(parse_upstream(&json!(null)), None);
    }
}
