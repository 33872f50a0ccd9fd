//! The vehicle ads feeds (`syndication`): store codes name real locations
//! and are values Google can match, tracking parameters are safe in a URL,
//! and the custom labels fit the five columns both platforms have.

use std::collections::HashSet;

use crate::model::{DealerConfig, Utm};
use crate::suggest::closest;

use super::{root, Ctx, KeyPath};

/// Both platforms have custom_label_0 to custom_label_4.
pub const MAX_CUSTOM_LABELS: usize = 5;

pub(super) fn check(cfg: &DealerConfig, cx: &mut Ctx) {
    if !cx.skip.ok("syndication") {
        return;
    }
    let base = root().key("syndication");
    let s = &cfg.syndication;
    if let Some(google) = &s.google_vehicle_ads {
        let at = base.clone().key("google_vehicle_ads");
        let ids: Vec<&str> = cfg.locations.iter().map(|l| l.id.as_str()).collect();
        let mut seen = HashSet::new();
        for (i, sc) in google.store_codes.iter().enumerate() {
            let path = at.clone().key("store_codes").index(i);
            if cx.skip.ok("locations") && !ids.contains(&sc.location.as_str()) {
                cx.err(
                    &path.clone().key("location"),
                    format!("there is no location `{}`", sc.location),
                )
                .hint = Some(match closest(&sc.location, ids.iter().copied()) {
                    Some(id) => format!("did you mean `{id}`?"),
                    None => format!("use a location's id: {}", ids.join(", ")),
                });
            } else if !seen.insert(sc.location.as_str()) {
                cx.err(
                    &path.clone().key("location"),
                    format!("location `{}` has two store codes", sc.location),
                )
                .hint = Some("Google matches one store code per location: keep one".into());
            }
            check_store_code(&sc.code, &path.key("code"), cx);
        }
        if google.store_codes.is_empty() {
            cx.err(
                &at.clone().key("store_codes"),
                "the Google vehicle ads feed needs the store code of each location whose cars it advertises",
            )
            .hint = Some(
                "add `- { location: <locations[].id>, code: <its Business Profile store code> }`".into(),
            );
        } else if cx.skip.ok("locations") {
            for l in &cfg.locations {
                let sells = l.kind == crate::model::LocationKind::Sales;
                if sells && !google.store_codes.iter().any(|sc| sc.location == l.id) {
                    cx.warn(
                        &at.clone().key("store_codes"),
                        format!("location `{}` has no store code: its cars are left out of the Google feed", l.id),
                    );
                }
            }
        }
        check_utm(&google.utm, &at.key("utm"), cx);
    }
    if let Some(meta) = &s.meta_vehicles {
        if cx.skip.ok("locations") {
            for l in &cfg.locations {
                let sells = l.kind == crate::model::LocationKind::Sales;
                if sells && (l.address.lat.is_none() || l.address.lng.is_none()) {
                    cx.warn(
                        &base.clone().key("meta_vehicles"),
                        format!(
                            "location `{}` has no lat/lng: Meta needs a car's coordinates, so its cars are left out of the Meta feed",
                            l.id
                        ),
                    );
                }
            }
        }
        check_utm(&meta.utm, &base.clone().key("meta_vehicles").key("utm"), cx);
    }
    let labels = base.clone().key("custom_labels");
    if s.custom_labels.len() > MAX_CUSTOM_LABELS {
        cx.err(
            &labels,
            format!(
                "{} custom labels: the feeds have {MAX_CUSTOM_LABELS} (custom_label_0 to custom_label_4)",
                s.custom_labels.len()
            ),
        );
    }
    let mut seen = HashSet::new();
    for (i, label) in s.custom_labels.iter().enumerate() {
        if !seen.insert(label) {
            cx.err(
                &labels.clone().index(i),
                "this custom label is already given: each label should split the cars another way",
            );
        }
    }
}

/// A store code Google can match, and that stays one cell of a TSV.
fn check_store_code(code: &str, path: &KeyPath, cx: &mut Ctx) {
    if code.trim().is_empty() {
        cx.err(path, "the store code is empty");
    } else if code.chars().any(|c| c.is_whitespace() || c.is_control()) {
        cx.err(
            path,
            format!("store code `{code}` has a space or a control character"),
        )
        .hint =
            Some("write it exactly as the Business Profile's store code, e.g. BMG-NEWSTEAD".into());
    } else if code.chars().count() > 64 {
        cx.err(path, "the store code is longer than 64 characters");
    }
}

