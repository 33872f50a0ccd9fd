//! The finance calculator's maths (docs/behaviour/car-page.md §9, "Calculator defaults and
//! formula"). The site's calculator island implements the same formula in
//! TypeScript (astro-app/src/lib/finance/calculator.ts); both are pinned by
//! `rules/vectors/calculator.json`, whose figures come from an independent
//! high-precision implementation (`make_calculator_vectors.py`).
//!
//! A standard amortised loan: principal = amount − deposit (or trade-in) +
//! establishment fee; the residual (balloon) is paid at the end and so
//! discounted to today; the periodic rate is interest / 100 / periods per
//! year. The repayment is rounded up to whole dollars (the lender variant
//! has its own rule, [`Rounding::Lender`]); the total is periods per year ×
//! term × repayment + establishment fee; a repayment of 25 or less shows
//! "Enquire for Finance" and no total.
//!
//! There is deliberately no comparison rate here: a comparison rate is the
//! lender's figure on its standard example and only ever comes from the
//! lender (the stock feed or the quote service).

use serde::{Deserialize, Serialize};

/// How often repayments fall due.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Frequency {
    Week,
    Fortnight,
    Month,
}

impl Frequency {
    /// Repayments a year: 52, 26 or 12.
    pub fn per_year(self) -> u32 {
        match self {
            Frequency::Week => 52,
            Frequency::Fortnight => 26,
            Frequency::Month => 12,
        }
    }

    /// What the repayment label ends with: "/wk", "/fn", "/mo".
    pub fn suffix(self) -> &'static str {
        match self {
            Frequency::Week => "/wk",
            Frequency::Fortnight => "/fn",
            Frequency::Month => "/mo",
        }
    }
}

/// How the exact repayment becomes whole dollars.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// Always up (the shopper is never told less than they will pay).
    #[default]
    Up,
    /// The lender variant's rule: down when the whole-dollar part of the
    /// vehicle amount exceeds the whole-dollar part of the payment (every
    /// real loan), otherwise up.
    Lender,
}

/// One loan as the calculator sees it. Amounts in dollars, rate in % p.a.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Loan {
    /// Purchase price.
    pub amount: f64,
    /// Deposit or trade-in.
    pub deposit: f64,
    pub establishment_fee: f64,
    /// Residual (balloon) paid at the end.
    pub residual: f64,
    pub interest_rate: f64,
    pub term_years: f64,
    pub frequency: Frequency,
    #[serde(default)]
    pub rounding: Rounding,
}

/// Repayments of 25 dollars or less show "Enquire for Finance".
pub const ENQUIRE_AT_OR_BELOW: u64 = 25;
/// What the calculator shows instead of a small repayment.
pub const ENQUIRE_LABEL: &str = "Enquire for Finance";

impl Loan {
    /// Number of repayments: term × periods per year (a 3.5-year weekly loan has 182).
    pub fn periods(&self) -> f64 {
        (self.term_years * f64::from(self.frequency.per_year())).round()
    }

    /// What the borrower owes on day one.
    pub fn principal(&self) -> f64 {
        self.amount - self.deposit + self.establishment_fee
    }
}

/// The exact periodic repayment, before rounding; 0 when the loan has no periods.
pub fn exact_repayment(loan: &Loan) -> f64 {
    let periods = loan.periods();
    if periods.is_nan() || periods <= 0.0 {
        return 0.0;
    }
    let r = loan.interest_rate / 100.0 / f64::from(loan.frequency.per_year());
    if r.abs() < 1e-12 {
        return (loan.principal() - loan.residual) / periods;
    }
    let growth = (1.0 + r).powf(periods);
    (loan.principal() - loan.residual / growth) * r / (1.0 - 1.0 / growth)
}

