//! The feeds' rules, one at a time, on cars presented as the site shows
//! them. The whole-site check (rows = the cars on sale, their prices and
//! pages) is `generator/tests/integration/syndication.rs`.

use chrono::{TimeZone, Utc};
use serde_json::{json, Value};

use super::*;
use crate::pipeline::site_data::test_support::config_with;
use crate::pipeline::stock::{feed, present};

const VIN: &str = "JTDKB20U403123456";

fn cfg() -> DealerConfig {
    let mut c = config_with(json!({
        "syndication": {
            "google_vehicle_ads": {"store_codes": [{"location": "a", "code": "STORE-A"}, {"location": "c", "code": "STORE-C"}],
                                   "utm": {"source": "google", "medium": "vehicle_ads"}},
            "meta_vehicles": {"utm": {"source": "facebook"}},
            "custom_labels": ["car_type", "price_band"]
        }
    }));
    for l in &mut c.locations {
        l.address.lat = Some(-27.4);
        l.address.lng = Some(153.0);
    }
    c
}

fn car_with(cfg: &DealerConfig, extra: Value) -> Car {
    let mut record = json!({"id": 7, "slug": "2022-toyota-hilux-sr5", "stocknum": "S7", "make": "Toyota", "model": "HiLux",
        "badge": "SR5", "year": 2022, "car_type": "used", "item_type": "car", "status": "in_stock", "price": 45990,
        "price_type": "Drive Away", "km": 45000, "colour": "Glacier White", "interior_colour": "Black Cloth",
        "simple_body": "Ute", "simple_fuel": "Diesel", "simple_transmission": "Automatic", "drive": "4WD",
        "vin": VIN, "location_id": "a", "images": ["/img/a.jpg", "https://cdn.example/b,1.jpg"],
        "created_at": "2026-10-01T00:00:00Z"});
    for (k, v) in extra.as_object().unwrap() {
        record[k] = v.clone();
    }
    let car = feed::parse(&serde_json::to_string(&[record]).unwrap(), "f.json")
        .unwrap()
        .cars
        .remove(0);
    present::present(&car, cfg, now())
}

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 0, 0, 0).unwrap()
}

fn cx(cfg: &DealerConfig) -> Context<'_> {
    Context { cfg, now: now() }
}

fn rows(
    platform: Platform,
    cars: &[Car],
    cfg: &DealerConfig,
) -> BTreeMap<String, BTreeMap<String, String>> {
    let feeds = build(cars, &cx(cfg));
    let file = feeds.files.iter().find(|f| f.platform == platform).unwrap();
    parse_rows(platform, &file.text)
}

#[test]
fn a_google_row_has_every_attribute_in_googles_words() {
    let cfg = cfg();
    let car = car_with(&cfg, json!({}));
    let rows = rows(Platform::Google, &[car], &cfg);
    let row = &rows["7"];
    let want = [
        ("title", "2022 Toyota HiLux SR5"),
        ("link", "https://www.demo.com.au/cars/2022-toyota-hilux-sr5/?utm_source=google&utm_medium=vehicle_ads"),
        ("image_link", "https://www.demo.com.au/img/a.jpg"),
        ("additional_image_link", "https://cdn.example/b%2C1.jpg"),
        ("price", "45990.00 AUD"),
        ("vehicle_price_type", "drive_away_price"),
        ("condition", "used"),
        ("certified_pre-owned", "no"),
        ("brand", "Toyota"),
        ("model", "HiLux"),
        ("trim", "SR5"),
        ("year", "2022"),
        ("mileage", "45000 km"),
        ("color", "Glacier White"),
        ("body_style", "ute"),
        ("engine", "diesel"),
        ("VIN", VIN),
        ("store_code", "STORE-A"),
        ("custom_label_0", "used"),
        ("custom_label_1", "40k-60k"),
    ];
    for (k, v) in want {
        assert_eq!(row.get(k).map(String::as_str), Some(v), "{k} in {row:#?}");
    }
    assert_eq!(row.len(), google::COLUMNS.len() + 2);
}

