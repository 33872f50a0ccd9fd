//! Locations as the contact and location pages show them: addresses,
//! opening hours per department and one-off hours, ready to print, plus the
//! same hours as minutes for the browser's "Open now" and this week's
//! table (judged at view time in the location's own time zone), the map
//! image and directions from the dealer's map templates, the licences and
//! the Book a Service link.

use dealer_config::hours::{format_day, parse_day, week_lines, DayHours};
use dealer_config::model::{self, Department, LocationKind as Kind};
use dealer_config::places::serves;
use dealer_config::slug::location_slug;
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

use super::links::Link;

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
    /// The fixed-line number shown beside it (`locations[].landline`), if any.
    pub landline: Option<String>,
    /// Public e-mail, if any.
    pub email: Option<String>,
    /// Street address.
    pub address: Address,
    /// Opening hours per department.
    pub hours: Vec<DepartmentHours>,
    /// Public holidays and other one-off hours.
    pub special_hours: Vec<SpecialHours>,
    /// Motor dealer licence number; null when the dealer hides licences (`location_cards.show_licences`).
    // The generator's own (JSON-LD, block selection): not in site.json, no page reads it.
    #[serde(skip)]
    #[schemars(skip)]
    pub licence_number: Option<String>,
    /// Every licence line to show, e.g. "Dealer licence MDL 3100123"; empty when hidden.
    pub licences: Vec<String>,
    /// IANA time zone of the location (its own, else the dealer's): "Open now" is judged in it.
    pub timezone: String,
    /// A finer kind, e.g. "buying".
    // The generator's own (JSON-LD, block selection): not in site.json, no page reads it.
    #[serde(skip)]
    #[schemars(skip)]
    pub subtype: Option<String>,
    /// Makes sold or serviced here, e.g. ["Kia", "MG"] (shown on the card; location blocks pick by them).
    pub manufacturers: Vec<String>,
    /// Photo for the card (shown 150 px high).
    pub image: Option<String>,
    /// Review summary shown as stars.
    pub rating: Option<Rating>,
    /// What a closed day says: "Closed" or "By appointment only".
    pub closed_text: String,
    /// Static map image (from the dealer's `maps.static_map_url`), linking to `address.map_url`; null: no image.
    pub map_image: Option<String>,
    /// Book a Service (the dealer's booking page or /service/) for locations that serve service; null otherwise.
    pub book_service: Option<Link>,
}

/// A review summary.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Rating {
    /// Average from 1 to 5, e.g. 4.7.
    pub average_rating: f64,
    /// Number of reviews.
    pub count: u32,
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
    /// Directions link (the location's `map_url`, else the dealer's `maps.directions_url` filled in), or null.
    pub map_url: Option<String>,
    /// Latitude, when known.
    #[serde(skip)]
    #[schemars(skip)]
    pub lat: Option<f64>,
    /// Longitude, when known.
    #[serde(skip)]
    #[schemars(skip)]
    pub lng: Option<f64>,
}

/// One department's weekly hours, ready to show.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DepartmentHours {
    /// Which department.
    pub department: DepartmentName,
    /// Lines of the hours table.
    pub lines: Vec<HoursLine>,
    /// The same week as minutes after midnight, [open, close] or null (closed): seven entries, index 0 = Sunday (as the spec numbers weekdays).
    pub week: Vec<Option<[u16; 2]>>,
    /// A Saturday from which every second Saturday this department is by appointment only ("2025-06-14"); null: none.
    pub appointment_saturdays_from: Option<String>,
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
    /// [open, close] in minutes after midnight; null: closed that day.
    pub minutes: Option<[u16; 2]>,
}

fn minutes(day: DayHours) -> Option<[u16; 2]> {
    match day {
        DayHours::Closed => None,
        DayHours::Open { open, close } => Some([open, close]),
    }
}

/// Seven days Sunday first (docs/behaviour/content.md §3: weekday 0 is Sunday).
fn week_minutes(week: &model::WeekHours) -> Vec<Option<[u16; 2]>> {
    let days = week.days();
    // `days()` is Monday first: Sunday is its last.
    std::iter::once(&days[6])
        .chain(&days[..6])
        .map(|(_, d)| {
            d.as_deref()
                .and_then(|s| parse_day(s).ok())
                .and_then(minutes)
        })
        .collect()
}

/// Fills `{lat}`, `{lng}` and `{address}` of a map template; None when it
/// needs coordinates the location does not have.
fn fill(template: &str, a: &model::Address, one_line: &str) -> Option<String> {
    let needs_coords = template.contains("{lat}") || template.contains("{lng}");
    let (lat, lng) = (a.lat, a.lng);
    if needs_coords && (lat.is_none() || lng.is_none()) {
        return None;
    }
    let encoded: String = url::form_urlencoded::byte_serialize(one_line.as_bytes()).collect();
    Some(
        template
            .replace("{lat}", &lat.map(|v| v.to_string()).unwrap_or_default())
            .replace("{lng}", &lng.map(|v| v.to_string()).unwrap_or_default())
            .replace("{address}", &encoded),
    )
}

