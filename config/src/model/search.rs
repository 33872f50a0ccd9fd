//! The stock search page and its result cards (docs/behaviour/search.md and content.md §2.7).

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
    /// What that card offers: "find_similar" (the default) links to the contact form; "call_dealer" calls the dealer's main number (`contact.phone`), and is refused with `features.phone_reveal` on, whose numbers only the reveal gives.
    pub cta_card: CtaCard,
    /// Promotional tiles placed among the results.
    pub promo_tiles: Vec<PromoTile>,
    /// Where searches run: in the browser over a precomputed index (default) or on a hosted search service.
    pub engine: SearchEngine,
    /// Index names of the sort orders other than "Most relevant": the hosted
    /// service's replicas of its index, and for either engine the URL's
    /// `sortBy` value of that order (so links from an older site keep their sort).
    pub sort_replicas: SortReplicas,
    /// Extra keyword synonyms, each list one meaning: `[[wagon, suv]]` makes a
    /// search for "suv" also find wagons (the built-in table already has
    /// "wagon" find SUVs, the trade's 4D wagons, one way). Added to the
    /// built-in table (4x4 / 4wd / four wheel drive, ute / utility, auto /
    /// automatic, ev / electric, dual / twin / double cab, ...). A phrase has
    /// at most 4 words. Only for the embedded engine: a hosted service keeps
    /// its own synonyms.
    pub synonyms: Vec<Vec<String>>,
    /// The make cards' "Models" picker, listing each make's models.
    /// Off: shoppers choose a make only (the model dropdown still lists models).
    pub model_picker: bool,
    /// Words of the stock feed's colour names that mean a colour family,
    /// added to the built-in ones and read before them: `{purple:
    /// [Nebula], white: [Pearl]}` puts "Nebula Pearl" in Purple. The families
    /// are white, black, grey (Silver/Grey), blue, red, green, yellow
    /// (Yellow/Orange), brown (Brown/Bronze), beige (Beige/Gold) and purple;
    /// each car's colour goes into one for the Colour filter and the
    /// keyword box ("white ute"), and the build names every colour no
    /// family claims (docs/behaviour/search.md, "Colour families").
    pub colour_families: std::collections::BTreeMap<String, Vec<String>>,
    /// Words a popular search may never contain, besides the platform's own (scam, fraud, avoid, dodgy…), e.g. a competitor's name: a search with one is not counted, and one counted before is no longer offered in the keyword box. One word each, at most 40 characters, at most 100 words.
    pub popular_searches_deny: Vec<String>,
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
            cta_card: CtaCard::FindSimilar,
            promo_tiles: Vec::new(),
            engine: SearchEngine::Embedded,
            sort_replicas: SortReplicas::default(),
            synonyms: Vec::new(),
            model_picker: true,
            colour_families: std::collections::BTreeMap::new(),
            popular_searches_deny: Vec::new(),
        }
    }
}

/// The index name "Most relevant" stands for with the embedded engine (the
/// hosted engine's is `engine.hosted.index`): the older platform's, so its
/// search links still work.
pub const EMBEDDED_INDEX: &str = "Car_production";

impl SearchConfig {
    /// Name of the relevance-ranked index: the hosted one, or [`EMBEDDED_INDEX`].
    pub fn index_name(&self) -> &str {
        match &self.engine {
            SearchEngine::Hosted(h) => &h.index,
            SearchEngine::Embedded => EMBEDDED_INDEX,
        }
    }

    /// The index (replica) a sort order queries, which is also its URL
    /// `sortBy` value: the index itself for relevance, else the name in
    /// `sort_replicas`, else "<index>_<order>" (e.g. "Car_production_price_asc").
    pub fn sort_index(&self, sort: SortOption) -> String {
        let r = &self.sort_replicas;
        let named = match sort {
            SortOption::Relevance => return self.index_name().to_string(),
            SortOption::Latest => &r.latest,
            SortOption::PriceDesc => &r.price_desc,
            SortOption::PriceAsc => &r.price_asc,
            SortOption::KmDesc => &r.km_desc,
            SortOption::KmAsc => &r.km_asc,
        };
        match named.as_deref().map(str::trim) {
            Some(name) if !name.is_empty() => name.to_string(),
            _ => format!("{}_{}", self.index_name(), sort.key()),
        }
    }
}

