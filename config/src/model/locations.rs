//! Locations and opening hours (docs/behaviour/content.md §2.9, §3, §4).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

fn listed() -> bool {
    true
}

/// A showroom, service centre or parts department.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Location {
    /// Id as used by the stock feed's `location_id`, unique within the dealer, e.g. "bmg-newstead".
    pub id: String,
    /// Name shown on the site, e.g. "Brisbane Motor Group Newstead".
    pub name: String,
    /// URL slug of its page /contact-us/{slug}. Defaults to the name without a trailing Sales, Service or Parts, in kebab case.
    #[serde(default)]
    pub slug: Option<String>,
    /// What happens here.
    #[serde(default)]
    pub kind: LocationKind,
    /// A finer kind for location blocks to pick, e.g. "buying" for a car-buying centre.
    #[serde(default)]
    pub subtype: Option<String>,
    /// The dealer's main location (listed first, used when a car has none).
    #[serde(default)]
    pub primary: bool,
    /// Listed on the site. false: a place shoppers do not deal with (an overflow yard, a preparation centre): it has no page and is in no list, form, map or structured data, and its cars are shown, and their leads sent, as at the primary location. The primary location must be visible. Default true.
    #[serde(default = "listed")]
    pub visible: bool,
    /// Phone as shown, e.g. "(07) 3555 0100".
    pub phone: String,
    /// A second, fixed-line number (where `phone` is a mobile or a 13/1300 number, or a department's direct line), e.g. "(07) 3555 0199": shown beside `phone` on the location's card and page. Not the same number as `phone`.
    #[serde(default)]
    pub landline: Option<String>,
    /// Public e-mail of this location.
    #[serde(default)]
    pub email: Option<String>,
    /// Leads about cars at this location go here instead of the dealer's lead e-mail.
    #[serde(default)]
    pub lead_email: Option<String>,
    /// Street address.
    pub address: Address,
    /// Makes sold or serviced here, e.g. ["Kia", "MG"].
    #[serde(default)]
    pub manufacturers: Vec<String>,
    /// Motor dealer licence number, shown on the location's card and page (unless `location_cards.show_licences` is off).
    #[serde(default)]
    pub licence_number: Option<String>,
    /// Motor vehicle repairer licence number, shown with the dealer licence.
    #[serde(default)]
    pub repairer_licence_number: Option<String>,
    /// Photo of the location for its card (shown 150 px high), path or https URL.
    #[serde(default)]
    pub image: Option<String>,
    /// The location's review summary (e.g. from Google), shown as stars on its card and page.
    #[serde(default)]
    pub rating: Option<super::ReviewSummary>,
    /// IANA time zone of this location when it differs from the dealer's (a location in another state), e.g. "Australia/Adelaide". Used for "Open now".
    #[serde(default)]
    pub timezone: Option<super::TimeZone>,
    /// Weekly opening hours per department.
    #[serde(default)]
    pub hours: DepartmentHours,
    /// Public holidays and other one-off hours.
    #[serde(default)]
    pub special_hours: Vec<SpecialHours>,
    /// What a closed day says: "closed" or "by_appointment".
    #[serde(default)]
    pub closed_text: ClosedText,
    /// A department that is by appointment only on alternate Saturdays.
    #[serde(default)]
    pub alternate_saturdays: Option<AlternateSaturdays>,
}

/// What a location does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LocationKind {
    #[default]
    Sales,
    Service,
    Parts,
    CarBuying,
}

impl LocationKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LocationKind::Sales => "sales",
            LocationKind::Service => "service",
            LocationKind::Parts => "parts",
            LocationKind::CarBuying => "car-buying",
        }
    }
}

