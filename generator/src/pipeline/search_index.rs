//! The precomputed stock search index (`src/data/search-index.json`, served
//! as `/search-index.json`): only the fields result cards and facets need,
//! dictionary-encoded by column so 2,000 cars stay well under 120 KB gzip,
//! plus the facet counts and range statistics of the unfiltered stock (so the
//! static first paint shows real counts before any JavaScript runs) and the
//! static landing pages (`/search/new-cars/`, `/search/{make}/`, ...).
//!
//! The browser engine (astro-app/src/lib/search/) decodes it; its facet
//! counts over the whole index must equal `facets` here (pinned by the
//! fixture site's index, astro-app/test/fixtures/site/src/data/search-index.json,
//! in astro-app/test/search-engine.test.ts).

use std::collections::{BTreeMap, BTreeSet};

use dealer_config::model::CarType;
use schemars::JsonSchema;
use serde::Serialize;

use crate::pipeline::stock::present::{parse_time, Car};

/// Bumped when the layout changes; the browser refuses an index of another version.
/// 2: `sets`, custom_rank, seats, item_type, tag, dealership columns; the
/// tag banner column leaves New Arrival to the shopper's clock.
pub const INDEX_VERSION: u32 = 2;

/// Attributes counted as facets, in the names docs/behaviour/search.md §3 and
/// the hosted index use. `city`, `location_name` and `state` come from the
/// car's location; `make_model` ("Toyota|Corolla") feeds the per-make model
/// picker; `certified` is "true" for certified cars (others are not counted).
/// The browser also derives price_range and weekly_price_range from the
/// price columns (astro-app/src/lib/search/price-ranges.ts).
pub const FACET_ATTRIBUTES: [&str; 22] = [
    "make",
    "model",
    "make_model",
    "badge",
    "car_type",
    "body",
    "fuel",
    "transmission",
    "drive",
    "colour",
    "colour_family",
    "city",
    "location_name",
    "state",
    "year",
    "status",
    "item_type",
    "seats",
    "tag",
    "certified",
    "dealership_slug",
    "dealership_name",
];

/// Facet attributes with several values per car, stored as bit masks (`sets`).
pub const SET_ATTRIBUTES: [&str; 2] = ["categories", "filtered_features"];

pub use crate::pipeline::stock::features::{filtered_features, FEATURE_FILTERS};

/// A set attribute keeps its 31 most common values (one bit each in a mask).
const SET_VALUES: usize = 31;

/// What the index needs from the dealer besides the cars.
#[derive(Debug, Clone, Copy)]
pub struct IndexContext<'a> {
    /// The dealer's slug: a car's dealership_slug when the feed has none.
    pub dealer_slug: &'a str,
    /// The dealer's name: a car's dealership_name when the feed has none.
    pub dealer_name: &'a str,
    /// The new-arrival tag text, which the browser applies at the shopper's
    /// clock: the index's banner column leaves it out.
    pub new_arrival_text: &'a str,
    /// `features.phone_reveal`: the locations' numbers are left out of the
    /// index (a public file), so a masked number is given only by the
    /// phone reveal, which records it (docs/behaviour/phone-reveal.md).
    pub masked_phones: bool,
    /// The dealer's colour words per family (`search.colour_families`),
    /// read before the built-in ones.
    pub colour_words: &'a BTreeMap<String, Vec<String>>,
}

/// A car's colour family as the index and the Colour filter name it
/// ("White", "Silver/Grey": `dealer_rules::colour_families`), or None when
/// it has no colour or no family claims it (the build names those colours:
/// `unfamiliar_colours`).
pub fn colour_family(
    colour: Option<&str>,
    words: &BTreeMap<String, Vec<String>>,
) -> Option<&'static str> {
    let id = dealer_rules::colour_families::family_of(
        colour?,
        words.iter().map(|(id, w)| (id.as_str(), w.as_slice())),
    )?;
    dealer_rules::colour_families::family(id).map(|f| f.label)
}

