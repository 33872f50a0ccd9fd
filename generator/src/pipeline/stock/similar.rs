//! The similar cars a car page suggests (`features.similar_cars`,
//! docs/behaviour/car-page.md): they compare presented cars, so they are
//! chosen once every car of the stock is presented.

use dealer_config::DealerConfig;

use super::detail::SimilarCar;
use super::present::Car;

/// Similar cars shown on a car page.
pub const SIMILAR_CARS: usize = 8;

/// How alike two cars are: model above make above body above type, then
/// price. None for cars too different to suggest: a similar car shares at
/// least the make or the body.
fn likeness(a: &Car, b: &Car) -> Option<(u32, u64)> {
    let same = |x: &Option<String>, y: &Option<String>| matches!((x, y), (Some(x), Some(y)) if x.eq_ignore_ascii_case(y));
    let make = a.make.eq_ignore_ascii_case(&b.make);
    let model = make && a.model.eq_ignore_ascii_case(&b.model);
    let body = same(&a.body, &b.body);
    if !make && !body {
        return None;
    }
    let mut score = 0;
    if model {
        score += 4;
    }
    if make {
        score += 3;
    }
    if body {
        score += 2;
    }
    if a.car_type == b.car_type {
        score += 1;
    }
    let gap = if a.price > 10.0 && b.price > 10.0 {
        let g = (a.price - b.price).abs() / a.price;
        if g <= 0.2 {
            score += 2;
        }
        (g * 1000.0) as u64
    } else {
        u64::MAX
    };
    (score >= 3).then_some((score, gap))
}

/// Fills each car's similar cars (`features.similar_cars`): up to eight
/// other cars in stock, most alike first, then nearest in price. Only cars
/// of the same make or body are compared (buckets), so a big stock does
/// not cost a comparison of every pair.
pub fn attach_similar(cars: &mut [Car], cfg: &DealerConfig) {
    use std::collections::HashMap;
    if !cfg.features.similar_cars {
        return;
    }
    let mut by_make: HashMap<String, Vec<usize>> = HashMap::new();
    let mut by_body: HashMap<String, Vec<usize>> = HashMap::new();
    for (j, c) in cars.iter().enumerate().filter(|(_, c)| c.in_stock) {
        by_make
            .entry(c.make.to_ascii_lowercase())
            .or_default()
            .push(j);
        if let Some(b) = &c.body {
            by_body.entry(b.to_ascii_lowercase()).or_default().push(j);
        }
    }
    let none = Vec::new();
    let picks: Vec<Vec<SimilarCar>> = cars
        .iter()
        .enumerate()
        .map(|(i, car)| {
            let same_make = by_make.get(&car.make.to_ascii_lowercase()).unwrap_or(&none);
            let same_body = car
                .body
                .as_ref()
                .and_then(|b| by_body.get(&b.to_ascii_lowercase()))
                .unwrap_or(&none);
            let mut candidates: Vec<usize> = same_make
                .iter()
                .chain(same_body)
                .copied()
                .filter(|&j| j != i)
                .collect();
            candidates.sort_unstable();
            candidates.dedup();
            let mut ranked: Vec<(std::cmp::Reverse<u32>, u64, &str, usize)> = candidates
                .into_iter()
                .filter_map(|j| {
                    likeness(car, &cars[j])
                        .map(|(s, gap)| (std::cmp::Reverse(s), gap, cars[j].slug.as_str(), j))
                })
                .collect();
            ranked.sort();
            ranked
                .into_iter()
                .take(SIMILAR_CARS)
                .map(|(_, _, _, j)| {
                    let c = &cars[j];
                    SimilarCar {
                        slug: c.slug.clone(),
                        name: c.name.clone(),
                        price_text: c.price_text.clone(),
                        image: c.images.first().cloned(),
                        km: c.km,
                    }
                })
                .collect()
        })
        .collect();
    for (car, similar) in cars.iter_mut().zip(picks) {
        car.detail.similar = similar;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::config_with;
    use crate::pipeline::stock::{feed, present};
    use serde_json::{json, Value};

    fn dealer(extra: Value) -> DealerConfig {
        config_with(extra)
    }

    fn cars(records: Value, cfg: &DealerConfig) -> Vec<Car> {
        let text = serde_json::to_string(&records).unwrap();
        let feed = feed::parse(&text, "f.json").unwrap();
        let mut cars: Vec<Car> = feed
            .cars
            .iter()
            .map(|c| present::present(c, cfg, chrono::Utc::now()))
            .collect();
        attach_similar(&mut cars, cfg);
        cars
    }

    #[test]
    fn similar_cars_are_in_stock_most_alike_first_and_at_most_eight() {
        let cfg = dealer(json!({}));
        let car = |id: u32, make: &str, model: &str, body: &str, price: u32, status: &str| {
            json!({"id": id, "slug": format!("car-{id}"), "make": make, "model": model, "year": 2022,
                   "car_type": "used", "status": status, "price": price, "simple_body": body})
        };
        let mut records = vec![
            car(1, "Toyota", "RAV4", "SUV", 30000, "in_stock"),
            car(2, "Toyota", "RAV4", "SUV", 60000, "in_stock"),
            car(3, "Toyota", "RAV4", "SUV", 31000, "in_stock"),
            car(4, "Toyota", "RAV4", "SUV", 30500, "sold"),
            car(5, "Mazda", "CX-5", "SUV", 30000, "in_stock"),
            car(6, "Toyota", "HiLux", "Ute", 30000, "in_stock"),
            car(7, "Kia", "Picanto", "Hatch", 12000, "in_stock"),
        ];
        for id in 10..20 {
            records.push(car(id, "Mazda", "CX-5", "SUV", 29000 + id * 10, "in_stock"));
        }
        let all = cars(json!(records), &cfg);
        let slugs: Vec<&str> = all[0]
            .detail
            .similar
            .iter()
            .map(|s| s.slug.as_str())
            .collect();
        assert_eq!(slugs.len(), SIMILAR_CARS);
        assert_eq!(
            &slugs[..3],
            ["car-3", "car-2", "car-6"],
            "same model (near price first), then same make"
        );
        assert!(
            !slugs.contains(&"car-1") && !slugs.contains(&"car-4"),
            "not itself, not sold"
        );
        assert!(!slugs.contains(&"car-7"), "too different");
        // Same type and price but neither make nor body: not similar.
        let pair = cars(
            json!([
                car(1, "Kia", "Rio", "Hatch", 20000, "in_stock"),
                car(2, "Ford", "Ranger", "Ute", 20000, "in_stock")
            ]),
            &cfg,
        );
        assert!(pair[0].detail.similar.is_empty());
        // A sold car gets suggestions too (its page's strip).
        assert_eq!(all[3].detail.similar[0].slug, "car-1");
        let off = dealer(json!({"features": {"similar_cars": false}}));
        assert!(cars(json!(records), &off)
            .iter()
            .all(|c| c.detail.similar.is_empty()));
    }
}
