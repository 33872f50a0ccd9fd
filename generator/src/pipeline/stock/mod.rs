//! The dealer's stock: read the feed, keep the cars the site shows, and
//! present them for the pages.

pub mod detail;
pub mod features;
pub mod feed;
pub mod finance;
pub mod freshness;
pub mod money;
pub mod photos;
pub mod present;
pub mod similar;
pub mod status;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use dealer_config::DealerConfig;
use dealer_rules::visibility::{self, CarFacts, Hidden, VisibilityRules};

use feed::{decode, Effect, Feed, FeedCar, FeedWarning, FieldProblem};

/// The visibility settings of a dealer, as the shared rules crate wants them.
pub fn visibility_rules(cfg: &DealerConfig) -> VisibilityRules {
    let s = &cfg.stock;
    VisibilityRules {
        include_sold_days: s.include_sold_cars_days,
        min_photos: s.min_photos,
        in_stock_only: s.in_stock_only,
        exclude_makes: s.exclude.makes.clone(),
        exclude_car_types: s
            .exclude
            .car_types
            .iter()
            .map(|t| t.as_str().to_string())
            .collect(),
        exclude_stock_numbers: s.exclude.stock_numbers.clone(),
    }
}

/// The cars a site shows, and counts of the ones it does not.
#[derive(Debug)]
pub struct Selection {
    pub visible: Vec<FeedCar>,
    pub hidden: BTreeMap<Hidden, usize>,
    /// Cars of another dealership in the feed (when `dealership_id` is set).
    pub other_dealership: usize,
    /// Shown cars naming a location the dealer file does not have.
    pub warnings: Vec<FeedWarning>,
    /// Cars of this dealer that sold before the window: their old pages
    /// redirect to a matching search (`_redirects`).
    pub gone: Vec<GoneCar>,
}

/// A car of the feed that sold before the dealer's window: its old page
/// redirects to a matching search (`publish::redirects`).
#[derive(Debug, Clone, PartialEq)]
pub struct GoneCar {
    pub slug: String,
    pub make: String,
    pub model: String,
    /// When it sold (unix seconds): the most recent are kept first.
    pub sold_at: Option<i64>,
}

pub fn select(feed: Feed, cfg: &DealerConfig, now: DateTime<Utc>) -> Selection {
    let rules = visibility_rules(cfg);
    let mut sel = Selection {
        visible: Vec::new(),
        hidden: BTreeMap::new(),
        other_dealership: 0,
        warnings: Vec::new(),
        gone: Vec::new(),
    };
    for car in feed.cars {
        match judge(&car, cfg, &rules, now) {
            Verdict::Shown => {
                if let Some(w) = unknown_location(&car, cfg) {
                    sel.warnings.push(w);
                }
                sel.visible.push(car)
            }
            Verdict::OtherDealership { .. } => sel.other_dealership += 1,
            Verdict::Hidden(why) => {
                if why == Hidden::SoldTooLongAgo {
                    sel.gone.push(GoneCar {
                        slug: car.slug.clone(),
                        make: car.make.clone(),
                        model: car.model.clone(),
                        sold_at: car.sold_date_timestamp,
                    });
                }
                *sel.hidden.entry(why).or_default() += 1
            }
        }
    }
    sel
}

/// Whether a decoded car is on the site, and if not, the rule that keeps
/// it off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Shown,
    /// The feed says it belongs to another dealership than the dealer's
    /// `dealership_id`.
    OtherDealership {
        dealer: u64,
        car: u64,
    },
    /// A visibility rule hides it (`rules::visibility`).
    Hidden(Hidden),
}

/// The facts the visibility rules look at: a car counts the photos the
/// feed reports, else the images it lists.
pub fn facts(car: &FeedCar) -> CarFacts<'_> {
    CarFacts {
        status: &car.status,
        sold_at: car.sold_date_timestamp,
        show_on_dealer_website: car.show_on_dealer_website,
        photos_count: car.photos_count.unwrap_or(car.images.len() as u32),
        make: &car.make,
        car_type: car.car_type.as_str(),
        stocknum: car.stocknum.as_deref(),
    }
}

