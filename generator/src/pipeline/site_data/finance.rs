//! The site-wide finance settings the pages read (`site.finance`): whether
//! finance shows, the dealer's disclaimer, the comparison-rate warning, the
//! finance page, the calculator with every limit decided, and whether the
//! dealer has a quote service.

use dealer_config::model::CalculatorSettings;
use dealer_config::DealerConfig;
use dealer_rules::finance_display::COMPARISON_WARNING;
use schemars::JsonSchema;
use serde::Serialize;

/// Finance settings of the whole site.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Finance {
    /// Finance shows at all (`finance.enabled`). The generator's: pages
    /// read each car's decision and `page`, so it is not in site.json.
    #[serde(skip)]
    #[schemars(skip)]
    pub enabled: bool,
    /// The dealer's disclaimer (`finance.disclaimer`), shown where the lender gives none.
    pub disclaimer: String,
    /// The warning every comparison rate carries, word for word (the build's compliance check looks for it).
    pub comparison_warning: String,
    /// The finance page ("/finance/"), built when finance is on; null otherwise.
    pub page: Option<String>,
    /// The calculator, every limit decided (the dealer's values, else the variant's). Its comparison_rate_range falls back to the comparison rates the disclaimer states.
    pub calculator: CalculatorSettings,
    /// The dealer has a quote service: cars without lender figures ask it
    /// (`POST /api/youx/quote`). Not in site.json: each car's `finance.quote` says it.
    #[serde(skip)]
    #[schemars(skip)]
    pub quotes: bool,
}

/// The finance page's path with a trailing slash ("/finance/"), the form
/// every internal link uses.
pub fn page_path(cfg: &DealerConfig) -> Option<String> {
    cfg.finance
        .enabled
        .then(|| format!("{}/", cfg.finance.finance_page.trim_end_matches('/')))
}

pub fn finance(cfg: &DealerConfig) -> Finance {
    let f = &cfg.finance;
    let calculator = f.calculator_settings();
    Finance {
        enabled: f.enabled,
        disclaimer: f.disclaimer.clone(),
        comparison_warning: COMPARISON_WARNING.into(),
        page: page_path(cfg),
        calculator,
        quotes: f.enabled && f.quote_provider.is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::config_with;
    use dealer_config::model::RateRange;
    use serde_json::json;

    #[test]
    fn comparison_rates_come_from_the_variant_else_the_disclaimer() {
        let plain = finance(&config_with(json!({})));
        assert_eq!(plain.calculator.comparison_rate_range, None);
        assert_eq!(plain.page.as_deref(), Some("/finance/"));
        assert!(!plain.quotes);
        let stated = finance(&config_with(json!({"finance": {"disclaimer":
            "Example: 6.29% p.a., comparison rate 8.19% p.a. on a $30,000 loan. Comparison rates from 7.5% to 9.05%."}})));
        assert_eq!(
            stated.calculator.comparison_rate_range,
            Some(RateRange {
                from: 7.5,
                to: 9.05
            }),
            "comparison rates only, not the 6.29% interest rate"
        );
        let lender = finance(&config_with(
            json!({"finance": {"calculator": {"variant": "lender"},
            "disclaimer": "comparison rate 8.19%", "finance_page": "/apply-for-finance/",
            "quote_provider": {"url": "https://q.example/q", "secret_name": "K"}}}),
        ));
        assert_eq!(
            lender.calculator.comparison_rate_range,
            Some(RateRange {
                from: 8.38,
                to: 19.42
            })
        );
        assert_eq!(lender.page.as_deref(), Some("/apply-for-finance/"));
        assert!(lender.quotes);
        let off = finance(&config_with(
            json!({"finance": {"enabled": false, "quote_provider": {"url": "https://q.example/q", "secret_name": "K"}}}),
        ));
        assert_eq!(off.page, None);
        assert!(!off.quotes);
    }
}
