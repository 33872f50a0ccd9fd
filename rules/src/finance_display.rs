//! Which lender's finance figures a car shows, if any (docs/behaviour/car-page.md §5, "When
//! finance display is shown"), decided once at build time by the generator
//! and pinned by `rules/vectors/finance-display.json`.
//!
//! The stock feed gives each car a `finance_lenders` map keyed by provider
//! ("Manual", "Taurus", "360 Finance", ...), each entry with the lender's own
//! figures. A comparison rate is the lender's figure on the standard example
//! (a $30,000 secured loan over 5 years, all fees); it is never computed here
//! or anywhere else: a car without the lender's comparison rate shows no
//! finance at all.
//!
//! Finance shows only when all of these hold:
//! - the dealer shows finance (`finance.enabled`);
//! - neither the car's make nor the dealer's manufacturer is one of
//!   `finance.excluded_makes` (default Suzuki);
//! - the car has an entry of a provider the dealer lists in
//!   `finance.providers`, tried in that order: the first entry that passes
//!   is shown;
//! - that entry has an interest rate and a comparison rate;
//! - the provider's own conditions hold (see [`Conditions::of`]):
//!
//! | provider | conditions |
//! |---|---|
//! | Taurus | year newer than (current year − 12); price above 500; in stock; comparison rate present |
//! | 360 Finance, AusLoans | in stock |
//! | Manual, Angle, Powertorque | price above 500; in stock; weekly payment present |
//! | Nissan Finance | price above 500; in stock; monthly payment present |
//! | Car Clarity | the dealer's `finance.car_clarity` (default: as Manual) |
//!
//! The figures shown come from that entry: the repayment (Nissan Finance's
//! monthly payment; the others' weekly payment, else their monthly one)
//! rounded to whole dollars, the rates to 2 decimals.

use serde::{Deserialize, Serialize};

/// The warning every comparison rate carries, word for word (National
/// Credit Code, reg. 100). The build's compliance check looks for exactly
/// this text beside every comparison rate it finds.
pub const COMPARISON_WARNING: &str = "WARNING: This comparison rate is true only for the example given and may not include all fees and charges. Different terms, fees or other loan amounts might result in a different comparison rate.";

/// Price a car must be above for most providers to show figures.
pub const MIN_FINANCE_PRICE: f64 = 500.0;

/// A finance provider whose per-car figures may appear in the stock feed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
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

impl Provider {
    pub const ALL: [Provider; 8] = [
        Provider::Taurus,
        Provider::Powertorque,
        Provider::AusLoans,
        Provider::Angle,
        Provider::ThreeSixtyFinance,
        Provider::NissanFinance,
        Provider::Manual,
        Provider::CarClarity,
    ];

    /// The key the stock feed uses for this provider's entry.
    pub fn feed_key(self) -> &'static str {
        match self {
            Provider::Taurus => "Taurus",
            Provider::Powertorque => "Powertorque",
            Provider::AusLoans => "AusLoans",
            Provider::Angle => "Angle",
            Provider::ThreeSixtyFinance => "360 Finance",
            Provider::NissanFinance => "Nissan Finance",
            Provider::Manual => "Manual",
            Provider::CarClarity => "Car Clarity",
        }
    }

    /// The dealer YAML's name (`finance.providers`).
    pub fn yaml_name(self) -> &'static str {
        match self {
            Provider::Taurus => "taurus",
            Provider::Powertorque => "powertorque",
            Provider::AusLoans => "ausloans",
            Provider::Angle => "angle",
            Provider::ThreeSixtyFinance => "360_finance",
            Provider::NissanFinance => "nissan_finance",
            Provider::Manual => "manual",
            Provider::CarClarity => "car_clarity",
        }
    }

    /// The provider a feed key names. Feeds disagree on case and spacing
    /// ("360 Finance", "360finance", "nissan_finance"), so letters and
    /// digits are compared without case.
    pub fn from_feed_key(key: &str) -> Option<Provider> {
        let norm = |s: &str| -> String {
            s.chars()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_lowercase())
                .collect()
        };
        let key = norm(key);
        Provider::ALL
            .into_iter()
            .find(|p| norm(p.feed_key()) == key)
    }
}

