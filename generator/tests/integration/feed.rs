//! The stock feed reader against a feed with every malformed shape
//! (tests/fixtures/feeds/malformed.json): each car with a malformed
//! optional field is kept without that field and named in a warning; only
//! records without a car page's essentials are skipped, and named.

use std::path::Path;

use dealer_config::model::CarType;
use dealergen::pipeline::stock::feed::{self, Effect, Feed, FeedCar};

fn malformed() -> Feed {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/feeds/malformed.json");
    feed::load(&path).expect("the feed is a JSON array")
}

fn car<'a>(feed: &'a Feed, slug: &str) -> &'a FeedCar {
    feed.cars
        .iter()
        .find(|c| c.slug == slug)
        .unwrap_or_else(|| panic!("{slug} was not kept"))
}

/// The fields named in warnings about one car.
fn left_out(feed: &Feed, slug: &str) -> Vec<String> {
    feed.warnings
        .iter()
        .filter(|w| w.record.slug.as_deref() == Some(slug))
        .map(|w| w.problem.field.clone())
        .collect()
}

#[test]
fn cars_with_malformed_optional_fields_are_kept_and_only_records_without_essentials_skipped() {
    let feed = malformed();
    let slugs: Vec<&str> = feed.cars.iter().map(|c| c.slug.as_str()).collect();
    assert_eq!(
        slugs,
        [
            "spec-shapes-1",
            "bad-photos-2",
            "bad-dates-3",
            "bad-numbers-4",
            "bad-lenders-5",
            "bad-text-6",
            "unreadable-visibility-7",
            "caravan-8",
            "archived-12",
            "moved-13"
        ]
    );
    assert_eq!(feed.skipped.len(), 3);
    assert_eq!(feed.warnings.len(), 27);
    // An unknown status is kept for the visibility rules (which hide it) and named.
    assert_eq!(car(&feed, "archived-12").status, "archived");
    assert_eq!(left_out(&feed, "archived-12"), ["status"]);
}

#[test]
fn every_image_shape_of_the_spec_and_numbers_in_text_decode_without_a_warning() {
    let feed = malformed();
    let c = car(&feed, "spec-shapes-1");
    assert!(left_out(&feed, "spec-shapes-1").is_empty());
    assert_eq!(
        c.images,
        [
            "/images/stock/hatch-1.svg",
            "/images/stock/hatch-2.svg",
            "/images/stock/hatch-3.svg",
            "/images/stock/hatch-4.svg"
        ]
    );
    assert_eq!(
        (c.price, c.before_price, c.km),
        (Some(12990.0), Some(14990.0), Some(42000.0))
    );
    assert_eq!(
        (c.year, c.car_type, c.status.as_str()),
        (2021, CarType::Used, "in_stock")
    );
    assert_eq!((c.seats, c.reserved), (Some(5), Some(false)));
    assert_eq!(
        c.created_at.map(|t| t.to_rfc3339()).as_deref(),
        Some("2026-11-18T00:00:00+00:00")
    );
    assert_eq!(
        c.rego_expiry.map(|d| d.to_string()).as_deref(),
        Some("2027-03-31")
    );
}

