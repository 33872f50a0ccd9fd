//! Turns a visible feed car into what the pages show (the `Car` type of
//! astro-app/src/types/site.ts): price text, the one tag banner, spec rows,
//! comment paragraphs, its location. Pages only lay these out.

use chrono::{DateTime, NaiveDate, Utc};
use dealer_config::model::CarType;
use dealer_config::slug::location_slug;
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::detail::{CarDetail, SpecRow};
use super::feed::FeedCar;
use super::money::dollars;
use super::status::is_in_stock;
use crate::pipeline::rich_text::{html_text, rich_html};

/// Cars listed within this many days get the new-arrival tag (docs/behaviour/search.md §9).
pub const NEW_ARRIVAL_DAYS: i64 = 8;

/// A visible car as the pages show it: one entry of `src/data/cars.json`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Car {
    /// Feed id, as text.
    pub id: String,
    /// URL slug: /cars/{slug}/.
    pub slug: String,
    /// "2023 Toyota Corolla Ascent Sport".
    pub name: String,
    /// Model year.
    pub year: u16,
    /// Make, e.g. "Toyota".
    pub make: String,
    /// Model, e.g. "Corolla".
    pub model: String,
    /// Badge / grade, e.g. "Ascent Sport".
    pub badge: Option<String>,
    /// Series, e.g. "ZWE211R".
    pub series: Option<String>,
    /// new, demo or used.
    pub car_type: CarType,
    /// in_stock, coming_soon or sold.
    pub status: CarStatus,
    /// Convenience: status is in_stock or coming_soon.
    pub in_stock: bool,
    /// Current price in dollars (offer price when lower); 0 when none.
    pub price: f64,
    /// "$34,990", "$99 / week", "PREORDER" or the dealer's no-price text.
    pub price_text: String,
    /// "Drive Away", "Excl. Govt. Charges" or null.
    pub price_type: Option<String>,
    /// "$36,990" when the earlier price exceeds the current one, else null.
    pub was_price_text: Option<String>,
    /// Odometer in km.
    pub km: u64,
    /// "Automatic" or "Manual".
    pub transmission: Option<String>,
    /// "Petrol", "Diesel", "Hybrid", "Electric".
    pub fuel: Option<String>,
    /// "SUV", "Hatch", "Ute", ...
    pub body: Option<String>,
    /// Exterior colour.
    pub colour: Option<String>,
    /// "FWD", "AWD", "4WD", ...
    pub drive: Option<String>,
    /// Dealer stock number.
    pub stocknum: Option<String>,
    /// Vehicle identification number.
    pub vin: Option<String>,
    /// The car's NVIC (vehicle code), sent with the finance quote request; null when the feed has none (or a malformed one).
    pub nvic: Option<String>,
    /// Image URLs (site-relative or absolute); may be empty.
    pub images: Vec<String>,
    /// Number of photos the feed reports.
    pub photos_count: u32,
    /// The one tag banner chosen by the spec's priority order, or null.
    pub tag_banner: Option<String>,
    /// The dealer's own tag as the feed gives it (trimmed), or null. Kept
    /// apart from the banner because a higher-priority banner (Reserved...)
    /// can hide it, while the enquiry form still sends event 17 for a
    /// "Test Drive Only" car (docs/behaviour/car-page.md §7).
    pub tag: Option<String>,
    /// Weekly subscription price in whole dollars; 0 when the car has none
    /// or the dealer offers no subscriptions (the search page's '/ week'
    /// slider, docs/behaviour/search.md §9).
    pub subscription_price: f64,
    /// Reserved by a shopper.
    pub reserved: bool,
    /// May be reserved online: the dealer's `features.checkout` rules
    /// (enabled, car types, makes) for a car in stock and not reserved
    /// (`dealer_rules::checkout::may_reserve`; the edge worker refuses a
    /// hold of any other car).
    pub checkout: bool,
    /// Certified pre-owned.
    pub certified: bool,
    /// When the car was listed, ISO 8601.
    pub created_at: String,
    /// When it sold (unix seconds), null when not sold: the search page
    /// re-applies the sold window at the shopper's time, not the build's.
    pub sold_at: Option<i64>,
    /// Where the car is.
    pub location: CarLocation,
    /// Dealer comments as text, split into paragraphs (on "|", and at the
    /// blocks of their markup); empty when none. The comments' cut goes by it.
    pub comment_paragraphs: Vec<String>,
    /// Dealer comments as sanitised HTML, one block per paragraph (on "|"),
    /// the feed's formatting (`<b>`, `<br>`, lists) kept; "" when none.
    pub comments_html: String,
    /// Specification rows, empty values already dropped.
    pub specs: Vec<SpecRow>,
    /// "Most relevant" rank from the feed (higher first); 0 when it has none.
    #[serde(default)]
    pub custom_rank: f64,
    /// Number of seats, when the feed gives it.
    #[serde(default)]
    pub seats: Option<u32>,
    /// What is for sale: "car", "caravan", ... (the feed's item_type).
    #[serde(default)]
    pub item_type: Option<String>,
    /// Listing categories from the feed ("4x4", "Family", ...).
    #[serde(default)]
    pub categories: Vec<String>,
    /// Equipment shoppers filter on ("Apple CarPlay", "Tow Bar", ...): the
    /// feed's features kept by `stock::features::FEATURE_FILTERS`.
    #[serde(default)]
    pub filtered_features: Vec<String>,
    /// The dealership's slug as the feed gives it (the dealer filter link
    /// `refinementList[dealership_slug][0]=...`); null: the dealer's own.
    #[serde(default)]
    pub dealership_slug: Option<String>,
    /// The dealership's name as the feed gives it; null: the dealer's name.
    #[serde(default)]
    pub dealership_name: Option<String>,
    /// Finance on the car page: the lender's figures, the quote, the calculator (docs/behaviour/car-page.md §5).
    pub finance: super::finance::CarFinance,
    /// What the car's own page shows beyond this (stock/detail.rs).
    pub detail: CarDetail,
}

