//! Finance display, calculator and quotes (docs/behaviour/car-page.md §4-5, §9).

use dealer_rules::finance::Rounding;
use dealer_rules::finance_display::{Conditions, Figure, Provider};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Finance on the site.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FinanceConfig {
    /// Show finance at all: the lenders' weekly figures on cars, quotes, the finance calculator and the finance page. Off: no finance anywhere on the site.
    pub enabled: bool,
    /// Lenders whose per-car figures (the stock feed's `finance_lenders`) may be shown, most preferred first: a car shows the first listed lender whose entry meets that lender's conditions (e.g. Taurus: under 12 years old, price above $500, in stock).
    pub providers: Vec<FinanceProvider>,
    /// Makes that never show finance (figures, quotes or calculator), compared without case, e.g. ["Suzuki"]. A dealer whose `manufacturer` is listed shows finance on no car.
    pub excluded_makes: Vec<String>,
    /// When a car's Car Clarity figures are shown (the lender's conditions are set per dealer). Default: as Manual (price above $500, in stock, a weekly payment).
    pub car_clarity: ProviderConditions,
    /// The finance calculator on car pages and the finance page.
    pub calculator: Calculator,
    /// The dealer's personalised quote service (youX-style `POST /api/youx/quote`). Cars without lender figures then show its weekly quote. Empty: no quotes are asked for.
    pub quote_provider: Option<QuoteProvider>,
    /// Path of the finance page the calculator's "Enquire Now" leads to, e.g. "/finance", "/finance-enquiry" or "/apply-for-finance". The site builds it: the finance calculator and a finance enquiry form.
    pub finance_page: String,
    /// Finance disclaimer shown with every finance figure whose lender gives none, under the calculator and on the finance page. Collapsed after 197 characters (Show More / Show Less).
    pub disclaimer: String,
}

impl Default for FinanceConfig {
    fn default() -> Self {
        FinanceConfig {
            enabled: true,
            providers: vec![FinanceProvider::Manual],
            excluded_makes: vec!["Suzuki".into()],
            car_clarity: ProviderConditions::default(),
            calculator: Calculator::default(),
            quote_provider: None,
            finance_page: "/finance".into(),
            disclaimer: "Indicative only, not a binding quote. Based on a $30,000 secured loan over 5 years. Approved applicants only; fees, charges and lending criteria apply.".into(),
        }
    }
}

/// A finance provider whose figures appear in the stock feed's `finance_lenders`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FinanceProvider {
    /// Taurus: cars under 12 years old, price above $500, in stock.
    Taurus,
    /// Powertorque: price above $500, in stock, a weekly payment.
    Powertorque,
    /// AusLoans: in stock.
    #[serde(rename = "ausloans")]
    AusLoans,
    /// Angle: price above $500, in stock, a weekly payment.
    Angle,
    /// 360 Finance: in stock.
    #[serde(rename = "360_finance")]
    ThreeSixtyFinance,
    /// Nissan Finance: price above $500, in stock, a monthly payment (shown monthly).
    NissanFinance,
    /// The dealer's own figures: price above $500, in stock, a weekly payment.
    Manual,
    /// Car Clarity: the conditions in `finance.car_clarity`.
    CarClarity,
}

impl From<FinanceProvider> for Provider {
    fn from(p: FinanceProvider) -> Provider {
        match p {
            FinanceProvider::Taurus => Provider::Taurus,
            FinanceProvider::Powertorque => Provider::Powertorque,
            FinanceProvider::AusLoans => Provider::AusLoans,
            FinanceProvider::Angle => Provider::Angle,
            FinanceProvider::ThreeSixtyFinance => Provider::ThreeSixtyFinance,
            FinanceProvider::NissanFinance => Provider::NissanFinance,
            FinanceProvider::Manual => Provider::Manual,
            FinanceProvider::CarClarity => Provider::CarClarity,
        }
    }
}

/// When a lender's figures for a car are shown, on top of the general rules
/// (an interest rate and a comparison rate, make not excluded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ProviderConditions {
    /// The car's price must be above this many dollars; empty: any price.
    pub min_price: Option<f64>,
    /// Only cars in stock (in stock or coming soon), not sold ones.
    pub in_stock: bool,
    /// The car's year must be newer than the current year minus this many years (12: a 2014 car is too old in 2026); empty: any age.
    pub newer_than_years: Option<u16>,
    /// Figures the lender's entry must have: payment_week, payment_month, comparison_rate.
    pub requires: Vec<RequiredFigure>,
}

