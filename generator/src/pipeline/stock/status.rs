//! What a car's status allows: whether it counts as in stock, and whether
//! the dealer's checkout takes a deposit on it. Read by the car's
//! presentation, its page's detail and `dealergen explain`.

use dealer_config::DealerConfig;

use super::feed::FeedCar;

/// in_stock and coming_soon count as in stock (docs/behaviour/car-page.md §4).
pub fn is_in_stock(status: &str) -> bool {
    matches!(status, "in_stock" | "coming_soon")
}

/// The dealer's checkout rules applied to one car.
pub fn may_reserve_online(car: &FeedCar, cfg: &DealerConfig) -> bool {
    use dealer_rules::checkout::{may_reserve, CarFacts, CheckoutRules};
    let c = &cfg.features.checkout;
    let car_types: Vec<&str> = c.car_types.iter().map(|t| t.as_str()).collect();
    let makes: Vec<&str> = c.makes.iter().map(String::as_str).collect();
    may_reserve(
        CheckoutRules {
            enabled: c.enabled,
            car_types: &car_types,
            makes: &makes,
        },
        CarFacts {
            car_type: car.car_type.as_str(),
            make: &car.make,
            in_stock: is_in_stock(&car.status),
            reserved: car.reserved.unwrap_or(false),
        },
    )
}