#[test]
fn a_meta_row_uses_metas_fields_and_enumerations() {
    let cfg = cfg();
    let car = car_with(&cfg, json!({"certified": true}));
    let rows = rows(Platform::Meta, &[car], &cfg);
    let row = &rows["7"];
    let want = [
        (
            "url",
            "https://www.demo.com.au/cars/2022-toyota-hilux-sr5/?utm_source=facebook",
        ),
        ("mileage.value", "45000"),
        ("mileage.unit", "KM"),
        ("image[0].url", "https://www.demo.com.au/img/a.jpg"),
        ("image[1].url", "https://cdn.example/b%2C1.jpg"),
        ("body_style", "TRUCK"),
        ("drivetrain", "4X4"),
        ("transmission", "AUTOMATIC"),
        ("fuel_type", "DIESEL"),
        ("price", "45990.00 AUD"),
        ("exterior_color", "Glacier White"),
        ("interior_color", "Black Cloth"),
        ("state_of_vehicle", "CPO"),
        ("address.city", "Brisbane"),
        ("address.region", "QLD"),
        ("address.postal_code", "4000"),
        ("address.country", "AU"),
        ("latitude", "-27.4"),
        ("vin", VIN),
    ];
    for (k, v) in want {
        assert_eq!(row.get(k).map(String::as_str), Some(v), "{k} in {row:#?}");
    }
}

#[test]
fn a_car_not_on_sale_or_excluded_is_in_no_feed() {
    let mut cfg = cfg();
    let cases = [
        (
            json!({"status": "sold", "sold_date_timestamp": now().timestamp() - 3600}),
            Refusal::NotOnSale("sold"),
        ),
        (json!({"reserved": true}), Refusal::NotOnSale("reserved")),
        (
            json!({"status": "coming_soon"}),
            Refusal::NotOnSale("coming soon"),
        ),
        (json!({"car_type": "demo"}), Refusal::Excluded("car_types")),
        (
            json!({"stocknum": "s9"}),
            Refusal::Excluded("stock_numbers"),
        ),
    ];
    cfg.syndication.exclude.car_types = vec![CarType::Demo];
    cfg.syndication.exclude.stock_numbers = vec!["S9".into()];
    for (extra, why) in cases {
        let car = car_with(&cfg, extra.clone());
        for p in Platform::ALL {
            assert_eq!(
                judge(p, &car, &cx(&cfg)),
                Err(why.clone()),
                "{extra} on {p:?}"
            );
        }
    }
}

#[test]
fn a_caravan_is_left_out_and_the_summary_says_so() {
    let cfg = cfg();
    let van = car_with(
        &cfg,
        json!({"item_type": "caravan", "simple_body": "Caravan"}),
    );
    let car = car_with(&cfg, json!({"id": 8, "slug": "c-8"}));
    let feeds = build(&[van, car], &cx(&cfg));
    assert_eq!(
        feeds.lines,
        [
            "Google vehicle ads feed: 1 car(s); left out: 1 caravan(s): the platform takes passenger cars and utes only",
            "Meta vehicles feed: 1 car(s); left out: 1 caravan(s): the platform takes passenger cars and utes only",
        ]
    );
}

#[test]
fn a_car_missing_what_a_platform_requires_is_named() {
    let cfg = cfg();
    let cases = [
        (json!({"vin": null}), "no VIN"),
        (
            json!({"vin": "SHORT"}),
            "VIN `SHORT` is not a VIN: 17 digits and capital letters other than I, O and Q",
        ),
        (json!({"images": [], "photos_count": 3}), "no photo"),
        (json!({"price": 0}), "its page shows no price"),
        (json!({"colour": null}), "no colour"),
    ];
    for (extra, why) in cases {
        let car = car_with(&cfg, extra.clone());
        for p in Platform::ALL {
            match judge(p, &car, &cx(&cfg)) {
                Err(Refusal::Missing(what)) => assert!(
                    what.iter().any(|w| w.starts_with(why)),
                    "{extra} on {p:?}: {what:?}"
                ),
                other => panic!("{extra} on {p:?}: {other:?}"),
            }
        }
    }
    let feeds = build(&[car_with(&cfg, json!({"vin": null}))], &cx(&cfg));
    assert_eq!(feeds.lines[0], "stock number S7 (slug 2022-toyota-hilux-sr5): left out of the Google vehicle ads feed: no VIN");
}