/// Street address.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Address {
    /// e.g. "12 Breakfast Creek Rd".
    pub street: String,
    /// e.g. "Newstead".
    pub suburb: String,
    /// State abbreviation.
    pub state: AuState,
    /// Four-digit postcode, e.g. "4006" (quote it so a leading zero stays).
    pub postcode: String,
    /// Latitude, for the location's map image (`maps.static_map_url`) and its Get Directions link (`maps.directions_url`).
    #[serde(default)]
    pub lat: Option<f64>,
    /// Longitude, for the location's map image (`maps.static_map_url`) and its Get Directions link (`maps.directions_url`).
    #[serde(default)]
    pub lng: Option<f64>,
    /// Link for "Get Directions". Defaults to the dealer's `maps.directions_url` filled with `lat`/`lng` (or the address when they are missing).
    #[serde(default)]
    pub map_url: Option<String>,
}

/// Maps of the locations: a static map image (no map script on the page) and a directions link.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Maps {
    /// Address of a static map image with `{lat}` and `{lng}` in it (and the service's public key), e.g. "https://maps.example.com/static?center={lat},{lng}&zoom=15&size=640x320&key=PUBLIC_KEY". Empty: no map image. Shown for locations with `lat` and `lng`, linking to the directions.
    pub static_map_url: Option<String>,
    /// Directions link of locations without their own `map_url`, with `{lat}`/`{lng}` (or `{address}`, the address URL-encoded) in it.
    pub directions_url: String,
}

impl Default for Maps {
    fn default() -> Self {
        Maps {
            static_map_url: None,
            directions_url: "https://www.google.com/maps/dir/?api=1&destination={lat},{lng}".into(),
        }
    }
}

/// Australian state or territory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum AuState {
    QLD,
    NSW,
    VIC,
    TAS,
    SA,
    WA,
    NT,
    ACT,
}

impl AuState {
    pub fn as_str(self) -> &'static str {
        match self {
            AuState::QLD => "QLD",
            AuState::NSW => "NSW",
            AuState::VIC => "VIC",
            AuState::TAS => "TAS",
            AuState::SA => "SA",
            AuState::WA => "WA",
            AuState::NT => "NT",
            AuState::ACT => "ACT",
        }
    }
}

/// Opening hours of each department; leave out departments this location does not have.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DepartmentHours {
    pub sales: Option<WeekHours>,
    pub service: Option<WeekHours>,
    pub parts: Option<WeekHours>,
}

/// One week: each day is "08:30-17:30" (24-hour, local time) or "closed". Missing days are closed.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct WeekHours {
    pub mon: Option<String>,
    pub tue: Option<String>,
    pub wed: Option<String>,
    pub thu: Option<String>,
    pub fri: Option<String>,
    pub sat: Option<String>,
    pub sun: Option<String>,
}

impl WeekHours {
    /// Days Monday first, with their YAML key.
    pub fn days(&self) -> [(&'static str, &Option<String>); 7] {
        [
            ("mon", &self.mon),
            ("tue", &self.tue),
            ("wed", &self.wed),
            ("thu", &self.thu),
            ("fri", &self.fri),
            ("sat", &self.sat),
            ("sun", &self.sun),
        ]
    }
}

/// One-off hours on a date.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialHours {
    /// The date, "2026-12-25".
    pub date: String,
    /// Department it applies to.
    #[serde(default)]
    pub department: Department,
    /// "closed" or "09:00-13:00".
    pub hours: String,
    /// Why, e.g. "Christmas Day".
    #[serde(default)]
    pub label: String,
}

/// A department of a location.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Department {
    #[default]
    All,
    Sales,
    Service,
    Parts,
}

impl Department {
    pub fn as_str(self) -> &'static str {
        match self {
            Department::All => "all",
            Department::Sales => "sales",
            Department::Service => "service",
            Department::Parts => "parts",
        }
    }
}

/// Wording of closed days.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClosedText {
    /// "Closed"
    #[default]
    Closed,
    /// "By appointment only"
    ByAppointment,
}

/// Every second Saturday, counted from `from`, a department is by appointment only.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AlternateSaturdays {
    /// Department affected.
    pub department: Department,
    /// A Saturday on which the rule applies, e.g. "2025-06-14"; it repeats every 14 days.
    pub from: String,
}
