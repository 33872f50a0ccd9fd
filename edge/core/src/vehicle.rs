//! Filling a lead's vehicle from the dealer's published stock. The client
//! names the car (`car_slug` or `car_id`); everything else about it (make,
//! model, stock number, VIN, price, page) comes from the [`EdgeCar`] the
//! build published, so a dealer's CRM gets the car as the dealer lists it
//! and a doctored form cannot change the price or the make. What the client
//! claimed is compared and, when it differs, ignored and reported for the
//! log.

use dealer_rules::edge_config::{EdgeCar, EdgeConfig};
use dealer_rules::slug::is_car_slug;

use crate::lead::Lead;
use crate::lead_parts::{make_slug, ClaimedVehicle, LeadVehicle};

/// How the lead names its car, in the order the worker looks it up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CarRef {
    /// KV `car:<dealer>:<slug>`.
    Slug(String),
    /// KV `car-id:<dealer>:<id>` → slug, then by slug.
    Id(String),
}

/// The car the lead names, if any: its id when sent, else its slug (the
/// OpenAPI contract: the slug is used only without an id).
pub fn car_ref(lead: &Lead) -> Option<CarRef> {
    match (&lead.car_id, &lead.car_slug) {
        (Some(id), _) => Some(CarRef::Id(id.clone())),
        (None, Some(slug)) if is_car_slug(slug) => Some(CarRef::Slug(slug.clone())),
        _ => None,
    }
}

/// The lead's vehicle as the stock has it.
pub fn from_stock(car: &EdgeCar) -> LeadVehicle {
    LeadVehicle {
        verified: true,
        id: Some(car.id.clone()),
        slug: Some(car.slug.clone()),
        stock_number: car.stock_number.clone(),
        vin: car.vin.clone(),
        year: Some(car.year),
        make: Some(car.make.clone()),
        model: Some(car.model.clone()),
        badge: car.badge.clone(),
        car_type: Some(car.car_type.clone()),
        status: Some(car.status.clone()),
        price: Some(car.price),
        price_text: Some(car.price_text.clone()),
        km: Some(car.km),
        url: Some(car.url.clone()),
        location_id: Some(car.location_id.clone()),
        manufacturer_slug: Some(make_slug(&car.make)).filter(|s| !s.is_empty()),
    }
}

/// Where a claim differs from the stock: `field: claimed "x", stock "y"`.
pub fn mismatches(claims: &ClaimedVehicle, car: &EdgeCar) -> Vec<String> {
    let mut out = Vec::new();
    let mut check = |field: &str,
                     claimed: &Option<String>,
                     stock: Option<&str>,
                     same: &dyn Fn(&str, &str) -> bool| {
        if let Some(c) = claimed {
            let s = stock.unwrap_or("");
            if !same(c, s) {
                out.push(format!("{field}: claimed {c:?}, stock {s:?}"));
            }
        }
    };
    let text = |a: &str, b: &str| a.trim().eq_ignore_ascii_case(b.trim());
    check("make", &claims.make, Some(&car.make), &text);
    check("model", &claims.model, Some(&car.model), &text);
    check(
        "stock_number",
        &claims.stock_number,
        car.stock_number.as_deref(),
        &text,
    );
    check("car_type", &claims.car_type, Some(&car.car_type), &text);
    check(
        "vehicle_status",
        &claims.vehicle_status,
        Some(&car.status),
        &text,
    );
    let year = car.year.to_string();
    check("year", &claims.year, Some(&year), &text);
    let slug = make_slug(&car.make);
    check(
        "manufacturer_slug",
        &claims.manufacturer_slug,
        Some(&slug),
        &text,
    );
    let price = car.price.to_string();
    let same_price = |a: &str, b: &str| {
        let n = |s: &str| {
            s.trim()
                .trim_start_matches('$')
                .replace(',', "")
                .parse::<f64>()
                .ok()
        };
        matches!((n(a), n(b)), (Some(x), Some(y)) if (x - y).abs() < 0.005)
    };
    check("price", &claims.price, Some(&price), &same_price);
    out
}

