//! A car's finance as its page shows it (docs/behaviour/car-page.md §5): the lender figures
//! chosen by the shared rules (`dealer_rules::finance_display`), whether the
//! page asks the quote service, whether it shows the calculator. Only the
//! chosen figures reach cars.json, never the feed's lender map.

use chrono::{DateTime, Datelike, Utc};
use dealer_config::DealerConfig;
use dealer_rules::finance_display::{
    self, rate_text, Decision, DisplayCar, DisplayRules, Per, Provider,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::feed::FeedCar;
pub use super::feed::KnownQuote;
use super::money::dollars;

/// Finance on one car's page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CarFinance {
    /// The lender's figures the page shows, or null (no lender entry meets its conditions).
    pub lender: Option<LenderOffer>,
    /// The page shows the dealer's quote service's weekly quote (no lender figures, priced, in stock): `known_quote` when the feed carries one, else asked for by the page.
    pub quote: bool,
    /// The quote the stock feed already carries for the car (`youxQuote`), shown without asking the service again; null when it has none (or `quote` is false).
    pub known_quote: Option<KnownQuote>,
    /// The page shows the finance calculator (finance on for this make, car in stock).
    pub calculator: bool,
}

/// One lender's figures for the car, as shown.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct LenderOffer {
    /// The credit provider named on the page, e.g. "Angle Auto Finance" or "Taurus"; null for the dealer's own (Manual) figures without a name.
    pub lender_name: Option<String>,
    /// Interest rate, % p.a. (2 decimals); the calculator starts with it.
    pub interest_rate: f64,
    /// "7.35% p.a.".
    pub interest_rate_text: String,
    /// "8.37% p.a.": the lender's comparison rate, never computed.
    pub comparison_rate_text: String,
    /// "$233" (whole dollars), or null when the lender gives no payment.
    pub repayment_text: Option<String>,
    /// "week" or "month" (with `repayment_text`).
    pub per: Option<RepaymentPer>,
    /// Loan term in years; the calculator starts with it.
    pub term_years: Option<f64>,
    /// Deposit in dollars; the calculator starts with it.
    pub deposit: Option<f64>,
    /// Final (balloon) payment in dollars; the calculator's residual starts with it.
    pub balloon: Option<f64>,
    /// Establishment fee in dollars; the calculator adds it.
    pub establishment_fee: Option<f64>,
    /// "$41,120": the lender's total payable, when given.
    pub total_payable_text: Option<String>,
    /// The lender's disclaimer; null: the dealer's (site.finance.disclaimer).
    pub disclaimer: Option<String>,
}

/// How often the shown repayment falls due.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RepaymentPer {
    Week,
    Month,
}

/// The dealer's side of the display rules, at the build's instant.
pub fn display_rules(cfg: &DealerConfig, now: DateTime<Utc>) -> DisplayRules {
    let f = &cfg.finance;
    DisplayRules {
        enabled: f.enabled,
        providers: f.providers.iter().map(|p| Provider::from(*p)).collect(),
        excluded_makes: f.excluded_makes.clone(),
        manufacturer: cfg.manufacturer.clone(),
        car_clarity: f.car_clarity.rules(),
        // "Newer than the current year minus 12" is judged in the dealer's
        // own calendar: on 1 January in Perth it is already the new year.
        current_year: now.with_timezone(&cfg.timezone.tz()).year(),
    }
}

fn display_car(car: &FeedCar, price: f64, in_stock: bool) -> DisplayCar {
    DisplayCar {
        make: car.make.clone(),
        year: car.year,
        price,
        in_stock,
    }
}

/// Which lender's figures the car shows, or why none (rules/src/finance_display.rs).
pub fn decision(car: &FeedCar, price: f64, in_stock: bool, rules: &DisplayRules) -> Decision {
    finance_display::decide(
        &display_car(car, price, in_stock),
        car.finance_lenders.iter().map(|(k, v)| (k.as_str(), v)),
        rules,
    )
}

