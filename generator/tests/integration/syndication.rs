//! The vehicle ads feeds of a whole dealer (the `ads-dealer` fixture, a car
//! for each rule), generated as a build generates them: every row follows
//! its platform's published rules (required attributes present, values in
//! the allowed words and formats), and the rows are exactly the cars the
//! site shows on sale, at the prices their pages show, linking pages the
//! site has; every other car the site shows is named with why.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use dealergen::pipeline::syndication::{self, parse_rows, row_link, Platform};

type Rows = BTreeMap<String, BTreeMap<String, String>>;

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ads")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-20T00:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn generated() -> dealergen::run::build::Generated {
    let loader = dealer_config::Loader::new(root().join("templates/presets"));
    let dealer = loader
        .load(&fixture_dir().join("ads-dealer.yaml"))
        .unwrap_or_else(|r| panic!("the ads fixture must validate: {:#?}", r.diagnostics));
    dealergen::run::build::generate(&dealer, &root().join("astro-app/public"), now()).unwrap()
}

fn rows(g: &dealergen::run::build::Generated, p: Platform) -> Rows {
    parse_rows(p, g.file(p.file()).expect("the feed is generated"))
}

/// Google's required attributes for vehicle ads in Australia (Merchant
/// Center "Create a primary feed", and vehicle_price_type, required for
/// new and used cars in Australia).
const GOOGLE_REQUIRED: &[&str] = &[
    "id",
    "title",
    "link",
    "image_link",
    "price",
    "vehicle_price_type",
    "condition",
    "brand",
    "model",
    "year",
    "mileage",
    "color",
    "VIN",
    "store_code",
];
/// Meta's required vehicle fields (automotive inventory ads reference).
const META_REQUIRED: &[&str] = &[
    "vehicle_id",
    "title",
    "description",
    "url",
    "make",
    "model",
    "year",
    "mileage.value",
    "mileage.unit",
    "image[0].url",
    "body_style",
    "vin",
    "price",
    "exterior_color",
    "state_of_vehicle",
    "address.addr1",
    "address.city",
    "address.region",
    "address.postal_code",
    "address.country",
    "latitude",
    "longitude",
];

/// Google's `body_style` words (answer 14157085).
const GOOGLE_BODY: &[&str] = &[
    "convertible",
    "coupe",
    "crossover",
    "full_size_van",
    "hatchback",
    "minivan",
    "sedan",
    "station_wagon",
    "suv",
    "truck",
    "ute",
];
/// Google's `engine` words (answer 14156068).
const GOOGLE_ENGINE: &[&str] = &[
    "gasoline",
    "diesel",
    "electric",
    "hybrid",
    "lpg",
    "methane",
    "natural_gas",
    "plug-in_hybrid",
    "other",
];
/// Meta's `body_style`, `drivetrain`, `fuel_type` and `transmission` words.
const META_BODY: &[&str] = &[
    "CONVERTIBLE",
    "COUPE",
    "CROSSOVER",
    "HATCHBACK",
    "MINIVAN",
    "TRUCK",
    "SUV",
    "SEDAN",
    "VAN",
    "WAGON",
    "OTHER",
];
const META_DRIVE: &[&str] = &["4X2", "4X4", "AWD", "FWD", "RWD", "OTHER"];
const META_FUEL: &[&str] = &[
    "DIESEL",
    "ELECTRIC",
    "FLEX",
    "GASOLINE",
    "HYBRID",
    "PETROL",
    "PLUGIN_HYBRID",
    "OTHER",
];
const META_TRANSMISSION: &[&str] = &["AUTOMATIC", "MANUAL"];

fn is_price(v: &str) -> bool {
    // "31990.00 AUD": ISO 4217, two decimals.
    v.strip_suffix(" AUD")
        .and_then(|n| n.split_once('.'))
        .is_some_and(|(w, c)| {
            !w.is_empty()
                && w.chars().all(|c| c.is_ascii_digit())
                && c.len() == 2
                && c.chars().all(|c| c.is_ascii_digit())
        })
}

fn allowed(v: &str, words: &[&str]) -> bool {
    v.is_empty() || words.contains(&v)
}