/// Stock status of a shown car.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CarStatus {
    InStock,
    ComingSoon,
    Sold,
}

impl CarStatus {
    /// The word used in feeds and the search index.
    pub fn as_str(self) -> &'static str {
        match self {
            CarStatus::InStock => "in_stock",
            CarStatus::ComingSoon => "coming_soon",
            CarStatus::Sold => "sold",
        }
    }
}

/// Where a car is.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CarLocation {
    /// Location id.
    pub id: String,
    /// Location name.
    pub name: String,
    /// Slug of its page /contact-us/{slug}/.
    pub slug: String,
    /// Suburb.
    pub suburb: String,
    /// State abbreviation.
    pub state: String,
    /// Phone of the location; where `features.phone_reveal` is on, masked
    /// as the car page shows it before a reveal ("(07) 3555 XXXX"): the
    /// page never carries the number, and a change to its hidden digits
    /// changes no car page.
    pub phone: String,
    /// The number is masked (`features.phone_reveal`): the car's page shows
    /// `phone` only as the mask, and every call from it asks the phone
    /// reveal first. Decided here once; the page renders this decision and
    /// never reads the flag or a location's real number.
    #[serde(default)]
    pub phone_masked: bool,
    /// Places this location shows or delivers cars for a test drive (the
    /// feed's `location.distribution_locations`); the test-drive form offers
    /// them in a select when there are any.
    #[serde(default)]
    pub distribution_locations: Vec<String>,
}

/// Price display in priority order (docs/behaviour/car-page.md §4): subscription price when
/// the site offers subscriptions; else the offer price or price when above
/// 10; else PREORDER; else the dealer's no-price text.
pub fn price_text(car: &FeedCar, cfg: &DealerConfig) -> String {
    price_choice(car, cfg).0
}

