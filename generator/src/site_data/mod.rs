//! `site.json`: the dealer config resolved into what the pages show (the
//! `SiteData` type of astro-app/src/types/site.ts), one module per concern:
//! `links` (navigation, footer, social), `locations` (addresses and hours),
//! `search` (the search page's settings), `stock_summary` (counts over the
//! visible stock) and `contract` (the JSON Schema the TypeScript types are
//! generated from).

mod contract;
mod links;
mod locations;
pub mod pages;
mod search;
mod stock_summary;
pub mod structured;

use dealer_config::model;
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

use crate::stock::present::Car;

pub use contract::contract_schema_text;
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
    /// Main phone and e-mail.
    pub contact: model::Contact,
    /// Social media links, in display order.
    pub social: Vec<Link>,
    /// Header navigation.
    pub navigation: Vec<NavItem>,
    /// Footer groups, legal text and copyright.
    pub footer: Footer,
    /// Home page hero (title defaults to the dealer name).
    pub home: model::Home,
    /// Locations, the primary one first.
    pub locations: Vec<Location>,
    /// Shopper features that change what pages render.
    pub features: Features,
    /// Result card settings (the YAML's `cards`).
    pub cards: Cards,
    /// Search page settings.
    pub search: Search,
    /// Wording that differs between dealers.
    pub copy: Copy,
    /// Counts over the visible stock, for the home page and menus.
    pub stock_summary: StockSummary,
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
    /// Checkout page below /cars/{slug}/: "checkout" or "buy-online".
    pub checkout_path: String,
    /// The site sends its analytics events (39 save car, 25 phone click)
    /// to the edge's `POST /api/events`; off, the edge answers 404, so the
    /// site must not call it at all.
    pub analytics: bool,
    /// Finance figures are shown: the car page asks `POST /api/youx/quote`
    /// for a weekly repayment (priced cars only).
    pub finance_quote: bool,
    /// The dealer offers car subscriptions: cards lead with the weekly
    /// price and the search page adds a '/ week' price slider (spec 000 §9).
    pub subscriptions: bool,
}

/// Result card settings, named as in the YAML's `cards` section.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Cards {
    /// Buttons on each result card, in order (`cards.buttons`).
    pub buttons: Vec<model::CardButton>,
}

/// Wording that differs between dealers.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Copy {
    /// Shown instead of a price when a car has none.
    pub no_price_text: String,
    /// Shown when a car has no dealer comments.
    pub dealer_comments_pending: String,
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
    let mut home = cfg.home.clone();
    if home.hero_title.is_empty() {
        home.hero_title = cfg.name.clone();
    }
    let locations = locations::locations(cfg);
    let company = pages::company_pages(cfg, markdown, &locations);
    let mut site = SiteData {
        slug: slug.into(),
        name: cfg.name.clone(),
        manufacturer: cfg.manufacturer.clone(),
        base_url: cfg.site_url.clone(),
        api_base: cfg.edge.api_base.clone(),
        theme: cfg.theme.clone(),
        contact: cfg.contact.clone(),
        social: links::social(cfg),
        navigation: links::navigation(cfg),
        footer: links::footer(cfg, year),
        home,
        locations,
        features: Features {
            watchlist: cfg.features.watchlist,
            compare: cfg.features.compare,
            favourites: cfg.features.favourites,
            phone_reveal: cfg.features.phone_reveal,
            checkout: cfg.features.checkout.enabled,
            checkout_deposit: cfg.features.checkout.deposit,
            checkout_path: match cfg.features.checkout.path {
                model::CheckoutPath::Checkout => "checkout".into(),
                model::CheckoutPath::BuyOnline => "buy-online".into(),
            },
            analytics: cfg.edge.analytics_sink,
            finance_quote: cfg.finance.enabled,
            subscriptions: cfg.features.subscriptions,
        },
        cards: Cards {
            buttons: cfg.cards.buttons.clone(),
        },
        search: search::search(cfg, cars),
        copy: Copy {
            no_price_text: cfg.copy.no_price_text.clone(),
            dealer_comments_pending: cfg.copy.dealer_comments_pending.clone(),
        },
        stock_summary: stock_summary(cars),
        gated_routes: cfg.gated_routes.clone(),
        pages: Vec::new(),
        company,
        structured_data: structured::locations_json_ld(cfg),
        built_at: now.timestamp(),
    };
    site.pages = pages::page_paths(&site);
    site
}

/// A small dealer and cars for the tests of every module here.
#[cfg(test)]
pub(crate) mod test_support {
    use dealer_config::DealerConfig;
    use serde_json::{json, Value};

    use crate::stock::present::Car;
    use crate::stock::{feed, present};

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