impl Default for ProviderConditions {
    /// As Manual (docs/behaviour/car-page.md §5).
    fn default() -> Self {
        let c = Conditions::default();
        ProviderConditions {
            min_price: c.min_price,
            in_stock: c.in_stock,
            newer_than_years: c.newer_than_years,
            requires: c.requires.into_iter().map(RequiredFigure::from).collect(),
        }
    }
}

impl ProviderConditions {
    pub fn rules(&self) -> Conditions {
        Conditions {
            min_price: self.min_price,
            in_stock: self.in_stock,
            newer_than_years: self.newer_than_years,
            requires: self.requires.iter().map(|f| Figure::from(*f)).collect(),
        }
    }
}

/// A figure a lender's entry must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RequiredFigure {
    /// `paymentWeek`.
    PaymentWeek,
    /// `paymentMonth`.
    PaymentMonth,
    /// `comparisonRate` (always needed anyway).
    ComparisonRate,
}

impl From<Figure> for RequiredFigure {
    fn from(f: Figure) -> Self {
        match f {
            Figure::PaymentWeek => RequiredFigure::PaymentWeek,
            Figure::PaymentMonth => RequiredFigure::PaymentMonth,
            Figure::ComparisonRate => RequiredFigure::ComparisonRate,
        }
    }
}

impl From<RequiredFigure> for Figure {
    fn from(f: RequiredFigure) -> Self {
        match f {
            RequiredFigure::PaymentWeek => Figure::PaymentWeek,
            RequiredFigure::PaymentMonth => Figure::PaymentMonth,
            RequiredFigure::ComparisonRate => Figure::ComparisonRate,
        }
    }
}

/// Which finance calculator the dealer has. Limits left empty take the variant's values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CalculatorVariant {
    /// Price $1,000 to $250,000, interest 0.5% to 15%, weekly / fortnightly / monthly, the establishment fee from the car's lender (else none), repayments rounded up, the disclaimer under the result.
    #[default]
    Standard,
    /// One lender's calculator: price $5,000 to $250,000, interest 7.5% to 14.5%, weekly only, a $1,360.50 establishment fee unless the car's lender gives one, repayments rounded down (up only when the payment is above the price), the lender's fees listed instead of the disclaimer, comparison rates 8.38% to 19.42%.
    Lender,
    /// A manufacturer's brand-finance calculator: price $5,000 to $250,000, interest 4% to 20%; otherwise as standard.
    Brand,
}

/// What the calculator's button does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CalculatorEnquiry {
    /// An "Enquire Now" link to the finance page (`finance_page`) carrying the car (preferredDealership, vehiclePriceBudget, car_id, car_type) to its form.
    #[default]
    Link,
    /// A "Get Finance Now" button opening a Finance Enquiry dialog with the finance enquiry form.
    Dialog,
}

/// A fee the lender variant lists instead of the disclaimer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fee {
    /// As shown, e.g. "Account Administration Fee (Monthly)".
    pub label: String,
    /// Dollars, e.g. 912.25.
    pub amount: f64,
}

/// A range of comparison rates, % p.a.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateRange {
    /// Lowest, e.g. 8.38.
    pub from: f64,
    /// Highest, e.g. 19.42.
    pub to: f64,
}

/// The finance calculator's limits and defaults (docs/behaviour/car-page.md §5, §9).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Calculator {
    /// Which calculator (`standard`, `lender` or `brand`); it sets the limits left empty below and how repayments are rounded.
    pub variant: CalculatorVariant,
    /// Interest rate (% p.a.) the calculator starts with when the car's lender gives none, so its first repayment shows at once. A rate needs its comparison rate beside it: set only with a comparison rate to show (`comparison_rate_range`, the lender variant's, or comparison rates in `finance.disclaimer`); `check` fails without one. Empty: the rate starts empty and the shopper enters one.
    pub default_interest_rate: Option<f64>,
    /// Lowest interest rate the input accepts; empty: the variant's (0.5, lender 7.5, brand 4).
    pub min_interest_rate: Option<f64>,
    /// Highest interest rate the input accepts; empty: the variant's (15, lender 14.5, brand 20).
    pub max_interest_rate: Option<f64>,
    /// Loan term in years the calculator starts with when the car's lender gives none (1 to 7).
    pub default_term_years: f64,
    /// Lowest purchase price; empty: the variant's (1,000, lender and brand 5,000).
    pub min_price: Option<u32>,
    /// Highest purchase price.
    pub max_price: u32,
    /// Establishment fee (dollars) added to the loan when the car's lender gives none; empty: the variant's (0, lender 1,360.50).
    pub establishment_fee: Option<f64>,
    /// Offer weekly / fortnightly / monthly repayments; off: weekly only. Empty: the variant's (on, lender off).
    pub show_frequency: Option<bool>,
    /// Fees listed under the result instead of the disclaimer; empty: the variant's (the lender variant lists its four fees, the others show the disclaimer).
    pub fees: Option<Vec<Fee>>,
    /// Comparison rates shown for cars whose lender gives none, e.g. { from: 8.38, to: 19.42 }; empty: the variant's (lender 8.38 to 19.42), else the comparison rates the disclaimer states.
    pub comparison_rate_range: Option<RateRange>,
    /// What the calculator's button does: `link` (Enquire Now, to the finance page) or `dialog` (Get Finance Now, a Finance Enquiry dialog).
    pub enquiry: CalculatorEnquiry,
}

