//! Which locations a location block shows (docs/behaviour/content.md §2.9): by department,
//! the primary one or one id, then by make, subtype and exclusions. The
//! config check refuses a block that would show nothing; the generator
//! resolves each block to its locations.

use crate::model::{Location, LocationBlock, LocationKind};

/// A department a location serves: it is of that kind, or it has that
/// department's opening hours (a showroom with a service centre serves both).
pub fn serves(loc: &Location, department: LocationKind) -> bool {
    loc.kind == department
        || match department {
            LocationKind::Sales => loc.hours.sales.is_some(),
            LocationKind::Service => loc.hours.service.is_some(),
            LocationKind::Parts => loc.hours.parts.is_some(),
            LocationKind::CarBuying => false,
        }
}

/// Whether `show` selects the location (before the other filters). An
/// unknown word matches a location only by id.
fn shown(loc: &Location, show: &str) -> bool {
    match show {
        "all" => true,
        "primary" => loc.primary,
        "sales" => serves(loc, LocationKind::Sales),
        "service" => serves(loc, LocationKind::Service),
        "parts" => serves(loc, LocationKind::Parts),
        "service-and-parts" => {
            serves(loc, LocationKind::Service) || serves(loc, LocationKind::Parts)
        }
        id => loc.id == id,
    }
}

/// The locations of a block, in the order given (callers pass them primary first).
pub fn pick<'a>(locations: &'a [Location], block: &LocationBlock) -> Vec<&'a Location> {
    // "primary" with no location marked primary means the first one, as
    // everywhere else the site needs a main location.
    let primary_fallback = block.show == "primary" && !locations.iter().any(|l| l.primary);
    locations
        .iter()
        .enumerate()
        .filter(|(i, l)| {
            if primary_fallback {
                *i == 0
            } else {
                shown(l, &block.show)
            }
        })
        .map(|(_, l)| l)
        .filter(|l| {
            block.manufacturer.as_deref().is_none_or(|m| {
                l.manufacturers
                    .iter()
                    .any(|x| x.trim().eq_ignore_ascii_case(m.trim()))
            })
        })
        .filter(|l| {
            block.subtype.as_deref().is_none_or(|s| {
                l.subtype
                    .as_deref()
                    .is_some_and(|x| x.trim().eq_ignore_ascii_case(s.trim()))
            })
        })
        .filter(|l| !block.exclude.iter().any(|id| id == &l.id))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn loc(id: &str, kind: &str, extra: serde_json::Value) -> Location {
        let mut v = json!({"id": id, "name": format!("Site {id}"), "kind": kind, "phone": "(07) 3000 0001",
                           "address": {"street": "1 A St", "suburb": "Brisbane", "state": "QLD", "postcode": "4000"}});
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        serde_json::from_value(v).unwrap()
    }

    fn all() -> Vec<Location> {
        let week = json!({"mon": "08:00-17:00"});
        vec![
            loc(
                "main",
                "sales",
                json!({"primary": true, "manufacturers": ["Kia", "MG"], "hours": {"sales": week, "service": week}}),
            ),
            loc("north", "sales", json!({"manufacturers": ["Mazda"]})),
            loc("workshop", "service", json!({"manufacturers": ["kia "]})),
            loc("spares", "parts", json!({})),
            loc("buyers", "car-buying", json!({"subtype": "buying"})),
        ]
    }

    fn ids(block: LocationBlock) -> Vec<String> {
        let locs = all();
        pick(&locs, &block)
            .into_iter()
            .map(|l| l.id.clone())
            .collect()
    }

    fn show(word: &str) -> LocationBlock {
        LocationBlock {
            show: word.into(),
            ..LocationBlock::default()
        }
    }

    #[test]
    fn blocks_pick_by_department_kind_or_hours() {
        assert_eq!(
            ids(show("all")),
            ["main", "north", "workshop", "spares", "buyers"]
        );
        assert_eq!(ids(show("primary")), ["main"]);
        assert_eq!(ids(show("sales")), ["main", "north"]);
        // `main` is a showroom with service hours: it serves service too.
        assert_eq!(ids(show("service")), ["main", "workshop"]);
        assert_eq!(ids(show("parts")), ["spares"]);
        assert_eq!(
            ids(show("service-and-parts")),
            ["main", "workshop", "spares"]
        );
        assert_eq!(ids(show("north")), ["north"]);
        assert!(ids(show("nowhere")).is_empty());
    }

    #[test]
    fn make_subtype_and_exclusions_narrow_the_pick() {
        let kia = LocationBlock {
            manufacturer: Some("KIA".into()),
            ..show("all")
        };
        assert_eq!(ids(kia.clone()), ["main", "workshop"]);
        assert_eq!(
            ids(LocationBlock {
                exclude: vec!["main".into()],
                ..kia
            }),
            ["workshop"]
        );
        assert_eq!(
            ids(LocationBlock {
                subtype: Some("buying".into()),
                ..show("all")
            }),
            ["buyers"]
        );
    }

    #[test]
    fn primary_falls_back_to_the_first_location() {
        let mut locs = all();
        locs[0].primary = false;
        let picked: Vec<&str> = pick(&locs, &show("primary"))
            .iter()
            .map(|l| l.id.as_str())
            .collect();
        assert_eq!(picked, ["main"]);
    }
}