/// Which rule chose a car's price text (`dealergen explain` says it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriceRule {
    /// The weekly subscription price (features.subscriptions is on).
    Subscription,
    /// The feed's offer price (above $10).
    OfferPrice,
    /// The feed's price (above $10; no offer price above $10).
    Price,
    /// No price above $10, and the car is a preorder.
    Preorder,
    /// No price above $10: the dealer's copy.no_price_text.
    NoPrice,
}

impl PriceRule {
    pub fn describe(self) -> &'static str {
        match self {
            PriceRule::Subscription => {
                "the feed's subscription_price as a weekly price, since features.subscriptions is on"
            }
            PriceRule::OfferPrice => "the feed's offer_price, which is above $10 and wins over price",
            PriceRule::Price => "the feed's price; there is no offer_price above $10",
            PriceRule::Preorder => "no price above $10 in the feed, and the car is a preorder",
            PriceRule::NoPrice => {
                "no price or offer_price above $10 in the feed, so the dealer's copy.no_price_text"
            }
        }
    }
}

/// The price text and the rule that chose it (the order of `price_text`).
pub fn price_choice(car: &FeedCar, cfg: &DealerConfig) -> (String, PriceRule) {
    if cfg.features.subscriptions {
        if let Some(s) = car.subscription_price.filter(|s| *s > 0.0) {
            return (format!("{} / week", dollars(s)), PriceRule::Subscription);
        }
    }
    if let Some(p) = car.offer_price.filter(|p| *p > 10.0) {
        return (dollars(p), PriceRule::OfferPrice);
    }
    if let Some(p) = car.price.filter(|p| *p > 10.0) {
        return (dollars(p), PriceRule::Price);
    }
    if car.preorder.unwrap_or(false) {
        return ("PREORDER".into(), PriceRule::Preorder);
    }
    (cfg.copy.no_price_text.clone(), PriceRule::NoPrice)
}

/// The weekly subscription price the pages may show: only when the dealer
/// offers subscriptions and it is above 0 (the same rule as `price_text`).
pub fn subscription_price(car: &FeedCar, cfg: &DealerConfig) -> f64 {
    match car.subscription_price {
        Some(s) if cfg.features.subscriptions && s > 0.0 => s.round(),
        _ => 0.0,
    }
}

pub fn current_price(car: &FeedCar) -> Option<f64> {
    car.offer_price.filter(|p| *p > 10.0).or(car.price)
}

/// The was-price shows only when the earlier price exceeds the current one.
pub fn was_price_text(car: &FeedCar) -> Option<String> {
    let now = current_price(car).filter(|p| *p > 10.0)?;
    car.before_price.filter(|b| *b > now).map(dollars)
}

/// The one tag banner of a car (docs/behaviour/search.md §4): sold cars show
/// `copy.sold_text` (SOLD); in-stock
/// cars show the first that applies of Electric/Hybrid (when the dealer
/// enables it), Reserved, the certified badge (for the configured make),
/// the dealer's custom tag, COMING SOON, New Arrival (listed within 8 days).
pub fn tag_banner(car: &FeedCar, cfg: &DealerConfig, now: DateTime<Utc>) -> Option<String> {
    tag_choice(car, cfg, now).map(|(banner, _)| banner)
}

/// Which rule chose a car's tag banner (`dealergen explain` says it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagRule {
    Sold,
    ElectricHybrid,
    Reserved,
    Certified,
    DealerTag,
    ComingSoon,
    NewArrival,
}

impl TagRule {
    pub fn describe(self) -> &'static str {
        match self {
            TagRule::Sold => "the car is sold; the text is copy.sold_text",
            TagRule::ElectricHybrid => {
                "its simple_fuel is Electric or Hybrid and cards.electric_hybrid_tag is on; this tag comes first"
            }
            TagRule::Reserved => "the feed marks it reserved",
            TagRule::Certified => {
                "the feed marks it certified and its make is cards.certified_badge_make"
            }
            TagRule::DealerTag => "the dealer's own tag from the feed",
            TagRule::ComingSoon => "its status is coming_soon",
            TagRule::NewArrival => "listed within the last 8 days; the text is copy.new_arrival_text",
        }
    }
}

