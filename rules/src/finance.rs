//! The finance calculator's maths: the edge worker's indicative quotes
//! (`POST /api/youx/quote`) compute with it. Pinned by the test vectors in
//! `rules/vectors/finance.json`, whose expected figures come from an
//! independent high-precision implementation (`make_finance_vectors.py`);
//! a calculator on the site must be tested against the same file.
//!
//! A standard amortised loan: principal = amount − trade-in + establishment
//! fee; the residual (balloon) is discounted to today; the periodic rate is
//! interest / 100 / periods per year. Repayments are rounded UP to whole
//! dollars; the total is periods × term × repayment + establishment fee; the
//! comparison rate is rounded to 2 decimals.

use serde::{Deserialize, Serialize};

/// Repayment frequencies the calculator offers (periods per year).
pub const WEEKLY: u32 = 52;
pub const FORTNIGHTLY: u32 = 26;
pub const MONTHLY: u32 = 12;

/// One loan as the calculator sees it. Amounts in dollars, rates in % p.a.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Loan {
    pub amount: f64,
    pub trade_in: f64,
    pub establishment_fee: f64,
    pub residual: f64,
    pub interest_rate: f64,
    pub term_years: f64,
    pub periods_per_year: u32,
}

impl Loan {
    fn periods(&self) -> f64 {
        (self.term_years * f64::from(self.periods_per_year)).round()
    }

    /// What the borrower owes on day one.
    pub fn principal(&self) -> f64 {
        self.amount - self.trade_in + self.establishment_fee
    }
}

/// The exact (unrounded) periodic repayment at `annual_rate` % p.a. for
/// `principal`; 0 when the loan has no periods.
fn annuity(principal: f64, residual: f64, annual_rate: f64, per_year: u32, periods: f64) -> f64 {
    if periods <= 0.0 || per_year == 0 {
        return 0.0;
    }
    let r = annual_rate / 100.0 / f64::from(per_year);
    if r.abs() < 1e-12 {
        return (principal - residual) / periods;
    }
    let growth = (1.0 + r).powf(periods);
    // Residual paid at the end, discounted to today.
    (principal - residual / growth) * r / (1.0 - 1.0 / growth)
}

/// Exact periodic repayment, before rounding.
pub fn exact_repayment(loan: &Loan) -> f64 {
    annuity(
        loan.principal(),
        loan.residual,
        loan.interest_rate,
        loan.periods_per_year,
        loan.periods(),
    )
}

/// The repayment shown: rounded up to whole dollars, never negative. A tiny
/// tolerance keeps 300.0000000001 (float noise) from becoming 301.
pub fn repayment(loan: &Loan) -> u64 {
    let exact = exact_repayment(loan);
    if !exact.is_finite() || exact <= 0.0 {
        return 0;
    }
    (exact - 1e-9).ceil() as u64
}

/// Total repayments: periods per year × term × repayment + establishment fee.
pub fn total(loan: &Loan) -> f64 {
    let total = loan.periods() * repayment(loan) as f64 + loan.establishment_fee;
    round2(total)
}

/// The comparison rate (% p.a., 2 decimals): the rate at which the exact
/// repayments (which carry the establishment fee) repay only the money the
/// borrower actually received (amount − trade-in), i.e. the fee expressed as
/// interest. Equal to the interest rate when there is no fee.
pub fn comparison_rate(loan: &Loan) -> f64 {
    let credit = loan.amount - loan.trade_in;
    let payment = exact_repayment(loan);
    let periods = loan.periods();
    if credit <= 0.0 || payment <= 0.0 || periods <= 0.0 {
        return round2(loan.interest_rate);
    }
    // Present value of the repayments (and the residual) falls as the rate
    // rises, so bisection between 0 and 200% finds the one rate that matches.
    let pv = |annual: f64| -> f64 {
        let r = annual / 100.0 / f64::from(loan.periods_per_year);
        if r.abs() < 1e-12 {
            return payment * periods + loan.residual;
        }
        let growth = (1.0 + r).powf(periods);
        payment * (1.0 - 1.0 / growth) / r + loan.residual / growth
    };
    let (mut lo, mut hi) = (0.0_f64, 200.0_f64);
    if pv(lo) <= credit {
        return 0.0;
    }
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if pv(mid) > credit {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    round2((lo + hi) / 2.0)
}

/// Whether the calculator shows an amount: a repayment of 25 or less shows
/// "Enquire for Finance" instead.
pub fn shows_amount(repayment: u64) -> bool {
    repayment > 25
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A dealer's calculator settings as the worker needs them for indicative
/// quotes (filled from the dealer YAML's `finance.calculator`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FinanceSettings {
    pub default_interest_rate: f64,
    pub min_interest_rate: f64,
    pub max_interest_rate: f64,
    pub default_term_years: f64,
    pub min_price: u32,
    pub max_price: u32,
    pub establishment_fee: f64,
}

impl Default for FinanceSettings {
    /// The defaults of the dealer YAML's `finance.calculator`.
    fn default() -> Self {
        FinanceSettings {
            default_interest_rate: 10.0,
            min_interest_rate: 0.5,
            max_interest_rate: 15.0,
            default_term_years: 5.0,
            min_price: 1000,
            max_price: 250_000,
            establishment_fee: 0.0,
        }
    }
}

/// An indicative weekly quote, in the shape `POST /api/youx/quote` answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Quote {
    pub weekly_repayment_amount: u64,
    pub comparison_rate: f64,
    pub advertised_rate: f64,
}