#[test]
fn each_malformed_field_is_dropped_and_the_rest_of_the_car_kept() {
    let feed = malformed();

    let c = car(&feed, "bad-photos-2");
    assert_eq!(
        c.images,
        [
            "/images/stock/hatch-1.svg",
            "/images/stock/hatch-3.svg",
            "/images/stock/hatch-4.svg"
        ]
    );
    assert_eq!(
        left_out(&feed, "bad-photos-2"),
        ["images[1]", "images[2]", "images[4]"]
    );
    assert_eq!(c.price, Some(11990.0));

    let c = car(&feed, "bad-dates-3");
    assert_eq!(
        (c.created_at, c.rego_expiry, c.sold_date_timestamp),
        (None, None, None)
    );
    assert_eq!(c.images.len(), 3);

    let c = car(&feed, "bad-numbers-4");
    assert_eq!(
        (
            c.price,
            c.before_price,
            c.offer_price,
            c.subscription_price,
            c.km
        ),
        (None, None, None, None, None)
    );
    assert_eq!((c.seats, c.doors, c.photos_count), (None, None, None));
    assert_eq!(c.make, "Kia");

    let c = car(&feed, "bad-lenders-5");
    let manual = &c.finance_lenders["Manual"];
    assert_eq!(
        (
            manual.interest_rate,
            manual.comparison_rate,
            manual.payment_week
        ),
        (None, Some(8.04), Some(211.0))
    );
    assert_eq!(c.finance_lenders.keys().collect::<Vec<_>>(), ["Manual"]);

    let c = car(&feed, "bad-text-6");
    assert_eq!((c.badge.as_deref(), c.colour.as_deref()), (None, None));
    assert_eq!((c.reserved, c.certified), (None, None));
    assert!(c.variant.is_none() && c.location_id.is_none() && c.dealership_id.is_none());
    assert_eq!(c.price, Some(8990.0));

    let c = car(&feed, "caravan-8");
    assert_eq!(c.caravan.body_length_ft, Some(21.5));
    assert_eq!(c.caravan.body_width_ft, None);
    assert_eq!(c.caravan.tare_weight_kg, Some(1850.0));
    assert_eq!(c.caravan.sleeps, Some(4));
    assert_eq!(left_out(&feed, "caravan-8"), ["body_width"]);
}

#[test]
fn an_unreadable_visibility_flag_hides_the_car_instead_of_showing_it() {
    let feed = malformed();
    assert!(!car(&feed, "unreadable-visibility-7").show_on_dealer_website);
    let w = feed
        .warnings
        .iter()
        .find(|w| w.problem.field == "show_on_dealer_website")
        .unwrap();
    assert_eq!(w.problem.effect, Effect::Hidden);
}

/// The messages a marketer reads: the car by stock number, the field, what
/// the feed had and what it should be; never a parser's internals.
#[test]
fn warnings_and_skips_are_written_for_a_marketer() {
    let feed = malformed();
    let lines = |items: Vec<String>| items.join("\n");
    insta::assert_snapshot!(
        "malformed_feed_warnings",
        lines(feed.warnings.iter().map(ToString::to_string).collect())
    );
    insta::assert_snapshot!(
        "malformed_feed_skipped",
        lines(feed.skipped.iter().map(ToString::to_string).collect())
    );
    for w in &feed.warnings {
        let text = w.to_string();
        assert!(text.starts_with("stock number MF0"), "{text}");
        for internal in [
            "invalid type",
            "untagged",
            "ImageRef",
            "expected u16",
            "serde",
        ] {
            assert!(!text.contains(internal), "{text}");
        }
    }
}

/// The search fields: custom_rank, categories and features
/// decode field by field like the rest; a list item that is not text is
/// left out on its own, and `filtered_features` wins over the standard
/// equipment list.
#[test]
fn search_fields_decode_item_by_item() {
    let text = serde_json::json!([
        {"id": 1, "slug": "a-1", "make": "Kia", "model": "Rio", "year": 2022, "car_type": "used", "status": "in_stock",
         "custom_rank": "120", "categories": ["Family", 7, " ", "Work"], "standardEquipment": ["Tow Bar"],
         "dealership_slug": "kia-north", "dealership_name": "Kia North"},
        {"id": 2, "slug": "b-2", "make": "Kia", "model": "Rio", "year": 2022, "car_type": "used", "status": "in_stock",
         "custom_rank": "high", "categories": "Family", "filtered_features": ["Sunroof"], "standardEquipment": ["Tow Bar"]},
    ])
    .to_string();
    let feed = feed::parse(&text, "f.json").unwrap();
    let a = car(&feed, "a-1");
    assert_eq!(a.custom_rank, Some(120.0));
    assert_eq!(a.categories, ["Family", "Work"]);
    assert_eq!(a.features, ["Tow Bar"]);
    assert_eq!(a.dealership_slug.as_deref(), Some("kia-north"));
    assert_eq!(a.dealership_name.as_deref(), Some("Kia North"));
    let b = car(&feed, "b-2");
    assert_eq!(b.custom_rank, None);
    assert_eq!(b.categories, ["Family"]);
    assert_eq!(b.features, ["Sunroof"]);
    assert_eq!(left_out(&feed, "a-1"), ["categories[1]"]);
    assert_eq!(left_out(&feed, "b-2"), ["custom_rank"]);
}