/// The tag banner and the rule that chose it, in the order of `tag_banner`.
pub fn tag_choice(
    car: &FeedCar,
    cfg: &DealerConfig,
    now: DateTime<Utc>,
) -> Option<(String, TagRule)> {
    if !is_in_stock(&car.status) {
        return Some((cfg.copy.sold_text.clone(), TagRule::Sold));
    }
    if cfg.cards.electric_hybrid_tag {
        match car.simple_fuel.as_deref() {
            Some(f) if f.eq_ignore_ascii_case("electric") => {
                return Some(("Electric".into(), TagRule::ElectricHybrid))
            }
            Some(f) if f.eq_ignore_ascii_case("hybrid") => {
                return Some(("Hybrid".into(), TagRule::ElectricHybrid))
            }
            _ => {}
        }
    }
    if car.reserved.unwrap_or(false) {
        return Some(("Reserved".into(), TagRule::Reserved));
    }
    if let Some(make) = &cfg.cards.certified_badge_make {
        if car.certified.unwrap_or(false) && car.make.eq_ignore_ascii_case(make) {
            return Some((format!("{make} Certified Pre-Owned"), TagRule::Certified));
        }
    }
    if let Some(tag) = car.tag.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        return Some((tag.to_string(), TagRule::DealerTag));
    }
    if car.status == "coming_soon" {
        return Some(("COMING SOON".into(), TagRule::ComingSoon));
    }
    if let Some(created) = car.created_at {
        let age = now - created;
        if age >= chrono::Duration::zero() && age < chrono::Duration::days(NEW_ARRIVAL_DAYS) {
            return Some((cfg.copy.new_arrival_text.clone(), TagRule::NewArrival));
        }
    }
    None
}

/// An RFC 3339 time, or a date (taken as midnight UTC), as feeds write them.
pub fn parse_time(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .map(|d| d.with_timezone(&Utc))
        .ok()
        .or_else(|| {
            NaiveDate::parse_from_str(s.get(..10)?, "%Y-%m-%d")
                .ok()?
                .and_hms_opt(0, 0, 0)
                .map(|d| d.and_utc())
        })
}

/// Specification rows (the Details grid); rows with empty values are
/// dropped (docs/behaviour/car-page.md §2). The feed's technical `variant` figures are the
/// page's Key information (`detail::key_information`).
pub fn spec_rows(car: &FeedCar, cfg: &DealerConfig, today: NaiveDate) -> Vec<SpecRow> {
    let feet = |ft: Option<f64>| ft.map(|ft| format!("{:.2} m", ft * 0.3048));
    let kg = |kg: Option<f64>| kg.map(|x| format!("{x} kg"));
    let rego = car.rego_expiry.and_then(|date| {
        if date < today {
            cfg.detail_page.rego_expired_text.clone()
        } else {
            Some(format!("Expires on {}", date.format("%d/%m/%Y")))
        }
    });
    let mut rows: Vec<(&str, Option<String>)> = vec![
        ("Year", Some(car.year.to_string())),
        ("Make", Some(car.make.clone())),
        ("Model", Some(car.model.clone())),
        ("Badge", car.badge.clone()),
        ("Series", car.series.clone()),
        ("Body", car.body.clone().or(car.simple_body.clone())),
        ("Colour", car.colour.clone()),
        ("Interior", car.interior_colour.clone()),
        (
            "Transmission",
            car.trans.clone().or(car.simple_transmission.clone()),
        ),
        ("Drive", car.drive.clone()),
        ("Fuel", car.fuel.clone().or(car.simple_fuel.clone())),
        ("Engine", car.engine_size.clone()),
        ("Seats", car.seats.map(|s| s.to_string())),
        ("Doors", car.doors.map(|s| s.to_string())),
        (
            "Odometer",
            car.km
                .map(|k| format!("{} km", dollars(k).trim_start_matches('$'))),
        ),
        ("Stock number", car.stocknum.clone()),
        ("VIN", car.vin.clone()),
        ("Registration", car.regplate.clone()),
        ("Registration expiry", rego),
    ];
    if car.item_type.as_deref() == Some("caravan") {
        // Caravan sizes arrive in feet and are shown in metres (docs/behaviour/car-page.md §2).
        let c = &car.caravan;
        rows.extend([
            ("Body width", feet(c.body_width_ft)),
            ("Body length", feet(c.body_length_ft)),
            ("Tare weight", kg(c.tare_weight_kg)),
            ("Axle type", c.axle_type.clone()),
            ("Sleeps", c.sleeps.map(|x| x.to_string())),
            ("Aggregate trailer mass", kg(c.aggregate_trailer_mass_kg)),
        ]);
    }
    rows.into_iter()
        .filter_map(|(label, value)| {
            let value = value?.trim().to_string();
            (!value.is_empty()).then(|| SpecRow {
                label: label.into(),
                value,
            })
        })
        .collect()
}