/// Fills what the worker knows into a validated lead: the dealer (from the
/// tenant) and the vehicle (from `car`, the stock entry the lead names,
/// `None` when it names none or one not in the stock). Answers the claims
/// that differed from the stock, for the log.
pub fn fill(lead: &mut Lead, config: &EdgeConfig, car: Option<&EdgeCar>) -> Vec<String> {
    lead.dealership_slug = Some(config.dealer.clone());
    lead.car_dealership_id = config.dealership_id;
    match car {
        Some(car) => {
            let differ = lead
                .claimed_vehicle
                .take()
                .map(|c| mismatches(&c, car))
                .unwrap_or_default();
            lead.car_id = Some(car.id.clone());
            lead.car_slug = Some(car.slug.clone());
            // The car's own location routes the lead (its location's lead
            // e-mail) when the form named none.
            if lead.location_id.is_none()
                && config.locations.iter().any(|l| l.id == car.location_id)
            {
                lead.location_id = Some(car.location_id.clone());
            }
            lead.vehicle = Some(from_stock(car));
            differ
        }
        None => {
            if lead.car_id.is_some() || lead.car_slug.is_some() {
                lead.vehicle = Some(LeadVehicle {
                    verified: false,
                    id: lead.car_id.clone(),
                    slug: lead.car_slug.clone(),
                    ..LeadVehicle::default()
                });
            }
            Vec::new()
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::lead::validate_lead;
    use serde_json::{json, Value};

    pub fn car() -> EdgeCar {
        EdgeCar {
            id: "1234".into(),
            slug: "2021-toyota-hilux-sr5-1234".into(),
            name: "2021 Toyota HiLux SR5".into(),
            stock_number: Some("T1234".into()),
            vin: Some("MR0HA3CD100123456".into()),
            year: 2021,
            make: "Toyota".into(),
            model: "HiLux".into(),
            badge: Some("SR5".into()),
            car_type: "used".into(),
            status: "in_stock".into(),
            reserved: false,
            price: 52990.0,
            price_text: "$52,990".into(),
            km: 41000,
            url: "https://alpha.example/cars/2021-toyota-hilux-sr5-1234/".into(),
            location_id: "perth".into(),
            checkout: true,
            deposit: 200,
        }
    }

    fn config() -> EdgeConfig {
        serde_json::from_value(json!({
            "dealer": "alpha", "name": "Alpha", "origins": ["https://alpha.example"], "dealership_id": 41,
            "locations": [{"id": "perth", "name": "Alpha Perth", "phone": "08 9123 4567", "lead_email": null}],
            "leads": {"email": null, "webhook_url": null},
            "features": {"watchlist": true, "phone_reveal": true}
        }))
        .unwrap()
    }

    fn lead(extra: Value) -> Lead {
        let mut body = json!({"category": "enquiry", "name": "Jo", "email": "jo@example.com",
            "phone": "0412345678", "message": "Hi", "terms_conditions": true});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        validate_lead(&body, &config(), 1_795_132_800).unwrap()
    }

    #[test]
    fn the_id_is_looked_up_first_then_the_slug() {
        assert_eq!(
            car_ref(&lead(json!({"car_id": 9, "car_slug": "a-9"}))),
            Some(CarRef::Id("9".into())),
            "the slug is used only without an id"
        );
        assert_eq!(
            car_ref(&lead(json!({"car_slug": "a-9"}))),
            Some(CarRef::Slug("a-9".into()))
        );
        assert_eq!(
            car_ref(&lead(json!({"car_id": 9}))),
            Some(CarRef::Id("9".into()))
        );
        assert_eq!(car_ref(&lead(json!({}))), None);
    }

    #[test]
    fn the_stock_fills_the_vehicle_and_the_claims_are_ignored() {
        let mut l = lead(
            json!({"car_id": 1234, "make": "Ferrari", "model": "HiLux", "price": "$1",
            "stock_number": "t1234", "car_type": "used"}),
        );
        let differ = fill(&mut l, &config(), Some(&car()));
        assert_eq!(
            differ,
            [
                r#"make: claimed "Ferrari", stock "Toyota""#,
                r#"price: claimed "$1", stock "52990""#
            ]
        );
        let v = l.vehicle.as_ref().unwrap();
        assert!(v.verified);
        assert_eq!(
            (v.make.as_deref(), v.model.as_deref(), v.year),
            (Some("Toyota"), Some("HiLux"), Some(2021))
        );
        assert_eq!(
            (v.stock_number.as_deref(), v.vin.as_deref()),
            (Some("T1234"), Some("MR0HA3CD100123456"))
        );
        assert_eq!(
            (v.price, v.price_text.as_deref()),
            (Some(52990.0), Some("$52,990"))
        );
        assert_eq!(
            v.url.as_deref(),
            Some("https://alpha.example/cars/2021-toyota-hilux-sr5-1234/")
        );
        assert_eq!(v.manufacturer_slug.as_deref(), Some("toyota"));
        assert_eq!(
            l.claimed_vehicle, None,
            "claims dropped once the stock answered"
        );
        assert_eq!(l.car_slug.as_deref(), Some("2021-toyota-hilux-sr5-1234"));
        assert_eq!(
            l.location_id.as_deref(),
            Some("perth"),
            "the car's location routes the lead"
        );
        assert_eq!(
            (l.dealership_slug.as_deref(), l.car_dealership_id),
            (Some("alpha"), Some(41))
        );
    }

    #[test]
    fn matching_claims_are_not_reported() {
        let mut l = lead(
            json!({"car_id": 1234, "make": "TOYOTA", "year": 2021, "price": 52990,
            "manufacturer_slug": "toyota", "vehicle_status": "in_stock"}),
        );
        assert!(fill(&mut l, &config(), Some(&car())).is_empty());
    }

    #[test]
    fn a_car_not_in_stock_keeps_the_claims_apart() {
        let mut l = lead(json!({"car_id": 999, "make": "Kia", "model": "Rio"}));
        assert!(fill(&mut l, &config(), None).is_empty());
        let v = l.vehicle.as_ref().unwrap();
        assert!(!v.verified);
        assert_eq!((v.id.as_deref(), v.make.as_deref()), (Some("999"), None));
        assert_eq!(
            l.claimed_vehicle.as_ref().unwrap().make.as_deref(),
            Some("Kia")
        );
        // No car named: no vehicle at all.
        let mut l = lead(json!({}));
        fill(&mut l, &config(), None);
        assert_eq!(l.vehicle, None);
        assert_eq!(l.dealership_slug.as_deref(), Some("alpha"));
    }

    /// A retry is compared with the stored lead once both are filled: the
    /// stock's slug and location are part of both.
    #[test]
    fn a_filled_retry_is_the_same_request() {
        let body = json!({"car_id": 1234, "idempotency_key": "k", "make": "Toyota"});
        let mut first = lead(body.clone());
        fill(&mut first, &config(), Some(&car()));
        first.captcha = Some(crate::lead::CaptchaCheck::Verified);
        let stored = serde_json::to_string(&first).unwrap();
        let mut retry = lead(body);
        fill(&mut retry, &config(), Some(&car()));
        assert!(crate::lead::same_request(&stored, &retry));
        let mut other = lead(json!({"car_id": 1234, "idempotency_key": "k", "message": "Other"}));
        fill(&mut other, &config(), Some(&car()));
        assert!(!crate::lead::same_request(&stored, &other));
    }

    #[test]
    fn a_named_location_is_kept() {
        let mut cfg = config();
        cfg.locations.push(dealer_rules::edge_config::EdgeLocation {
            id: "north".into(),
            name: "North".into(),
            phone: "0891234568".into(),
            lead_email: None,
        });
        let mut l = validate_lead(
            &json!({"category": "enquiry", "name": "Jo", "email": "jo@example.com", "phone": "0412345678",
                "message": "Hi", "terms_conditions": true, "car_id": 1234, "location_id": "north"}),
            &cfg,
            1_795_132_800,
        )
        .unwrap();
        fill(&mut l, &cfg, Some(&car()));
        assert_eq!(l.location_id.as_deref(), Some("north"));
    }
}