/// The repayment shown, in whole dollars, never negative. A tiny tolerance
/// keeps float noise (300.0000000001) from moving a whole amount.
pub fn repayment(loan: &Loan) -> u64 {
    let exact = exact_repayment(loan);
    if !exact.is_finite() || exact <= 0.0 {
        return 0;
    }
    let up = (exact - 1e-9).ceil();
    let down = (exact + 1e-9).floor();
    let whole = match loan.rounding {
        Rounding::Up => up,
        Rounding::Lender if loan.amount.trunc() > exact.trunc() => down,
        Rounding::Lender => up,
    };
    whole.max(0.0) as u64
}

/// Whether the calculator shows an amount (and a total).
pub fn shows_amount(repayment: u64) -> bool {
    repayment > ENQUIRE_AT_OR_BELOW
}

/// Total repayments (2 decimals), or `None` (shown blank) when the
/// repayment is 25 or less.
pub fn total(loan: &Loan) -> Option<f64> {
    let rep = repayment(loan);
    shows_amount(rep).then(|| {
        let total = loan.periods() * rep as f64 + loan.establishment_fee;
        (total * 100.0).round() / 100.0
    })
}

/// "$1,234/wk*", or "Enquire for Finance".
pub fn label(loan: &Loan) -> String {
    let rep = repayment(loan);
    if !shows_amount(rep) {
        return ENQUIRE_LABEL.into();
    }
    let digits = rep.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("${grouped}{}*", loan.frequency.suffix())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared vectors, computed independently of this code.
    const VECTORS: &str = include_str!("../vectors/calculator.json");

    #[derive(Deserialize)]
    struct Expected {
        repayment: u64,
        total: Option<f64>,
        label: String,
    }

    #[derive(Deserialize)]
    struct Case {
        name: String,
        input: Loan,
        expected: Expected,
    }

    #[derive(Deserialize)]
    struct File {
        cases: Vec<Case>,
    }

    #[test]
    fn shared_calculator_vectors() {
        let file: File = serde_json::from_str(VECTORS).expect("vectors/calculator.json");
        assert!(file.cases.len() >= 20, "the vector file lost cases");
        let lender = file
            .cases
            .iter()
            .filter(|c| c.input.rounding == Rounding::Lender)
            .count();
        assert!(lender >= 3, "each rounding branch needs cases");
        for case in file.cases {
            let got = (
                repayment(&case.input),
                total(&case.input),
                label(&case.input),
            );
            let want = (
                case.expected.repayment,
                case.expected.total,
                case.expected.label,
            );
            assert_eq!(got, want, "vector {:?}", case.name);
        }
    }

    fn loan() -> Loan {
        Loan {
            amount: 30_000.0,
            deposit: 0.0,
            establishment_fee: 0.0,
            residual: 0.0,
            interest_rate: 0.0,
            term_years: 5.0,
            frequency: Frequency::Week,
            rounding: Rounding::Up,
        }
    }

    #[test]
    fn rounding_is_up_not_nearest() {
        // 30,000 over 5 years at 0%: exactly 115.3846... a week → 116.
        assert!((exact_repayment(&loan()) - 115.384_615).abs() < 1e-5);
        assert_eq!(repayment(&loan()), 116);
        let lender = Loan {
            rounding: Rounding::Lender,
            ..loan()
        };
        assert_eq!(repayment(&lender), 115, "the lender variant rounds down");
    }

    #[test]
    fn degenerate_loans_never_panic_or_go_negative() {
        for bad in [
            Loan {
                amount: f64::NAN,
                ..loan()
            },
            Loan {
                term_years: f64::NAN,
                ..loan()
            },
            Loan {
                interest_rate: f64::INFINITY,
                ..loan()
            },
            Loan {
                term_years: -3.0,
                ..loan()
            },
            Loan {
                deposit: 1e308,
                ..loan()
            },
        ] {
            assert_eq!(repayment(&bad), 0, "{bad:?}");
            assert_eq!(total(&bad), None);
            assert_eq!(label(&bad), ENQUIRE_LABEL);
        }
    }
}
