//! Locations as the contact and location pages show them: addresses,
//! opening hours per department and one-off hours, ready to print.

use dealer_config::hours::{format_day, parse_day, week_lines};
use dealer_config::model::{self, Department};
use dealer_config::slug::location_slug;
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

/// What a location does.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LocationKind {
    Sales,
    Service,
    Parts,
    CarBuying,
}

/// A department with opening hours.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DepartmentName {
    Sales,
    Service,
    Parts,
}

/// A department a one-off applies to.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SpecialDepartment {
    All,
    Sales,
    Service,
    Parts,
}

/// A showroom, service centre or parts department.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Location {
    /// Id as in the stock feed's location_id.
    pub id: String,
    /// URL slug: /contact-us/{slug}.
    pub slug: String,
    /// Name shown on the site.
    pub name: String,
    /// What happens here.
    pub kind: LocationKind,
    /// The dealer's main location.
    pub primary: bool,
    /// Phone as shown.
    pub phone: String,
    /// Public e-mail, if any.
    pub email: Option<String>,
    /// Street address.
    pub address: Address,
    /// Opening hours per department.
    pub hours: Vec<DepartmentHours>,
    /// Public holidays and other one-off hours.
    pub special_hours: Vec<SpecialHours>,
    /// Motor dealer licence number.
    pub licence_number: Option<String>,
    /// IANA time zone of the dealer.
    pub timezone: String,
}

/// Street address.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Address {
    /// e.g. "12 Main St".
    pub street: String,
    /// e.g. "Newstead".
    pub suburb: String,
    /// State abbreviation, e.g. "QLD".
    pub state: String,
    /// Four digits.
    pub postcode: String,
    /// One line: "12 Main St, Newstead QLD 4006".
    pub one_line: String,
    /// Link to a map / directions, or null when none configured.
    pub map_url: Option<String>,
}

/// One department's weekly hours, ready to show.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DepartmentHours {
    /// Which department.
    pub department: DepartmentName,
    /// Lines of the hours table.
    pub lines: Vec<HoursLine>,
}

/// A line of an hours table.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct HoursLine {
    /// "Mon-Fri", "Sat", "Sun".
    pub days: String,
    /// "8:30am - 5:30pm", "Closed" or "By appointment only".
    pub text: String,
}

/// One-off hours.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SpecialHours {
    /// ISO date "2026-12-25".
    pub date: String,
    /// Department it applies to.
    pub department: SpecialDepartment,
    /// "Closed" or "9am - 1pm".
    pub text: String,
    /// e.g. "Christmas Day".
    pub label: String,
}

fn location(l: &model::Location, tz: &str) -> Location {
    let a = &l.address;
    let mut hours = Vec::new();
    for (dept, week) in [
        (DepartmentName::Sales, &l.hours.sales),
        (DepartmentName::Service, &l.hours.service),
        (DepartmentName::Parts, &l.hours.parts),
    ] {
        if let Some(week) = week {
            hours.push(DepartmentHours {
                department: dept,
                lines: week_lines(week, l.closed_text)
                    .into_iter()
                    .map(|(days, text)| HoursLine { days, text })
                    .collect(),
            });
        }
    }
    Location {
        id: l.id.clone(),
        slug: location_slug(l),
        name: l.name.clone(),
        kind: match l.kind {
            model::LocationKind::Sales => LocationKind::Sales,
            model::LocationKind::Service => LocationKind::Service,
            model::LocationKind::Parts => LocationKind::Parts,
            model::LocationKind::CarBuying => LocationKind::CarBuying,
        },
        primary: l.primary,
        phone: l.phone.clone(),
        email: l.email.clone(),
        address: Address {
            street: a.street.clone(),
            suburb: a.suburb.clone(),
            state: a.state.as_str().into(),
            postcode: a.postcode.clone(),
            one_line: format!(
                "{}, {} {} {}",
                a.street,
                a.suburb,
                a.state.as_str(),
                a.postcode
            ),
            map_url: a.map_url.clone(),
        },
        hours,
        special_hours: l
            .special_hours
            .iter()
            .map(|s| SpecialHours {
                date: s.date.clone(),
                department: match s.department {
                    Department::All => SpecialDepartment::All,
                    Department::Sales => SpecialDepartment::Sales,
                    Department::Service => SpecialDepartment::Service,
                    Department::Parts => SpecialDepartment::Parts,
                },
                text: parse_day(&s.hours)
                    .map(|d| format_day(d, model::ClosedText::Closed))
                    .unwrap_or_else(|_| s.hours.clone()),
                label: s.label.clone(),
            })
            .collect(),
        licence_number: l.licence_number.clone(),
        timezone: tz.to_string(),
    }
}

/// Every location, the primary one first; the rest keep their YAML order.
pub fn locations(cfg: &DealerConfig) -> Vec<Location> {
    let mut locations: Vec<Location> = cfg
        .locations
        .iter()
        .map(|l| location(l, &cfg.timezone))
        .collect();
    locations.sort_by_key(|l| !l.primary);
    locations
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site_data::test_support::config;

    #[test]
    fn the_primary_location_comes_first_and_the_rest_keep_their_order() {
        let ids: Vec<String> = locations(&config()).into_iter().map(|l| l.id).collect();
        assert_eq!(ids, ["c", "a", "b"]);
    }

    #[test]
    fn addresses_are_one_line_and_locations_carry_the_time_zone() {
        let all = locations(&config());
        assert_eq!(all[0].address.one_line, "1 A St, Brisbane QLD 4000");
        assert_eq!(all[0].timezone, config().timezone.to_string());
    }
}
