//! The finance section: the calculator's limits (as the variant and the
//! dealer's values resolve them), the finance page's path, the excluded
//! makes, Car Clarity's conditions, the listed fees and the quote service.

use crate::model::FinanceConfig;

use super::urls::check_https;
use super::{root, Ctx, KeyPath};

/// Longest and shortest loan the calculator offers, in years.
const TERM_YEARS: std::ops::RangeInclusive<f64> = 1.0..=7.0;

/// Paths the site already uses for its own pages: the finance page must not
/// take one of them.
const TAKEN: [&str; 6] = [
    "cars",
    "search",
    "contact-us",
    "sign-in",
    "watchlist",
    "404",
];

/// A dollar amount: finite and not below 0 (YAML can spell NaN and infinity).
fn non_negative(x: f64) -> bool {
    x.is_finite() && x >= 0.0
}

pub(super) fn check(f: &FinanceConfig, cx: &mut Ctx) {
    check_calculator(f, cx);
    check_finance_page(&f.finance_page, cx);
    let fin = || root().key("finance");
    for (i, make) in f.excluded_makes.iter().enumerate() {
        if make.trim().is_empty() {
            cx.err(
                &fin().key("excluded_makes").index(i),
                "an excluded make cannot be empty",
            );
        }
    }
    let cc = &f.car_clarity;
    if cc.min_price.is_some_and(|p| !non_negative(p)) {
        cx.err(
            &fin().key("car_clarity").key("min_price"),
            "a price cannot be negative",
        );
    }
    if cc.newer_than_years.is_some_and(|y| !(1..=50).contains(&y)) {
        cx.err(
            &fin().key("car_clarity").key("newer_than_years"),
            "an age limit runs from 1 to 50 years",
        );
    }
    if f.enabled && f.disclaimer.trim().is_empty() {
        cx.err(
            &fin().key("disclaimer"),
            "finance figures need a disclaimer: write one, or set `finance.enabled: false`",
        );
    }
    if let Some(q) = &f.quote_provider {
        check_https(
            &q.url,
            &fin().key("quote_provider").key("url"),
            "the quote provider must be an https:// URL",
            cx,
        );
    }
}

fn check_calculator(f: &FinanceConfig, cx: &mut Ctx) {
    let c = &f.calculator;
    let s = c.settings();
    let p = || root().key("finance").key("calculator");
    // A problem about a resolved limit points at the key the dealer wrote,
    // or at `variant` when the value came from it.
    let own = |set: bool, key: &str| -> KeyPath {
        if set {
            p().key(key)
        } else {
            p().key("variant")
        }
    };
    if s.min_price >= s.max_price {
        cx.err(&p().key("max_price"), "max_price must be above min_price");
    }
    if s.min_interest_rate < 0.0 {
        cx.err(
            &own(c.min_interest_rate.is_some(), "min_interest_rate"),
            "interest rates cannot be negative",
        );
    }
    if s.min_interest_rate >= s.max_interest_rate {
        cx.err(
            &own(c.max_interest_rate.is_some(), "max_interest_rate"),
            "max_interest_rate must be above min_interest_rate",
        );
    } else if let Some(rate) = s
        .default_interest_rate
        .filter(|r| !(s.min_interest_rate..=s.max_interest_rate).contains(r))
    {
        cx.err(
            &p().key("default_interest_rate"),
            format!(
                "default rate {rate}% is outside {}% to {}%",
                s.min_interest_rate, s.max_interest_rate
            ),
        );
    }
    // A rate shown without its comparison rate breaks the comparison-rate
    // rule the build's compliance check enforces on every page: a default
    // rate with none to show beside it would only ever stay empty (inert).
    if s.default_interest_rate.is_some() && f.calculator_settings().comparison_rate_range.is_none()
    {
        cx.err(
            &p().key("default_interest_rate"),
            "a default interest rate needs a comparison rate to show beside it: set finance.calculator.comparison_rate_range (e.g. { from: 8.38, to: 19.42 }), state the comparison rates in finance.disclaimer, or remove default_interest_rate (the rate then starts empty)",
        );
    }
    if !TERM_YEARS.contains(&s.default_term_years) || (s.default_term_years * 2.0).fract() != 0.0 {
        cx.err(
            &p().key("default_term_years"),
            "loan terms run from 1 to 7 years, in half years",
        );
    }
    if c.establishment_fee.is_some_and(|fee| !non_negative(fee)) {
        cx.err(
            &p().key("establishment_fee"),
            "the establishment fee cannot be negative",
        );
    }
    for (i, fee) in c.fees.iter().flatten().enumerate() {
        if fee.label.trim().is_empty() {
            cx.err(
                &p().key("fees").index(i).key("label"),
                "a fee needs a label",
            );
        }
        if !non_negative(fee.amount) {
            cx.err(
                &p().key("fees").index(i).key("amount"),
                "a fee cannot be negative",
            );
        }
    }
    if let Some(r) = c.comparison_rate_range {
        if !(r.from > 0.0 && r.from <= r.to && r.to < 100.0) {
            cx.err(
                &p().key("comparison_rate_range"),
                "a comparison rate range runs from a rate above 0 to a higher one, e.g. { from: 8.38, to: 19.42 }",
            );
        }
    }
}