/// Dealer comments are split on `|` into paragraphs (docs/behaviour/car-page.md §4), each
/// sanitised ([`rich_html`]): the HTML, and its text as paragraphs.
pub fn comments(comments: Option<&str>) -> (String, Vec<String>) {
    let mut html = String::new();
    let mut text = Vec::new();
    for part in comments.unwrap_or("").split('|') {
        let part_html = rich_html(part);
        let part_text = html_text(&part_html);
        if part_text.is_empty() {
            continue;
        }
        html.push_str(&part_html);
        text.extend(
            part_text
                .split("\n\n")
                .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" ")),
        );
    }
    (html, text)
}

/// The car's location from the dealer config (the feed's own copy may be
/// stale); a car naming an unknown location is shown at the primary one
/// (and the build warns: `stock::select`). Its phone is masked where the
/// dealer reveals numbers on request (`features.phone_reveal`).
fn location_of(car: &FeedCar, cfg: &DealerConfig) -> CarLocation {
    let mut location = configured_location(car, cfg);
    if cfg.features.phone_reveal {
        location.phone = mask_phone(&location.phone);
        location.phone_masked = true;
    }
    location
}

/// "(07) 3555 0101" → "(07) 3555 XXXX": the last four digits hidden, the
/// layout kept (docs/behaviour/phone-reveal.md).
pub fn mask_phone(phone: &str) -> String {
    let mut hide = 4;
    let mut chars: Vec<char> = phone.chars().collect();
    for c in chars.iter_mut().rev() {
        if hide == 0 {
            break;
        }
        if c.is_ascii_digit() {
            *c = 'X';
            hide -= 1;
        }
    }
    chars.into_iter().collect()
}

fn configured_location(car: &FeedCar, cfg: &DealerConfig) -> CarLocation {
    let id = car.location_id.as_ref().map(|l| l.to_string());
    let loc = id
        .as_deref()
        .and_then(|id| cfg.locations.iter().find(|l| l.id == id))
        .or_else(|| cfg.locations.iter().find(|l| l.primary))
        .or(cfg.locations.first());
    match loc {
        Some(l) => CarLocation {
            id: l.id.clone(),
            name: l.name.clone(),
            slug: location_slug(l),
            suburb: l.address.suburb.clone(),
            state: l.address.state.as_str().into(),
            phone: l.phone.clone(),
            phone_masked: false,
            distribution_locations: car.distribution_locations.clone(),
        },
        None => CarLocation {
            id: String::new(),
            name: cfg.name.clone(),
            slug: String::new(),
            suburb: String::new(),
            state: String::new(),
            phone: cfg.contact.phone.clone(),
            phone_masked: false,
            distribution_locations: car.distribution_locations.clone(),
        },
    }
}

