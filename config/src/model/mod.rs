//! The typed dealer configuration. Every field has a doc comment: they become
//! the descriptions in the JSON Schema (editor hover text) and the hints in
//! validation messages, so write them for a marketer.
//!
//! A dealer file is merged over its template preset (`templates/presets/`)
//! before it is read into these types, so defaults live in two places only:
//! `Default` impls here (platform-wide) and presets (per template group).

mod catalogue;
mod content;
mod detail;
mod features;
mod finance;
mod home;
mod locations;
mod migration;
mod pages;
mod search;
mod stock_source;
mod syndication;
mod timezone;

pub use catalogue::*;
pub use content::*;
pub use detail::*;
pub use features::*;
pub use finance::*;
pub use home::*;
pub use locations::*;
pub use migration::*;
pub use pages::*;
// The groups, their docs and their defaults are listed once, in the
// rules crate (shared with the worker): this is the dealer file's view.
pub use dealer_rules::rate_limits::{RateLimits, RouteLimitOverride};
pub use search::*;
pub use stock_source::*;
pub use syndication::*;
pub use timezone::TimeZone;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One dealer's website: `dealers/<slug>.yaml` merged over its preset.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "dealergen dealer configuration")]
pub struct DealerConfig {
    /// Name of the template preset this dealer extends, from `templates/presets/` (e.g. `multi-brand-group`, `franchise-group`, `single-manufacturer`). The dealer file only overrides what differs.
    pub template: String,
    /// Trading name shown in the header, titles and e-mails, e.g. "Brisbane Motor Group".
    pub name: String,
    /// Registered company name for the copyright line, e.g. "Brisbane Motor Group Pty Ltd". Defaults to `name`.
    #[serde(default)]
    pub legal_name: Option<String>,
    /// The dealership id in the stock system; cars of other dealerships in the feed are ignored when set.
    #[serde(default)]
    pub dealership_id: Option<u64>,
    /// Public address of the website, with https and without a trailing slash, e.g. "https://www.brisbanemotorgroup.com.au".
    pub site_url: String,
    /// Set for a single-manufacturer dealer (e.g. "Toyota"): offers then use /offers/{id} instead of /offers/{manufacturer}/{id}, and brand-only blocks show.
    #[serde(default)]
    pub manufacturer: Option<String>,
    /// IANA time zone of the dealer, e.g. "Australia/Brisbane" or "Australia/Perth". Used for opening hours, the Call Now button and promo windows.
    #[serde(default)]
    pub timezone: TimeZone,
    /// Main phone and e-mail of the dealer.
    pub contact: Contact,
    /// Social media profiles linked from the footer.
    #[serde(default)]
    pub social: Social,
    /// Colours, logo and font.
    #[serde(default)]
    pub theme: Theme,
    /// Where the stock comes from and which cars are shown.
    pub stock: StockConfig,
    /// The stock search page: sorting, paging, facets, promo tiles, search service.
    #[serde(default)]
    pub search: SearchConfig,
    /// Buttons and badges on the result cards.
    #[serde(default)]
    pub cards: CardsConfig,
    /// The vehicle detail page.
    #[serde(default)]
    pub detail_page: DetailPageConfig,
    /// Car photos: the image host's resizing parameters (width, quality) and the sizes offered to browsers.
    #[serde(default)]
    pub images: ImagesConfig,
    /// Feature switches (watchlist, compare, checkout, phone reveal, ...).
    #[serde(default)]
    pub features: Features,
    /// Finance display, calculator and quote provider.
    #[serde(default)]
    pub finance: FinanceConfig,
    /// The dealer's sites: showrooms, service centres and parts departments.
    pub locations: Vec<Location>,
    /// Static map images and directions links of the locations.
    #[serde(default)]
    pub maps: Maps,
    /// Header navigation, in order.
    #[serde(default)]
    pub navigation: Vec<NavItem>,
    /// Footer link groups and legal text.
    #[serde(default)]
    pub footer: Footer,
    /// Home page hero.
    #[serde(default)]
    pub home: Home,
    /// Current offers (/special-offers, /offers/...).
    #[serde(default)]
    pub offers: Vec<Offer>,
    /// The models the dealer sells: /models, each model's page and the New Vehicles mega-menu.
    #[serde(default)]
    pub models: Vec<Model>,
    /// The New Vehicles mega-menu's order and phone links.
    #[serde(default)]
    pub model_menu: ModelMenu,
    /// Slides of the home page's promotions slider (1920 by 540).
    #[serde(default)]
    pub promotions: Vec<Promotion>,
    /// The guarantee banner (home page block `guarantee`).
    #[serde(default)]
    pub guarantee: Guarantee,
    /// The features banner carousel (home page block `features`).
    #[serde(default)]
    pub features_banner: Vec<FeatureSlide>,
    /// Blog tiles (home page block `blog`).
    #[serde(default)]
    pub blog: Blog,
    /// A once-only popup shown on arrival.
    #[serde(default)]
    pub popup: Option<Popup>,
    /// Customer reviews settings.
    #[serde(default)]
    pub reviews: ReviewsConfig,
    /// Enquiry forms.
    #[serde(default)]
    pub forms: FormsConfig,
    /// Where leads are delivered.
    #[serde(default)]
    pub leads: LeadsConfig,
    /// The old site's addresses that keep answering: each one redirects to a page of this site or an https URL (docs/migrating.md). Checked: a target that is neither, a loop, a chain (a redirect to another redirect), a `from` that is a page of this site, and Cloudflare's limits (2,000 static and 100 dynamic rules a site, shared with the sold cars' and the old platform's rules). None by default.
    #[serde(default)]
    pub redirects: Vec<DealerRedirect>,
    /// The dealer's move from an old site: what `dealergen migrate-check` accepts as missing.
    #[serde(default)]
    pub migration: Migration,
    /// Pages that need a signed-in shopper: a signed-out visitor is sent to /sign-in/ (with type, redirect and back) and search engines are asked not to index them. Site paths; `{slug}` matches one path segment, e.g. "/cars/{slug}/checkout" or "/pages/owners-club". Each must match a page the site has (a route without a page is an error). None by default.
    #[serde(default)]
    pub gated_routes: Vec<String>,
    /// Texts shown on the site that dealers word differently.
    #[serde(default)]
    pub copy: Copy,
    /// What location cards show.
    #[serde(default)]
    pub location_cards: LocationCards,
    /// Servicing links.
    #[serde(default)]
    pub service: ServiceConfig,
    /// The sell-your-car banner.
    #[serde(default)]
    pub sell_your_car: SellYourCar,
    /// Trade-in valuations: the valuation service and whether valuations are kept.
    #[serde(default)]
    pub trade_in: TradeIn,
    /// How offers are shown.
    #[serde(default)]
    pub offers_display: OffersDisplay,
    /// Legal wording (complaints, privacy).
    #[serde(default)]
    pub legal: Legal,
    /// Company, service and legal pages the site has (about us, service, roadside assist, fleet, warranty, terms, privacy, complaints).
    #[serde(default)]
    pub pages: PagesConfig,
    /// The edge API the site calls.
    #[serde(default)]
    pub edge: EdgeSettings,
    /// Vehicle ads feeds (Google, Meta) built from the cars the site shows and published with it.
    #[serde(default)]
    pub syndication: Syndication,
    /// The locations with `visible: false`, set aside by
    /// [`DealerConfig::set_hidden_locations_aside`] (not a YAML field): the
    /// stock knows their ids (no unknown-location warning), nothing else
    /// sees them.
    #[serde(skip)]
    #[schemars(skip)]
    pub hidden_locations: Vec<Location>,
}