/// The colours of `cars` no family claims, each with the stock numbers
/// (else slugs) of its cars, for the build's report: such a car is in no
/// Colour filter and a shopper's "white" never finds it.
pub fn unfamiliar_colours(cars: &[Car], words: &BTreeMap<String, Vec<String>>) -> Vec<String> {
    let mut by_colour: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for car in cars {
        let Some(colour) = car.colour.as_deref().filter(|c| !c.trim().is_empty()) else {
            continue;
        };
        if colour_family(Some(colour), words).is_none() {
            by_colour
                .entry(colour)
                .or_default()
                .push(car.stocknum.as_deref().unwrap_or(&car.slug));
        }
    }
    by_colour
        .into_iter()
        .map(|(colour, cars)| {
            let shown: Vec<&str> = cars.iter().take(3).copied().collect();
            let more = if cars.len() > 3 { format!(" and {} more", cars.len() - 3) } else { String::new() };
            format!(
                "colour \"{colour}\" ({} car(s): {}{more}) is in no colour family, so no Colour filter or colour word finds it: add a word of it under search.colour_families",
                cars.len(),
                shown.join(", ")
            )
        })
        .collect()
}

/// Numeric attributes with range statistics (the sliders). The
/// subscription slider is only shown for dealers offering subscriptions;
/// for the others the column is all 0 and costs a few bytes gzipped.
pub const RANGE_ATTRIBUTES: [&str; 4] = ["price", "km", "year", "subscription_price"];

/// The search index of one dealer's visible stock.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SearchIndex {
    /// Layout version (the browser refuses another).
    pub version: u32,
    /// Number of cars; every column has this many entries.
    pub count: usize,
    /// Text attributes, dictionary-encoded (make, model, badge, series, car_type, status, transmission, fuel, body, colour, colour_family, drive, price_type, item_type, tag, dealership_slug, dealership_name, and tag_banner: the banner without New Arrival, which the browser judges at the shopper's clock from created_at).
    pub text: BTreeMap<String, DictColumn>,
    /// Whole-number attributes, one value per car: year, price (dollars), km, subscription_price (dollars a week, 0 = none), photos_count, created_at and sold_at (unix seconds, 0 = unknown), certified and reserved (0/1), location (index into `locations`), custom_rank (higher first), seats (0 = unknown).
    pub numbers: BTreeMap<String, Vec<i64>>,
    /// Attributes with several values per car (categories, filtered_features).
    pub sets: BTreeMap<String, SetColumn>,
    /// Per-car strings ("" = none): id, slug, name, price_text, was_price_text, image (first photo), stocknum.
    pub strings: BTreeMap<String, Vec<String>>,
    /// The locations cars refer to by index.
    pub locations: Vec<IndexLocation>,
    /// Facet counts over the whole index: attribute → value → cars.
    pub facets: BTreeMap<String, BTreeMap<String, usize>>,
    /// Range statistics over the whole index (price, km, year, subscription_price).
    pub facets_stats: BTreeMap<String, FacetStats>,
}

/// A dictionary-encoded text column.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DictColumn {
    /// Distinct values, sorted.
    pub values: Vec<String>,
    /// Per car: index into `values`, or -1 when the car has none.
    pub codes: Vec<i32>,
}

/// A facet with several values per car.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SetColumn {
    /// Distinct values (at most 31, the most common), sorted.
    pub values: Vec<String>,
    /// Per car: bit v is set when the car has `values[v]`.
    pub masks: Vec<u32>,
}

/// Where a car is, shared by the cars of one location.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct IndexLocation {
    /// Location id.
    pub id: String,
    /// Location name (the location_name facet).
    pub name: String,
    /// Suburb (the city facet).
    pub city: String,
    /// State abbreviation.
    pub state: String,
    /// Phone of the location (the Call Dealer button).
    pub phone: String,
}

/// Minimum and maximum of a numeric attribute.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FacetStats {
    /// Smallest value.
    pub min: i64,
    /// Largest value.
    pub max: i64,
}

/// A pre-rendered search landing page, e.g. /search/used-cars/.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct LandingPage {
    /// Path below /search/ without slashes: "used-cars", "toyota", "toyota/corolla", "suv".
    pub path: String,
    /// Page title and heading, e.g. "Used Toyota Corolla for sale".
    pub title: String,
    /// Meta description.
    pub description: String,
    /// The refinements the page applies (attribute → values), as in the URL's refinementList.
    pub refinements: BTreeMap<String, Vec<String>>,
    /// Cars it lists.
    pub count: usize,
}

