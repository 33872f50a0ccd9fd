//! schema.org `AutoDealer` structured data (JSON-LD) of each location:
//! name, address, geo, telephone, opening hours (a service department as
//! an `AutoRepair` department), one-off hours, licence number. Built here,
//! where the hours are parsed, and printed by the pages as it is.

use dealer_config::hours::{parse_day, DayHours};
use dealer_config::model::{self, Department, WeekHours};
use dealer_config::slug::location_slug;
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{json, Value};

/// A location's JSON-LD.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct LocationJsonLd {
    /// The location's id.
    pub location_id: String,
    /// The schema.org AutoDealer object, ready to print.
    pub json_ld: Value,
}

const DAYS: [&str; 7] = [
    "https://schema.org/Monday",
    "https://schema.org/Tuesday",
    "https://schema.org/Wednesday",
    "https://schema.org/Thursday",
    "https://schema.org/Friday",
    "https://schema.org/Saturday",
    "https://schema.org/Sunday",
];

fn hhmm(minutes: u16) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// One OpeningHoursSpecification per run of days with the same hours;
/// closed days are left out (schema.org: not listed means closed).
fn week_spec(week: &WeekHours) -> Vec<Value> {
    // (days, opens, closes, index of the last day): a run continues only on the next day.
    let mut groups: Vec<(Vec<&str>, u16, u16, usize)> = Vec::new();
    for (i, (_, day)) in week.days().iter().enumerate() {
        if let Some(Ok(DayHours::Open { open, close })) = day.as_deref().map(parse_day) {
            match groups.last_mut() {
                Some((days, o, c, last)) if *o == open && *c == close && *last + 1 == i => {
                    days.push(DAYS[i]);
                    *last = i;
                }
                _ => groups.push((vec![DAYS[i]], open, close, i)),
            }
        }
    }
    groups
        .into_iter()
        .map(|(days, open, close, _)| {
            json!({
                "@type": "OpeningHoursSpecification",
                "dayOfWeek": days,
                "opens": hhmm(open),
                "closes": hhmm(close),
            })
        })
        .collect()
}

/// One-off hours of `dept` (and of the whole location).
fn special_spec(l: &model::Location, dept: Department) -> Vec<Value> {
    l.special_hours
        .iter()
        .filter(|s| s.department == Department::All || s.department == dept)
        .filter_map(|s| {
            let (opens, closes) = match parse_day(&s.hours).ok()? {
                DayHours::Closed => ("00:00".to_string(), "00:00".to_string()),
                DayHours::Open { open, close } => (hhmm(open), hhmm(close)),
            };
            Some(json!({
                "@type": "OpeningHoursSpecification",
                "validFrom": s.date,
                "validThrough": s.date,
                "opens": opens,
                "closes": closes,
            }))
        })
        .collect()
}

