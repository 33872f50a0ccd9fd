//! What the shopper forms need (`site.json` `forms`): the dealer's form
//! rules (`forms.*`), the captcha's site key, the trade-in and checkout
//! settings the pages show, and which form pages this dealer has. Links to
//! a form page are rendered only when the page is listed here, so no link
//! of a built site leads to a missing form.

use dealer_config::model::{self, DealerConfig};
use schemars::JsonSchema;
use serde::Serialize;

/// The forms' settings.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Forms {
    /// Open-question forms (enquiry, general, fleet, find me something
    /// similar) need a message (`forms.message_required`); off, the message
    /// is optional everywhere.
    pub message_required: bool,
    /// The terms checkbox is shown and must be ticked (`forms.terms_required`).
    pub terms_required: bool,
    /// The words beside every lead form's marketing opt-in box, which is
    /// unticked until the shopper ticks it (`forms.opt_in_text`); the edge
    /// records the same words with the lead.
    pub opt_in_text: String,
    /// State pre-selected in state selects (`forms.default_state`), e.g. "QLD".
    pub default_state: String,
    /// Quick amounts under the finance form's budget question, in dollars (`forms.budget_presets`).
    pub budget_presets: Vec<u32>,
    /// Extras a service booking can tick (`service.additional_services`).
    pub additional_services: Vec<String>,
    /// Where a sent form lands (`forms.success_path`), as a site path with
    /// the trailing slash the site's pages have, e.g. "/success/".
    pub success_path: String,
    /// The Cloudflare Turnstile site key when the dealer has the captcha on
    /// (`features.captcha` with `forms.turnstile`); null: no captcha.
    pub captcha_site_key: Option<String>,
    /// Make an Offer opens the offer form in a dialog ("dialog") or takes
    /// the shopper to the car page's enquiry form set to an offer
    /// ("enquiry_form"; no offer dialog is rendered).
    pub make_offer: model::MakeOfferMode,
    /// The trade-in pages exist (`features.trade_in`): /trade-in/ and
    /// /cars/trade-in/?car_id={id}.
    pub trade_in: bool,
    /// The trade-in flow saves the valuation shown with the lead
    /// (`trade_in.save_valuation`, `POST /api/miscellaneous`).
    pub save_valuation: bool,
    /// The trade-in page's questions and answers (`trade_in.faq`); empty
    /// where there is no trade-in page.
    pub trade_in_faq: Vec<FaqEntry>,
    /// Hours a paid reservation holds the car (`features.checkout.hold_hours`).
    pub checkout_hold_hours: u32,
    /// Car types reserved online (`features.checkout.car_types`); empty: all.
    /// With `checkout_makes`, the search cards apply the per-car rule to hits
    /// (a hosted index's records carry no checkout flag).
    pub checkout_car_types: Vec<model::CarType>,
    /// Makes reserved online (`features.checkout.makes`); empty: all.
    pub checkout_makes: Vec<String>,
    /// Site path of the finance enquiry page (`finance.finance_page`) when it
    /// is a page of this site, e.g. "/finance/"; null when it is elsewhere.
    #[serde(skip)]
    #[schemars(skip)]
    pub finance_path: Option<String>,
    /// The locations that serve parts (of kind parts, or with parts hours):
    /// the parts page's counters, in the dealer file's order; empty: no
    /// parts page.
    pub parts_location_ids: Vec<String>,
    /// Where a happy customer leaves a review (`reviews.review_url`): the
    /// review-feedback page's positive button; null: no such page.
    pub review_url: Option<String>,
    /// The form pages this dealer has, one page each.
    pub pages: Vec<FormPage>,
}

/// One question of a FAQ as the page shows it.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FaqEntry {
    /// The question.
    pub question: String,
    /// The answer's paragraphs (split at blank lines).
    pub answer: Vec<String>,
}

impl FaqEntry {
    fn of(item: &model::FaqItem) -> FaqEntry {
        FaqEntry {
            question: item.question.trim().to_string(),
            answer: item
                .answer
                .split("\n\n")
                .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|p| !p.is_empty())
                .collect(),
        }
    }
}

/// A form page and where it is.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FormPage {
    /// Path below the site root without slashes at either end, e.g.
    /// "book-test-drive" or "cars/trade-in".
    pub path: String,
    /// What the page is.
    pub kind: FormPageKind,
}

