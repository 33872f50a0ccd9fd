//! `site.json`: the dealer config resolved into what the pages show (the
//! `SiteData` type of astro-app/src/types/site.ts), one module per concern:
//! `links` (navigation, footer, social), `locations` (addresses and hours),
//! `finance` (disclaimer, calculator, finance page), `search` (the search
//! page's settings), `stock_summary` (counts over the
//! visible stock) and `contract` (the JSON Schema the TypeScript types are
//! generated from).

mod content;
mod contract;
mod detail;
mod finance;
mod forms;
mod links;
mod locations;
pub mod logo;
pub mod page_table;
pub mod pages;
mod search;
mod stock_summary;
pub mod structured;

use dealer_config::model;
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

use crate::pipeline::stock::present::Car;

pub use content::{Content, Home, HomeBlock, HomeBlockKind, ModelCard, OfferCard};
pub use contract::contract_schema_text;
pub use detail::DetailPage;
pub use finance::{page_path as finance_page_path, Finance};
pub use forms::{FormPage, FormPageKind, Forms};
pub use links::{Footer, FooterGroup, Link, NavItem};
pub use locations::{
    Address, DepartmentHours, DepartmentName, HoursLine, Location, LocationKind, SpecialDepartment,
    SpecialHours,
};
pub use pages::{CompanyPages, ContentPage};
pub use search::{BaseFilters, HitRules, PromoTile, Search, SortOption};
pub use stock_summary::{stock_summary, MakeCount, StockSummary, TypeCount};

/// Everything a dealer's pages show apart from the cars: `src/data/site.json`.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SiteData {
    /// Dealer slug (file name of the dealer YAML).
    pub slug: String,
    /// Trading name.
    pub name: String,
    /// Set for single-manufacturer dealers, e.g. "Toyota".
    pub manufacturer: Option<String>,
    /// Public origin of the site, e.g. "https://www.example.com.au" (no trailing slash).
    pub base_url: String,
    /// Origin of the edge worker ("" = same origin).
    pub api_base: String,
    /// Colours, logo and font.
    pub theme: model::Theme,
    /// The logo's width and height, read from its file in the public
    /// folder (`logo::intrinsic_size`), so the header reserves its exact
    /// room; null for a remote logo or a file without a size.
    pub logo_size: Option<logo::ImageSize>,
    /// Main phone and e-mail.
    pub contact: model::Contact,
    /// Social media links, in display order.
    pub social: Vec<Link>,
    /// Header navigation.
    pub navigation: Vec<NavItem>,
    /// Footer groups, legal text and copyright.
    pub footer: Footer,
    /// Home page hero (title defaults to the dealer name) and blocks.
    pub home: Home,
    /// Locations, the primary one first.
    pub locations: Vec<Location>,
    /// Shopper features that change what pages render.
    pub features: Features,
    /// Finance: disclaimer, comparison-rate warning, calculator, finance page, quotes.
    pub finance: Finance,
    /// Result card settings (the YAML's `cards`).
    pub cards: Cards,
    /// Search page settings.
    pub search: Search,
    /// Wording that differs between dealers.
    pub copy: Copy,
    /// Car photo addresses: the image host's template, fallback width, quality and srcset widths (`images`).
    pub images: model::ImagesConfig,
    /// The car page's view-time settings (share bar, sticky bars).
    pub detail_page: DetailPage,
    /// The shopper forms: rules, captcha, trade-in and checkout settings,
    /// and the form pages this dealer has.
    pub forms: Forms,
    /// Counts over the visible stock, for the home page and menus.
    pub stock_summary: StockSummary,
    /// Offers, models, promotions, popup, reviews, blog and banners.
    pub content: Content,
    /// Route patterns that need a signed-in shopper, e.g. "/my-garage" or
    /// "/cars/{slug}/checkout" ({slug} matches one path segment): a page on
    /// one of them redirects a signed-out visitor to /sign-in/.
    pub gated_routes: Vec<String>,
    /// Every page path of the site except the car pages and the search
    /// result pages 2..n, e.g. "/about-us/": a component links to a page
    /// of another module only when it is listed here.
    pub pages: Vec<String>,
    /// Company, service and legal pages, and the dealer's Markdown pages.
    pub company: CompanyPages,
    /// schema.org AutoDealer JSON-LD of each location (location pages, contact and home page).
    pub structured_data: Vec<structured::LocationJsonLd>,
    /// The instant the stock was judged at (unix seconds: the build's start,
    /// or `--as-of`); pages rendered from this data apply the time rules
    /// (sold window) at the same instant.
    pub built_at: i64,
}