impl Default for Calculator {
    fn default() -> Self {
        Calculator {
            variant: CalculatorVariant::Standard,
            default_interest_rate: None,
            min_interest_rate: None,
            max_interest_rate: None,
            default_term_years: 5.0,
            min_price: None,
            max_price: 250_000,
            establishment_fee: None,
            show_frequency: None,
            fees: None,
            comparison_rate_range: None,
            enquiry: CalculatorEnquiry::Link,
        }
    }
}

/// The calculator with every limit decided (the dealer's value, else the variant's).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct CalculatorSettings {
    /// Which calculator.
    pub variant: CalculatorVariant,
    /// Lowest purchase price (the help message shows at or below it).
    pub min_price: u32,
    /// Highest purchase price (the help message shows at or above it).
    pub max_price: u32,
    /// Lowest interest rate, % p.a.
    pub min_interest_rate: f64,
    /// Highest interest rate, % p.a.
    pub max_interest_rate: f64,
    /// Starting interest rate when the car's lender gives none; null: the rate starts empty.
    pub default_interest_rate: Option<f64>,
    /// Starting loan term in years when the car's lender gives none.
    pub default_term_years: f64,
    /// Establishment fee when the car's lender gives none.
    pub establishment_fee: f64,
    /// Weekly / fortnightly / monthly choice shown.
    pub show_frequency: bool,
    /// Repayments rounded down by the lender's rule (else up).
    pub round_down: bool,
    /// Fees listed instead of the disclaimer (empty: the disclaimer shows).
    pub fees: Vec<Fee>,
    /// Comparison rates shown for cars without lender figures: the dealer's, the variant's, else those the disclaimer states ([`FinanceConfig::calculator_settings`]).
    pub comparison_rate_range: Option<RateRange>,
    /// What the calculator's button does.
    pub enquiry: CalculatorEnquiry,
}

/// The fees the spec's lender variant lists (docs/behaviour/car-page.md §9).
pub fn lender_variant_fees() -> Vec<Fee> {
    [
        ("Establishment Fee", 395.0),
        ("Vehicle Security Registration Fee", 6.0),
        ("Account Administration Fee (Monthly)", 8.0),
        ("Dealer Agency Fee", 912.25),
    ]
    .into_iter()
    .map(|(label, amount)| Fee {
        label: label.into(),
        amount,
    })
    .collect()
}

impl Calculator {
    /// Every limit decided: the dealer's value where set, else the variant's.
    pub fn settings(&self) -> CalculatorSettings {
        use CalculatorVariant::*;
        let v = self.variant;
        CalculatorSettings {
            variant: v,
            min_price: self.min_price.unwrap_or(match v {
                Standard => 1_000,
                Lender | Brand => 5_000,
            }),
            max_price: self.max_price,
            min_interest_rate: self.min_interest_rate.unwrap_or(match v {
                Standard => 0.5,
                Lender => 7.5,
                Brand => 4.0,
            }),
            max_interest_rate: self.max_interest_rate.unwrap_or(match v {
                Standard => 15.0,
                Lender => 14.5,
                Brand => 20.0,
            }),
            default_interest_rate: self.default_interest_rate,
            default_term_years: self.default_term_years,
            establishment_fee: self.establishment_fee.unwrap_or(match v {
                Lender => 1_360.50,
                Standard | Brand => 0.0,
            }),
            show_frequency: self.show_frequency.unwrap_or(v != Lender),
            round_down: v == Lender,
            fees: self.fees.clone().unwrap_or_else(|| match v {
                Lender => lender_variant_fees(),
                Standard | Brand => Vec::new(),
            }),
            comparison_rate_range: self.comparison_rate_range.or(match v {
                Lender => Some(RateRange {
                    from: 8.38,
                    to: 19.42,
                }),
                Standard | Brand => None,
            }),
            enquiry: self.enquiry,
        }
    }
}

