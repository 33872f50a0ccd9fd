//! Finance display, calculator and quotes (spec 001 §4-5, §9).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Finance on the site.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FinanceConfig {
    /// Show weekly finance estimates and the calculator at all.
    pub enabled: bool,
    /// Lenders whose per-car figures (from the stock feed) may be shown, in order of preference.
    pub providers: Vec<FinanceProvider>,
    /// The finance calculator.
    pub calculator: Calculator,
    /// Upstream provider for personalised quotes (POST /api/youx/quote). Empty: quotes are computed from the calculator settings.
    pub quote_provider: Option<QuoteProvider>,
    /// Page the "Enquire Now" link opens, e.g. "/finance" or "/finance-enquiry".
    pub finance_page: String,
    /// Disclaimer under every finance figure.
    pub disclaimer: String,
}

impl Default for FinanceConfig {
    fn default() -> Self {
        FinanceConfig {
            enabled: true,
            providers: vec![FinanceProvider::Manual],
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
    Taurus,
    Powertorque,
    #[serde(rename = "ausloans")]
    AusLoans,
    Angle,
    #[serde(rename = "360_finance")]
    ThreeSixtyFinance,
    NissanFinance,
    Manual,
    CarClarity,
}

/// The finance calculator's limits and defaults.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Calculator {
    /// Interest rate (% p.a.) the calculator starts with when the car's lender gives none.
    pub default_interest_rate: f64,
    /// Lowest interest rate the input accepts.
    pub min_interest_rate: f64,
    /// Highest interest rate the input accepts.
    pub max_interest_rate: f64,
    /// Loan term in years the calculator starts with.
    pub default_term_years: f64,
    /// Lowest purchase price accepted.
    pub min_price: u32,
    /// Highest purchase price accepted.
    pub max_price: u32,
    /// Establishment fee added to the principal, in dollars.
    pub establishment_fee: f64,
    /// Offer weekly / fortnightly / monthly; off shows weekly only.
    pub show_frequency: bool,
}

impl Default for Calculator {
    /// The worker's quote maths and this calculator start from the same
    /// numbers (spec 001 §5, §9): they are defined once, in dealer-rules.
    fn default() -> Self {
        let f = dealer_rules::finance::FinanceSettings::default();
        Calculator {
            default_interest_rate: f.default_interest_rate,
            min_interest_rate: f.min_interest_rate,
            max_interest_rate: f.max_interest_rate,
            default_term_years: f.default_term_years,
            min_price: f.min_price,
            max_price: f.max_price,
            establishment_fee: f.establishment_fee,
            show_frequency: true,
        }
    }
}

impl Calculator {
    /// The settings the worker's indicative quotes use.
    pub fn settings(&self) -> dealer_rules::finance::FinanceSettings {
        dealer_rules::finance::FinanceSettings {
            default_interest_rate: self.default_interest_rate,
            min_interest_rate: self.min_interest_rate,
            max_interest_rate: self.max_interest_rate,
            default_term_years: self.default_term_years,
            min_price: self.min_price,
            max_price: self.max_price,
            establishment_fee: self.establishment_fee,
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