/// The quote computed from the dealer's own settings: the whole price
/// financed, no trade-in or residual, the default rate (clamped into the
/// calculator's range), weekly repayments.
pub fn indicative_quote(settings: &FinanceSettings, price: f64, term_years: f64) -> Quote {
    let rate = settings
        .default_interest_rate
        .max(settings.min_interest_rate)
        .min(settings.max_interest_rate);
    let loan = Loan {
        amount: price,
        trade_in: 0.0,
        establishment_fee: settings.establishment_fee,
        residual: 0.0,
        interest_rate: rate,
        term_years,
        periods_per_year: WEEKLY,
    };
    Quote {
        weekly_repayment_amount: repayment(&loan),
        comparison_rate: comparison_rate(&loan),
        advertised_rate: round2(rate),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The shared vectors, computed independently of this code.
    const VECTORS: &str = include_str!("../vectors/finance.json");

    #[derive(Deserialize)]
    struct Expected {
        repayment: u64,
        total: f64,
        comparison_rate: f64,
        shows_amount: bool,
    }

    #[derive(Deserialize)]
    struct Case {
        name: String,
        input: Loan,
        expected: Expected,
    }

    #[derive(Deserialize)]
    struct QuoteCase {
        name: String,
        settings: FinanceSettings,
        price: f64,
        term_years: f64,
        expected: Quote,
    }

    fn vectors() -> Value {
        serde_json::from_str(VECTORS).expect("vectors/finance.json is JSON")
    }

    #[test]
    fn shared_loan_vectors() {
        let cases: Vec<Case> = serde_json::from_value(vectors()["loans"].clone()).unwrap();
        assert!(cases.len() >= 8, "the vector file lost cases");
        for case in cases {
            let got = (
                repayment(&case.input),
                total(&case.input),
                comparison_rate(&case.input),
                shows_amount(repayment(&case.input)),
            );
            let want = (
                case.expected.repayment,
                case.expected.total,
                case.expected.comparison_rate,
                case.expected.shows_amount,
            );
            assert_eq!(got, want, "vector {:?}", case.name);
        }
    }

    #[test]
    fn shared_quote_vectors() {
        let cases: Vec<QuoteCase> = serde_json::from_value(vectors()["quotes"].clone()).unwrap();
        assert!(!cases.is_empty());
        for case in cases {
            assert_eq!(
                indicative_quote(&case.settings, case.price, case.term_years),
                case.expected,
                "quote vector {:?}",
                case.name
            );
        }
    }

    #[test]
    fn rounding_is_up_not_nearest() {
        // 30,000 over 5 years at 0%: exactly 115.3846... a week → 116.
        let loan = Loan {
            amount: 30_000.0,
            trade_in: 0.0,
            establishment_fee: 0.0,
            residual: 0.0,
            interest_rate: 0.0,
            term_years: 5.0,
            periods_per_year: WEEKLY,
        };
        assert!((exact_repayment(&loan) - 115.384_615).abs() < 1e-5);
        assert_eq!(repayment(&loan), 116);
        // An exact whole amount is not pushed up by float noise.
        let even = Loan {
            amount: 26_000.0,
            ..loan
        };
        assert_eq!(repayment(&even), 100);
    }

    #[test]
    fn degenerate_loans_never_panic_or_go_negative() {
        let base = Loan {
            amount: 0.0,
            trade_in: 0.0,
            establishment_fee: 0.0,
            residual: 0.0,
            interest_rate: 10.0,
            term_years: 0.0,
            periods_per_year: WEEKLY,
        };
        assert_eq!(repayment(&base), 0);
        let trade_exceeds = Loan {
            amount: 5_000.0,
            trade_in: 9_000.0,
            term_years: 5.0,
            ..base
        };
        assert_eq!(repayment(&trade_exceeds), 0);
        let nan = Loan {
            amount: f64::NAN,
            term_years: 5.0,
            ..base
        };
        assert_eq!(repayment(&nan), 0);
        assert_eq!(comparison_rate(&trade_exceeds), 10.0);
    }

    #[test]
    fn quote_rate_is_clamped_into_the_calculator_range() {
        let settings = FinanceSettings {
            default_interest_rate: 30.0,
            ..FinanceSettings::default()
        };
        assert_eq!(
            indicative_quote(&settings, 30_000.0, 5.0).advertised_rate,
            15.0
        );
    }
}