/// Each tracking value: letters, digits and `-_.~` (nothing a URL must escape).
fn check_utm(utm: &Utm, at: &KeyPath, cx: &mut Ctx) {
    for (key, value) in [
        ("source", &utm.source),
        ("medium", &utm.medium),
        ("campaign", &utm.campaign),
    ] {
        let Some(v) = value else { continue };
        let ok = !v.is_empty()
            && v.len() <= 100
            && v.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.~".contains(c));
        if !ok {
            cx.err(
                &at.clone().key(key),
                format!("`{v}` is not a tracking value"),
            )
            .expected =
                Some("1 to 100 letters, digits, `-`, `_`, `.` or `~`, e.g. vehicle_ads".into());
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at, problems};

    #[test]
    fn a_store_code_names_a_location_of_the_dealer() {
        let p = problem_at(
            "syndication: { google_vehicle_ads: { store_codes: [{ location: mian, code: M1 }] } }",
            "syndication.google_vehicle_ads.store_codes[0].location",
        );
        assert_eq!(p.message, "there is no location `mian`");
        assert_eq!(p.hint.as_deref(), Some("did you mean `main`?"));
    }

    #[test]
    fn a_store_code_is_one_cell_without_spaces() {
        let p = problem_at(
            "syndication: { google_vehicle_ads: { store_codes: [{ location: main, code: \"M 1\" }] } }",
            "syndication.google_vehicle_ads.store_codes[0].code",
        );
        assert!(p.message.contains("has a space"), "{}", p.message);
        let p = problem_at(
            "syndication: { google_vehicle_ads: { store_codes: [{ location: main, code: \"M\\t1\" }] } }",
            "syndication.google_vehicle_ads.store_codes[0].code",
        );
        assert!(p.message.contains("control character"), "{}", p.message);
    }

    #[test]
    fn the_google_feed_needs_store_codes() {
        let p = problem_at(
            "syndication: { google_vehicle_ads: {} }",
            "syndication.google_vehicle_ads.store_codes",
        );
        assert!(p.message.contains("needs the store code"), "{}", p.message);
    }

    #[test]
    fn a_location_has_one_store_code() {
        let p = problem_at(
            "syndication: { google_vehicle_ads: { store_codes: [{ location: main, code: A }, { location: main, code: B }] } }",
            "syndication.google_vehicle_ads.store_codes[1].location",
        );
        assert_eq!(p.message, "location `main` has two store codes");
    }

    #[test]
    fn tracking_values_are_safe_in_a_link() {
        let p = problem_at(
            "syndication: { meta_vehicles: { utm: { source: \"face book&x=1\" } } }",
            "syndication.meta_vehicles.utm.source",
        );
        assert!(p.message.contains("not a tracking value"), "{}", p.message);
        accepted("syndication: { google_vehicle_ads: { store_codes: [{ location: main, code: M1 }], utm: { source: google, medium: paid_social, campaign: stock.2026 } } }");
    }

    #[test]
    fn the_meta_feed_warns_of_a_location_without_coordinates() {
        let all = problems("syndication: { meta_vehicles: {} }");
        assert_eq!(all.len(), 1, "{all:#?}");
        assert_eq!(all[0].severity, crate::diagnostic::Severity::Warning);
        assert!(
            all[0].message.starts_with("location `main` has no lat/lng"),
            "{}",
            all[0].message
        );
    }

    #[test]
    fn custom_labels_fit_five_columns_once_each() {
        let all = problems(
            "syndication: { custom_labels: [make, location, tag, car_type, price_band, days_listed] }",
        );
        assert!(
            all.iter().any(|p| p.key == "syndication.custom_labels"),
            "{all:#?}"
        );
        let p = problem_at(
            "syndication: { custom_labels: [make, make] }",
            "syndication.custom_labels[1]",
        );
        assert!(p.message.contains("already given"), "{}", p.message);
    }

    #[test]
    fn a_complete_syndication_section_passes() {
        accepted(
            "{ locations: [{ id: main, name: Main, phone: (07) 3555 0101, address: { street: 1 A St, suburb: Newstead, state: QLD, postcode: \"4006\", lat: -27.4, lng: 153.0 } }], syndication: { google_vehicle_ads: { store_codes: [{ location: main, code: MAIN-1 }], utm: { source: google } }, meta_vehicles: {}, exclude: { car_types: [demo] }, custom_labels: [car_type, location] } }",
        );
    }
}
