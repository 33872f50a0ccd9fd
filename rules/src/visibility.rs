//! Which cars a dealer site shows (the stock search's visibility rules and
//! base filters). Used by the generator to build pages and the search
//! index; the build publishes the visible cars' slugs to the edge, so the
//! worker counts views of visible cars only.

/// A dealer's visibility settings (from the dealer YAML `stock:` section).
#[derive(Debug, Clone, PartialEq)]
pub struct VisibilityRules {
    /// Sold cars stay visible this many days after they sold.
    pub include_sold_days: u32,
    /// Cars with fewer photos are hidden.
    pub min_photos: u32,
    /// Only in_stock cars (no coming soon, no recently sold).
    pub in_stock_only: bool,
    /// Makes never shown (compared case-insensitively).
    pub exclude_makes: Vec<String>,
    /// Car types never shown: "new", "demo", "used".
    pub exclude_car_types: Vec<String>,
    /// Stock numbers never shown (compared case-insensitively).
    pub exclude_stock_numbers: Vec<String>,
}

impl Default for VisibilityRules {
    fn default() -> Self {
        VisibilityRules {
            include_sold_days: 3,
            min_photos: 3,
            in_stock_only: false,
            exclude_makes: Vec::new(),
            exclude_car_types: Vec::new(),
            exclude_stock_numbers: Vec::new(),
        }
    }
}

/// The facts about a car the rules look at.
#[derive(Debug, Clone, PartialEq)]
pub struct CarFacts<'a> {
    pub status: &'a str,
    /// When it sold (unix seconds), if it did.
    pub sold_at: Option<i64>,
    pub show_on_dealer_website: bool,
    pub photos_count: u32,
    pub make: &'a str,
    pub car_type: &'a str,
    pub stocknum: Option<&'a str>,
}

/// Why a car is hidden; the build summary counts these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hidden {
    NotOnWebsite,
    SoldTooLongAgo,
    NotInStock,
    UnknownStatus,
    TooFewPhotos,
    ExcludedMake,
    ExcludedCarType,
    ExcludedStockNumber,
}

impl Hidden {
    pub fn describe(self) -> &'static str {
        match self {
            Hidden::NotOnWebsite => "show_on_dealer_website is false",
            Hidden::SoldTooLongAgo => "sold before the include_sold_cars_days window",
            Hidden::NotInStock => "not in stock (in_stock_only)",
            Hidden::UnknownStatus => "status is not in_stock, coming_soon or sold",
            Hidden::TooFewPhotos => "fewer photos than min_photos",
            Hidden::ExcludedMake => "make excluded",
            Hidden::ExcludedCarType => "car type excluded",
            Hidden::ExcludedStockNumber => "stock number excluded",
        }
    }
}

const DAY: i64 = 86_400;

