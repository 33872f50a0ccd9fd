//! The finance calculator's bounds and the quote provider's address.

use crate::model::FinanceConfig;

use super::urls::check_https;
use super::{root, Ctx};

/// Longest and shortest loan the calculator offers, in years.
const TERM_YEARS: std::ops::RangeInclusive<f64> = 1.0..=7.0;

pub(super) fn check(f: &FinanceConfig, cx: &mut Ctx) {
    let c = &f.calculator;
    let p = root().key("finance").key("calculator");
    if c.min_price >= c.max_price {
        cx.err(
            &p.clone().key("max_price"),
            "max_price must be above min_price",
        );
    }
    if c.min_interest_rate < 0.0 {
        cx.err(
            &p.clone().key("min_interest_rate"),
            "interest rates cannot be negative",
        );
    }
    if c.min_interest_rate >= c.max_interest_rate {
        cx.err(
            &p.clone().key("max_interest_rate"),
            "max_interest_rate must be above min_interest_rate",
        );
    } else if !(c.min_interest_rate..=c.max_interest_rate).contains(&c.default_interest_rate) {
        cx.err(
            &p.clone().key("default_interest_rate"),
            format!(
                "default rate {}% is outside {}% to {}%",
                c.default_interest_rate, c.min_interest_rate, c.max_interest_rate
            ),
        );
    }
    if !TERM_YEARS.contains(&c.default_term_years) {
        cx.err(
            &p.clone().key("default_term_years"),
            "loan terms run from 1 to 7 years",
        );
    }
    if c.establishment_fee < 0.0 {
        cx.err(
            &p.clone().key("establishment_fee"),
            "the establishment fee cannot be negative",
        );
    }
    if let Some(q) = &f.quote_provider {
        check_https(
            &q.url,
            &root().key("finance").key("quote_provider").key("url"),
            "the quote provider must be an https:// URL",
            cx,
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at, problems};

    fn calc(fields: &str) -> String {
        format!("finance: {{ calculator: {{ {fields} }} }}\n")
    }

    #[test]
    fn calculator_bounds_are_in_order() {
        let p = problem_at(
            &calc("min_price: 5000, max_price: 5000"),
            "finance.calculator.max_price",
        );
        assert_eq!(p.message, "max_price must be above min_price");
        let p = problem_at(
            &calc("min_interest_rate: 12, max_interest_rate: 4"),
            "finance.calculator.max_interest_rate",
        );
        assert_eq!(
            p.message,
            "max_interest_rate must be above min_interest_rate"
        );
        let p = problem_at(
            &calc("min_interest_rate: 4, max_interest_rate: 12, default_interest_rate: 15"),
            "finance.calculator.default_interest_rate",
        );
        assert_eq!(p.message, "default rate 15% is outside 4% to 12%");
        let p = problem_at(
            &calc("min_interest_rate: -1"),
            "finance.calculator.min_interest_rate",
        );
        assert_eq!(p.message, "interest rates cannot be negative");
        problem_at(
            &calc("establishment_fee: -10"),
            "finance.calculator.establishment_fee",
        );
        accepted(&calc("min_price: 5000, max_price: 150000, min_interest_rate: 4, max_interest_rate: 12, default_interest_rate: 4"));
    }

    #[test]
    fn loan_terms_run_from_one_to_seven_years() {
        for bad in ["0.5", "8"] {
            let p = problem_at(
                &calc(&format!("default_term_years: {bad}")),
                "finance.calculator.default_term_years",
            );
            assert_eq!(p.message, "loan terms run from 1 to 7 years");
        }
        accepted(&calc("default_term_years: 1"));
        accepted(&calc("default_term_years: 7"));
    }

    #[test]
    fn the_quote_provider_is_https() {
        let over = |url: &str| {
            format!(
                "finance: {{ quote_provider: {{ url: \"{url}\", secret_name: YOUX_API_KEY }} }}\n"
            )
        };
        let p = problem_at(
            &over("http://quotes.example.com"),
            "finance.quote_provider.url",
        );
        assert_eq!(p.message, "the quote provider must be an https:// URL");
        assert_eq!(
            problems(&over("https://quotes.example.com/v1/quote")).len(),
            0
        );
    }
}