/// One lender's figures for one car, as the stock feed gives them
/// (`finance_lenders.<provider>`). Absent figures are `None`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct LenderEntry {
    /// % p.a.
    pub interest_rate: Option<f64>,
    /// % p.a., the lender's figure on the standard example.
    pub comparison_rate: Option<f64>,
    pub payment_week: Option<f64>,
    pub payment_month: Option<f64>,
    pub deposit: Option<f64>,
    pub term_years: Option<f64>,
    /// Term as the lender writes it: months (above 10) or years.
    pub term: Option<f64>,
    /// Final (balloon) payment in dollars.
    pub balloon: Option<f64>,
    pub establishment_fees: Option<f64>,
    pub total_payable: Option<f64>,
    pub disclaimer: Option<String>,
    /// The credit provider's name, e.g. "Angle Auto Finance".
    pub finance_provider: Option<String>,
}

impl LenderEntry {
    /// Loan term in years: `termYears`, else `term` read as months when
    /// above 10 (no car loan runs 11 years; 12 to 84 months are common).
    pub fn years(&self) -> Option<f64> {
        let ok = |y: f64| (y.is_finite() && y > 0.0).then_some(y);
        self.term_years.and_then(ok).or_else(|| {
            self.term
                .and_then(ok)
                .map(|t| if t > 10.0 { t / 12.0 } else { t })
        })
    }
}

/// A figure an entry must have for its provider to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    PaymentWeek,
    PaymentMonth,
    ComparisonRate,
}

/// A provider's conditions on top of the general ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Conditions {
    /// The car's price must be above this; none: any price.
    pub min_price: Option<f64>,
    /// The car must be in stock (in_stock or coming_soon).
    pub in_stock: bool,
    /// The car's year must be newer than the current year minus this; none: any age.
    pub newer_than_years: Option<u16>,
    /// Figures the entry must have.
    pub requires: Vec<Figure>,
}

impl Default for Conditions {
    /// Manual's conditions: price above 500, in stock, a weekly payment.
    fn default() -> Self {
        Conditions {
            min_price: Some(MIN_FINANCE_PRICE),
            in_stock: true,
            newer_than_years: None,
            requires: vec![Figure::PaymentWeek],
        }
    }
}

impl Conditions {
    /// The spec's table; Car Clarity's come from the dealer (`car_clarity`).
    pub fn of(provider: Provider, car_clarity: &Conditions) -> Conditions {
        let in_stock_only = Conditions {
            min_price: None,
            in_stock: true,
            newer_than_years: None,
            requires: Vec::new(),
        };
        match provider {
            Provider::Taurus => Conditions {
                newer_than_years: Some(12),
                requires: vec![Figure::ComparisonRate],
                ..Conditions::default()
            },
            Provider::ThreeSixtyFinance | Provider::AusLoans => in_stock_only,
            Provider::Manual | Provider::Angle | Provider::Powertorque => Conditions::default(),
            Provider::NissanFinance => Conditions {
                requires: vec![Figure::PaymentMonth],
                ..Conditions::default()
            },
            Provider::CarClarity => car_clarity.clone(),
        }
    }
}

/// The dealer's side of the decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisplayRules {
    /// `finance.enabled`: off shows no finance anywhere on the site.
    pub enabled: bool,
    /// `finance.providers`, most preferred first.
    pub providers: Vec<Provider>,
    /// `finance.excluded_makes` (compared without case).
    pub excluded_makes: Vec<String>,
    /// The dealer's manufacturer (single-manufacturer dealers), if any.
    pub manufacturer: Option<String>,
    /// `finance.car_clarity`.
    pub car_clarity: Conditions,
    /// The year "now" is in for the age rule (the build's instant, in the
    /// dealer's time zone).
    pub current_year: i32,
}

