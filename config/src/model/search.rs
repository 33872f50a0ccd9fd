//! The stock search page and its result cards (spec 000 and 002 §2.7).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::CarType;

/// The stock search page.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// Cars per results page.
    #[schemars(range(min = 3, max = 99))]
    pub page_size: u32,
    /// Sort options offered, in order; the first is the default.
    pub sort_options: Vec<SortOption>,
    /// Price low-to-high leaves out cars without a price (price 0).
    pub price_asc_excludes_zero: bool,
    /// Makes shown before "Show all makes".
    #[schemars(range(min = 1, max = 50))]
    pub popular_makes_count: u32,
    /// Placeholder of the keyword box.
    pub keyword_placeholder: String,
    /// Shown instead of a result count above 1999 (the count the search service caps at). Empty: the sum of the facet counts is shown.
    pub stock_count_override: Option<u32>,
    /// Position (1-based, among results) of the "can't find what you want" card. 0 hides it.
    pub cta_card_position: u32,
    /// Promotional tiles placed among the results.
    pub promo_tiles: Vec<PromoTile>,
    /// Where searches run: in the browser over a precomputed index (default) or on a hosted search service.
    pub engine: SearchEngine,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            page_size: 21,
            sort_options: vec![
                SortOption::Relevance,
                SortOption::Latest,
                SortOption::PriceDesc,
                SortOption::PriceAsc,
            ],
            price_asc_excludes_zero: false,
            popular_makes_count: 7,
            keyword_placeholder: "Keyword search eg. EV, SUV, Toyota".into(),
            stock_count_override: None,
            cta_card_position: 30,
            promo_tiles: Vec::new(),
            engine: SearchEngine::Embedded,
        }
    }
}

/// A sort order of the results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SortOption {
    /// Most relevant (the index's custom rank).
    Relevance,
    /// Newest listings first.
    Latest,
    /// Highest price first.
    PriceDesc,
    /// Lowest price first.
    PriceAsc,
    /// Most kilometres first.
    KmDesc,
    /// Fewest kilometres first.
    KmAsc,
}

impl SortOption {
    /// Label shown in the sort dropdown.
    pub fn label(self) -> &'static str {
        match self {
            SortOption::Relevance => "Most relevant",
            SortOption::Latest => "Latest",
            SortOption::PriceDesc => "Price: highest",
            SortOption::PriceAsc => "Price: lowest",
            SortOption::KmDesc => "Kilometres: highest",
            SortOption::KmAsc => "Kilometres: lowest",
        }
    }

    /// Value in the URL `sortBy` (InstantSearch replica name).
    pub fn replica(self) -> &'static str {
        match self {
            SortOption::Relevance => "Car_production",
            SortOption::Latest => "Car_production_latest",
            SortOption::PriceDesc => "Car_production_price_desc",
            SortOption::PriceAsc => "Car_production_price_asc",
            SortOption::KmDesc => "Car_production_km_desc",
            SortOption::KmAsc => "Car_production_km_asc",
        }
    }
}

/// Where searches run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum SearchEngine {
    /// In the browser, over an index built into the site (no third party, instant).
    Embedded,
    /// On a hosted search service with an Algolia-compatible API.
    Hosted(HostedSearch),
}

/// A hosted search service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HostedSearch {
    /// Host of the search service, e.g. "abc123-dsn.algolia.net".
    pub host: String,
    /// Application id.
    pub app_id: String,
    /// Index name, e.g. "Car_production".
    pub index: String,
    /// Search-only public API key (never an admin key: it ships to browsers).
    pub public_key: String,
}

/// A promotional tile among search results.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PromoTile {
    /// Short id, unique within the dealer, e.g. "eofy-2025".
    pub id: String,
    /// Positions (1-based) among results where the tile appears, e.g. [8, 17].
    pub positions: Vec<u32>,
    /// First moment the tile shows, local time: "2025-07-01" or "2025-08-21 08:30".
    pub start: String,
    /// Last moment the tile shows, local time: "2025-07-24" (whole day) or "2025-09-30 17:30".
    pub expiry: String,
    /// Show only when searching these car types; empty shows it for all.
    #[serde(default)]
    pub car_types: Vec<CarType>,
    /// Tile image path or URL.
    pub image: String,
    /// Alternative text of the image.
    pub alt: String,
    /// Where a click goes, e.g. "/special-offers".
    pub href: String,
    /// Daily display window "08:30-17:30" (local time); empty shows it all day.
    #[serde(default)]
    pub daily_hours: Option<String>,
}

/// Result card buttons and badges.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CardsConfig {
    /// Buttons on each card, in order.
    pub buttons: Vec<CardButton>,
    /// Show an Electric or Hybrid tag (highest priority) on electric and hybrid cars.
    pub electric_hybrid_tag: bool,
    /// Make whose certified used cars get the certified badge, e.g. "Toyota". Empty: no badge.
    pub certified_badge_make: Option<String>,
    /// Compare and favourite show only for used cars priced above 0 with photos.
    pub strict_compare: bool,
}

impl Default for CardsConfig {
    fn default() -> Self {
        CardsConfig {
            buttons: vec![CardButton::Enquire, CardButton::ViewDetails],
            electric_hybrid_tag: false,
            certified_badge_make: None,
            strict_compare: false,
        }
    }
}

/// A button on a result card or in the detail sidebar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardButton {
    /// Opens the enquiry form.
    Enquire,
    /// Book a Test Drive.
    TestDrive,
    /// Get Finance / Finance Enquiry.
    Finance,
    /// Reserve Now (only when checkout is enabled; shows the deposit).
    Reserve,
    /// Trade In.
    TradeIn,
    /// View Details.
    ViewDetails,
    /// Click to call the dealer (CTD).
    CallDealer,
    /// Make an Offer.
    MakeOffer,
    /// Online Purchase.
    BuyOnline,
    /// Car History Report (only when the car has a file).
    HistoryReport,
}