impl DealerConfig {
    /// Takes the hidden locations (`visible: false`) out of `locations`:
    /// everything built from the config (pages, lists, forms, maps,
    /// structured data, the edge's config) then knows only the visible ones,
    /// and a car at a hidden location is placed at the primary one as any
    /// car without a known location is. The loader calls it once the checks
    /// (which see every location) have run.
    pub fn set_hidden_locations_aside(&mut self) {
        let (shown, hidden): (Vec<Location>, Vec<Location>) = std::mem::take(&mut self.locations)
            .into_iter()
            .partition(|l| l.visible);
        self.locations = shown;
        self.hidden_locations.extend(hidden);
    }

    /// Whether `id` is a hidden location's.
    pub fn is_hidden_location(&self, id: &str) -> bool {
        self.hidden_locations.iter().any(|l| l.id == id)
    }

    /// The config as a dealer file would hold it, the hidden locations
    /// included (after the visible ones): what writing the resolved config
    /// back as a dealer file needs.
    pub fn as_written(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        if let Some(list) = value.get_mut("locations").and_then(|v| v.as_array_mut()) {
            list.extend(
                self.hidden_locations
                    .iter()
                    .filter_map(|l| serde_json::to_value(l).ok()),
            );
        }
        value
    }
}

/// Phone and e-mail.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Contact {
    /// Main phone number as shown, e.g. "(07) 3555 0100".
    pub phone: String,
    /// Main e-mail address, e.g. "sales@example.com.au".
    pub email: String,
}

/// Social media links; leave out the ones the dealer does not have.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Social {
    /// Facebook page URL.
    pub facebook_url: Option<String>,
    /// Instagram profile URL.
    pub instagram_url: Option<String>,
    /// YouTube channel URL.
    pub youtube_url: Option<String>,
    /// LinkedIn page URL.
    pub linkedin_url: Option<String>,
}