/// The car's side of the decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DisplayCar {
    pub make: String,
    pub year: u16,
    /// The current price (offer price when lower), 0 when none.
    pub price: f64,
    /// in_stock or coming_soon.
    pub in_stock: bool,
}

/// How often the shown repayment falls due.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Per {
    Week,
    Month,
}

/// The figures a car shows, all from one lender entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shown {
    pub provider: Provider,
    /// % p.a., 2 decimals.
    pub interest_rate: f64,
    /// % p.a., 2 decimals: the lender's, never computed.
    pub comparison_rate: f64,
    /// Whole dollars, with how often; none when the entry has no payment.
    pub repayment: Option<(u64, Per)>,
    /// Loan term in years, when the lender gives it.
    pub term_years: Option<f64>,
    pub deposit: Option<f64>,
    pub balloon: Option<f64>,
    pub establishment_fee: Option<f64>,
    pub total_payable: Option<f64>,
    /// The credit provider's name, when given.
    pub lender_name: Option<String>,
    /// The lender's disclaimer, or none (the page then shows the dealer's).
    pub disclaimer: Option<String>,
}

/// Why a car shows no lender figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "reason", content = "provider")]
pub enum Hidden {
    /// The dealer shows no finance.
    Disabled,
    /// The car's make or the dealer's manufacturer is excluded.
    ExcludedMake,
    /// No entry of a provider the dealer lists.
    NoLender,
    /// The (most preferred) entry lacks its interest or comparison rate.
    RatesMissing(Provider),
    NotInStock(Provider),
    PriceTooLow(Provider),
    TooOld(Provider),
    NoWeeklyPayment(Provider),
    NoMonthlyPayment(Provider),
}

impl Hidden {
    /// Whether finance is off for this car whatever its lenders say (no
    /// quote and no calculator either).
    pub fn excludes_all_finance(self) -> bool {
        matches!(self, Hidden::Disabled | Hidden::ExcludedMake)
    }
}

/// The decision for one car.
pub type Decision = Result<Shown, Hidden>;

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A rate as pages print it: "8.37% p.a." (2 decimals).
pub fn rate_text(rate: f64) -> String {
    format!("{rate:.2}% p.a.")
}

/// Whether `make` (or the dealer's manufacturer) is excluded from finance.
pub fn excluded(rules: &DisplayRules, make: &str) -> bool {
    let hit = |m: &str| {
        rules
            .excluded_makes
            .iter()
            .any(|x| x.trim().eq_ignore_ascii_case(m.trim()))
    };
    hit(make) || rules.manufacturer.as_deref().is_some_and(hit)
}

/// One entry against its provider's conditions.
fn check(provider: Provider, e: &LenderEntry, car: &DisplayCar, rules: &DisplayRules) -> Decision {
    let (Some(rate), Some(comparison)) = (e.interest_rate, e.comparison_rate) else {
        return Err(Hidden::RatesMissing(provider));
    };
    let c = Conditions::of(provider, &rules.car_clarity);
    if c.in_stock && !car.in_stock {
        return Err(Hidden::NotInStock(provider));
    }
    if c.min_price.is_some_and(|min| car.price <= min) {
        return Err(Hidden::PriceTooLow(provider));
    }
    if let Some(n) = c.newer_than_years {
        if i32::from(car.year) <= rules.current_year - i32::from(n) {
            return Err(Hidden::TooOld(provider));
        }
    }
    let positive = |x: Option<f64>| x.filter(|v| v.is_finite() && *v > 0.0);
    let week = positive(e.payment_week);
    let month = positive(e.payment_month);
    for need in &c.requires {
        match need {
            Figure::PaymentWeek if week.is_none() => return Err(Hidden::NoWeeklyPayment(provider)),
            Figure::PaymentMonth if month.is_none() => {
                return Err(Hidden::NoMonthlyPayment(provider))
            }
            // The general rule already demands it; Taurus names it again.
            _ => {}
        }
    }
    let whole = |x: f64| x.round() as u64;
    let repayment = if provider == Provider::NissanFinance {
        month.map(|m| (whole(m), Per::Month))
    } else {
        week.map(|w| (whole(w), Per::Week))
            .or(month.map(|m| (whole(m), Per::Month)))
    };
    let text = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from)
    };
    Ok(Shown {
        provider,
        interest_rate: round2(rate),
        comparison_rate: round2(comparison),
        repayment,
        term_years: e.years(),
        deposit: positive(e.deposit),
        balloon: positive(e.balloon),
        establishment_fee: positive(e.establishment_fees),
        total_payable: positive(e.total_payable),
        lender_name: text(&e.finance_provider),
        disclaimer: text(&e.disclaimer),
    })
}

