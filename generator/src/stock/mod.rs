//! The dealer's stock: read the feed, keep the cars the site shows, and
//! present them for the pages.

pub mod feed;
pub mod present;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use dealer_config::DealerConfig;
use dealer_rules::visibility::{self, CarFacts, Hidden, VisibilityRules};

use feed::{Feed, FeedCar};

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
}

pub fn select(feed: Feed, cfg: &DealerConfig, now: DateTime<Utc>) -> Selection {
    let rules = visibility_rules(cfg);
    let mut sel = Selection {
        visible: Vec::new(),
        hidden: BTreeMap::new(),
        other_dealership: 0,
    };
    for car in feed.cars {
        if let (Some(want), Some(got)) = (cfg.dealership_id, car.dealership_id) {
            if want != got {
                sel.other_dealership += 1;
                continue;
            }
        }
        let photos = car.photos_count.unwrap_or(car.images.len() as u32);
        let facts = CarFacts {
            status: &car.status,
            sold_at: car.sold_date_timestamp,
            show_on_dealer_website: car.show_on_dealer_website,
            photos_count: photos,
            make: &car.make,
            car_type: car.car_type.as_str(),
            stocknum: car.stocknum.as_deref(),
        };
        match visibility::check(&facts, &rules, now.timestamp()) {
            Ok(()) => sel.visible.push(car),
            Err(why) => *sel.hidden.entry(why).or_default() += 1,
        }
    }
    sel
}