/// Branding. Colours are CSS hex colours such as "#0b3d91".
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Theme {
    /// Main brand colour (header, buttons).
    pub primary: String,
    /// Text colour on top of the primary colour.
    pub on_primary: String,
    /// Highlight colour (prices, tags).
    pub accent: String,
    /// Page background colour.
    pub background: String,
    /// Body text colour.
    pub text: String,
    /// Path of the logo in the site's public files, e.g. "/images/brand/my-dealer.svg".
    pub logo: String,
    /// CSS font stack. System fonts keep pages fast (no web-font download).
    pub font_family: String,
}

impl Default for Theme {
    fn default() -> Self {
        Theme {
            primary: "#1f3a5f".into(),
            on_primary: "#ffffff".into(),
            accent: "#d1401f".into(),
            background: "#ffffff".into(),
            text: "#1b1b1b".into(),
            logo: "/images/no-photo.svg".into(),
            font_family: "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif".into(),
        }
    }
}

/// Where the stock feed is and which cars are visible.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StockConfig {
    /// Path of the stock feed (JSON array or JSON Lines), relative to the dealer file, e.g. "stock/my-dealer.json".
    pub feed: String,
    /// Sold cars stay visible for this many days after they sold (0 hides them at once).
    #[serde(default = "default_sold_days")]
    #[schemars(range(min = 0, max = 60))]
    pub include_sold_cars_days: u32,
    /// Cars with fewer photos than this are hidden (0 to 14).
    #[serde(default = "default_min_photos")]
    #[schemars(range(min = 0, max = 14))]
    pub min_photos: u32,
    /// Show only cars in stock (hides coming soon and recently sold cars).
    #[serde(default)]
    pub in_stock_only: bool,
    /// Hours the stock feed may go without a change before `build` and `stock pull` warn that it may have stopped updating (cars sold since would still show): the feed file unchanged that long, or its newest record (`updated_at`, else `created_at`) that old. Default 48: a weekend without a sale or an edit is normal, two days of silence from a working dealer's stock system is not.
    #[serde(default = "default_max_age_hours")]
    #[schemars(range(min = 1, max = 8760))]
    pub max_age_hours: u32,
    /// Cars never shown on this site.
    #[serde(default)]
    pub exclude: StockExclusions,
    /// Where `dealergen stock pull` fetches the feed from (a URL or an exported file); it writes what it fetched to `feed`. Leave out when the feed file is updated some other way.
    #[serde(default)]
    pub source: Option<StockSource>,
}

// The defaults are the visibility rules' own (rules/src/visibility.rs), declared once.
fn default_sold_days() -> u32 {
    dealer_rules::visibility::VisibilityRules::default().include_sold_days
}
fn default_max_age_hours() -> u32 {
    48
}
fn default_min_photos() -> u32 {
    dealer_rules::visibility::VisibilityRules::default().min_photos
}

/// Cars to leave out of the site.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct StockExclusions {
    /// Makes to hide, e.g. ["Great Wall"].
    pub makes: Vec<String>,
    /// Car types to hide.
    pub car_types: Vec<CarType>,
    /// Stock numbers to hide, e.g. ["BMG10231"].
    pub stock_numbers: Vec<String>,
}

/// New, demo or used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CarType {
    New,
    Demo,
    Used,
}

impl CarType {
    /// In the order of docs/behaviour/search.md §9: new, demo, used.
    pub const ALL: [CarType; 3] = [CarType::New, CarType::Demo, CarType::Used];

    /// The word used in YAML, feeds and URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            CarType::New => "new",
            CarType::Demo => "demo",
            CarType::Used => "used",
        }
    }

    /// From a feed's `car_type`, case-insensitively.
    pub fn parse(s: &str) -> Option<CarType> {
        CarType::ALL
            .into_iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(s.trim()))
    }
}

/// The edge API.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct EdgeSettings {
    /// Origin of the edge worker the site calls, e.g. "https://api.dealergen.com.au". Empty means the same origin as the site.
    pub api_base: String,
    /// Extra origins (besides `site_url`) allowed to call the API for this dealer, e.g. a staging site.
    pub extra_origins: Vec<String>,
    /// Also record the site's analytics events (ids 4 to 61, docs/behaviour/analytics.md) through the edge API's `POST /api/events` into its database. On or off, every event goes to the page's `dataLayer` for the dealer's tag manager. Off: the site posts none and the events call answers 404 for this dealer.
    pub analytics_sink: bool,
    /// Rate limits of the edge API for this dealer (per connection and per dealer). Leave out to keep the defaults.
    pub rate_limits: RateLimits,
}