/// Decides what a car shows. `lenders` are the feed's entries by feed key;
/// keys that name no known provider are ignored (the feed reader warns).
pub fn decide<'a>(
    car: &DisplayCar,
    lenders: impl IntoIterator<Item = (&'a str, &'a LenderEntry)> + Clone,
    rules: &DisplayRules,
) -> Decision {
    if !rules.enabled {
        return Err(Hidden::Disabled);
    }
    if excluded(rules, &car.make) {
        return Err(Hidden::ExcludedMake);
    }
    let mut first_refusal = None;
    for &provider in &rules.providers {
        let entry = lenders
            .clone()
            .into_iter()
            .find(|(key, _)| Provider::from_feed_key(key) == Some(provider));
        let Some((_, entry)) = entry else { continue };
        match check(provider, entry, car, rules) {
            Ok(shown) => return Ok(shown),
            Err(why) => {
                first_refusal.get_or_insert(why);
            }
        }
    }
    Err(first_refusal.unwrap_or(Hidden::NoLender))
}

/// Whether the car page asks the dealer's quote service for a quote
/// (docs/behaviour/car-page.md §5, Quote: only when enabled, no quote
/// exists yet, and price is above 0):
/// the dealer has a quote service, the car shows no lender figures (those
/// are its quote), it is priced and in stock, and finance is not off for it.
pub fn asks_quote(decision: &Decision, car: &DisplayCar, quote_service: bool) -> bool {
    quote_service
        && car.price > 0.0
        && car.in_stock
        && match decision {
            Ok(_) => false,
            Err(why) => !why.excludes_all_finance(),
        }
}