/// Shopper features that change what pages render.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Features {
    /// Save-to-watchlist buttons (sign-in by phone).
    pub watchlist: bool,
    /// Compare toggles.
    pub compare: bool,
    /// Favourite toggles.
    pub favourites: bool,
    /// true = phone is masked until clicked; false = shown straight away.
    pub phone_reveal: bool,
    /// Reserve Now is offered (on cards and the car page).
    pub checkout: bool,
    /// Reservation deposit in dollars; 0 leaves the amount off the button.
    pub checkout_deposit: u32,
    /// Hours a reservation holds the car (the cards' "100% refundable" note).
    pub checkout_hold_hours: u32,
    /// Checkout page below /cars/{slug}/: "checkout" or "buy-online".
    pub checkout_path: String,
    /// The site also sends its analytics events to the edge's
    /// `POST /api/events` (they always go to the page's `dataLayer`); off,
    /// the edge answers 404, so the site must not call it at all.
    pub analytics: bool,
    /// The dealer offers car subscriptions: cards lead with the weekly
    /// price and the search page adds a '/ week' price slider (docs/behaviour/search.md §9).
    pub subscriptions: bool,
    /// Header dropdowns also open on hover (a mouse on a wide screen).
    pub hover_dropdowns: bool,
}

/// Result card settings, named as in the YAML's `cards` section.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Cards {
    /// Buttons on each result card, in order (`cards.buttons`).
    pub buttons: Vec<model::CardButton>,
    /// Guarantee line on used cars' cards (`cards.used_car_guarantee`); null: none.
    pub used_car_guarantee: Option<String>,
    /// The dealer's button labels by kind (`cards.labels`); a kind not here keeps the platform's wording.
    pub labels: std::collections::BTreeMap<String, String>,
}

/// Wording that differs between dealers.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Copy {
    /// Shown instead of a price when a car has none.
    pub no_price_text: String,
    /// Shown when a car has no dealer comments.
    pub dealer_comments_pending: String,
    /// Title of a sold car's panel on its page, as its tag says it.
    pub sold_text: String,
}

/// Resolves the dealer config into `site.json`; `cars` are the visible
/// stock (for the counts and the search landing pages), `now` the moment
/// the stock was judged at (its year is the copyright year).
pub fn build(
    slug: &str,
    cfg: &DealerConfig,
    cars: &[Car],
    now: chrono::DateTime<chrono::Utc>,
) -> SiteData {
    build_with_pages(slug, cfg, cars, &[], now)
}

/// [`build`] with the dealer's Markdown pages (`LoadedDealer::pages`).
pub fn build_with_pages(
    slug: &str,
    cfg: &DealerConfig,
    cars: &[Car],
    markdown: &[dealer_config::content::MarkdownPage],
    now: chrono::DateTime<chrono::Utc>,
) -> SiteData {
    let year = chrono::Datelike::year(&now);
    let landing_pages = crate::pipeline::search_index::landing_pages(cars, &cfg.name);
    let locations = locations::locations(cfg);
    let company = pages::company_pages(cfg, markdown, &locations);
    let mut site = SiteData {
        slug: slug.into(),
        name: cfg.name.clone(),
        manufacturer: cfg.manufacturer.clone(),
        base_url: cfg.site_url.clone(),
        api_base: cfg.edge.api_base.clone(),
        theme: cfg.theme.clone(),
        // Read from the public folder by the build (build::generate).
        logo_size: None,
        contact: cfg.contact.clone(),
        social: links::social(cfg),
        navigation: links::navigation(cfg, cars, &landing_pages),
        footer: links::footer(cfg, year),
        home: content::home(cfg, &locations),
        locations,
        features: Features {
            watchlist: cfg.features.watchlist,
            compare: cfg.features.compare,
            favourites: cfg.features.favourites,
            phone_reveal: cfg.features.phone_reveal,
            checkout: cfg.features.checkout.enabled,
            checkout_deposit: cfg.features.checkout.deposit,
            checkout_hold_hours: cfg.features.checkout.hold_hours,
            checkout_path: match cfg.features.checkout.path {
                model::CheckoutPath::Checkout => "checkout".into(),
                model::CheckoutPath::BuyOnline => "buy-online".into(),
            },
            analytics: cfg.edge.analytics_sink,
            subscriptions: cfg.features.subscriptions,
            hover_dropdowns: cfg.features.hover_dropdowns,
        },
        finance: finance::finance(cfg),
        cards: Cards {
            buttons: cfg.cards.buttons.clone(),
            used_car_guarantee: cfg
                .cards
                .used_car_guarantee
                .clone()
                .filter(|g| !g.trim().is_empty()),
            labels: cfg
                .cards
                .labels
                .set()
                .into_iter()
                .map(|(kind, label)| (kind.key().to_string(), label.to_string()))
                .collect(),
        },
        search: search::search(cfg, cars),
        copy: Copy {
            no_price_text: cfg.copy.no_price_text.clone(),
            dealer_comments_pending: cfg.copy.dealer_comments_pending.clone(),
            sold_text: cfg.copy.sold_text.clone(),
        },
        images: cfg.images.clone(),
        detail_page: detail::detail_page(cfg),
        forms: forms::forms(cfg),
        stock_summary: stock_summary(cars),
        content: content::content(slug, cfg, &landing_pages, now.timestamp()),
        gated_routes: cfg.gated_routes.clone(),
        pages: Vec::new(),
        company,
        structured_data: structured::locations_json_ld(cfg),
        built_at: now.timestamp(),
    };
    site.pages = page_table::link_targets(&site);
    site
}