#[test]
fn google_needs_a_store_code_and_an_australian_price_type() {
    let cfg = cfg();
    let at_b = car_with(&cfg, json!({"location_id": "b"}));
    let no_type = car_with(&cfg, json!({"price_type": null}));
    let new_excl = car_with(
        &cfg,
        json!({"car_type": "new", "km": 10, "price_type": "Excl. Govt. Charges"}),
    );
    let used_excl = car_with(&cfg, json!({"price_type": "Excl. Govt. Charges"}));
    for car in [&at_b, &no_type, &new_excl] {
        assert!(
            matches!(
                judge(Platform::Google, car, &cx(&cfg)),
                Err(Refusal::Missing(_))
            ),
            "{:?}",
            car.location.id
        );
        assert_eq!(
            judge(Platform::Meta, car, &cx(&cfg)),
            Ok(()),
            "Meta has no such rule"
        );
    }
    assert_eq!(judge(Platform::Google, &used_excl, &cx(&cfg)), Ok(()));
    let rows = rows(Platform::Google, &[used_excl], &cfg);
    assert_eq!(
        rows["7"]["vehicle_price_type"],
        "excluding_government_charges_price"
    );
}

#[test]
fn meta_needs_the_locations_coordinates() {
    let mut cfg = cfg();
    cfg.locations[0].address.lat = None;
    let car = car_with(&cfg, json!({}));
    assert!(
        matches!(judge(Platform::Meta, &car, &cx(&cfg)), Err(Refusal::Missing(w)) if w[0].contains("no lat/lng"))
    );
    assert_eq!(judge(Platform::Google, &car, &cx(&cfg)), Ok(()));
}

#[test]
fn a_weekly_price_is_not_advertised_as_the_cars_price() {
    let cfg = config_with(
        json!({"features": {"subscriptions": true}, "syndication": {"meta_vehicles": {}}}),
    );
    let car = car_with(&cfg, json!({"subscription_price": 99}));
    assert_ne!(
        car.price_text,
        dollars(car.price),
        "the fixture shows a weekly price"
    );
    assert!(matches!(
        judge(Platform::Meta, &car, &cx(&cfg)),
        Err(Refusal::Missing(_))
    ));
}

#[test]
fn hostile_dealer_text_stays_in_its_cell() {
    let cfg = cfg();
    let car = car_with(
        &cfg,
        json!({"name": "=HYPERLINK(\"http://evil\",\"x\")\tinjected\nrow", "dealercomments": "+cmd|' /C calc'!A0, \"quoted\"\r\nnext",
               "badge": "@SUM(1)", "colour": "-1+1"}),
    );
    for p in Platform::ALL {
        let feeds = build(std::slice::from_ref(&car), &cx(&cfg));
        let file = feeds.files.iter().find(|f| f.platform == p).unwrap();
        let rows = parse_rows(p, &file.text);
        assert_eq!(
            rows.len(),
            1,
            "{p:?}: one row, not split by the dealer's tab or line break:\n{}",
            file.text
        );
        let row = &rows["7"];
        let title = &row["title"];
        assert!(title.starts_with("'="), "{p:?}: {title}");
        assert!(!title.contains(['\t', '\n']), "{p:?}: {title}");
        assert!(
            row["description"].starts_with("'+"),
            "{p:?}: {}",
            row["description"]
        );
        let colour = row.get("color").or(row.get("exterior_color")).unwrap();
        assert_eq!(colour, "'-1+1", "{p:?}");
        let trim = &row["trim"];
        assert_eq!(trim, "'@SUM(1)", "{p:?}");
        let header_len = file.text.lines().next().unwrap().len();
        assert!(header_len > 0);
    }
}