/// Unix seconds of a feed time, 0 when unknown.
fn unix_seconds(iso: &str) -> i64 {
    parse_time(iso).map_or(0, |t| t.timestamp())
}

fn location_of(car: &Car, ctx: &IndexContext) -> IndexLocation {
    IndexLocation {
        id: car.location.id.clone(),
        name: car.location.name.clone(),
        city: car.location.suburb.clone(),
        state: car.location.state.clone(),
        phone: if ctx.masked_phones {
            String::new()
        } else {
            car.location.phone.clone()
        },
    }
}

/// The value of a facet attribute for a car ("" = none, not counted).
fn facet_value(car: &Car, attribute: &str, ctx: &IndexContext) -> String {
    let opt = |o: &Option<String>| o.clone().unwrap_or_default();
    match attribute {
        "make" => car.make.clone(),
        "model" => car.model.clone(),
        "make_model" => format!("{}|{}", car.make.trim(), car.model.trim()),
        "badge" => opt(&car.badge),
        "car_type" => car.car_type.as_str().into(),
        "body" => opt(&car.body),
        "fuel" => opt(&car.fuel),
        "transmission" => opt(&car.transmission),
        "drive" => opt(&car.drive),
        "colour" => opt(&car.colour),
        "colour_family" => colour_family(car.colour.as_deref(), ctx.colour_words)
            .unwrap_or_default()
            .to_string(),
        "city" => car.location.suburb.clone(),
        "location_name" => car.location.name.clone(),
        "state" => car.location.state.clone(),
        "year" => car.year.to_string(),
        "status" => car.status.as_str().into(),
        "item_type" => opt(&car.item_type),
        "seats" => car
            .seats
            .filter(|s| *s > 0)
            .map(|s| s.to_string())
            .unwrap_or_default(),
        "tag" => opt(&car.tag),
        "certified" => {
            if car.certified {
                "true".into()
            } else {
                String::new()
            }
        }
        "dealership_slug" => car
            .dealership_slug
            .clone()
            .unwrap_or_else(|| ctx.dealer_slug.into()),
        "dealership_name" => car
            .dealership_name
            .clone()
            .unwrap_or_else(|| ctx.dealer_name.into()),
        other => unreachable!("unknown facet attribute {other}"),
    }
}

fn dict_column(values: impl Iterator<Item = Option<String>>) -> DictColumn {
    let raw: Vec<Option<String>> = values
        .map(|v| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()))
        .collect();
    let distinct: BTreeSet<&String> = raw.iter().flatten().collect();
    let values: Vec<String> = distinct.into_iter().cloned().collect();
    let codes = raw
        .iter()
        .map(|v| match v {
            Some(s) => values.binary_search(s).expect("value in dictionary") as i32,
            None => -1,
        })
        .collect();
    DictColumn { values, codes }
}

/// The values of a set attribute for a car.
fn set_values<'c>(car: &'c Car, attribute: &str) -> &'c [String] {
    match attribute {
        "categories" => &car.categories,
        "filtered_features" => &car.filtered_features,
        other => unreachable!("unknown set attribute {other}"),
    }
}

/// A set column: the most common values (at most 31), one bit each.
fn set_column(cars: &[Car], attribute: &str) -> SetColumn {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for car in cars {
        for v in set_values(car, attribute).iter().collect::<BTreeSet<_>>() {
            *counts.entry(v.as_str()).or_default() += 1;
        }
    }
    let mut common: Vec<(&str, usize)> = counts.into_iter().collect();
    common.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut values: Vec<String> = common
        .into_iter()
        .take(SET_VALUES)
        .map(|(v, _)| v.to_string())
        .collect();
    values.sort();
    let masks = cars
        .iter()
        .map(|car| {
            set_values(car, attribute)
                .iter()
                .filter_map(|v| values.binary_search(v).ok())
                .fold(0u32, |m, bit| m | (1 << bit))
        })
        .collect();
    SetColumn { values, masks }
}

