//! The search page's settings: sorting, promo tiles, base filters and the
//! card rules for hits the hosted service returns raw.

use dealer_config::hours::parse_day;
use dealer_config::model;
use dealer_config::moment::parse_moment;
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

use crate::pipeline::search_index::{self, LandingPage};
use crate::pipeline::stock::present::Car;

/// Search page settings.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Search {
    /// Cars per results page.
    pub page_size: u32,
    /// Placeholder of the keyword box.
    pub keyword_placeholder: String,
    /// Sort options, the default first.
    pub sort_options: Vec<SortOption>,
    /// Price low-to-high leaves out cars without a price (price 0).
    pub price_asc_excludes_zero: bool,
    /// Makes shown before "Show all makes".
    pub popular_makes_count: u32,
    /// Shown instead of a result count above 1999; null: the sum of the facet counts.
    pub stock_count_override: Option<u32>,
    /// 1-based slot of the "can't find what you want" card among a page's results; 0 hides it.
    pub cta_card_position: u32,
    /// What that card offers (`search.cta_card`).
    pub cta_card: CtaCard,
    /// Promotional tiles, their windows resolved to unix seconds in the dealer's time zone.
    pub promo_tiles: Vec<PromoTile>,
    /// The hosted search service, or null for the embedded index (/search-index.json).
    pub hosted: Option<dealer_config::model::HostedSearch>,
    /// Base filters every search applies (the same rules that chose the visible stock).
    pub base_filters: BaseFilters,
    /// Compare and favourite only for used cars priced above 0 with photos.
    pub strict_compare: bool,
    /// The generator's card rules, for hits the hosted service returns raw.
    pub hit_rules: HitRules,
    /// Pre-rendered landing pages below /search/.
    pub landing_pages: Vec<LandingPage>,
    /// The dealer's keyword synonym groups, on top of the built-in table (embedded engine).
    pub synonyms: Vec<Vec<String>>,
    /// The make cards offer the per-make model picker.
    pub model_picker: bool,
}

/// The card among the results for a shopper who has not found the car.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CtaCard {
    /// "Find Me Something Similar": the contact form.
    FindSimilar,
    /// "Call us" on the dealer's main number.
    CallDealer {
        /// The number as the site shows it, e.g. "(07) 3555 0100".
        phone: String,
    },
}

/// A promotional tile among search results.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PromoTile {
    /// Id, unique within the dealer.
    pub id: String,
    /// 1-based slots among a page's results.
    pub positions: Vec<u32>,
    /// First second it shows (unix seconds).
    pub starts_at: i64,
    /// Last second it shows (unix seconds).
    pub expires_at: i64,
    /// Daily window as minutes after local midnight [from, to); null: all day.
    pub daily_minutes: Option<[u16; 2]>,
    /// IANA time zone the daily window is judged in.
    pub timezone: String,
    /// The car types the tile is for; empty: all.
    pub car_types: Vec<model::CarType>,
    /// With car_types: shown only while the search is limited to them; off:
    /// also while it is limited to no type.
    pub strict_display: bool,
    /// Image path or URL.
    pub image: String,
    /// Alternative text.
    pub alt: String,
    /// Link target.
    pub href: String,
}

/// Base filters of every search (docs/behaviour/search.md §9), mirrored from the stock rules.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct BaseFilters {
    /// Sold cars stay listed this many days after they sold.
    pub include_sold_days: u32,
    /// Cars with fewer photos are left out (0 to 14).
    pub min_photos: u32,
    /// Only in_stock cars.
    pub in_stock_only: bool,
    /// Makes left out (case-insensitive).
    pub exclude_makes: Vec<String>,
    /// Car types left out.
    pub exclude_car_types: Vec<model::CarType>,
    /// Stock numbers left out (case-insensitive).
    pub exclude_stock_numbers: Vec<String>,
}

/// A sort option of the search page.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SortOption {
    /// Index (replica) name: the hosted service's index for this order and the URL `sortBy` value.
    pub value: String,
    /// The order itself, whatever its index is named.
    pub key: model::SortOption,
    /// Label in the sort dropdown.
    pub label: String,
}

/// The card rules of `stock::present` (tag banner priority, price text) for
/// hits the hosted search service returns as raw feed fields: the browser
/// applies them in astro-app/src/lib/search/present.ts, and both languages
/// are checked against the same cases
/// (rules/vectors/present-cases.json).
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct HitRules {
    /// Electric and Hybrid tags lead the banner priority.
    pub electric_hybrid_tag: bool,
    /// Make whose certified cars get "{make} Certified Pre-Owned"; null: none.
    pub certified_badge_make: Option<String>,
    /// The certified badge's image (`cards.certified_badge_image`): a card
    /// whose tag is the certified badge shows it, its words the text
    /// alternative; null: the words.
    pub certified_badge_image: Option<String>,
    /// Banner of cars listed within the last 8 days.
    pub new_arrival_text: String,
    /// Banner of cars no longer in stock.
    pub sold_text: String,
    /// Price text of cars without a price.
    pub no_price_text: String,
    /// The weekly subscription price leads the price text.
    pub subscriptions: bool,
}

