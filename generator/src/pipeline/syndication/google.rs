//! Google's vehicle ads primary feed (Merchant Center), tab-separated, with
//! the attribute headers of Google's specification ("Create a primary
//! feed", support.google.com/merchants/answer/11192663, and each
//! attribute's page). What Australia requires beyond the common set:
//! `vehicle_price_type` for new and used cars (answer 14592783): a new car
//! needs a drive-away price, a used one a drive-away price or one
//! excluding government charges.

use super::cells::{self, text, tsv_row};
use super::{description, is_new, Context};
use crate::pipeline::stock::present::Car;

/// The columns, in order; `custom_label_N` follow, one per configured label.
pub const COLUMNS: [&str; 20] = [
    "id",
    "title",
    "description",
    "link",
    "image_link",
    "additional_image_link",
    "price",
    "vehicle_price_type",
    "condition",
    "certified_pre-owned",
    "brand",
    "model",
    "trim",
    "year",
    "mileage",
    "color",
    "body_style",
    "engine",
    "VIN",
    "store_code",
];

/// Google's limits: title 150 characters, description 5,000, ten
/// additional images.
const TITLE_MAX: usize = 150;
const DESCRIPTION_MAX: usize = 5000;
const ADDITIONAL_IMAGES_MAX: usize = 10;

/// The values Google requires that only its feed needs.
pub(super) fn requirements(car: &Car, cx: &Context, missing: &mut Vec<String>) {
    if store_code(car, cx).is_none() {
        missing.push(format!(
            "location `{}` has no store code (syndication.google_vehicle_ads.store_codes)",
            car.location.id
        ));
    }
    if price_type(car).is_none() {
        missing.push(match (&car.price_type, is_new(car)) {
            (None, _) => "the feed gives no price type; Google needs a drive-away price, or for a used car one excluding government charges".into(),
            (Some(t), true) => format!("price type \"{t}\": Google takes only a drive-away price for a new car"),
            (Some(t), false) => format!("price type \"{t}\" is neither drive away nor excluding government charges"),
        });
    }
}

fn store_code<'a>(car: &Car, cx: &'a Context) -> Option<&'a str> {
    cx.cfg
        .syndication
        .google_vehicle_ads
        .as_ref()?
        .store_codes
        .iter()
        .find(|s| s.location == car.location.id)
        .map(|s| s.code.as_str())
}

/// `vehicle_price_type` from the page's price type.
fn price_type(car: &Car) -> Option<&'static str> {
    let t = car.price_type.as_deref()?.to_ascii_lowercase();
    let words: String = t.chars().filter(|c| c.is_ascii_alphabetic()).collect();
    if words == "driveaway" {
        Some("drive_away_price")
    } else if words.starts_with("excl") && !is_new(car) {
        Some("excluding_government_charges_price")
    } else {
        None
    }
}

/// Google's `body_style` word for the feed's body, where one fits.
pub fn body_style(body: &str) -> Option<&'static str> {
    Some(match body.trim().to_ascii_lowercase().as_str() {
        "suv" => "suv",
        "hatch" | "hatchback" => "hatchback",
        "sedan" => "sedan",
        "wagon" | "station wagon" => "station_wagon",
        "ute" | "cab chassis" | "utility" => "ute",
        "van" => "full_size_van",
        "people mover" | "minivan" => "minivan",
        "coupe" => "coupe",
        "convertible" | "cabriolet" => "convertible",
        "crossover" => "crossover",
        _ => return None,
    })
}

/// Google's `engine` word for the feed's fuel.
pub fn engine(fuel: &str) -> Option<&'static str> {
    Some(match fuel.trim().to_ascii_lowercase().as_str() {
        "petrol" | "unleaded" | "premium unleaded" => "gasoline",
        "diesel" => "diesel",
        "electric" => "electric",
        "hybrid" => "hybrid",
        "plug-in hybrid" | "phev" => "plug-in_hybrid",
        "lpg" => "lpg",
        _ => return None,
    })
}

/// The feed's text: a header and one row per car (all judged in).
pub(super) fn render(cars: &[&Car], cx: &Context) -> String {
    let mut header: Vec<String> = COLUMNS.iter().map(|c| c.to_string()).collect();
    header.extend((0..cx.cfg.syndication.custom_labels.len()).map(|i| format!("custom_label_{i}")));
    let mut out = tsv_row(&header);
    let utm = cx
        .cfg
        .syndication
        .google_vehicle_ads
        .as_ref()
        .map(|g| g.utm.clone())
        .unwrap_or_default();
    for car in cars {
        let images: Vec<String> = car.images.iter().map(|i| cx.image(i)).collect();
        let price = cx.shown_price(car).unwrap_or_default();
        let mut row = vec![
            text(&car.id),
            cells::cut(text(&car.name), TITLE_MAX),
            description(car, DESCRIPTION_MAX),
            cx.link(car, &utm),
            images.first().cloned().unwrap_or_default(),
            images
                .iter()
                .skip(1)
                .take(ADDITIONAL_IMAGES_MAX)
                .cloned()
                .collect::<Vec<_>>()
                .join(","),
            format!("{price}.00 AUD"),
            price_type(car).unwrap_or_default().to_string(),
            if is_new(car) { "new" } else { "used" }.to_string(),
            match (is_new(car), car.certified) {
                (true, _) => String::new(),
                (false, true) => "yes".into(),
                (false, false) => "no".into(),
            },
            text(&car.make),
            text(&car.model),
            text(car.badge.as_deref().unwrap_or_default()),
            car.year.to_string(),
            format!("{} km", car.km),
            text(car.colour.as_deref().unwrap_or_default()),
            car.body
                .as_deref()
                .and_then(body_style)
                .unwrap_or_default()
                .to_string(),
            car.fuel
                .as_deref()
                .and_then(engine)
                .unwrap_or_default()
                .to_string(),
            text(car.vin.as_deref().unwrap_or_default()),
            text(store_code(car, cx).unwrap_or_default()),
        ];
        row.extend(cx.labels(car));
        out.push_str(&tsv_row(&row));
    }
    out
}