/// The kinds of form page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FormPageKind {
    /// Shown after a sent form, with the category and car type.
    Success,
    /// Book a test drive without a car chosen (/book-test-drive).
    BookTestDrive,
    /// The trade-in flow (/trade-in).
    TradeIn,
    /// The trade-in flow towards a car (/cars/trade-in?car_id=).
    CarTradeIn,
    /// The finance enquiry (`#finance-form`).
    Finance,
    /// The parts enquiry (/parts), where a location serves parts.
    Parts,
    /// Withdraw marketing consent (/unsubscribe): every dealer, since every
    /// lead form offers the opt-in.
    Unsubscribe,
    /// The review-feedback landing page (/review-feedback?first_name=&dealership_name=),
    /// where the dealer has a review page (`reviews.review_url`).
    ReviewFeedback,
    /// The customer feedback survey (/customer-feedback-survey): every dealer.
    FeedbackSurvey,
}

/// Paths of the form pages every dealer or some dealers have (the dealer's
/// own pages cannot take them: config/src/content.rs).
pub const PARTS_PATH: &str = "parts";
pub const UNSUBSCRIBE_PATH: &str = "unsubscribe";
pub const REVIEW_FEEDBACK_PATH: &str = "review-feedback";
pub const FEEDBACK_SURVEY_PATH: &str = "customer-feedback-survey";

/// The locations that serve parts (of kind parts, or with parts hours):
/// where there is one, the site has its parts page (/parts/).
pub fn parts_counters(cfg: &DealerConfig) -> Vec<String> {
    cfg.locations
        .iter()
        .filter(|l| dealer_config::places::serves(l, model::LocationKind::Parts))
        .map(|l| l.id.clone())
        .collect()
}

/// "/success" -> "success"; None for a path that is not a page of this
/// site (an https URL, a query or fragment, a dot segment).
fn site_page(path: &str) -> Option<String> {
    let trimmed = path.trim();
    if !trimmed.starts_with('/') || trimmed.contains(['?', '#', '\\', ' ']) {
        return None;
    }
    let inner = trimmed.trim_matches('/');
    let ok = !inner.is_empty()
        && inner.split('/').all(|seg| {
            !seg.is_empty()
                && seg != "."
                && seg != ".."
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        });
    ok.then(|| inner.to_string())
}