#[test]
fn every_row_follows_its_platforms_rules() {
    let g = generated();
    let google = rows(&g, Platform::Google);
    let meta = rows(&g, Platform::Meta);
    assert!(!google.is_empty() && !meta.is_empty());
    for (id, row) in &google {
        for k in GOOGLE_REQUIRED {
            assert!(
                row.get(*k).is_some_and(|v| !v.is_empty()),
                "Google row {id}: `{k}` is required: {row:#?}"
            );
        }
        assert!(is_price(&row["price"]), "{id}: {}", row["price"]);
        assert!(["new", "used"].contains(&row["condition"].as_str()), "{id}");
        let (km, unit) = row["mileage"].split_once(' ').unwrap();
        assert!(
            km.parse::<u64>().is_ok() && ["km", "Km", "KM"].contains(&unit),
            "{id}: {}",
            row["mileage"]
        );
        let price_type = row["vehicle_price_type"].as_str();
        if row["condition"] == "new" {
            assert!(
                ["drive_away_price", "estimated_drive_away_price"].contains(&price_type),
                "{id}: {price_type}"
            );
        } else {
            assert!(
                ["drive_away_price", "excluding_government_charges_price"].contains(&price_type),
                "{id}: {price_type}"
            );
        }
        assert!(allowed(&row["certified_pre-owned"], &["yes", "no"]), "{id}");
        assert!(allowed(&row["body_style"], GOOGLE_BODY), "{id}");
        assert!(allowed(&row["engine"], GOOGLE_ENGINE), "{id}");
        assert_eq!(row["VIN"].len(), 17, "{id}");
        assert!(row["title"].chars().count() <= 150 && row["description"].chars().count() <= 5000);
        assert!(
            row["additional_image_link"]
                .split(',')
                .filter(|s| !s.is_empty())
                .count()
                <= 10
        );
    }
    for (id, row) in &meta {
        for k in META_REQUIRED {
            assert!(
                row.get(*k).is_some_and(|v| !v.is_empty()),
                "Meta row {id}: `{k}` is required: {row:#?}"
            );
        }
        assert!(is_price(&row["price"]), "{id}: {}", row["price"]);
        assert!(
            row["mileage.value"].parse::<u64>().is_ok() && row["mileage.unit"] == "KM",
            "{id}"
        );
        assert!(
            ["NEW", "USED", "CPO"].contains(&row["state_of_vehicle"].as_str()),
            "{id}"
        );
        assert!(META_BODY.contains(&row["body_style"].as_str()), "{id}");
        assert!(allowed(&row["drivetrain"], META_DRIVE), "{id}");
        assert!(allowed(&row["transmission"], META_TRANSMISSION), "{id}");
        assert!(allowed(&row["fuel_type"], META_FUEL), "{id}");
        assert_eq!(row["vin"].len(), 17, "{id}");
        assert!(row["latitude"].parse::<f64>().is_ok() && row["longitude"].parse::<f64>().is_ok());
        assert!(row["title"].chars().count() <= 500 && row["description"].chars().count() <= 5000);
    }
}

#[test]
fn the_rows_are_the_cars_on_sale_at_the_sites_prices_linking_its_pages() {
    let g = generated();
    let pages: BTreeSet<&str> = g.pages.iter().map(String::as_str).collect();
    let by_id: BTreeMap<&str, &dealergen::pipeline::stock::present::Car> =
        g.cars.iter().map(|c| (c.id.as_str(), c)).collect();
    let stock = |rows: &Rows| -> BTreeSet<String> {
        rows.keys()
            .map(|id| by_id[id.as_str()].stocknum.clone().unwrap())
            .collect()
    };
    let google = rows(&g, Platform::Google);
    let meta = rows(&g, Platform::Meta);
    // Google: the fixture's complete cars; the one at a location without a
    // store code and the new car priced excluding government charges are
    // Google's own refusals.
    assert_eq!(
        stock(&google),
        set(&["ADS-1", "ADS-2", "ADS-3", "ADS-HOSTILE"])
    );
    assert_eq!(
        stock(&meta),
        set(&[
            "ADS-1",
            "ADS-2",
            "ADS-3",
            "ADS-HOSTILE",
            "ADS-NORTH",
            "ADS-NEWEXCL"
        ])
    );
    for (p, rows) in [(Platform::Google, &google), (Platform::Meta, &meta)] {
        for (id, row) in rows.iter() {
            let car = by_id[id.as_str()];
            // The price the page shows, the page the site has, its photos.
            let shown: String = car
                .price_text
                .chars()
                .filter(|c| c.is_ascii_digit())
                .collect();
            assert_eq!(row["price"], format!("{shown}.00 AUD"), "{p:?} {id}");
            let link = row_link(p, row).unwrap();
            let path = link
                .strip_prefix("https://www.adsmotors.com.au")
                .and_then(|l| l.split('?').next())
                .unwrap();
            assert!(
                pages.contains(path),
                "{p:?} {id}: {link} is no page of the site"
            );
            assert_eq!(path, format!("/cars/{}/", car.slug));
            let first = row.get("image_link").or(row.get("image[0].url")).unwrap();
            assert_eq!(first, &car.images[0], "{p:?} {id}");
        }
    }
    assert!(google["1"]["link"].ends_with("?utm_source=google&utm_medium=vehicle_ads"));
    assert!(meta["1"]["url"].ends_with("?utm_source=facebook&utm_campaign=stock"));
    assert_eq!(google["1"]["custom_label_0"], "used");
    assert_eq!(google["1"]["custom_label_1"], "31-60 days");
    // A sold car (its page is still up, within the window) and a car a rule
    // hides are in neither feed.
    let sold = g
        .cars
        .iter()
        .find(|c| c.stocknum.as_deref() == Some("ADS-SOLD"))
        .expect("the sold car is on the site");
    assert!(pages.contains(format!("/cars/{}/", sold.slug).as_str()));
    assert!(
        !g.cars
            .iter()
            .any(|c| c.stocknum.as_deref() == Some("ADS-HIDDEN")),
        "a rule hides it from the site"
    );
    for rows in [&google, &meta] {
        assert!(!rows.contains_key(&sold.id));
        assert!(!rows.contains_key("5"));
    }
}