fn location(l: &model::Location, cfg: &DealerConfig) -> Location {
    let tz = l.timezone.unwrap_or(cfg.timezone);
    let a = &l.address;
    let mut hours = Vec::new();
    for (dept, week) in [
        (DepartmentName::Sales, &l.hours.sales),
        (DepartmentName::Service, &l.hours.service),
        (DepartmentName::Parts, &l.hours.parts),
    ] {
        if let Some(week) = week {
            let appointment_saturdays_from = l
                .alternate_saturdays
                .as_ref()
                .filter(|a| department_of(dept) == a.department)
                .map(|a| a.from.clone());
            hours.push(DepartmentHours {
                department: dept,
                lines: week_lines(week, l.closed_text)
                    .into_iter()
                    .map(|(days, text)| HoursLine { days, text })
                    .collect(),
                week: week_minutes(week),
                appointment_saturdays_from,
            });
        }
    }
    let one_line = format!(
        "{}, {} {} {}",
        a.street,
        a.suburb,
        a.state.as_str(),
        a.postcode
    );
    let map_url = a
        .map_url
        .clone()
        .or_else(|| fill(&cfg.maps.directions_url, a, &one_line));
    let map_image = cfg
        .maps
        .static_map_url
        .as_deref()
        .filter(|_| a.lat.is_some() && a.lng.is_some())
        .and_then(|t| fill(t, a, &one_line));
    let show_licences = cfg.location_cards.show_licences;
    let licences = if show_licences {
        [
            ("Dealer licence", &l.licence_number),
            ("Repairer licence", &l.repairer_licence_number),
        ]
        .into_iter()
        .filter_map(|(label, n)| n.as_ref().map(|n| format!("{label} {n}")))
        .collect()
    } else {
        Vec::new()
    };
    let book_service = serves(l, Kind::Service)
        .then(|| super::pages::book_service_link(cfg))
        .flatten();
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
        landline: l.landline.clone(),
        email: l.email.clone(),
        address: Address {
            street: a.street.clone(),
            suburb: a.suburb.clone(),
            state: a.state.as_str().into(),
            postcode: a.postcode.clone(),
            one_line,
            map_url,
            lat: a.lat,
            lng: a.lng,
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
                minutes: parse_day(&s.hours).ok().and_then(minutes),
            })
            .collect(),
        licence_number: l.licence_number.clone().filter(|_| show_licences),
        licences,
        timezone: tz.to_string(),
        subtype: l.subtype.clone(),
        manufacturers: l.manufacturers.clone(),
        image: l.image.clone(),
        rating: l.rating.as_ref().map(|r| Rating {
            average_rating: r.average_rating,
            count: r.count,
        }),
        closed_text: format_day(DayHours::Closed, l.closed_text),
        map_image,
        book_service,
    }
}

fn department_of(d: DepartmentName) -> Department {
    match d {
        DepartmentName::Sales => Department::Sales,
        DepartmentName::Service => Department::Service,
        DepartmentName::Parts => Department::Parts,
    }
}