/// Replica index names per sort order. One left out is "<index>_<order>":
/// "Car_production_latest", "Car_production_price_desc",
/// "Car_production_price_asc", "Car_production_km_desc" and
/// "Car_production_km_asc" with the embedded engine (its index is
/// "Car_production") or a hosted index of that name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SortReplicas {
    /// Replica for "Latest" (newest listings first), e.g. "Car_production_latest".
    pub latest: Option<String>,
    /// Replica for "Price: highest", e.g. "Car_production_price_desc".
    pub price_desc: Option<String>,
    /// Replica for "Price: lowest", e.g. "Car_production_price_asc".
    pub price_asc: Option<String>,
    /// Replica for "Kilometres: highest", e.g. "Car_production_km_desc".
    pub km_desc: Option<String>,
    /// Replica for "Kilometres: lowest", e.g. "Car_production_km_asc".
    pub km_asc: Option<String>,
}

/// A sort order of the results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
// The site data's own `SortOption` (value, label, key) takes that schema name.
#[schemars(rename = "SortOrder")]
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

    /// The order's word in the YAML (`sort_options`), e.g. "price_asc".
    pub fn key(self) -> &'static str {
        match self {
            SortOption::Relevance => "relevance",
            SortOption::Latest => "latest",
            SortOption::PriceDesc => "price_desc",
            SortOption::PriceAsc => "price_asc",
            SortOption::KmDesc => "km_desc",
            SortOption::KmAsc => "km_asc",
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

fn yes() -> bool {
    true
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
    /// The car types the tile is for (the promo's `display`); empty: all.
    #[serde(default)]
    pub car_types: Vec<CarType>,
    /// With `car_types`, show only when the search is limited to those types
    /// (the promo's `strictDisplay`, the default). Off: show also when the
    /// search is not limited to any type, and hide only when it is limited
    /// to other types.
    #[serde(default = "yes")]
    pub strict_display: bool,
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

/// The card among the search results for a shopper who has not found the car.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CtaCard {
    /// "Find Me Something Similar": the contact form.
    FindSimilar,
    /// "Call us": the dealer's main number.
    CallDealer,
}

/// Result card buttons and badges.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CardsConfig {
    /// Buttons on each card, in order.
    pub buttons: Vec<CardButton>,
    /// Show an Electric or Hybrid tag (highest priority) on electric and hybrid cars.
    pub electric_hybrid_tag: bool,
    /// Make whose cars marked certified in the feed get the certified pre-owned badge, e.g. "Toyota" for a Toyota dealer in Toyota's programme: the card's tag and, on the car page, a badge that opens a dialog listing `detail_page.certified_benefits`. Empty (the default): no badge; a manufacturer's programme is its franchised dealers', so no make is assumed.
    pub certified_badge_make: Option<String>,
    /// The programme's badge image (a path of the site's public files, e.g. "/images/certified-pre-owned.svg"), shown instead of the badge's words on the card and the car page; the words ("Toyota Certified Pre-Owned") are its text alternative. Empty: the words. Needs `certified_badge_make`.
    pub certified_badge_image: Option<String>,
    /// Compare and favourite show only for used cars priced above 0 with photos.
    pub strict_compare: bool,
    /// A guarantee line on used cars' cards, e.g. "48 hour money back ·
    /// 12 months roadside assist". Empty: none.
    pub used_car_guarantee: Option<String>,
    /// The dealer's wording of the buttons, by kind, on the result cards and in the car page's sidebar, e.g. { reserve: Reserve Car Now, finance: Finance Enquiry }; a kind left out keeps the platform's wording (cards: Enquire, Book a Test Drive, Get Finance, Reserve Now $200, Trade In, View Details, Call Dealer, Make an Offer, Buy Online; sidebar: Enquire Now, Get Finance Quote, Reserve Car Now, Trade-In Valuation, ...). Each 1 to 40 characters.
    pub labels: ButtonLabels,
}

impl Default for CardsConfig {
    fn default() -> Self {
        CardsConfig {
            buttons: vec![CardButton::Enquire, CardButton::ViewDetails],
            electric_hybrid_tag: false,
            certified_badge_make: None,
            certified_badge_image: None,
            strict_compare: false,
            used_car_guarantee: None,
            labels: ButtonLabels::default(),
        }
    }
}

/// A dealer's wording of each kind of button (`cards.labels`); empty: the platform's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ButtonLabels {
    /// The enquiry button, e.g. "Enquire Now".
    pub enquire: Option<String>,
    /// The test drive button, e.g. "Book a Test Drive".
    pub test_drive: Option<String>,
    /// The finance button, e.g. "Finance Enquiry".
    pub finance: Option<String>,
    /// The reservation button, e.g. "Reserve Car Now" (replaces the card's "Reserve Now $200"; the deposit stays in the note under the buttons).
    pub reserve: Option<String>,
    /// The trade-in button, e.g. "Value My Trade".
    pub trade_in: Option<String>,
    /// The card's link to the car page, e.g. "See Details".
    pub view_details: Option<String>,
    /// The call button, e.g. "Call Us".
    pub call_dealer: Option<String>,
    /// The offer button, e.g. "Make an Offer".
    pub make_offer: Option<String>,
    /// The online purchase button, e.g. "Buy Now".
    pub buy_online: Option<String>,
    /// The history report button (sidebar), e.g. "Vehicle History".
    pub history_report: Option<String>,
}