/// Facet counts of `cars` (values trimmed; empty values not counted).
pub fn facet_counts(cars: &[Car], ctx: &IndexContext) -> BTreeMap<String, BTreeMap<String, usize>> {
    let mut facets = BTreeMap::new();
    for attribute in FACET_ATTRIBUTES {
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for car in cars {
            let v = facet_value(car, attribute, ctx).trim().to_string();
            if !v.is_empty() {
                *counts.entry(v).or_default() += 1;
            }
        }
        facets.insert(attribute.to_string(), counts);
    }
    for attribute in SET_ATTRIBUTES {
        let column = set_column(cars, attribute);
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for mask in &column.masks {
            for (bit, v) in column.values.iter().enumerate() {
                if mask & (1 << bit) != 0 {
                    *counts.entry(v.clone()).or_default() += 1;
                }
            }
        }
        facets.insert(attribute.to_string(), counts);
    }
    facets
}

/// The banner that lasts: New Arrival depends on the day, so the browser
/// applies it (from created_at); a dealer tag that reads the same stays.
fn lasting_banner(car: &Car, new_arrival_text: &str) -> Option<String> {
    match &car.tag_banner {
        Some(b) if b == new_arrival_text && car.tag.as_deref() != Some(b.as_str()) => None,
        other => other.clone(),
    }
}

/// The value of a range attribute (the whole dollars, km or year the
/// sliders filter on), one definition for the column and its statistics.
fn range_value(car: &Car, attribute: &str) -> i64 {
    match attribute {
        "price" => car.price.max(0.0).round() as i64,
        "km" => car.km as i64,
        "subscription_price" => car.subscription_price.max(0.0).round() as i64,
        "year" => i64::from(car.year),
        other => unreachable!("unknown range attribute {other}"),
    }
}

/// Range statistics of `cars` (absent for an empty stock: the sliders then
/// fall back to 0 to 100000, docs/behaviour/search.md §5).
pub fn range_stats(cars: &[Car]) -> BTreeMap<String, FacetStats> {
    let mut stats = BTreeMap::new();
    for attribute in RANGE_ATTRIBUTES {
        let values = cars.iter().map(|c| range_value(c, attribute));
        if let (Some(min), Some(max)) = (values.clone().min(), values.max()) {
            stats.insert(attribute.to_string(), FacetStats { min, max });
        }
    }
    stats
}

