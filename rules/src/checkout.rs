//! Which cars may be reserved online (docs/behaviour/search.md §5: "Reserve button appears
//! only when checkout is enabled for the car"). The build decides it per car
//! and publishes it for the worker (`EdgeCar` in `edge_config`); the
//! pages can show the button by the same rule.

/// A dealer's checkout rules (`features.checkout` in the dealer YAML).
#[derive(Debug, Clone, Copy)]
pub struct CheckoutRules<'a> {
    pub enabled: bool,
    /// Car types that may be reserved (new, demo, used); empty allows all.
    pub car_types: &'a [&'a str],
    /// Makes that may be reserved; empty allows all. Compared without
    /// regard to letter case ("KIA" in a feed is Kia).
    pub makes: &'a [&'a str],
}

/// The facts of one car the rule reads.
#[derive(Debug, Clone, Copy)]
pub struct CarFacts<'a> {
    pub car_type: &'a str,
    pub make: &'a str,
    /// `status` is in_stock or coming_soon (docs/behaviour/car-page.md §4).
    pub in_stock: bool,
    /// Already reserved according to the stock feed.
    pub reserved: bool,
}

/// Whether a shopper may reserve `car` online: checkout on, the car in
/// stock and not already reserved, its type and make allowed.
pub fn may_reserve(rules: CheckoutRules<'_>, car: CarFacts<'_>) -> bool {
    let listed = |list: &[&str], value: &str| {
        list.is_empty()
            || list
                .iter()
                .any(|v| v.trim().eq_ignore_ascii_case(value.trim()))
    };
    rules.enabled
        && car.in_stock
        && !car.reserved
        && listed(rules.car_types, car.car_type)
        && listed(rules.makes, car.make)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ON: CheckoutRules<'static> = CheckoutRules {
        enabled: true,
        car_types: &[],
        makes: &[],
    };
    const KIA: CarFacts<'static> = CarFacts {
        car_type: "new",
        make: "Kia",
        in_stock: true,
        reserved: false,
    };

    #[test]
    fn only_when_enabled_in_stock_and_free() {
        assert!(may_reserve(ON, KIA));
        assert!(!may_reserve(
            CheckoutRules {
                enabled: false,
                ..ON
            },
            KIA
        ));
        assert!(!may_reserve(
            ON,
            CarFacts {
                in_stock: false,
                ..KIA
            }
        ));
        assert!(!may_reserve(
            ON,
            CarFacts {
                reserved: true,
                ..KIA
            }
        ));
    }

    #[test]
    fn car_types_and_makes_limit_it() {
        let used_only = CheckoutRules {
            car_types: &["used"],
            ..ON
        };
        assert!(!may_reserve(used_only, KIA));
        assert!(may_reserve(
            used_only,
            CarFacts {
                car_type: "used",
                ..KIA
            }
        ));
        let makes = CheckoutRules {
            makes: &["kia", "MG"],
            ..ON
        };
        assert!(may_reserve(makes, KIA), "makes compare without case");
        assert!(may_reserve(makes, CarFacts { make: "MG", ..KIA }));
        assert!(!may_reserve(
            makes,
            CarFacts {
                make: "Mazda",
                ..KIA
            }
        ));
    }
}