/// `Ok(())` when the car is shown at `now` (unix seconds), else why not.
pub fn check(car: &CarFacts, rules: &VisibilityRules, now: i64) -> Result<(), Hidden> {
    if !car.show_on_dealer_website {
        return Err(Hidden::NotOnWebsite);
    }
    match car.status {
        "in_stock" => {}
        "coming_soon" if rules.in_stock_only => return Err(Hidden::NotInStock),
        "coming_soon" => {}
        "sold" if rules.in_stock_only => return Err(Hidden::NotInStock),
        "sold" => {
            // A sold car without a sale date cannot be placed in the window:
            // hide it rather than show it forever.
            let sold_at = car.sold_at.ok_or(Hidden::SoldTooLongAgo)?;
            if now - sold_at > i64::from(rules.include_sold_days) * DAY {
                return Err(Hidden::SoldTooLongAgo);
            }
        }
        _ => return Err(Hidden::UnknownStatus),
    }
    if car.photos_count < rules.min_photos {
        return Err(Hidden::TooFewPhotos);
    }
    if rules
        .exclude_makes
        .iter()
        .any(|m| m.eq_ignore_ascii_case(car.make))
    {
        return Err(Hidden::ExcludedMake);
    }
    if rules
        .exclude_car_types
        .iter()
        .any(|t| t.eq_ignore_ascii_case(car.car_type))
    {
        return Err(Hidden::ExcludedCarType);
    }
    if let Some(s) = car.stocknum {
        if rules
            .exclude_stock_numbers
            .iter()
            .any(|x| x.eq_ignore_ascii_case(s))
        {
            return Err(Hidden::ExcludedStockNumber);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_795_000_000;

    fn car() -> CarFacts<'static> {
        CarFacts {
            status: "in_stock",
            sold_at: None,
            show_on_dealer_website: true,
            photos_count: 5,
            make: "Kia",
            car_type: "used",
            stocknum: Some("BMG1"),
        }
    }

    #[test]
    fn in_stock_and_coming_soon_are_shown() {
        let rules = VisibilityRules::default();
        assert_eq!(check(&car(), &rules, NOW), Ok(()));
        assert_eq!(
            check(
                &CarFacts {
                    status: "coming_soon",
                    ..car()
                },
                &rules,
                NOW
            ),
            Ok(())
        );
    }

    #[test]
    fn sold_cars_stay_for_the_window_then_go() {
        let rules = VisibilityRules::default(); // 3 days
        let sold = |days_ago: f64| CarFacts {
            status: "sold",
            sold_at: Some(NOW - (days_ago * DAY as f64) as i64),
            ..car()
        };
        assert_eq!(check(&sold(2.9), &rules, NOW), Ok(()));
        assert_eq!(check(&sold(3.0), &rules, NOW), Ok(()));
        assert_eq!(check(&sold(3.1), &rules, NOW), Err(Hidden::SoldTooLongAgo));
        let zero = VisibilityRules {
            include_sold_days: 0,
            ..rules.clone()
        };
        assert_eq!(check(&sold(0.1), &zero, NOW), Err(Hidden::SoldTooLongAgo));
        let four = VisibilityRules {
            include_sold_days: 4,
            ..rules
        };
        assert_eq!(check(&sold(3.5), &four, NOW), Ok(()));
        assert_eq!(
            check(
                &CarFacts {
                    status: "sold",
                    sold_at: None,
                    ..car()
                },
                &four,
                NOW
            ),
            Err(Hidden::SoldTooLongAgo)
        );
    }

    #[test]
    fn hidden_from_website_wins() {
        let c = CarFacts {
            show_on_dealer_website: false,
            ..car()
        };
        assert_eq!(
            check(&c, &VisibilityRules::default(), NOW),
            Err(Hidden::NotOnWebsite)
        );
    }

    #[test]
    fn photo_threshold_is_inclusive() {
        let rules = VisibilityRules::default();
        assert_eq!(
            check(
                &CarFacts {
                    photos_count: 3,
                    ..car()
                },
                &rules,
                NOW
            ),
            Ok(())
        );
        assert_eq!(
            check(
                &CarFacts {
                    photos_count: 2,
                    ..car()
                },
                &rules,
                NOW
            ),
            Err(Hidden::TooFewPhotos)
        );
        let none = VisibilityRules {
            min_photos: 0,
            ..rules
        };
        assert_eq!(
            check(
                &CarFacts {
                    photos_count: 0,
                    ..car()
                },
                &none,
                NOW
            ),
            Ok(())
        );
    }

    #[test]
    fn in_stock_only_hides_coming_soon_and_sold() {
        let rules = VisibilityRules {
            in_stock_only: true,
            ..Default::default()
        };
        assert_eq!(
            check(
                &CarFacts {
                    status: "coming_soon",
                    ..car()
                },
                &rules,
                NOW
            ),
            Err(Hidden::NotInStock)
        );
        assert_eq!(
            check(
                &CarFacts {
                    status: "sold",
                    sold_at: Some(NOW),
                    ..car()
                },
                &rules,
                NOW
            ),
            Err(Hidden::NotInStock)
        );
    }

    #[test]
    fn unknown_status_is_hidden() {
        assert_eq!(
            check(
                &CarFacts {
                    status: "archived",
                    ..car()
                },
                &VisibilityRules::default(),
                NOW
            ),
            Err(Hidden::UnknownStatus)
        );
    }

    #[test]
    fn exclusions_match_case_insensitively() {
        let rules = VisibilityRules {
            exclude_makes: vec!["KIA".into()],
            ..Default::default()
        };
        assert_eq!(check(&car(), &rules, NOW), Err(Hidden::ExcludedMake));
        let rules = VisibilityRules {
            exclude_car_types: vec!["used".into()],
            ..Default::default()
        };
        assert_eq!(check(&car(), &rules, NOW), Err(Hidden::ExcludedCarType));
        let rules = VisibilityRules {
            exclude_stock_numbers: vec!["bmg1".into()],
            ..Default::default()
        };
        assert_eq!(check(&car(), &rules, NOW), Err(Hidden::ExcludedStockNumber));
    }
}
