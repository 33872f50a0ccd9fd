//! Meta's automotive inventory ads catalogue (Facebook, Instagram), as CSV
//! with the field names and enumerations of Meta's reference
//! (developers.facebook.com/docs/marketing-api/auto-ads/reference):
//! nested fields as flattened JSON-path columns (`mileage.value`,
//! `image[0].url`, `address.city`), enum words in capitals.

use super::cells::{self, csv_row, text};
use super::{description, is_new, Context};
use crate::pipeline::stock::present::Car;

/// The columns before the images (`image[N].url`, as many as the car with
/// the most photos has, at most 20) and the ones after them.
const BEFORE_IMAGES: [&str; 9] = [
    "vehicle_id",
    "title",
    "description",
    "url",
    "make",
    "model",
    "year",
    "mileage.value",
    "mileage.unit",
];
pub const AFTER_IMAGES: [&str; 19] = [
    "body_style",
    "drivetrain",
    "transmission",
    "fuel_type",
    "vin",
    "price",
    "exterior_color",
    "interior_color",
    "state_of_vehicle",
    "trim",
    "address.addr1",
    "address.city",
    "address.region",
    "address.postal_code",
    "address.country",
    "latitude",
    "longitude",
    "dealer_name",
    "dealer_phone",
];

/// Meta's limits: 20 images, a 5,000-character description, a
/// 500-character title.
const IMAGES_MAX: usize = 20;
const DESCRIPTION_MAX: usize = 5000;
const TITLE_MAX: usize = 500;

/// What Meta requires that only its feed needs: the car's coordinates
/// (the location's `lat`/`lng`) and an address.
pub(super) fn requirements(car: &Car, cx: &Context, missing: &mut Vec<String>) {
    match cx.location(car) {
        None => {
            missing.push("the car is at no location of the dealer (Meta needs its address)".into())
        }
        Some(l) if l.address.lat.is_none() || l.address.lng.is_none() => missing.push(format!(
            "location `{}` has no lat/lng; Meta needs the car's coordinates",
            l.id
        )),
        Some(_) => {}
    }
}

/// Meta's `body_style` word (CONVERTIBLE, COUPE, CROSSOVER, HATCHBACK,
/// MINIVAN, TRUCK, SUV, SEDAN, VAN, WAGON or OTHER): a ute is a pickup,
/// which Meta calls a truck.
pub fn body_style(body: Option<&str>) -> &'static str {
    match body
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
        .as_str()
    {
        "suv" => "SUV",
        "hatch" | "hatchback" => "HATCHBACK",
        "sedan" => "SEDAN",
        "wagon" | "station wagon" => "WAGON",
        "ute" | "cab chassis" | "utility" => "TRUCK",
        "van" => "VAN",
        "people mover" | "minivan" => "MINIVAN",
        "coupe" => "COUPE",
        "convertible" | "cabriolet" => "CONVERTIBLE",
        "crossover" => "CROSSOVER",
        _ => "OTHER",
    }
}

/// Meta's `drivetrain` (4X2, 4X4, AWD, FWD, RWD or OTHER).
pub fn drivetrain(drive: Option<&str>) -> &'static str {
    match drive
        .unwrap_or_default()
        .trim()
        .to_ascii_uppercase()
        .as_str()
    {
        "FWD" => "FWD",
        "RWD" => "RWD",
        "AWD" => "AWD",
        "4WD" | "4X4" => "4X4",
        "4X2" | "2WD" => "4X2",
        _ => "OTHER",
    }
}

/// Meta's `transmission` (AUTOMATIC or MANUAL); empty when neither.
pub fn transmission(t: Option<&str>) -> &'static str {
    match t.unwrap_or_default().trim().to_ascii_lowercase().as_str() {
        "automatic" | "auto" => "AUTOMATIC",
        "manual" => "MANUAL",
        _ => "",
    }
}