/// Resolves a tile's local start/expiry ("2025-07-01", "2025-09-30 17:30")
/// to unix seconds in the dealer's time zone (a date-only expiry lasts the
/// whole day). The config check has already refused unparsable values.
fn promo_tile(t: &model::PromoTile, timezone: &model::TimeZone) -> Option<PromoTile> {
    use chrono::TimeZone;
    let tz = timezone.tz();
    let at = |s: &str, end: bool| -> Option<i64> {
        let local = parse_moment(s, end)?;
        Some(tz.from_local_datetime(&local).earliest()?.timestamp())
    };
    let daily_minutes = match t.daily_hours.as_deref().map(parse_day) {
        Some(Ok(dealer_config::hours::DayHours::Open { open, close })) => Some([open, close]),
        _ => None,
    };
    Some(PromoTile {
        id: t.id.clone(),
        positions: t.positions.clone(),
        starts_at: at(&t.start, false)?,
        expires_at: at(&t.expiry, true)?,
        daily_minutes,
        timezone: timezone.to_string(),
        car_types: t.car_types.clone(),
        strict_display: t.strict_display,
        image: t.image.clone(),
        alt: t.alt.clone(),
        href: t.href.clone(),
    })
}

/// The search page's settings from the dealer config; `cars` are the
/// visible stock the landing pages are chosen from.
pub fn search(cfg: &DealerConfig, cars: &[Car]) -> Search {
    Search {
        page_size: cfg.search.page_size,
        keyword_placeholder: cfg.search.keyword_placeholder.clone(),
        sort_options: cfg
            .search
            .sort_options
            .iter()
            .map(|s| SortOption {
                value: cfg.search.sort_index(*s),
                key: *s,
                label: s.label().into(),
            })
            .collect(),
        price_asc_excludes_zero: cfg.search.price_asc_excludes_zero,
        popular_makes_count: cfg.search.popular_makes_count,
        stock_count_override: cfg.search.stock_count_override,
        cta_card_position: cfg.search.cta_card_position,
        cta_card: match cfg.search.cta_card {
            dealer_config::model::CtaCard::FindSimilar => CtaCard::FindSimilar,
            dealer_config::model::CtaCard::CallDealer => CtaCard::CallDealer {
                phone: cfg.contact.phone.clone(),
            },
        },
        promo_tiles: cfg
            .search
            .promo_tiles
            .iter()
            .filter_map(|t| promo_tile(t, &cfg.timezone))
            .collect(),
        hosted: match &cfg.search.engine {
            model::SearchEngine::Embedded => None,
            model::SearchEngine::Hosted(h) => Some(h.clone()),
        },
        base_filters: BaseFilters {
            include_sold_days: cfg.stock.include_sold_cars_days,
            min_photos: cfg.stock.min_photos,
            in_stock_only: cfg.stock.in_stock_only,
            exclude_makes: cfg.stock.exclude.makes.clone(),
            exclude_car_types: cfg.stock.exclude.car_types.clone(),
            exclude_stock_numbers: cfg.stock.exclude.stock_numbers.clone(),
        },
        strict_compare: cfg.cards.strict_compare,
        hit_rules: HitRules {
            electric_hybrid_tag: cfg.cards.electric_hybrid_tag,
            certified_badge_make: cfg.cards.certified_badge_make.clone(),
            certified_badge_image: cfg.cards.certified_badge_image.clone(),
            new_arrival_text: cfg.copy.new_arrival_text.clone(),
            sold_text: cfg.copy.sold_text.clone(),
            no_price_text: cfg.copy.no_price_text.clone(),
            subscriptions: cfg.features.subscriptions,
        },
        landing_pages: search_index::landing_pages(cars, &cfg.name),
        synonyms: cfg.search.synonyms.clone(),
        model_picker: cfg.search.model_picker,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::config_with;
    use serde_json::json;

    fn tile(start: &str, expiry: &str) -> serde_json::Value {
        json!({"id": "eofy", "positions": [8, 17], "start": start, "expiry": expiry,
               "image": "/images/eofy.jpg", "alt": "EOFY sale", "href": "/special-offers",
               "daily_hours": "08:30-17:30"})
    }

    #[test]
    fn synonyms_the_model_picker_and_strict_display_reach_the_page() {
        let defaults = search(&config_with(json!({})), &[]);
        assert!(defaults.synonyms.is_empty());
        assert!(
            defaults.model_picker,
            "the picker is on unless switched off"
        );
        let mut t = tile("2025-08-21", "2025-09-30");
        t["strict_display"] = json!(false);
        let cfg = config_with(json!({
            "search": {"synonyms": [["wagon", "suv"]], "model_picker": false, "promo_tiles": [t, tile("2025-10-01", "2025-10-02")]},
        }));
        let s = search(&cfg, &[]);
        assert_eq!(
            s.synonyms,
            vec![vec!["wagon".to_string(), "suv".to_string()]]
        );
        assert!(!s.model_picker);
        let strict: Vec<bool> = s.promo_tiles.iter().map(|t| t.strict_display).collect();
        assert_eq!(strict, [false, true], "strict display is the default");
    }

    #[test]
    fn promo_tile_windows_are_judged_in_the_dealers_time_zone() {
        let cfg = config_with(json!({
            "timezone": "Australia/Perth",
            "search": {"promo_tiles": [tile("2025-08-21 08:30", "2025-09-30")]},
        }));
        let tiles = search(&cfg, &[]).promo_tiles;
        assert_eq!(tiles.len(), 1);
        // 08:30 in Perth (UTC+8) is 00:30 UTC.
        assert_eq!(tiles[0].starts_at, 1_755_736_200);
        // A date-only expiry lasts the whole local day: 23:59:59 +08:00.
        assert_eq!(tiles[0].expires_at, 1_759_247_999);
        assert_eq!(tiles[0].daily_minutes, Some([510, 1050]));
        assert_eq!(tiles[0].timezone, "Australia/Perth");
    }
}