/// "/finance", "/apply-for-finance", "/finance/apply": lower-case words,
/// digits and hyphens, as the page is written to a folder of that name.
fn check_finance_page(page: &str, cx: &mut Ctx) {
    let path = root().key("finance").key("finance_page");
    let trimmed = page.strip_suffix('/').unwrap_or(page);
    let segments: Vec<&str> = trimmed.strip_prefix('/').unwrap_or("").split('/').collect();
    let word = |s: &&str| {
        !s.is_empty()
            && !s.starts_with('-')
            && !s.ends_with('-')
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    if !page.starts_with('/') || !segments.iter().all(word) {
        cx.err(
            &path,
            format!("`{page}` is not a page path such as /finance or /apply-for-finance (lower-case letters, digits and hyphens)"),
        );
    } else if TAKEN.contains(&segments[0]) {
        cx.err(
            &path,
            format!(
                "/{} is one of the site's own pages; choose another path, e.g. /finance",
                segments[0]
            ),
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
            &calc("min_interest_rate: 4, max_interest_rate: 12, default_interest_rate: 15, comparison_rate_range: { from: 5, to: 9 }"),
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
        accepted(&calc("min_price: 5000, max_price: 150000, min_interest_rate: 4, max_interest_rate: 12, default_interest_rate: 4, comparison_rate_range: { from: 5, to: 9 }"));
    }

    #[test]
    fn a_default_rate_needs_a_comparison_rate_to_show_beside_it() {
        // Without one the rate would never be filled in
        // (docs/behaviour/finance-calculator.md).
        let p = problem_at(
            &calc("default_interest_rate: 8.5"),
            "finance.calculator.default_interest_rate",
        );
        assert!(
            p.message
                .starts_with("a default interest rate needs a comparison rate to show beside it"),
            "{}",
            p.message
        );
        // The dealer's range, the lender variant's, or the disclaimer's rates.
        accepted(&calc(
            "default_interest_rate: 8.5, comparison_rate_range: { from: 9.1, to: 12 }",
        ));
        accepted(&calc("variant: lender, default_interest_rate: 10"));
        accepted("finance: { calculator: { default_interest_rate: 8.5 }, disclaimer: 'Comparison rates from 9.1% to 12% p.a. based on a $30,000 secured loan over 5 years.' }\n");
        // No default rate: nothing to hold together.
        accepted(&calc("variant: standard"));
    }

    #[test]
    fn the_variant_sets_the_limits_the_default_rate_must_respect() {
        // The lender variant's rates run from 7.5%: the default 5% is outside.
        let p = problem_at(
            &calc("variant: lender, default_interest_rate: 5"),
            "finance.calculator.default_interest_rate",
        );
        assert_eq!(p.message, "default rate 5% is outside 7.5% to 14.5%");
        accepted(&calc("variant: lender, default_interest_rate: 10"));
        accepted(&calc(
            "variant: brand, default_interest_rate: 19, comparison_rate_range: { from: 5, to: 21 }",
        ));
        // A price floor from the variant above the dealer's ceiling: the
        // problem names the dealer's key.
        let p = problem_at(
            &calc("variant: brand, max_price: 4000"),
            "finance.calculator.max_price",
        );
        assert_eq!(p.message, "max_price must be above min_price");
    }

    #[test]
    fn loan_terms_run_from_one_to_seven_years() {
        for bad in ["0.5", "8", "2.25"] {
            let p = problem_at(
                &calc(&format!("default_term_years: {bad}")),
                "finance.calculator.default_term_years",
            );
            assert_eq!(p.message, "loan terms run from 1 to 7 years, in half years");
        }
        accepted(&calc("default_term_years: 1"));
        accepted(&calc("default_term_years: 7"));
        accepted(&calc("default_term_years: 3.5"));
    }

    #[test]
    fn listed_fees_and_comparison_ranges_are_checked() {
        let p = problem_at(
            &calc("fees: [{ label: Establishment Fee, amount: -395 }]"),
            "finance.calculator.fees[0].amount",
        );
        assert_eq!(p.message, "a fee cannot be negative");
        problem_at(
            &calc("fees: [{ label: \" \", amount: 6 }]"),
            "finance.calculator.fees[0].label",
        );
        problem_at(
            &calc("comparison_rate_range: { from: 19.42, to: 8.38 }"),
            "finance.calculator.comparison_rate_range",
        );
        accepted(&calc(
            "fees: [{ label: Dealer Agency Fee, amount: 912.25 }], comparison_rate_range: { from: 8.38, to: 19.42 }",
        ));
    }

    #[test]
    fn the_finance_page_is_a_free_site_path() {
        let page = |p: &str| format!("finance: {{ finance_page: \"{p}\" }}\n");
        for ok in [
            "/finance",
            "/finance-enquiry",
            "/apply-for-finance",
            "/finance/apply",
            "/finance/",
        ] {
            accepted(&page(ok));
        }
        for bad in [
            "finance",
            "/Finance",
            "/fin ance",
            "/finance?x=1",
            "//evil.example",
            "/-x",
        ] {
            let p = problem_at(&page(bad), "finance.finance_page");
            assert!(
                p.message.contains("is not a page path"),
                "{bad}: {}",
                p.message
            );
        }
        let p = problem_at(&page("/search"), "finance.finance_page");
        assert_eq!(
            p.message,
            "/search is one of the site's own pages; choose another path, e.g. /finance"
        );
    }

    #[test]
    fn excluded_makes_car_clarity_and_the_disclaimer() {
        problem_at(
            "finance: { excluded_makes: [Suzuki, \"\"] }\n",
            "finance.excluded_makes[1]",
        );
        problem_at(
            "finance: { car_clarity: { newer_than_years: 0 } }\n",
            "finance.car_clarity.newer_than_years",
        );
        problem_at(
            "finance: { car_clarity: { min_price: -1 } }\n",
            "finance.car_clarity.min_price",
        );
        accepted("finance: { car_clarity: { min_price: null, newer_than_years: 8, requires: [payment_month] } }\n");
        let p = problem_at("finance: { disclaimer: \" \" }\n", "finance.disclaimer");
        assert!(p.message.contains("need a disclaimer"));
        accepted("finance: { enabled: false, disclaimer: \"\" }\n");
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