pub fn present(car: &FeedCar, cfg: &DealerConfig, now: DateTime<Utc>) -> Car {
    let today = now.with_timezone(&cfg.timezone.tz()).date_naive();
    let name = car
        .name
        .clone()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| {
            [
                Some(car.year.to_string()),
                Some(car.make.clone()),
                Some(car.model.clone()),
                car.badge.clone(),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ")
        });
    let price = current_price(car).unwrap_or(0.0);
    let location = location_of(car, cfg);
    let (comments_html, comment_paragraphs) = comments(car.dealercomments.as_deref());
    let detail = super::detail::detail(car, price, &location.phone, &comment_paragraphs, cfg);
    Car {
        id: car.id.to_string(),
        slug: car.slug.clone(),
        name,
        year: car.year,
        make: car.make.clone(),
        model: car.model.clone(),
        badge: car.badge.clone(),
        series: car.series.clone(),
        car_type: car.car_type,
        status: match car.status.as_str() {
            "in_stock" => CarStatus::InStock,
            "coming_soon" => CarStatus::ComingSoon,
            _ => CarStatus::Sold,
        },
        in_stock: is_in_stock(&car.status),
        price,
        price_text: price_text(car, cfg),
        price_type: car.price_type.clone(),
        was_price_text: was_price_text(car),
        km: car.km.unwrap_or(0.0).max(0.0).round() as u64,
        transmission: car.simple_transmission.clone(),
        fuel: car.simple_fuel.clone(),
        body: car.simple_body.clone(),
        colour: car.colour.clone(),
        drive: car.drive.clone(),
        stocknum: car.stocknum.clone(),
        vin: car.vin.clone(),
        nvic: car.nvic.clone(),
        images: car.images.clone(),
        photos_count: car.photos_count.unwrap_or(car.images.len() as u32),
        tag_banner: tag_banner(car, cfg, now),
        tag: car
            .tag
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from),
        subscription_price: subscription_price(car, cfg),
        reserved: car.reserved.unwrap_or(false),
        checkout: detail.checkout,
        certified: car.certified.unwrap_or(false),
        created_at: car
            .created_at
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .unwrap_or_default(),
        sold_at: car.sold_date_timestamp,
        location,
        comment_paragraphs,
        comments_html,
        specs: spec_rows(car, cfg, today),
        custom_rank: car.custom_rank.unwrap_or(0.0),
        seats: car.seats,
        item_type: car.item_type.clone(),
        categories: car.categories.clone(),
        filtered_features: super::features::filtered_features(&car.features),
        dealership_slug: car.dealership_slug.clone(),
        dealership_name: car.dealership_name.clone(),
        finance: super::finance::car_finance(
            car,
            current_price(car).unwrap_or(0.0),
            is_in_stock(&car.status),
            &super::finance::display_rules(cfg, now),
            cfg,
        ),
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::config_with;
    use crate::pipeline::stock::feed;
    use serde_json::{json, Value};

    fn feed_car(extra: Value) -> FeedCar {
        let mut record = json!({"id": 1, "slug": "c-1", "make": "Jayco", "model": "Journey", "year": 2020,
            "car_type": "used", "status": "in_stock"});
        for (k, v) in extra.as_object().unwrap() {
            record[k] = v.clone();
        }
        feed::parse(&serde_json::to_string(&[record]).unwrap(), "f.json")
            .unwrap()
            .cars
            .remove(0)
    }

    fn rows(car: &FeedCar, cfg: &DealerConfig) -> Vec<(String, String)> {
        let today = NaiveDate::from_ymd_opt(2026, 11, 20).unwrap();
        spec_rows(car, cfg, today)
            .into_iter()
            .map(|r| (r.label, r.value))
            .collect()
    }

    fn value(rows: &[(String, String)], label: &str) -> Option<String> {
        rows.iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| v.clone())
    }

    #[test]
    fn a_masked_number_hides_its_last_four_digits_and_keeps_its_layout() {
        assert_eq!(mask_phone("(07) 3555 0101"), "(07) 3555 XXXX");
        assert_eq!(mask_phone("0412 345 678"), "0412 34X XXX");
        assert_eq!(mask_phone("13 22 11"), "13 XX XX");
        assert_eq!(mask_phone("12"), "XX");
        assert_eq!(mask_phone(""), "");
    }

    #[test]
    fn a_cars_location_number_is_masked_where_numbers_are_revealed() {
        let car = feed_car(json!({}));
        let shown = location_of(
            &car,
            &config_with(json!({"features": {"phone_reveal": false}})),
        );
        assert!(
            shown.phone.chars().filter(char::is_ascii_digit).count() >= 8,
            "{}",
            shown.phone
        );
        let masked = location_of(
            &car,
            &config_with(json!({"features": {"phone_reveal": true}})),
        );
        assert_eq!(masked.phone, mask_phone(&shown.phone));
        assert!(masked.phone.ends_with("XX"), "{}", masked.phone);
        // The decision the car page renders (it reads no flag of its own).
        assert!(masked.phone_masked && !shown.phone_masked);
    }

    #[test]
    fn spec_rows_with_empty_values_are_dropped() {
        let car = feed_car(json!({"badge": "  ", "series": null, "colour": "White", "seats": 5}));
        let r = rows(&car, &config_with(json!({})));
        let labels: Vec<&str> = r.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, ["Year", "Make", "Model", "Colour", "Seats"]);
    }

    #[test]
    fn rego_expiry_says_when_or_the_dealers_expired_text() {
        let cfg = config_with(json!({}));
        let future = feed_car(json!({"rego_expiry": "2027-03-31"}));
        assert_eq!(
            value(&rows(&future, &cfg), "Registration expiry").as_deref(),
            Some("Expires on 31/03/2027")
        );
        let today = feed_car(json!({"rego_expiry": "2026-11-20"}));
        assert_eq!(
            value(&rows(&today, &cfg), "Registration expiry").as_deref(),
            Some("Expires on 20/11/2026"),
            "valid through its last day"
        );
        let past = feed_car(json!({"rego_expiry": "2026-11-19"}));
        assert_eq!(
            value(&rows(&past, &cfg), "Registration expiry").as_deref(),
            Some("Unregistered")
        );
        // Dealers who show nothing for an expired rego.
        for text in [json!(null), json!("")] {
            let quiet = config_with(json!({"detail_page": {"rego_expired_text": text}}));
            assert_eq!(value(&rows(&past, &quiet), "Registration expiry"), None);
        }
        assert_eq!(
            value(&rows(&feed_car(json!({})), &cfg), "Registration expiry"),
            None
        );
    }

    #[test]
    fn caravan_sizes_are_shown_in_metres() {
        let caravan = feed_car(
            json!({"item_type": "caravan", "body_width": 7.8, "body_length": "21.5 ft",
            "tare_weight": 2450, "aggregate_trailer_mass": 3300, "axle_type": "Tandem", "sleeps": 4}),
        );
        let r = rows(&caravan, &config_with(json!({})));
        assert_eq!(value(&r, "Body width").as_deref(), Some("2.38 m"));
        assert_eq!(value(&r, "Body length").as_deref(), Some("6.55 m"));
        assert_eq!(value(&r, "Tare weight").as_deref(), Some("2450 kg"));
        assert_eq!(
            value(&r, "Aggregate trailer mass").as_deref(),
            Some("3300 kg")
        );
        assert_eq!(value(&r, "Axle type").as_deref(), Some("Tandem"));
        assert_eq!(value(&r, "Sleeps").as_deref(), Some("4"));
        // Only caravans get these rows.
        let car = feed_car(json!({"body_width": 7.8, "sleeps": 4}));
        assert_eq!(
            value(&rows(&car, &config_with(json!({}))), "Body width"),
            None
        );
    }

    #[test]
    fn comments_split_on_pipes_into_paragraphs() {
        let (html, text) = comments(Some("One.| Two. ||  |Three."));
        assert_eq!(text, ["One.", "Two.", "Three."]);
        assert_eq!(html, "<p>One.</p><p>Two.</p><p>Three.</p>");
        assert_eq!(comments(Some(" | <b></b> ")), (String::new(), vec![]));
        assert_eq!(comments(None), (String::new(), vec![]));
    }

    #[test]
    fn feed_comments_keep_formatting_but_lose_scripts_handlers_and_javascript_links() {
        let feed = "<b>One owner</b> &amp; serviced<br>New tyres|Extras:<ul><li>Tow bar</li><li onclick=\"steal()\">Tint</li></ul>\
                    |<script>alert(1)</script><a href=\"javascript:alert(2)\">Call</a> <a href=\"tel:0733330000\" onmouseover=\"x()\">us</a>";
        let (html, text) = comments(Some(feed));
        let lower = html.to_ascii_lowercase();
        for banned in [
            "<script",
            "alert(1)",
            "onclick",
            "onmouseover",
            "javascript:",
        ] {
            assert!(!lower.contains(banned), "{banned} survived in {html}");
        }
        assert_eq!(
            html,
            "<p><b>One owner</b> &amp; serviced<br>New tyres</p><p>Extras:</p><ul><li>Tow bar</li><li>Tint</li></ul>\
             <p><a rel=\"noopener noreferrer\">Call</a> <a href=\"tel:0733330000\" rel=\"noopener noreferrer\">us</a></p>"
        );
        assert_eq!(
            text,
            [
                "One owner & serviced New tyres",
                "Extras:",
                "Tow bar",
                "Tint",
                "Call us"
            ]
        );
    }
}