/// Meta's `fuel_type` (DIESEL, ELECTRIC, FLEX, GASOLINE, HYBRID, PETROL,
/// PLUGIN_HYBRID or OTHER).
pub fn fuel_type(fuel: Option<&str>) -> &'static str {
    match fuel
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
        .as_str()
    {
        "petrol" | "unleaded" | "premium unleaded" => "PETROL",
        "diesel" => "DIESEL",
        "electric" => "ELECTRIC",
        "hybrid" => "HYBRID",
        "plug-in hybrid" | "phev" => "PLUGIN_HYBRID",
        _ => "OTHER",
    }
}

/// Meta's `state_of_vehicle`: NEW, USED or CPO (certified pre-owned).
fn state_of_vehicle(car: &Car) -> &'static str {
    match (is_new(car), car.certified) {
        (true, _) => "NEW",
        (false, true) => "CPO",
        (false, false) => "USED",
    }
}

/// A value of the car page's specification grid (what the page shows).
fn spec(car: &Car, label: &str) -> String {
    car.specs
        .iter()
        .find(|r| r.label == label)
        .map(|r| r.value.clone())
        .unwrap_or_default()
}

pub(super) fn render(cars: &[&Car], cx: &Context) -> String {
    let images = cars
        .iter()
        .map(|c| c.images.len())
        .max()
        .unwrap_or(1)
        .clamp(1, IMAGES_MAX);
    let mut header: Vec<String> = BEFORE_IMAGES.iter().map(|c| c.to_string()).collect();
    header.extend((0..images).map(|i| format!("image[{i}].url")));
    header.extend(AFTER_IMAGES.iter().map(|c| c.to_string()));
    header.extend((0..cx.cfg.syndication.custom_labels.len()).map(|i| format!("custom_label_{i}")));
    let mut out = csv_row(&header);
    let utm = cx
        .cfg
        .syndication
        .meta_vehicles
        .as_ref()
        .map(|m| m.utm.clone())
        .unwrap_or_default();
    for car in cars {
        let location = cx.location(car);
        let mut row = vec![
            text(&car.id),
            cells::cut(text(&car.name), TITLE_MAX),
            description(car, DESCRIPTION_MAX),
            cx.link(car, &utm),
            text(&car.make),
            text(&car.model),
            car.year.to_string(),
            car.km.to_string(),
            "KM".into(),
        ];
        row.extend((0..images).map(|i| car.images.get(i).map(|s| cx.image(s)).unwrap_or_default()));
        let price = cx.shown_price(car).unwrap_or_default();
        row.extend([
            body_style(car.body.as_deref()).to_string(),
            drivetrain(car.drive.as_deref()).to_string(),
            transmission(car.transmission.as_deref()).to_string(),
            fuel_type(car.fuel.as_deref()).to_string(),
            text(car.vin.as_deref().unwrap_or_default()),
            format!("{price}.00 AUD"),
            text(car.colour.as_deref().unwrap_or_default()),
            text(&spec(car, "Interior")),
            state_of_vehicle(car).to_string(),
            text(car.badge.as_deref().unwrap_or_default()),
            text(
                location
                    .map(|l| l.address.street.as_str())
                    .unwrap_or_default(),
            ),
            text(
                location
                    .map(|l| l.address.suburb.as_str())
                    .unwrap_or_default(),
            ),
            location
                .map(|l| l.address.state.as_str().to_string())
                .unwrap_or_default(),
            text(
                location
                    .map(|l| l.address.postcode.as_str())
                    .unwrap_or_default(),
            ),
            "AU".into(),
            location
                .and_then(|l| l.address.lat)
                .map(|v| v.to_string())
                .unwrap_or_default(),
            location
                .and_then(|l| l.address.lng)
                .map(|v| v.to_string())
                .unwrap_or_default(),
            text(location.map(|l| l.name.as_str()).unwrap_or(&cx.cfg.name)),
            // The number the page shows: masked where the dealer reveals it
            // on request (features.phone_reveal), so none at all then.
            if car.location.phone_masked {
                String::new()
            } else {
                text(&car.location.phone)
            },
        ]);
        row.extend(cx.labels(car));
        out.push_str(&csv_row(&row));
    }
    out
}