/// Builds the index of the visible cars, in the order given ("Most
/// relevant" is custom_rank descending, then this order).
pub fn build(cars: &[Car], ctx: &IndexContext) -> SearchIndex {
    let col = |f: &dyn Fn(&Car) -> Option<String>| dict_column(cars.iter().map(f));
    let mut text = BTreeMap::new();
    text.insert("make".into(), col(&|c| Some(c.make.clone())));
    text.insert("model".into(), col(&|c| Some(c.model.clone())));
    text.insert("badge".into(), col(&|c| c.badge.clone()));
    text.insert("series".into(), col(&|c| c.series.clone()));
    text.insert(
        "car_type".into(),
        col(&|c| Some(c.car_type.as_str().into())),
    );
    text.insert("status".into(), col(&|c| Some(c.status.as_str().into())));
    text.insert("transmission".into(), col(&|c| c.transmission.clone()));
    text.insert("fuel".into(), col(&|c| c.fuel.clone()));
    text.insert("body".into(), col(&|c| c.body.clone()));
    text.insert("colour".into(), col(&|c| c.colour.clone()));
    text.insert(
        "colour_family".into(),
        col(&|c| colour_family(c.colour.as_deref(), ctx.colour_words).map(String::from)),
    );
    text.insert("drive".into(), col(&|c| c.drive.clone()));
    text.insert("price_type".into(), col(&|c| c.price_type.clone()));
    text.insert(
        "tag_banner".into(),
        col(&|c| lasting_banner(c, ctx.new_arrival_text)),
    );
    text.insert("item_type".into(), col(&|c| c.item_type.clone()));
    text.insert("tag".into(), col(&|c| c.tag.clone()));
    for attribute in ["dealership_slug", "dealership_name"] {
        text.insert(
            attribute.into(),
            col(&|c| Some(facet_value(c, attribute, ctx))),
        );
    }

    let locations: Vec<IndexLocation> = cars
        .iter()
        .map(|c| location_of(c, ctx))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();

    let mut numbers = BTreeMap::new();
    let num = |f: &dyn Fn(&Car) -> i64| cars.iter().map(f).collect::<Vec<i64>>();
    for attribute in RANGE_ATTRIBUTES {
        numbers.insert(attribute.into(), num(&|c| range_value(c, attribute)));
    }
    numbers.insert("photos_count".into(), num(&|c| i64::from(c.photos_count)));
    numbers.insert("created_at".into(), num(&|c| unix_seconds(&c.created_at)));
    numbers.insert("sold_at".into(), num(&|c| c.sold_at.unwrap_or(0)));
    numbers.insert("certified".into(), num(&|c| i64::from(c.certified)));
    numbers.insert("reserved".into(), num(&|c| i64::from(c.reserved)));
    numbers.insert("custom_rank".into(), num(&|c| c.custom_rank.round() as i64));
    numbers.insert("seats".into(), num(&|c| i64::from(c.seats.unwrap_or(0))));
    numbers.insert(
        "location".into(),
        num(&|c| {
            locations
                .binary_search(&location_of(c, ctx))
                .expect("location listed") as i64
        }),
    );

    let mut strings = BTreeMap::new();
    let strs = |f: &dyn Fn(&Car) -> String| cars.iter().map(f).collect::<Vec<String>>();
    strings.insert("id".into(), strs(&|c| c.id.clone()));
    strings.insert("slug".into(), strs(&|c| c.slug.clone()));
    strings.insert("name".into(), strs(&|c| c.name.clone()));
    strings.insert("price_text".into(), strs(&|c| c.price_text.clone()));
    strings.insert(
        "was_price_text".into(),
        strs(&|c| c.was_price_text.clone().unwrap_or_default()),
    );
    strings.insert(
        "image".into(),
        strs(&|c| c.images.first().cloned().unwrap_or_default()),
    );
    strings.insert(
        "stocknum".into(),
        strs(&|c| c.stocknum.clone().unwrap_or_default()),
    );

    SearchIndex {
        version: INDEX_VERSION,
        count: cars.len(),
        text,
        numbers,
        strings,
        sets: SET_ATTRIBUTES
            .iter()
            .map(|a| (a.to_string(), set_column(cars, a)))
            .collect(),
        locations,
        facets: facet_counts(cars, ctx),
        facets_stats: range_stats(cars),
    }
}

/// URL slug of a make, model or body: "Land Cruiser" → "land-cruiser"
/// (the same slugs as location pages).
pub use dealer_config::slug::kebab as slugify;