#[test]
fn every_car_left_out_is_named_with_why() {
    let g = generated();
    let lines = g.syndication.join("\n");
    for (stock, why) in [
        ("ADS-NOVIN", "Google vehicle ads feed: no VIN"),
        ("ADS-NOVIN", "Meta vehicles feed: no VIN"),
        ("ADS-NOPHOTO", "Google vehicle ads feed: no photo"),
        ("ADS-NOPRICE", "its page shows no price"),
        (
            "ADS-NEWEXCL",
            "Google takes only a drive-away price for a new car",
        ),
        ("ADS-NORTH", "location `ads-north` has no store code"),
    ] {
        assert!(
            g.syndication
                .iter()
                .any(|l| l.starts_with(&format!("stock number {stock} ")) && l.contains(why)),
            "{stock}: `{why}` missing from:\n{lines}"
        );
    }
    insta::assert_snapshot!("syndication_summary", lines);
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// `dealergen explain --car` says of every car of the fixture what the
/// build did: "in the … feed" exactly when the car is a row of it, and for
/// the others the reason the build recorded.
#[test]
fn explain_says_what_the_build_put_in_each_feed() {
    let g = generated();
    let records: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(fixture_dir().join("stock/ads.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(records.len(), 15, "the fixture's cars");
    let feeds = [Platform::Google, Platform::Meta].map(|p| (p, rows(&g, p)));
    let mut rows_seen = 0;
    for record in &records {
        let stock = record["stocknum"].as_str().unwrap();
        let id = record["id"].to_string();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_dealergen"))
            .arg("--root")
            .arg(root())
            .arg("--dealers-dir")
            .arg(fixture_dir())
            .args(["explain", "--dealer", "ads-dealer", "--as-of", "2026-11-20"])
            .args(["--car", stock])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stock}: {text}");
        let shown = g.cars.iter().any(|c| c.id == id);
        for (p, rows) in &feeds {
            let title = p.title();
            let inside = format!("  ads:     in the {title}\n");
            if rows.contains_key(&id) {
                rows_seen += 1;
                assert!(
                    text.contains(&inside),
                    "{stock} is a row of the {title}:\n{text}"
                );
            } else if shown {
                let prefix = format!("  ads:     not in the {title}: ");
                let why = text
                    .lines()
                    .find_map(|l| l.strip_prefix(&prefix))
                    .unwrap_or_else(|| panic!("{stock}: no reason for the {title}:\n{text}"));
                // The very reason the build recorded for the car.
                let built = &g
                    .plan
                    .plan
                    .feeds
                    .iter()
                    .find(|f| f.platform == *p)
                    .unwrap()
                    .left_out[&id];
                assert_eq!(why, built, "{stock}: explain and the build disagree");
            } else {
                assert!(
                    text.contains("  ads:     in no ads feed"),
                    "{stock} is not on the site:\n{text}"
                );
            }
        }
    }
    assert_eq!(rows_seen, 10, "4 Google rows and 6 Meta rows");
}

/// The hostile car of the fixture (ADS-HOSTILE: a formula for a name with
/// a tab in it, a comment with a tab, a line break, quotes, a script, an
/// event handler and a javascript: link, a formula for a trim) cannot
/// split a row, start a formula in a spreadsheet, or carry markup into the
/// feeds: checked on the whole files as the build writes them.
#[test]
fn hostile_feed_values_stay_text_in_their_cells() {
    let g = generated();
    let hostile = g
        .cars
        .iter()
        .find(|c| c.stocknum.as_deref() == Some("ADS-HOSTILE"))
        .expect("the hostile car is on the site");
    for p in [Platform::Google, Platform::Meta] {
        let text = g.file(p.file()).unwrap();
        let rows = rows(&g, p);
        // One line per row: no dealer tab, CR or LF splits one.
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), rows.len() + 1, "{p:?}:\n{text}");
        let columns = rows.values().next().unwrap().len();
        if p == Platform::Google {
            for l in &lines {
                assert_eq!(l.split('\t').count(), columns, "{p:?}: {l}");
            }
        }
        for (id, row) in &rows {
            assert_eq!(row.len(), columns, "{p:?} {id}");
            for (column, cell) in row {
                // A number (a southern latitude) is a number to a spreadsheet.
                assert!(
                    !cell.starts_with(['=', '+', '-', '@']) || cell.parse::<f64>().is_ok(),
                    "{p:?} {id} {column}: `{cell}` would run as a formula"
                );
                assert!(!cell.contains(['\t', '\r', '\n']), "{p:?} {id} {column}");
            }
        }
        let row = &rows[&hostile.id];
        assert!(
            row["title"].starts_with("'=HYPERLINK("),
            "{p:?}: {}",
            row["title"]
        );
        assert_eq!(row["trim"], "'@SUM(1)", "{p:?}");
        let description = &row["description"];
        assert!(
            description.starts_with("'-2+3 One owner, \"quoted\""),
            "{p:?}: {description}"
        );
        for banned in [
            "<script",
            "alert(",
            "javascript:",
            "onclick",
            "steal()",
            "<b>",
            "<a ",
        ] {
            assert!(
                !description.contains(banned),
                "{p:?}: `{banned}` in `{description}`"
            );
        }
    }
    // The CSV quotes what it must: the comment's quotes are doubled inside
    // a quoted cell, so a spreadsheet reads them back as they were.
    assert!(
        g.file(Platform::Meta.file())
            .unwrap()
            .contains("\"'-2+3 One owner, \"\"quoted\"\""),
        "the CSV cell of the comment"
    );
}

