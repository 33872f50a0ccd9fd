//! Counts over the visible stock for the home page and menus.

use std::collections::BTreeMap;

use dealer_config::model;
use schemars::JsonSchema;
use serde::Serialize;

use crate::pipeline::stock::present::Car;

/// Counts over the visible stock.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct StockSummary {
    /// Visible cars.
    pub total: usize,
    /// Per car type, in the order new, demo, used; types without cars left out.
    pub by_type: Vec<TypeCount>,
    /// Per make, most cars first.
    pub makes: Vec<MakeCount>,
}

/// Cars of one type.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct TypeCount {
    /// new, demo or used.
    pub car_type: model::CarType,
    /// How many.
    pub count: usize,
}

/// Cars of one make.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct MakeCount {
    /// Make, e.g. "Kia".
    pub name: String,
    /// How many.
    pub count: usize,
}

/// Counts by car type in the spec's order (new, demo, used: docs/behaviour/search.md §9)
/// and by make, most cars first.
pub fn stock_summary(cars: &[Car]) -> StockSummary {
    use model::CarType;
    let by_type = CarType::ALL
        .into_iter()
        .map(|car_type| TypeCount {
            car_type,
            count: cars.iter().filter(|c| c.car_type == car_type).count(),
        })
        .filter(|t| t.count > 0)
        .collect();
    let mut makes: BTreeMap<&str, usize> = BTreeMap::new();
    for c in cars {
        *makes.entry(c.make.as_str()).or_default() += 1;
    }
    let mut makes: Vec<MakeCount> = makes
        .into_iter()
        .map(|(name, count)| MakeCount {
            name: name.into(),
            count,
        })
        .collect();
    makes.sort_by(|a, b| b.count.cmp(&a.count).then(a.name.cmp(&b.name)));
    StockSummary {
        total: cars.len(),
        by_type,
        makes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::cars;
    use dealer_config::model::CarType;

    #[test]
    fn stock_counts_follow_new_demo_used_and_most_makes_first() {
        let summary = stock_summary(&cars(&[
            ("Kia", "used"),
            ("Mazda", "new"),
            ("Kia", "demo"),
            ("Audi", "used"),
            ("Kia", "used"),
            ("Mazda", "used"),
            ("BMW", "used"),
        ]));
        assert_eq!(summary.total, 7);
        let types: Vec<(CarType, usize)> = summary
            .by_type
            .iter()
            .map(|t| (t.car_type, t.count))
            .collect();
        assert_eq!(
            types,
            [(CarType::New, 1), (CarType::Demo, 1), (CarType::Used, 5)]
        );
        let makes: Vec<(&str, usize)> = summary
            .makes
            .iter()
            .map(|m| (m.name.as_str(), m.count))
            .collect();
        // Most cars first; ties alphabetical.
        assert_eq!(makes, [("Kia", 3), ("Mazda", 2), ("Audi", 1), ("BMW", 1)]);
        // A type without cars is left out.
        let only_used = stock_summary(&cars(&[("Kia", "used")]));
        assert_eq!(only_used.by_type.len(), 1);
    }
}