/// The finance a car's page shows. `price` is the car's current price
/// (offer price when lower; 0 when none), as the page shows it.
pub fn car_finance(
    car: &FeedCar,
    price: f64,
    in_stock: bool,
    rules: &DisplayRules,
    cfg: &DealerConfig,
) -> CarFinance {
    finance_for(
        car,
        price,
        in_stock,
        decision(car, price, in_stock, rules),
        cfg,
    )
}

/// The finance a car's page shows once its lender `decision` is made; for
/// callers that also need the decision itself (`dealergen explain`).
pub fn finance_for(
    car: &FeedCar,
    price: f64,
    in_stock: bool,
    decision: Decision,
    cfg: &DealerConfig,
) -> CarFinance {
    let facts = display_car(car, price, in_stock);
    let quote_service = cfg.finance.quote_provider.is_some();
    let quote = finance_display::asks_quote(&decision, &facts, quote_service);
    CarFinance {
        quote,
        known_quote: car.quote.filter(|_| quote),
        calculator: finance_display::shows_calculator(&decision, &facts),
        lender: decision.ok().map(|s| LenderOffer {
            lender_name: s.lender_name.clone().or_else(|| {
                (s.provider != Provider::Manual).then(|| s.provider.feed_key().to_string())
            }),
            interest_rate: s.interest_rate,
            interest_rate_text: rate_text(s.interest_rate),
            comparison_rate_text: rate_text(s.comparison_rate),
            repayment_text: s.repayment.map(|(amount, _)| dollars(amount as f64)),
            per: s.repayment.map(|(_, per)| match per {
                Per::Week => RepaymentPer::Week,
                Per::Month => RepaymentPer::Month,
            }),
            term_years: s.term_years,
            deposit: s.deposit,
            balloon: s.balloon,
            establishment_fee: s.establishment_fee,
            total_payable_text: s.total_payable.map(dollars),
            disclaimer: s.disclaimer,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::stock::feed;
    use serde_json::json;

    fn cfg(finance: serde_json::Value) -> DealerConfig {
        serde_json::from_value(json!({
            "template": "t", "name": "Demo", "site_url": "https://demo.example", "timezone": "Australia/Perth",
            "contact": {"phone": "07 3000 0000", "email": "a@demo.example"}, "stock": {"feed": "f.json"},
            "locations": [], "finance": finance,
        }))
        .unwrap()
    }

    fn one(record: serde_json::Value) -> FeedCar {
        let feed = feed::parse(&json!([record]).to_string(), "f.json").unwrap();
        feed.cars.into_iter().next().expect("a car")
    }

    fn record(year: u16, lenders: serde_json::Value) -> serde_json::Value {
        json!({"id": 1, "slug": "c-1", "make": "Kia", "model": "Rio", "year": year, "car_type": "used",
               "status": "in_stock", "price": 19990, "finance_lenders": lenders})
    }

    #[test]
    fn the_feed_entry_becomes_the_figures_the_page_shows() {
        let cfg = cfg(
            json!({"providers": ["angle", "manual"], "quote_provider": {"url": "https://q.example", "secret_name": "K"}}),
        );
        let now = "2026-11-20T00:00:00Z".parse().unwrap();
        let rules = display_rules(&cfg, now);
        let car = one(record(
            2022,
            json!({"Angle": {"interestRate": "7.35%", "comparisonRate": 8.37, "paymentWeek": "$98.50",
            "termYears": 5, "establishmentFees": 395, "totalPayable": 30010.4, "disclaimer": " Angle's words. "}}),
        ));
        let f = car_finance(&car, 19_990.0, true, &rules, &cfg);
        let lender = f.lender.expect("shown");
        assert_eq!(
            lender.lender_name.as_deref(),
            Some("Angle"),
            "the provider when the feed names no lender"
        );
        assert_eq!(
            (
                lender.interest_rate_text.as_str(),
                lender.comparison_rate_text.as_str()
            ),
            ("7.35% p.a.", "8.37% p.a.")
        );
        assert_eq!(lender.repayment_text.as_deref(), Some("$99"));
        assert_eq!(lender.per, Some(RepaymentPer::Week));
        assert_eq!(lender.total_payable_text.as_deref(), Some("$30,010"));
        assert_eq!(lender.disclaimer.as_deref(), Some("Angle's words."));
        assert!(!f.quote, "the lender's figures are the quote");
        assert!(f.calculator);
        // No lender: a quote is asked (the dealer has a service).
        let bare = one(record(2022, json!(null)));
        let f = car_finance(&bare, 19_990.0, true, &rules, &cfg);
        assert!(f.lender.is_none() && f.quote && f.calculator);
        // Sold: no quote, no calculator.
        let f = car_finance(&bare, 19_990.0, false, &rules, &cfg);
        assert!(!f.quote && !f.calculator);
    }

    #[test]
    fn a_quote_in_the_feed_is_shown_instead_of_asked_for_and_only_whole() {
        let cfg = cfg(
            json!({"providers": ["angle"], "quote_provider": {"url": "https://q.example", "secret_name": "K"}}),
        );
        let rules = display_rules(&cfg, "2026-11-20T00:00:00Z".parse().unwrap());
        let with_quote = |quote: serde_json::Value| {
            let mut r = record(2022, json!(null));
            r["youxQuote"] = quote;
            r
        };
        let car = one(with_quote(
            json!({"weeklyRepaymentAmount": 98.6, "comparisonRate": "9.15%", "advertisedRate": 8.95}),
        ));
        let f = car_finance(&car, 19_990.0, true, &rules, &cfg);
        assert!(f.quote);
        assert_eq!(
            f.known_quote,
            Some(KnownQuote {
                weekly_repayment: 98.6,
                comparison_rate: 9.15,
                advertised_rate: 8.95
            })
        );
        // Sold, or with the lender's figures shown: no quote panel, so none.
        assert_eq!(
            car_finance(&car, 19_990.0, false, &rules, &cfg).known_quote,
            None
        );
        let mut lent = with_quote(
            json!({"weeklyRepaymentAmount": 98.6, "comparisonRate": 9.15, "advertisedRate": 8.95}),
        );
        lent["finance_lenders"] =
            json!({"Angle": {"interestRate": 7.35, "comparisonRate": 8.37, "paymentWeek": 98}});
        let f = car_finance(&one(lent), 19_990.0, true, &rules, &cfg);
        assert!(f.lender.is_some() && f.known_quote.is_none());
        // Without its comparison rate (or a repayment above 0) a quote is
        // left out with a warning, and the page asks the service.
        for half in [
            json!({"weeklyRepaymentAmount": 98.6, "advertisedRate": 8.95}),
            json!({"weeklyRepaymentAmount": 0, "comparisonRate": 9.15, "advertisedRate": 8.95}),
            json!("99 a week"),
        ] {
            let feed =
                feed::parse(&json!([with_quote(half.clone())]).to_string(), "f.json").unwrap();
            let warned = feed
                .warnings
                .iter()
                .any(|w| w.to_string().contains("youxQuote"));
            assert!(warned, "{half}: {:?}", feed.warnings);
            let f = car_finance(&feed.cars[0], 19_990.0, true, &rules, &cfg);
            assert!(f.quote && f.known_quote.is_none(), "{half}");
        }
    }

    #[test]
    fn the_age_rule_uses_the_dealers_calendar() {
        let cfg = cfg(json!({"providers": ["taurus"]}));
        let car = one(record(
            2015,
            json!({"Taurus": {"interestRate": 9, "comparisonRate": 9.5}}),
        ));
        // 31 Dec 2026 17:00 UTC is already 1 Jan 2027 in Perth: 2015 is now too old.
        let before: DateTime<Utc> = "2026-12-31T15:00:00Z".parse().unwrap();
        let after: DateTime<Utc> = "2026-12-31T17:00:00Z".parse().unwrap();
        assert!(
            car_finance(&car, 19_990.0, true, &display_rules(&cfg, before), &cfg)
                .lender
                .is_some()
        );
        assert!(
            car_finance(&car, 19_990.0, true, &display_rules(&cfg, after), &cfg)
                .lender
                .is_none()
        );
    }
}