/// Every word the mappings can give is in the platform's list (the
/// feed's body, fuel and drive words, and some no list has).
#[test]
fn mapped_words_are_in_each_platforms_list() {
    let bodies = [
        "SUV",
        "Hatch",
        "Sedan",
        "Wagon",
        "Ute",
        "Cab Chassis",
        "Van",
        "People Mover",
        "Coupe",
        "Convertible",
        "Crossover",
        "Tractor",
    ];
    for b in bodies {
        if let Some(g) = syndication::google::body_style(b) {
            assert!(GOOGLE_BODY.contains(&g), "{b} → {g}");
        }
        assert!(
            META_BODY.contains(&syndication::meta::body_style(Some(b))),
            "{b}"
        );
    }
    for f in [
        "Petrol",
        "Diesel",
        "Hybrid",
        "Electric",
        "Plug-in Hybrid",
        "LPG",
        "Hydrogen",
    ] {
        if let Some(g) = syndication::google::engine(f) {
            assert!(GOOGLE_ENGINE.contains(&g), "{f} → {g}");
        }
        assert!(
            META_FUEL.contains(&syndication::meta::fuel_type(Some(f))),
            "{f}"
        );
    }
    for d in ["FWD", "RWD", "AWD", "4WD", "4x2", "2WD", "Tracks"] {
        assert!(
            META_DRIVE.contains(&syndication::meta::drivetrain(Some(d))),
            "{d}"
        );
    }
    assert_eq!(syndication::google::body_style("Caravan"), None);
}

/// The build keeps, per feed, why each car the site shows is not a row
/// (what `dealergen diff` reports for a removed row): every shown car is
/// a row or has a reason, never both.
#[test]
fn every_shown_car_is_a_row_or_has_the_builds_reason() {
    let g = generated();
    let id_of = |stock: &str| {
        g.cars
            .iter()
            .find(|c| c.stocknum.as_deref() == Some(stock))
            .unwrap()
            .id
            .clone()
    };
    let shown: BTreeSet<String> = g.cars.iter().map(|c| c.id.clone()).collect();
    assert_eq!(g.plan.plan.feeds.len(), 2);
    for f in &g.plan.plan.feeds {
        let rows: BTreeSet<String> = parse_rows(f.platform, &f.text).into_keys().collect();
        let left: BTreeSet<String> = f.left_out.keys().cloned().collect();
        assert!(rows.is_disjoint(&left), "{:?}", f.platform);
        assert_eq!(&rows | &left, shown, "{:?}", f.platform);
        assert_eq!(f.left_out[&id_of("ADS-NOVIN")], "no VIN");
        assert_eq!(f.left_out[&id_of("ADS-SOLD")], "not on sale (sold)");
        assert_eq!(
            f.left_out[&id_of("ADS-VAN")],
            "the platform takes no caravans"
        );
    }
}