impl ButtonLabels {
    /// The dealer's label for `kind`, trimmed, if it set one.
    pub fn get(&self, kind: CardButton) -> Option<&str> {
        match kind {
            CardButton::Enquire => &self.enquire,
            CardButton::TestDrive => &self.test_drive,
            CardButton::Finance => &self.finance,
            CardButton::Reserve => &self.reserve,
            CardButton::TradeIn => &self.trade_in,
            CardButton::ViewDetails => &self.view_details,
            CardButton::CallDealer => &self.call_dealer,
            CardButton::MakeOffer => &self.make_offer,
            CardButton::BuyOnline => &self.buy_online,
            CardButton::HistoryReport => &self.history_report,
        }
        .as_deref()
        .map(str::trim)
    }

    /// Every label the dealer set, trimmed, by kind (in the order of `CardButton`).
    pub fn set(&self) -> Vec<(CardButton, &str)> {
        CardButton::ALL
            .into_iter()
            .filter_map(|k| self.get(k).map(|l| (k, l)))
            .collect()
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
    /// Trade In (only with `features.trade_in`, and only for a car in
    /// stock, not reserved and priced over $200).
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

impl CardButton {
    /// The kind's word in the YAML (`cards.buttons`, `cards.labels`), e.g. "test_drive".
    pub fn key(self) -> &'static str {
        match self {
            CardButton::Enquire => "enquire",
            CardButton::TestDrive => "test_drive",
            CardButton::Finance => "finance",
            CardButton::Reserve => "reserve",
            CardButton::TradeIn => "trade_in",
            CardButton::ViewDetails => "view_details",
            CardButton::CallDealer => "call_dealer",
            CardButton::MakeOffer => "make_offer",
            CardButton::BuyOnline => "buy_online",
            CardButton::HistoryReport => "history_report",
        }
    }

    /// Every kind, in declaration order.
    pub const ALL: [CardButton; 10] = [
        CardButton::Enquire,
        CardButton::TestDrive,
        CardButton::Finance,
        CardButton::Reserve,
        CardButton::TradeIn,
        CardButton::ViewDetails,
        CardButton::CallDealer,
        CardButton::MakeOffer,
        CardButton::BuyOnline,
        CardButton::HistoryReport,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_buttons_key_is_its_yaml_word() {
        for kind in CardButton::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.key(), "{kind:?}");
        }
    }

    const ALL: [SortOption; 6] = [
        SortOption::Relevance,
        SortOption::Latest,
        SortOption::PriceDesc,
        SortOption::PriceAsc,
        SortOption::KmDesc,
        SortOption::KmAsc,
    ];

    fn names(cfg: &SearchConfig) -> Vec<String> {
        ALL.iter().map(|s| cfg.sort_index(*s)).collect()
    }

    #[test]
    fn sort_indexes_default_to_the_older_platforms_names() {
        assert_eq!(
            names(&SearchConfig::default()),
            [
                "Car_production",
                "Car_production_latest",
                "Car_production_price_desc",
                "Car_production_price_asc",
                "Car_production_km_desc",
                "Car_production_km_asc"
            ]
        );
    }

    #[test]
    fn sort_indexes_follow_the_hosted_index_and_the_named_replicas() {
        let cfg = SearchConfig {
            engine: SearchEngine::Hosted(HostedSearch {
                host: "abc-dsn.algolia.net".into(),
                app_id: "ABC".into(),
                index: "bmg_cars".into(),
                public_key: "k".into(),
            }),
            sort_replicas: SortReplicas {
                price_asc: Some("bmg_cars_cheapest".into()),
                km_asc: Some("  ".into()),
                ..SortReplicas::default()
            },
            ..SearchConfig::default()
        };
        assert_eq!(
            names(&cfg),
            [
                "bmg_cars",
                "bmg_cars_latest",
                "bmg_cars_price_desc",
                "bmg_cars_cheapest",
                "bmg_cars_km_desc",
                "bmg_cars_km_asc"
            ]
        );
    }

    #[test]
    fn keys_are_the_yaml_words() {
        for s in ALL {
            assert_eq!(serde_json::to_value(s).unwrap(), serde_json::json!(s.key()));
        }
    }
}