/// The static landing pages (docs/behaviour/content.md §2.4): per car type and the
/// new-and-demo / all-types pages, per make, per make and model, per body.
/// A body whose slug equals a make's (or a fixed page's) is left out: the
/// make page owns that URL. "page" is reserved for /search/page/N/.
pub fn landing_pages(cars: &[Car], dealer_name: &str) -> Vec<LandingPage> {
    let mut pages: Vec<LandingPage> = Vec::new();
    let mut taken: BTreeSet<String> = ["page".to_string()].into();
    let mut push = |pages: &mut Vec<LandingPage>,
                    path: String,
                    title: String,
                    refinements: BTreeMap<String, Vec<String>>,
                    count: usize| {
        if count == 0 || !taken.insert(path.clone()) {
            return;
        }
        let description =
            format!("{title} at {dealer_name}: {count} in stock, with photos and prices.");
        pages.push(LandingPage {
            path,
            title,
            description,
            refinements,
            count,
        });
    };
    let of_types = |types: &[CarType]| cars.iter().filter(|c| types.contains(&c.car_type)).count();
    let refine = |attr: &str, values: &[&str]| -> BTreeMap<String, Vec<String>> {
        [(
            attr.to_string(),
            values.iter().map(|v| v.to_string()).collect(),
        )]
        .into()
    };
    for (path, title, types) in [
        ("new-cars", "New cars for sale", vec![CarType::New]),
        ("used-cars", "Used cars for sale", vec![CarType::Used]),
        ("demo-cars", "Demo cars for sale", vec![CarType::Demo]),
        (
            "new-and-demo-cars",
            "New and demo cars for sale",
            vec![CarType::New, CarType::Demo],
        ),
        (
            "new-used-and-demo-cars",
            "New, used and demo cars for sale",
            vec![CarType::New, CarType::Demo, CarType::Used],
        ),
    ] {
        let names: Vec<&str> = types.iter().map(|t| t.as_str()).collect();
        // The combined pages refine nothing when every type is included: they list all stock.
        let refinements = if types.len() == 3 {
            BTreeMap::new()
        } else {
            refine("car_type", &names)
        };
        push(
            &mut pages,
            path.into(),
            title.into(),
            refinements,
            of_types(&types),
        );
    }
    let mut makes: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    let mut bodies: BTreeMap<&str, usize> = BTreeMap::new();
    for c in cars {
        *makes
            .entry(&c.make)
            .or_default()
            .entry(&c.model)
            .or_default() += 1;
        if let Some(b) = c.body.as_deref().filter(|b| !b.trim().is_empty()) {
            *bodies.entry(b).or_default() += 1;
        }
    }
    for (make, models) in &makes {
        let total = models.values().sum();
        push(
            &mut pages,
            slugify(make),
            format!("{make} cars for sale"),
            refine("make", &[make]),
            total,
        );
        for (model, count) in models {
            let mut r = refine("make", &[make]);
            r.insert("model".into(), vec![model.to_string()]);
            push(
                &mut pages,
                format!("{}/{}", slugify(make), slugify(model)),
                format!("{make} {model} for sale"),
                r,
                *count,
            );
        }
    }
    for (body, count) in bodies {
        push(
            &mut pages,
            slugify(body),
            format!("{body} cars for sale"),
            refine("body", &[body]),
            count,
        );
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_lower_case_and_hyphenated() {
        assert_eq!(slugify("Land Cruiser 300"), "land-cruiser-300");
        assert_eq!(slugify(" Cab/Chassis "), "cab-chassis");
        assert_eq!(slugify("C-HR"), "c-hr");
    }

    #[test]
    fn only_the_features_shoppers_filter_on_are_kept_by_their_listed_names() {
        let feed: Vec<String> = ["tow bar", "Cruise Control", " Apple CarPlay ", "Tow Bar"]
            .map(String::from)
            .into();
        assert_eq!(filtered_features(&feed), ["Apple CarPlay", "Tow Bar"]);
        assert!(FEATURE_FILTERS.len() <= SET_VALUES, "one bit each");
    }

    fn tiny_car(tag: Option<&str>, banner: Option<&str>) -> Car {
        // A car as the generator presents it, then the few facts these tests name.
        let mut car = crate::pipeline::site_data::test_support::cars(&[("Kia", "used")]).remove(0);
        car.id = "1".into();
        car.slug = "a".into();
        car.name = "A".into();
        car.model = "Rio".into();
        car.tag = tag.map(String::from);
        car.tag_banner = banner.map(String::from);
        car
    }

    #[test]
    fn the_index_leaves_new_arrival_to_the_shoppers_clock_but_keeps_a_tag_reading_the_same() {
        let text = "New Arrival";
        assert_eq!(lasting_banner(&tiny_car(None, Some(text)), text), None);
        assert_eq!(
            lasting_banner(&tiny_car(Some(text), Some(text)), text).as_deref(),
            Some(text)
        );
        assert_eq!(
            lasting_banner(&tiny_car(Some("Clearance"), Some("Reserved")), text).as_deref(),
            Some("Reserved")
        );
    }

    #[test]
    fn a_set_attribute_keeps_its_31_most_common_values() {
        let cars: Vec<Car> = (0..40)
            .map(|i| {
                let mut c = tiny_car(None, None);
                // Value "c{k}" on the cars i >= k: c0 is on every car, c39 on one.
                c.categories = (0..=i).map(|k| format!("c{k:02}")).collect();
                c
            })
            .collect();
        let col = set_column(&cars, "categories");
        assert_eq!(col.values.len(), 31);
        assert!(
            col.values.contains(&"c00".to_string()) && !col.values.contains(&"c39".to_string())
        );
        assert_eq!(col.masks[0], 1, "the first car has c00 only, bit 0");
        assert_eq!(
            col.masks[39],
            u32::MAX >> 1,
            "the last car has all 31 kept values"
        );
    }

    /// The keyword box's colour words (vocabulary/intents.json) name the
    /// families the build gives the cars, with the same labels.
    #[test]
    fn the_keyword_boxs_colour_families_are_the_builds() {
        use dealer_rules::colour_families::{family_of, FAMILIES};
        let table: serde_json::Value = serde_json::from_str(include_str!(
            "../../../astro-app/src/lib/search/vocabulary/intents.json"
        ))
        .unwrap();
        // Keyed by the label: the index's value of the family.
        let families = table["colour_families"].as_object().unwrap();
        let mut theirs: Vec<&str> = families.keys().map(String::as_str).collect();
        let mut ours: Vec<&str> = FAMILIES.iter().map(|f| f.label).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(theirs, ours);
        for f in FAMILIES {
            // The words of the family's name ("Silver/Grey") and the table's others.
            let more = families[f.label].as_array().unwrap();
            let named = f.label.split('/').map(str::to_lowercase);
            for word in named.chain(more.iter().map(|w| w.as_str().unwrap().to_string())) {
                let word = word.as_str();
                assert_eq!(family_of(word, []), Some(f.id), "the shopper's `{word}`");
            }
        }
    }

    #[test]
    fn every_car_gets_its_colour_family_and_an_unclaimed_colour_is_reported() {
        let mut cars = Vec::new();
        for (i, colour) in ["Glacier White", "Eclipse Black", "Nebula", "Nebula", ""]
            .iter()
            .enumerate()
        {
            let mut car = tiny_car(None, None);
            car.colour = Some(colour.to_string());
            car.stocknum = Some(format!("S{i}"));
            cars.push(car);
        }
        let none = BTreeMap::new();
        let index = build(
            &cars,
            &IndexContext {
                dealer_slug: "d",
                dealer_name: "D",
                new_arrival_text: "New Arrival",
                masked_phones: false,
                colour_words: &none,
            },
        );
        let col = &index.text["colour_family"];
        let family = |i: usize| {
            let code = col.codes[i];
            (code >= 0).then(|| col.values[code as usize].as_str())
        };
        assert_eq!(
            (0..5).map(family).collect::<Vec<_>>(),
            [Some("White"), Some("Black"), None, None, None]
        );
        let report = unfamiliar_colours(&cars, &none);
        assert_eq!(report.len(), 1, "{report:?}");
        assert!(
            report[0].contains("\"Nebula\" (2 car(s): S2, S3)")
                && report[0].contains("search.colour_families"),
            "{report:?}"
        );
        // The dealer's word claims it.
        let words = BTreeMap::from([("purple".to_string(), vec!["nebula".to_string()])]);
        assert!(unfamiliar_colours(&cars, &words).is_empty());
        assert_eq!(colour_family(Some("Nebula"), &words), Some("Purple"));
    }

    /// A masked number (`features.phone_reveal`) is not in the public index:
    /// the reveal is the one way to it, and it records the call.
    #[test]
    fn the_index_carries_the_locations_numbers_only_where_they_are_not_masked() {
        let mut car = tiny_car(None, None);
        car.location.phone = "(07) 3555 0100".into();
        let cars = [car];
        let index = |masked_phones| {
            build(
                &cars,
                &IndexContext {
                    dealer_slug: "d",
                    dealer_name: "D",
                    new_arrival_text: "New Arrival",
                    masked_phones,
                    colour_words: &BTreeMap::new(),
                },
            )
        };
        assert_eq!(index(false).locations[0].phone, "(07) 3555 0100");
        let masked = index(true);
        assert_eq!(masked.locations[0].phone, "");
        assert!(!serde_json::to_string(&masked).unwrap().contains("3555"));
    }

    #[test]
    fn dictionary_columns_code_missing_values_as_minus_one() {
        let c =
            dict_column([Some("b".into()), None, Some("a".into()), Some(" ".into())].into_iter());
        assert_eq!(c.values, vec!["a", "b"]);
        assert_eq!(c.codes, vec![1, -1, 0, -1]);
    }
}