impl FinanceConfig {
    /// The calculator with every limit decided; its comparison rates fall
    /// back to those the disclaimer states.
    pub fn calculator_settings(&self) -> CalculatorSettings {
        let mut settings = self.calculator.settings();
        if settings.comparison_rate_range.is_none() {
            settings.comparison_rate_range =
                crate::finance_text::comparison_rates_in(&self.disclaimer)
                    .map(|(from, to)| RateRange { from, to });
        }
        settings
    }
}

impl CalculatorSettings {
    /// The shared formula's rounding rule for this calculator.
    pub fn rounding(&self) -> Rounding {
        if self.round_down {
            Rounding::Lender
        } else {
            Rounding::Up
        }
    }
}

/// An upstream quote service. Its secret comes from the worker's secrets, never from YAML.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuoteProvider {
    /// Quote endpoint URL (https).
    pub url: String,
    /// Name of the worker secret holding the API key, e.g. "YOUX_API_KEY".
    pub secret_name: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variant_has_the_spec_values() {
        let of = |variant| {
            Calculator {
                variant,
                ..Calculator::default()
            }
            .settings()
        };
        let s = of(CalculatorVariant::Standard);
        assert_eq!((s.min_price, s.max_price), (1_000, 250_000));
        assert_eq!((s.min_interest_rate, s.max_interest_rate), (0.5, 15.0));
        assert_eq!(s.establishment_fee, 0.0);
        assert!(s.show_frequency && !s.round_down && s.fees.is_empty());
        assert_eq!(s.comparison_rate_range, None);
        let l = of(CalculatorVariant::Lender);
        assert_eq!((l.min_price, l.max_price), (5_000, 250_000));
        assert_eq!((l.min_interest_rate, l.max_interest_rate), (7.5, 14.5));
        assert_eq!(l.establishment_fee, 1_360.50);
        assert!(!l.show_frequency && l.round_down);
        assert_eq!(l.rounding(), Rounding::Lender);
        assert_eq!(
            l.fees.iter().map(|f| f.amount).collect::<Vec<_>>(),
            [395.0, 6.0, 8.0, 912.25]
        );
        assert_eq!(
            l.comparison_rate_range,
            Some(RateRange {
                from: 8.38,
                to: 19.42
            })
        );
        let b = of(CalculatorVariant::Brand);
        assert_eq!(b.min_price, 5_000);
        assert_eq!((b.min_interest_rate, b.max_interest_rate), (4.0, 20.0));
        assert!(b.show_frequency && !b.round_down);
    }

    #[test]
    fn the_dealers_values_win_over_the_variant() {
        let c = Calculator {
            variant: CalculatorVariant::Lender,
            min_price: Some(2_000),
            show_frequency: Some(true),
            establishment_fee: Some(0.0),
            fees: Some(Vec::new()),
            ..Calculator::default()
        }
        .settings();
        assert_eq!(c.min_price, 2_000);
        assert!(c.show_frequency);
        assert_eq!(c.establishment_fee, 0.0);
        assert!(c.fees.is_empty(), "an empty list shows the disclaimer");
        assert!(c.round_down, "rounding is the variant's");
    }

    #[test]
    fn car_clarity_defaults_to_manuals_conditions() {
        assert_eq!(
            ProviderConditions::default().rules(),
            Conditions::of(Provider::Manual, &Conditions::default())
        );
        for p in [
            FinanceProvider::Taurus,
            FinanceProvider::Powertorque,
            FinanceProvider::AusLoans,
            FinanceProvider::Angle,
            FinanceProvider::ThreeSixtyFinance,
            FinanceProvider::NissanFinance,
            FinanceProvider::Manual,
            FinanceProvider::CarClarity,
        ] {
            // The YAML names are the shared rules' names.
            let yaml = serde_json::to_value(p).unwrap();
            assert_eq!(yaml, serde_json::to_value(Provider::from(p)).unwrap());
        }
    }
}