/// Judges one car at `now`: its dealership first, then the visibility rules.
pub fn judge(
    car: &FeedCar,
    cfg: &DealerConfig,
    rules: &VisibilityRules,
    now: DateTime<Utc>,
) -> Verdict {
    if let (Some(want), Some(got)) = (cfg.dealership_id, car.dealership_id) {
        if want != got {
            return Verdict::OtherDealership {
                dealer: want,
                car: got,
            };
        }
    }
    match visibility::check(&facts(car), rules, now.timestamp()) {
        Ok(()) => Verdict::Shown,
        Err(why) => Verdict::Hidden(why),
    }
}

/// A shown car whose `location_id` is not one of the dealer's locations is
/// listed at the primary location; the marketer hears about it. A car at a
/// hidden location (`visible: false`) is listed there too, as the dealer
/// asked: no warning.
pub fn unknown_location(car: &FeedCar, cfg: &DealerConfig) -> Option<FeedWarning> {
    let id = car.location_id.as_ref()?.to_string();
    if cfg.locations.is_empty()
        || cfg.locations.iter().any(|l| l.id == id)
        || cfg.is_hidden_location(&id)
    {
        return None;
    }
    Some(FeedWarning {
        record: car.record.clone(),
        problem: FieldProblem {
            field: "location_id".into(),
            found: decode::show(&serde_json::Value::String(id)),
            expected: decode::LOCATION,
            effect: Effect::AtPrimaryLocation,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_shown_car_at_an_unknown_location_is_named() {
        let cfg: DealerConfig = serde_json::from_value(json!({
            "template": "t", "name": "Demo", "site_url": "https://demo.example",
            "contact": {"phone": "07 3000 0000", "email": "a@demo.example"}, "stock": {"feed": "f.json", "min_photos": 0},
            "locations": [{"id": "main", "name": "Main", "primary": true, "phone": "(07) 3000 0001",
                           "address": {"street": "1 A St", "suburb": "Brisbane", "state": "QLD", "postcode": "4000"}}],
        }))
        .unwrap();
        let car = |id: u32, location: &str, status: &str| {
            json!({"id": id, "slug": format!("c-{id}"), "stocknum": format!("S{id}"), "make": "Kia", "model": "Rio",
                   "year": 2020, "car_type": "used", "status": status, "location_id": location})
        };
        let text = json!([
            car(1, "main", "in_stock"),
            car(2, "moved", "in_stock"),
            car(3, "moved", "retired")
        ]);
        let feed = feed::parse(&text.to_string(), "f.json").unwrap();
        let sel = select(feed, &cfg, chrono::Utc::now());
        assert_eq!(sel.visible.len(), 2);
        let lines: Vec<String> = sel.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            ["stock number S2 (record 2, id 2, slug c-2): `location_id` is \"moved\"; expected the id of one of \
              the dealer's locations (locations[].id). The car is shown at the primary location."]
        );
    }

    #[test]
    fn a_car_at_a_hidden_location_is_shown_at_the_primary_one_without_a_warning() {
        let loc = |id: &str, primary: bool, visible: bool| {
            json!({"id": id, "name": format!("Site {id}"), "primary": primary, "visible": visible, "phone": "(07) 3000 0001",
                   "address": {"street": "1 A St", "suburb": "Brisbane", "state": "QLD", "postcode": "4000"}})
        };
        let mut cfg: DealerConfig = serde_json::from_value(json!({
            "template": "t", "name": "Demo", "site_url": "https://demo.example",
            "contact": {"phone": "07 3000 0000", "email": "a@demo.example"}, "stock": {"feed": "f.json", "min_photos": 0},
            "locations": [loc("yard", false, false), loc("main", true, true)],
        }))
        .unwrap();
        cfg.set_hidden_locations_aside();
        assert_eq!(
            cfg.locations
                .iter()
                .map(|l| l.id.as_str())
                .collect::<Vec<_>>(),
            ["main"]
        );
        assert!(cfg.is_hidden_location("yard"));
        assert_eq!(cfg.as_written()["locations"][1]["id"], "yard");
        let text = json!([{"id": 1, "slug": "c-1", "stocknum": "S1", "make": "Kia", "model": "Rio",
                            "year": 2020, "car_type": "used", "status": "in_stock", "location_id": "yard"}]);
        let feed = feed::parse(&text.to_string(), "f.json").unwrap();
        let sel = select(feed, &cfg, chrono::Utc::now());
        assert!(sel.warnings.is_empty(), "{:?}", sel.warnings);
        let car = present::present(&sel.visible[0], &cfg, chrono::Utc::now());
        assert_eq!(
            (car.location.id.as_str(), car.location.name.as_str()),
            ("main", "Site main")
        );
    }
}
