//! The vehicle ads feeds a dealer's site publishes for Google and Meta
//! (docs/behaviour/syndication.md). Which cars a feed holds is the site's
//! own decision; these fields only choose the feeds, name the stores, tag
//! the links and leave cars out of the ads.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::CarType;

/// Feeds of the cars on sale, built with the site and published with it under `/feeds/`: a car is in a feed exactly when the site shows it on sale, at the price its page shows. Leave out to publish none.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Syndication {
    /// Google vehicle ads (Merchant Center primary feed): set to publish `/feeds/google-vehicle-ads.tsv`. Google takes passenger cars and utes only; caravans and trucks are left out, and the build says so.
    pub google_vehicle_ads: Option<GoogleVehicleAds>,
    /// Meta automotive inventory ads (Facebook and Instagram catalogue): set to publish `/feeds/meta-vehicles.csv`.
    pub meta_vehicles: Option<MetaVehicles>,
    /// Cars the site shows but no feed advertises.
    pub exclude: SyndicationExclusions,
    /// What each custom label carries, in order: the first is `custom_label_0`, up to five. Ad campaigns are split by them (e.g. a budget for new cars only).
    pub custom_labels: Vec<CustomLabel>,
}

/// The Google vehicle ads feed.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct GoogleVehicleAds {
    /// The store code of each location, exactly as in its Google Business Profile (Google matches them, case-sensitively). Cars at a location without one are left out of this feed and named in the build.
    pub store_codes: Vec<StoreCode>,
    /// Tracking parameters added to each car's link in this feed.
    pub utm: Utm,
}

/// One location's store code.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StoreCode {
    /// The location's `id` (locations[].id), e.g. "bmg-newstead".
    pub location: String,
    /// Its store code in the Business Profile, e.g. "BMG-NEWSTEAD".
    pub code: String,
}

/// The Meta automotive inventory feed.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct MetaVehicles {
    /// Tracking parameters added to each car's link in this feed.
    pub utm: Utm,
}

/// UTM parameters for a feed's links (analytics tells the ads' visits apart). Each one left out is not added.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Utm {
    /// `utm_source`, e.g. "google" or "facebook".
    pub source: Option<String>,
    /// `utm_medium`, e.g. "vehicle_ads" or "paid_social".
    pub medium: Option<String>,
    /// `utm_campaign`, e.g. "stock".
    pub campaign: Option<String>,
}

/// Cars shown on the site but left out of every feed.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SyndicationExclusions {
    /// Makes not advertised, e.g. ["Great Wall"].
    pub makes: Vec<String>,
    /// Car types not advertised, e.g. [demo].
    pub car_types: Vec<CarType>,
    /// Stock numbers not advertised, e.g. ["BMG10231"].
    pub stock_numbers: Vec<String>,
}

/// What a custom label carries for each car.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CustomLabel {
    /// new, demo or used.
    CarType,
    /// The car's location id.
    Location,
    /// The car's make.
    Make,
    /// The car's tag as the feed gives it (e.g. "Test Drive Only"), empty when none.
    Tag,
    /// How long the car has been listed: "0-30 days", "31-60 days", "61-90 days" or "90+ days".
    DaysListed,
    /// The price band: "under 20k", "20k-40k", "40k-60k" or "60k+".
    PriceBand,
}