/// Every location, the primary one first; the rest keep their YAML order.
pub fn locations(cfg: &DealerConfig) -> Vec<Location> {
    let mut locations: Vec<Location> = cfg.locations.iter().map(|l| location(l, cfg)).collect();
    locations.sort_by_key(|l| !l.primary);
    locations
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::{config, config_with};
    use serde_json::json;

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

    fn one(extra: serde_json::Value, dealer: serde_json::Value) -> Location {
        let mut loc = json!({"id": "x", "name": "X Sales", "primary": true, "phone": "(07) 3000 0001",
                             "address": {"street": "1 A St", "suburb": "Brisbane", "state": "QLD", "postcode": "4000"}});
        for (k, v) in extra.as_object().unwrap() {
            if k == "address" {
                for (ak, av) in v.as_object().unwrap() {
                    loc["address"][ak] = av.clone();
                }
            } else {
                loc[k] = v.clone();
            }
        }
        let mut top = dealer;
        top["locations"] = json!([loc]);
        locations(&config_with(top)).remove(0)
    }

    #[test]
    fn a_location_may_keep_its_own_time_zone() {
        let l = one(
            json!({"timezone": "Australia/Adelaide"}),
            json!({"timezone": "Australia/Perth"}),
        );
        assert_eq!(l.timezone, "Australia/Adelaide");
        assert_eq!(
            one(json!({}), json!({"timezone": "Australia/Perth"})).timezone,
            "Australia/Perth"
        );
    }

    #[test]
    fn weeks_are_minutes_sunday_first_with_the_alternate_saturdays_of_their_department() {
        let l = one(
            json!({"hours": {"sales": {"mon": "08:30-17:30", "sun": "10:00-15:00"},
                             "service": {"sat": "07:30-12:00"}},
                   "alternate_saturdays": {"department": "service", "from": "2025-06-14"},
                   "special_hours": [{"date": "2026-12-25", "hours": "closed"},
                                     {"date": "2026-12-31", "department": "sales", "hours": "09:00-13:00"}]}),
            json!({}),
        );
        let sales = &l.hours[0];
        assert_eq!(sales.week.len(), 7);
        assert_eq!(sales.week[0], Some([600, 900]), "index 0 is Sunday");
        assert_eq!(sales.week[1], Some([510, 1050]), "index 1 is Monday");
        assert_eq!(sales.week[6], None);
        assert_eq!(sales.appointment_saturdays_from, None);
        assert_eq!(l.hours[1].week[6], Some([450, 720]), "index 6 is Saturday");
        assert_eq!(
            l.hours[1].appointment_saturdays_from.as_deref(),
            Some("2025-06-14")
        );
        assert_eq!(l.special_hours[0].minutes, None);
        assert_eq!(l.special_hours[1].minutes, Some([540, 780]));
        assert_eq!(l.closed_text, "Closed");
        assert_eq!(
            one(json!({"closed_text": "by_appointment"}), json!({})).closed_text,
            "By appointment only"
        );
    }

    #[test]
    fn maps_come_from_the_dealers_templates_and_need_coordinates() {
        let plain = one(json!({}), json!({}));
        assert_eq!(plain.map_image, None);
        assert_eq!(
            plain.address.map_url, None,
            "the default directions need coordinates"
        );
        let at = json!({"address": {"lat": -27.444, "lng": 153.048}});
        let l = one(at.clone(), json!({}));
        assert_eq!(
            l.address.map_url.as_deref(),
            Some("https://www.google.com/maps/dir/?api=1&destination=-27.444,153.048")
        );
        assert_eq!(l.map_image, None, "no static map service configured");
        let maps = json!({"maps": {"static_map_url": "https://maps.example.com/s?c={lat},{lng}&key=K",
                                   "directions_url": "https://maps.example.com/d?q={address}"}});
        let l = one(at, maps.clone());
        assert_eq!(
            l.map_image.as_deref(),
            Some("https://maps.example.com/s?c=-27.444,153.048&key=K")
        );
        assert_eq!(
            l.address.map_url.as_deref(),
            Some("https://maps.example.com/d?q=1+A+St%2C+Brisbane+QLD+4000")
        );
        // A location's own link wins.
        let own = one(
            json!({"address": {"map_url": "https://maps.example.com/x"}}),
            maps,
        );
        assert_eq!(
            own.address.map_url.as_deref(),
            Some("https://maps.example.com/x")
        );
        assert_eq!(own.map_image, None, "no coordinates, no map image");
    }

    #[test]
    fn licences_show_unless_the_dealer_hides_them() {
        let lic = json!({"licence_number": "MDL 1", "repairer_licence_number": "MVR 2"});
        let l = one(lic.clone(), json!({}));
        assert_eq!(
            l.licences,
            ["Dealer licence MDL 1", "Repairer licence MVR 2"]
        );
        assert_eq!(l.licence_number.as_deref(), Some("MDL 1"));
        let hidden = one(lic, json!({"location_cards": {"show_licences": false}}));
        assert!(hidden.licences.is_empty());
        assert_eq!(hidden.licence_number, None);
    }

    #[test]
    fn book_a_service_goes_to_the_booking_page_of_locations_that_service() {
        assert!(one(json!({}), json!({})).book_service.is_none());
        let service = one(
            json!({"kind": "service"}),
            json!({"pages": {"service": true}}),
        );
        assert_eq!(
            service.book_service.unwrap().href,
            model::GENUINE_SERVICE_PATH
        );
        // Without the service page and without a booking URL there is
        // nowhere to book, so the card has no button rather than a dead link.
        let no_page = one(
            json!({"kind": "service"}),
            json!({"pages": {"service": false}}),
        );
        assert!(no_page.book_service.is_none());
        let with_hours = one(
            json!({"hours": {"service": {"mon": "08:00-17:00"}}}),
            json!({"service": {"booking_url": "https://book.example.com.au"}}),
        );
        let b = with_hours.book_service.unwrap();
        assert_eq!(
            (b.href.as_str(), b.external),
            ("https://book.example.com.au", true)
        );
    }
}