/// Whether the car page shows the finance calculator: finance is on for the
/// car (dealer and make) and the car can still be bought.
pub fn shows_calculator(decision: &Decision, car: &DisplayCar) -> bool {
    car.in_stock && !matches!(decision, Err(why) if why.excludes_all_finance())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> DisplayRules {
        DisplayRules {
            enabled: true,
            providers: vec![Provider::Manual, Provider::Taurus],
            excluded_makes: vec!["Suzuki".into()],
            manufacturer: None,
            car_clarity: Conditions::default(),
            current_year: 2026,
        }
    }

    fn car() -> DisplayCar {
        DisplayCar {
            make: "Kia".into(),
            year: 2022,
            price: 30_000.0,
            in_stock: true,
        }
    }

    fn entry() -> LenderEntry {
        LenderEntry {
            interest_rate: Some(7.349),
            comparison_rate: Some(8.371),
            payment_week: Some(98.5),
            payment_month: Some(424.0),
            ..LenderEntry::default()
        }
    }

    #[test]
    fn feed_keys_are_matched_without_case_or_spacing() {
        assert_eq!(
            Provider::from_feed_key("360 Finance"),
            Some(Provider::ThreeSixtyFinance)
        );
        assert_eq!(
            Provider::from_feed_key("nissan_finance"),
            Some(Provider::NissanFinance)
        );
        assert_eq!(
            Provider::from_feed_key("AUSLOANS"),
            Some(Provider::AusLoans)
        );
        assert_eq!(
            Provider::from_feed_key("Car-Clarity"),
            Some(Provider::CarClarity)
        );
        assert_eq!(Provider::from_feed_key("Westpac"), None);
        for p in Provider::ALL {
            assert_eq!(Provider::from_feed_key(p.feed_key()), Some(p));
            let yaml: Provider = serde_json::from_value(serde_json::json!(p.yaml_name())).unwrap();
            assert_eq!(yaml, p, "yaml_name matches serde");
        }
    }

    #[test]
    fn the_entry_of_the_first_listed_provider_that_passes_is_shown() {
        let taurus = entry();
        let manual = LenderEntry {
            payment_week: None,
            ..entry()
        };
        let lenders = [("Manual", &manual), ("Taurus", &taurus)];
        let shown = decide(&car(), lenders, &rules()).unwrap();
        assert_eq!(
            shown.provider,
            Provider::Taurus,
            "Manual has no weekly payment"
        );
        assert_eq!(shown.repayment, Some((99, Per::Week)), "rounded, not up");
        assert_eq!((shown.interest_rate, shown.comparison_rate), (7.35, 8.37));
        // Neither passes: the most preferred entry's reason.
        let old = DisplayCar {
            year: 2014,
            ..car()
        };
        assert_eq!(
            decide(&old, lenders, &rules()),
            Err(Hidden::NoWeeklyPayment(Provider::Manual))
        );
        // A provider the dealer does not list is never shown.
        let only_angle = [("Angle", &taurus)];
        assert_eq!(decide(&car(), only_angle, &rules()), Err(Hidden::NoLender));
    }

    #[test]
    fn excluded_makes_cover_the_car_and_the_dealer_manufacturer() {
        let e = entry();
        let suzuki = DisplayCar {
            make: "SUZUKI".into(),
            ..car()
        };
        assert_eq!(
            decide(&suzuki, [("Manual", &e)], &rules()),
            Err(Hidden::ExcludedMake)
        );
        let dealer = DisplayRules {
            manufacturer: Some("Suzuki".into()),
            ..rules()
        };
        assert_eq!(
            decide(&car(), [("Manual", &e)], &dealer),
            Err(Hidden::ExcludedMake)
        );
        let d = decide(&suzuki, [("Manual", &e)], &rules());
        assert!(!asks_quote(&d, &suzuki, true));
        assert!(!shows_calculator(&d, &suzuki));
    }

    #[test]
    fn quotes_only_for_priced_in_stock_cars_without_lender_figures() {
        let e = entry();
        let none: [(&str, &LenderEntry); 0] = [];
        let hidden = decide(&car(), none, &rules());
        assert!(asks_quote(&hidden, &car(), true));
        assert!(!asks_quote(&hidden, &car(), false), "no quote service");
        let unpriced = DisplayCar {
            price: 0.0,
            ..car()
        };
        assert!(!asks_quote(
            &decide(&unpriced, none, &rules()),
            &unpriced,
            true
        ));
        let shown = decide(&car(), [("Manual", &e)], &rules());
        assert!(
            !asks_quote(&shown, &car(), true),
            "the lender's figures are its quote"
        );
        let off = DisplayRules {
            enabled: false,
            ..rules()
        };
        assert!(!asks_quote(&decide(&car(), none, &off), &car(), true));
        assert!(!shows_calculator(&decide(&car(), none, &off), &car()));
        assert!(shows_calculator(&hidden, &car()));
    }

    #[test]
    fn terms_in_months_or_years() {
        let months = LenderEntry {
            term: Some(60.0),
            ..LenderEntry::default()
        };
        assert_eq!(months.years(), Some(5.0));
        let years = LenderEntry {
            term: Some(7.0),
            ..LenderEntry::default()
        };
        assert_eq!(years.years(), Some(7.0));
        let both = LenderEntry {
            term_years: Some(4.0),
            term: Some(60.0),
            ..LenderEntry::default()
        };
        assert_eq!(both.years(), Some(4.0));
        assert_eq!(LenderEntry::default().years(), None);
    }
}