fn location_ld(cfg: &DealerConfig, l: &model::Location) -> Value {
    let a = &l.address;
    let url = format!(
        "{}/contact-us/{}/",
        cfg.site_url.trim_end_matches('/'),
        location_slug(l)
    );
    let main = match l.kind {
        model::LocationKind::Service => (l.hours.service.as_ref(), Department::Service),
        model::LocationKind::Parts => (l.hours.parts.as_ref(), Department::Parts),
        _ => (l.hours.sales.as_ref(), Department::Sales),
    };
    let mut ld = json!({
        "@context": "https://schema.org",
        "@type": if l.kind == model::LocationKind::Service { "AutoRepair" } else { "AutoDealer" },
        "@id": format!("{url}#dealer"),
        "name": l.name,
        "url": url,
        "telephone": l.phone,
        "address": {
            "@type": "PostalAddress",
            "streetAddress": a.street,
            "addressLocality": a.suburb,
            "addressRegion": a.state.as_str(),
            "postalCode": a.postcode,
            "addressCountry": "AU",
        },
        "parentOrganization": {"@type": "AutoDealer", "name": cfg.name, "url": format!("{}/", cfg.site_url.trim_end_matches('/'))},
    });
    let obj = ld.as_object_mut().expect("an object");
    if let (Some(lat), Some(lng)) = (a.lat, a.lng) {
        obj.insert(
            "geo".into(),
            json!({"@type": "GeoCoordinates", "latitude": lat, "longitude": lng}),
        );
    }
    if let Some(email) = &l.email {
        obj.insert("email".into(), json!(email));
    }
    if let Some(map) = &a.map_url {
        obj.insert("hasMap".into(), json!(map));
    }
    if let Some(week) = main.0 {
        obj.insert("openingHoursSpecification".into(), json!(week_spec(week)));
    }
    let special = special_spec(l, main.1);
    if !special.is_empty() {
        obj.insert("specialOpeningHoursSpecification".into(), json!(special));
    }
    if !l.manufacturers.is_empty() {
        obj.insert(
            "brand".into(),
            json!(l
                .manufacturers
                .iter()
                .map(|m| json!({"@type": "Brand", "name": m}))
                .collect::<Vec<_>>()),
        );
    }
    if let Some(licence) = &l.licence_number {
        obj.insert(
            "identifier".into(),
            json!({"@type": "PropertyValue", "name": "Motor dealer licence", "value": licence}),
        );
    }
    // A showroom with its own workshop: the workshop is a department with its own hours.
    if l.kind != model::LocationKind::Service {
        if let Some(service) = &l.hours.service {
            let mut dept = json!({
                "@type": "AutoRepair",
                "name": format!("{} Service", l.name),
                "telephone": l.phone,
                "openingHoursSpecification": week_spec(service),
            });
            let special = special_spec(l, Department::Service);
            if !special.is_empty() {
                dept["specialOpeningHoursSpecification"] = json!(special);
            }
            obj.insert("department".into(), json!([dept]));
        }
    }
    ld
}

/// The JSON-LD of every location, in the dealer file's order.
pub fn locations_json_ld(cfg: &DealerConfig) -> Vec<LocationJsonLd> {
    cfg.locations
        .iter()
        .map(|l| LocationJsonLd {
            location_id: l.id.clone(),
            json_ld: location_ld(cfg, l),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::config_with;

    #[test]
    fn a_location_is_an_auto_dealer_with_geo_hours_and_a_service_department() {
        let cfg = config_with(json!({"locations": [{
            "id": "n", "name": "Demo Newstead", "primary": true, "phone": "(07) 3555 0101",
            "address": {"street": "40 Breakfast Creek Rd", "suburb": "Newstead", "state": "QLD", "postcode": "4006", "lat": -27.444, "lng": 153.048},
            "manufacturers": ["Kia"], "licence_number": "MDL 3100123",
            "hours": {
                "sales": {"mon": "08:30-17:30", "tue": "08:30-17:30", "wed": "08:30-17:30", "thu": "08:30-19:00", "fri": "08:30-17:30", "sat": "08:00-16:00"},
                "service": {"mon": "07:00-17:00", "tue": "07:00-17:00"}
            },
            "special_hours": [{"date": "2026-12-25", "hours": "closed", "label": "Christmas Day"},
                              {"date": "2026-12-27", "department": "service", "hours": "09:00-12:00"}]
        }]}));
        let all = locations_json_ld(&cfg);
        insta::assert_snapshot!(serde_json::to_string_pretty(&all[0].json_ld).unwrap());
    }

    #[test]
    fn a_week_groups_consecutive_days_with_equal_hours() {
        let week: WeekHours = serde_json::from_value(json!({
            "mon": "09:00-17:00", "tue": "09:00-17:00", "wed": "closed", "thu": "09:00-17:00", "fri": "09:00-17:00", "sun": "10:00-14:00"
        }))
        .unwrap();
        let spec = week_spec(&week);
        let days: Vec<usize> = spec
            .iter()
            .map(|s| s["dayOfWeek"].as_array().unwrap().len())
            .collect();
        assert_eq!(days, [2, 2, 1], "Mon-Tue, Thu-Fri, Sun: {spec:#?}");
        assert_eq!(spec[2]["opens"], "10:00");
    }
}