#[cfg(test)]
mod form_facts_tests {
    use super::*;
    use crate::pipeline::site_data::test_support::config_with;
    use crate::pipeline::stock::feed;
    use serde_json::json;

    fn presented(cfg: &DealerConfig, records: serde_json::Value) -> Vec<Car> {
        let feed = feed::parse(&records.to_string(), "f.json").unwrap();
        feed.cars
            .iter()
            .map(|c| present(c, cfg, chrono::Utc::now()))
            .collect()
    }

    #[test]
    fn only_cars_the_dealer_reserves_online_get_checkout() {
        let car = |id: u32, make: &str, car_type: &str, status: &str, reserved: bool| {
            json!({"id": id, "slug": format!("c-{id}"), "make": make, "model": "M", "year": 2024,
                   "car_type": car_type, "status": status, "reserved": reserved, "price": 20990})
        };
        let records = json!([
            car(1, "Kia", "used", "in_stock", false),
            car(2, "Kia", "new", "in_stock", false),
            car(3, "Mazda", "used", "in_stock", false),
            car(4, "KIA", "used", "coming_soon", false),
            car(5, "Kia", "used", "in_stock", true),
            car(6, "Kia", "used", "sold", false)
        ]);
        let cfg = config_with(
            json!({"features": {"checkout": {"enabled": true, "car_types": ["used"], "makes": ["Kia"]}}}),
        );
        let flags: Vec<bool> = presented(&cfg, records.clone())
            .iter()
            .map(|c| c.checkout)
            .collect();
        assert_eq!(flags, [true, false, false, true, false, false]);
        let off = config_with(json!({"features": {"checkout": {"enabled": false}}}));
        assert!(presented(&off, records).iter().all(|c| !c.checkout));
    }

    #[test]
    fn the_cars_location_carries_its_distribution_locations() {
        let cfg = config_with(json!({}));
        let cars = presented(
            &cfg,
            json!([{"id": 1, "slug": "c-1", "make": "Kia", "model": "M", "year": 2024, "car_type": "used",
                    "status": "in_stock", "location_id": "a",
                    "location": {"id": "a", "distribution_locations": ["Logan", {"name": "Ipswich"}]}}]),
        );
        assert_eq!(cars[0].location.id, "a");
        assert_eq!(
            cars[0].location.distribution_locations,
            ["Logan", "Ipswich"]
        );
    }
}