pub fn forms(cfg: &DealerConfig) -> Forms {
    let success = site_page(&cfg.forms.success_path).unwrap_or_else(|| "success".into());
    // The finance page exists while finance is on (`finance.enabled`).
    let finance = cfg
        .finance
        .enabled
        .then(|| site_page(&cfg.finance.finance_page))
        .flatten();
    let mut pages = vec![
        FormPage {
            path: success.clone(),
            kind: FormPageKind::Success,
        },
        FormPage {
            path: "book-test-drive".into(),
            kind: FormPageKind::BookTestDrive,
        },
    ];
    if cfg.features.trade_in {
        pages.push(FormPage {
            path: "trade-in".into(),
            kind: FormPageKind::TradeIn,
        });
        pages.push(FormPage {
            path: "cars/trade-in".into(),
            kind: FormPageKind::CarTradeIn,
        });
    }
    let parts_location_ids = parts_counters(cfg);
    if !parts_location_ids.is_empty() {
        pages.push(FormPage {
            path: PARTS_PATH.into(),
            kind: FormPageKind::Parts,
        });
    }
    pages.push(FormPage {
        path: UNSUBSCRIBE_PATH.into(),
        kind: FormPageKind::Unsubscribe,
    });
    if cfg.reviews.review_url.is_some() {
        pages.push(FormPage {
            path: REVIEW_FEEDBACK_PATH.into(),
            kind: FormPageKind::ReviewFeedback,
        });
    }
    pages.push(FormPage {
        path: FEEDBACK_SURVEY_PATH.into(),
        kind: FormPageKind::FeedbackSurvey,
    });
    if let Some(f) = &finance {
        // A finance page path that another form page already takes is not a second page.
        if !pages.iter().any(|p| &p.path == f) {
            pages.push(FormPage {
                path: f.clone(),
                kind: FormPageKind::Finance,
            });
        }
    }
    Forms {
        message_required: cfg.forms.message_required,
        terms_required: cfg.forms.terms_required,
        opt_in_text: cfg.forms.opt_in_text.clone(),
        default_state: cfg.forms.default_state.as_str().into(),
        budget_presets: cfg.forms.budget_presets.clone(),
        additional_services: cfg
            .service
            .additional_services
            .iter()
            .map(|s| s.trim().to_string())
            .collect(),
        success_path: format!("/{success}/"),
        captcha_site_key: cfg
            .features
            .captcha
            .then(|| cfg.forms.turnstile.as_ref().map(|t| t.site_key.clone()))
            .flatten(),
        make_offer: cfg.features.make_offer,
        trade_in: cfg.features.trade_in,
        // Valuations are saved only where the trade-in flow exists.
        save_valuation: cfg.trade_in.save_valuation && cfg.features.trade_in,
        trade_in_faq: if cfg.features.trade_in {
            cfg.trade_in.faq.iter().map(FaqEntry::of).collect()
        } else {
            Vec::new()
        },
        checkout_hold_hours: cfg.features.checkout.hold_hours,
        checkout_car_types: cfg.features.checkout.car_types.clone(),
        checkout_makes: cfg.features.checkout.makes.clone(),
        finance_path: finance.map(|f| format!("/{f}/")),
        parts_location_ids,
        review_url: cfg.reviews.review_url.clone(),
        pages,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::config_with;
    use serde_json::json;

    fn paths(f: &Forms) -> Vec<(&str, FormPageKind)> {
        f.pages.iter().map(|p| (p.path.as_str(), p.kind)).collect()
    }

    #[test]
    fn every_dealer_has_the_success_and_test_drive_pages_and_the_finance_page_at_its_path() {
        let f = forms(&config_with(json!({})));
        assert_eq!(f.success_path, "/success/");
        assert_eq!(f.finance_path.as_deref(), Some("/finance/"));
        assert_eq!(
            paths(&f),
            [
                ("success", FormPageKind::Success),
                ("book-test-drive", FormPageKind::BookTestDrive),
                ("trade-in", FormPageKind::TradeIn),
                ("cars/trade-in", FormPageKind::CarTradeIn),
                ("unsubscribe", FormPageKind::Unsubscribe),
                ("customer-feedback-survey", FormPageKind::FeedbackSurvey),
                ("finance", FormPageKind::Finance),
            ]
        );
        let f = forms(&config_with(
            json!({"forms": {"success_path": "/thank-you"}, "finance": {"finance_page": "/apply-for-finance/"}}),
        ));
        assert_eq!(f.success_path, "/thank-you/");
        assert_eq!(f.pages[0].path, "thank-you");
        assert_eq!(f.finance_path.as_deref(), Some("/apply-for-finance/"));
        assert!(f
            .pages
            .iter()
            .any(|p| p.path == "apply-for-finance" && p.kind == FormPageKind::Finance));
    }

    #[test]
    fn the_parts_page_where_a_location_serves_parts_and_the_review_feedback_page_with_a_review_url()
    {
        let has = |f: &Forms, kind| f.pages.iter().any(|p| p.kind == kind);
        let plain = forms(&config_with(json!({})));
        assert!(!has(&plain, FormPageKind::Parts));
        assert!(plain.parts_location_ids.is_empty());
        assert!(!has(&plain, FormPageKind::ReviewFeedback));
        assert_eq!(plain.review_url, None);
        // Every dealer: the unsubscribe page and the survey.
        assert!(has(&plain, FormPageKind::Unsubscribe));
        assert!(has(&plain, FormPageKind::FeedbackSurvey));
        // A location of kind parts, or one with parts hours.
        for loc in [
            json!({"id": "p", "name": "Spares", "kind": "parts", "address": {"street": "1 A St", "suburb": "Brisbane", "state": "QLD", "postcode": "4000"}, "phone": "07 3000 0000"}),
            json!({"id": "s", "name": "Showroom", "address": {"street": "1 A St", "suburb": "Brisbane", "state": "QLD", "postcode": "4000"}, "phone": "07 3000 0000",
                   "hours": {"parts": {"mon": "08:00-17:00"}}}),
        ] {
            let f = forms(&config_with(json!({ "locations": [loc] })));
            assert!(
                f.pages
                    .iter()
                    .any(|p| p.kind == FormPageKind::Parts && p.path == "parts"),
                "{:?}",
                paths(&f)
            );
            assert_eq!(f.parts_location_ids.len(), 1);
        }
        let f = forms(&config_with(
            json!({"reviews": {"review_url": "https://g.page/r/demo/review"}}),
        ));
        assert!(f
            .pages
            .iter()
            .any(|p| p.kind == FormPageKind::ReviewFeedback && p.path == "review-feedback"));
        assert_eq!(
            f.review_url.as_deref(),
            Some("https://g.page/r/demo/review")
        );
    }

    #[test]
    fn no_finance_page_while_finance_is_off() {
        let f = forms(&config_with(json!({"finance": {"enabled": false}})));
        assert_eq!(f.finance_path, None);
        assert!(!f.pages.iter().any(|p| p.kind == FormPageKind::Finance));
        // Valuations are saved only where the trade-in flow exists.
        let off = forms(&config_with(
            json!({"features": {"trade_in": false}, "trade_in": {"save_valuation": true}}),
        ));
        assert!(!off.save_valuation);
    }

    #[test]
    fn the_trade_in_faq_in_paragraphs_only_where_the_trade_in_page_is() {
        let faq = json!([{"question": " Do I need my logbook? ", "answer": "Yes, and the\nservice history.\n\nBoth help the valuation."}]);
        let on = forms(&config_with(
            json!({"features": {"trade_in": true}, "trade_in": {"faq": faq}}),
        ));
        assert_eq!(on.trade_in_faq.len(), 1);
        assert_eq!(on.trade_in_faq[0].question, "Do I need my logbook?");
        assert_eq!(
            on.trade_in_faq[0].answer,
            ["Yes, and the service history.", "Both help the valuation."]
        );
        let off = forms(&config_with(
            json!({"features": {"trade_in": false}, "trade_in": {"faq": faq}}),
        ));
        assert!(off.trade_in_faq.is_empty());
    }

    #[test]
    fn trade_in_pages_only_with_the_feature_and_no_finance_page_for_an_outside_finance_page() {
        let f = forms(&config_with(
            json!({"features": {"trade_in": false}, "finance": {"finance_page": "https://finance.example.com.au/apply"}}),
        ));
        assert!(!f.trade_in);
        assert_eq!(f.finance_path, None);
        assert_eq!(
            paths(&f),
            [
                ("success", FormPageKind::Success),
                ("book-test-drive", FormPageKind::BookTestDrive),
                ("unsubscribe", FormPageKind::Unsubscribe),
                ("customer-feedback-survey", FormPageKind::FeedbackSurvey),
            ]
        );
    }

    #[test]
    fn the_captcha_key_only_when_the_captcha_is_on() {
        let widget =
            json!({"site_key": "1x00000000000000000000AA", "secret_name": "TURNSTILE_SECRET"});
        let on = forms(&config_with(
            json!({"features": {"captcha": true}, "forms": {"turnstile": widget}}),
        ));
        assert_eq!(
            on.captcha_site_key.as_deref(),
            Some("1x00000000000000000000AA")
        );
        let off = forms(&config_with(json!({"forms": {"turnstile": widget}})));
        assert_eq!(off.captcha_site_key, None);
    }

    #[test]
    fn dealer_switches_reach_the_forms() {
        let f = forms(&config_with(json!({
            "forms": {"message_required": false, "terms_required": false, "default_state": "WA"},
            "features": {"make_offer": "enquiry_form", "checkout": {"hold_hours": 24, "car_types": ["used"], "makes": ["Kia"]}},
            "trade_in": {"save_valuation": true}
        })));
        assert!(!f.message_required && !f.terms_required);
        assert_eq!(f.default_state, "WA");
        assert_eq!(f.make_offer, model::MakeOfferMode::EnquiryForm);
        assert_eq!(f.checkout_hold_hours, 24);
        assert_eq!(f.checkout_car_types, [model::CarType::Used]);
        assert_eq!(f.checkout_makes, ["Kia"]);
        assert!(f.save_valuation);
    }

    #[test]
    fn only_plain_site_paths_are_pages() {
        assert_eq!(site_page("/finance"), Some("finance".into()));
        assert_eq!(site_page("/pages/finance/"), Some("pages/finance".into()));
        for bad in [
            "finance",
            "https://x.com.au/finance",
            "/a/../b",
            "/f?x=1",
            "/",
            "/a b",
        ] {
            assert_eq!(site_page(bad), None, "{bad}");
        }
    }
}