/// A small dealer and cars for the tests of every module here.
#[cfg(test)]
pub(crate) mod test_support {
    use dealer_config::DealerConfig;
    use serde_json::{json, Value};

    use crate::pipeline::stock::present::Car;
    use crate::pipeline::stock::{feed, present};

    /// Three locations, the primary one last; `extra` is merged over the top level.
    pub fn config_with(extra: Value) -> DealerConfig {
        let loc = |id: &str, primary: bool| {
            json!({"id": id, "name": format!("Site {id}"), "primary": primary, "phone": "(07) 3000 0001",
                   "address": {"street": "1 A St", "suburb": "Brisbane", "state": "QLD", "postcode": "4000"}})
        };
        let mut base = json!({
            "template": "t", "name": "Demo", "site_url": "https://www.demo.com.au",
            "contact": {"phone": "(07) 3000 0000", "email": "a@demo.com.au"},
            "stock": {"feed": "f.json"},
            "locations": [loc("a", false), loc("b", false), loc("c", true)],
        });
        for (k, v) in extra.as_object().expect("an object") {
            base[k] = v.clone();
        }
        serde_json::from_value(base).unwrap()
    }

    pub fn config() -> DealerConfig {
        config_with(json!({}))
    }

    /// Markdown pages from (name, text).
    pub fn pages_from(files: &[(&str, &str)]) -> Vec<dealer_config::content::MarkdownPage> {
        files
            .iter()
            .map(|(name, text)| {
                dealer_config::content::MarkdownPage::from_text(name, text).unwrap()
            })
            .collect()
    }

    /// One visible car per (make, car type).
    pub fn cars(specs: &[(&str, &str)]) -> Vec<Car> {
        let records: Vec<_> = specs
            .iter()
            .enumerate()
            .map(|(i, (make, car_type))| {
                json!({"id": i, "slug": format!("c-{i}"), "make": make, "model": "M", "year": 2024,
                       "car_type": car_type, "status": "in_stock"})
            })
            .collect();
        let feed = feed::parse(&serde_json::to_string(&records).unwrap(), "f.json").unwrap();
        let cfg = config();
        feed.cars
            .iter()
            .map(|c| present::present(c, &cfg, chrono::Utc::now()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{config, config_with};
    use super::*;

    /// 2026-11-21 00:00 UTC.
    fn test_now() -> chrono::DateTime<chrono::Utc> {
        chrono::DateTime::from_timestamp(1_795_132_800, 0).unwrap()
    }
    use serde_json::json;

    #[test]
    fn the_used_car_guarantee_and_the_hold_reach_the_cards() {
        let site = build("demo", &config(), &[], test_now());
        assert_eq!(site.cards.used_car_guarantee, None);
        assert_eq!(site.features.checkout_hold_hours, 48);
        let cfg = config_with(json!({
            "cards": {"used_car_guarantee": "48 hour money back"},
            "features": {"checkout": {"hold_hours": 24}},
        }));
        let site = build("demo", &cfg, &[], test_now());
        assert_eq!(
            site.cards.used_car_guarantee.as_deref(),
            Some("48 hour money back")
        );
        assert_eq!(site.features.checkout_hold_hours, 24);
        let blank = config_with(json!({"cards": {"used_car_guarantee": "  "}}));
        assert_eq!(
            build("demo", &blank, &[], test_now())
                .cards
                .used_car_guarantee,
            None
        );
    }

    #[test]
    fn the_captcha_key_and_valuation_saving_follow_their_switches() {
        let site = build("demo", &config(), &[], test_now());
        assert_eq!(site.forms.captcha_site_key, None);
        assert!(!site.forms.save_valuation);
        let widget = json!({"site_key": "0x4AAAAAAAB1cD2eF3gH4iJ5", "secret_name": "TS"});
        let on = config_with(
            json!({"features": {"captcha": true}, "forms": {"turnstile": widget},
            "trade_in": {"save_valuation": true}}),
        );
        let site = build("demo", &on, &[], test_now());
        assert_eq!(
            site.forms.captcha_site_key.as_deref(),
            Some("0x4AAAAAAAB1cD2eF3gH4iJ5")
        );
        assert!(site.forms.save_valuation);
        let off = config_with(json!({"forms": {"turnstile": widget},
            "features": {"trade_in": false}, "trade_in": {"save_valuation": true}}));
        let site = build("demo", &off, &[], test_now());
        assert_eq!(site.forms.captcha_site_key, None, "captcha off");
        assert!(!site.forms.save_valuation, "trade-in off");
    }

    #[test]
    fn the_hero_title_defaults_to_the_dealer_name() {
        let site = build("demo", &config(), &[], test_now());
        assert_eq!(
            site.built_at, 1_795_132_800,
            "the moment the stock was judged at"
        );
        assert!(site.footer.copyright.contains("2026"));
        assert_eq!(site.home.hero_title, "Demo");
        let cfg = config_with(json!({"home": {"hero_title": "Drive away today"}}));
        assert_eq!(
            build("demo", &cfg, &[], test_now()).home.hero_title,
            "Drive away today"
        );
    }
}
