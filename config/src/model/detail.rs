//! The vehicle detail page's content blocks (docs/behaviour/car-page.md §2, §9; content.md §2.6) and
//! the photo URLs of every page (docs/behaviour/content.md §7: the image host's width and
//! quality parameters).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::CarType;

/// Car photos: how the site asks the image host for a resized copy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ImagesConfig {
    /// Address of a resized photo, built from the feed's photo address. Placeholders: `{url}` (the photo address as the feed gives it), `{base}` (that address without its file extension), `{ext}` (the extension, without the dot), `{width}` (pixels) and `{quality}` (1-100). E.g. `{url}?w={width}&q={quality}` for an image host that resizes on request, or `{base}-{width}.{ext}` for photos stored in several sizes. Empty: photos are used as the feed gives them (full size, no `srcset`), which makes pages much slower on phones.
    pub url_template: Option<String>,
    /// With `url_template`: the width in pixels of the photo an `<img>` falls back to (`src`) when the browser picks none of the `srcset`.
    #[schemars(range(min = 160, max = 4096))]
    pub width: u32,
    /// With `url_template`: the JPEG quality the image host is asked for (1-100), through `{quality}`.
    #[schemars(range(min = 1, max = 100))]
    pub quality: u8,
    /// With `url_template`: the widths offered to the browser in `srcset`, smallest first; it picks the one that fits the screen. The smallest is the watchlist's photo, the largest the photo viewer's. The default's 800 is a phone's search card: a 380 px slot at 1.75 device pixels takes 800 instead of 960 (Lighthouse flagged the 960 px photos in those slots).
    pub srcset_widths: Vec<u32>,
}

impl Default for ImagesConfig {
    fn default() -> Self {
        ImagesConfig {
            url_template: None,
            width: 640,
            quality: 75,
            srcset_widths: vec![480, 640, 800, 960, 1280],
        }
    }
}

/// A tab of the detail page, in the order `detail_page.tabs` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DetailTab {
    /// The dealer's comments from the stock feed (or the pending text).
    DealerComments,
    /// `detail_page.whats_included` for the car's type.
    WhatsIncluded,
    /// `detail_page.why_buy_from_us`.
    WhyBuyFromUs,
    /// How reserving online works (deposit, hold time); only for cars that can be reserved.
    ReserveOnline,
    /// `detail_page.protect_your_car`.
    ProtectYourCar,
    /// The car's standard equipment from the stock feed.
    Features,
}

/// One entry of a detail-page tab (What's Included, Why Buy From Us, Protect Your Car).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TabItem {
    /// Short heading, e.g. "12 months roadside assist".
    pub title: String,
    /// A sentence or two under the heading (optional).
    #[serde(default)]
    pub text: String,
    /// Only cars of these types show the entry; empty shows it for all.
    #[serde(default)]
    pub car_types: Vec<CarType>,
}

/// Capped-price servicing shown on car pages (docs/behaviour/car-page.md §9, e.g. Toyota Service Advantage).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ServiceAdvantage {
    /// Heading of the block, e.g. "Toyota Service Advantage".
    pub title: String,
    /// Cars of this make show the block (any letter case), e.g. "Toyota".
    pub make: String,
    /// Car types that show the block; empty shows it for all.
    #[serde(default)]
    pub car_types: Vec<CarType>,
    /// The plan of every model not listed in `models`.
    pub default: ServicePlan,
    /// Plans of particular models. The first entry naming the car's model (e.g. "HiLux", or model and body such as "Corolla Hatch") wins; values left out come from `default`.
    #[serde(default)]
    pub models: Vec<ModelServicePlan>,
    /// Terms printed under the block.
    #[serde(default)]
    pub terms: String,
}

/// A capped-price servicing plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ServicePlan {
    /// Price of each scheduled service in dollars.
    pub price: u32,
    /// Number of capped-price services.
    pub services: u32,
    /// Years the plan lasts.
    pub years: u32,
    /// Kilometres the plan lasts (whichever comes first with `years`).
    pub max_km: u32,
    /// A service is due every this many months...
    pub interval_months: u32,
    /// ...or this many kilometres, whichever comes first.
    pub interval_km: u32,
}

/// The plan of some models: values left out are the default plan's.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelServicePlan {
    /// Model names as the stock feed writes them, e.g. ["HiAce", "HiLux"]; "Corolla Hatch" matches a Corolla whose body is Hatch.
    pub models: Vec<String>,
    /// Price of each scheduled service in dollars.
    pub price: u32,
    /// Number of capped-price services.
    #[serde(default)]
    pub services: Option<u32>,
    /// Years the plan lasts.
    #[serde(default)]
    pub years: Option<u32>,
    /// Kilometres the plan lasts.
    #[serde(default)]
    pub max_km: Option<u32>,
    /// Months between services.
    #[serde(default)]
    pub interval_months: Option<u32>,
    /// Kilometres between services.
    #[serde(default)]
    pub interval_km: Option<u32>,
    /// The manufacturer gives no service interval for these models: the car page leaves the Service interval row out rather than show the default's or a guess. Not with `interval_months` or `interval_km`.
    #[serde(default)]
    pub interval_unknown: bool,
}

impl ServiceAdvantage {
    /// The plan of a car of `model` with body `body`: the first model entry
    /// naming it (letter case, spaces and dashes ignored), else the default.
    pub fn plan_for(&self, model: &str, body: Option<&str>) -> ServicePlan {
        let d = &self.default;
        match self.entry_for(model, body) {
            None => d.clone(),
            Some(m) => ServicePlan {
                price: m.price,
                services: m.services.unwrap_or(d.services),
                years: m.years.unwrap_or(d.years),
                max_km: m.max_km.unwrap_or(d.max_km),
                interval_months: m.interval_months.unwrap_or(d.interval_months),
                interval_km: m.interval_km.unwrap_or(d.interval_km),
            },
        }
    }
}

impl ServiceAdvantage {
    /// The first model entry naming a car of `model` with body `body`.
    fn entry_for(&self, model: &str, body: Option<&str>) -> Option<&ModelServicePlan> {
        let model_key = name_key(model);
        let with_body = body.map(|b| name_key(&format!("{model} {b}")));
        self.models.iter().find(|m| {
            m.models.iter().any(|name| {
                let k = name_key(name);
                k == model_key || with_body.as_deref() == Some(k.as_str())
            })
        })
    }

    /// Whether the plan of such a car has a service interval to show
    /// (its entry does not say `interval_unknown`).
    pub fn interval_known(&self, model: &str, body: Option<&str>) -> bool {
        !self
            .entry_for(model, body)
            .is_some_and(|m| m.interval_unknown)
    }
}

/// "LandCruiser 70", "landcruiser-70" and "Land Cruiser 70" compare equal.
pub fn name_key(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// docs/behaviour/car-page.md §9: $250 per service, 5 services, 5 years, 75,000 km, every 12
/// months or 15,000 km. The single-manufacturer preset starts from it.
impl Default for ServicePlan {
    fn default() -> Self {
        ServicePlan {
            price: 250,
            services: 5,
            years: 5,
            max_km: 75_000,
            interval_months: 12,
            interval_km: 15_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn advantage() -> ServiceAdvantage {
        ServiceAdvantage {
            title: "Service Advantage".into(),
            make: "Toyota".into(),
            car_types: Vec::new(),
            default: ServicePlan::default(),
            models: vec![
                ModelServicePlan {
                    models: vec!["HiAce".into(), "HiLux".into()],
                    price: 290,
                    services: Some(6),
                    years: Some(3),
                    max_km: None,
                    interval_months: Some(6),
                    interval_km: Some(10_000),
                    interval_unknown: false,
                },
                ModelServicePlan {
                    models: vec!["Corolla Hatch".into()],
                    price: 245,
                    services: None,
                    years: None,
                    max_km: None,
                    interval_months: None,
                    interval_km: None,
                    interval_unknown: false,
                },
                ModelServicePlan {
                    models: vec!["LandCruiser 70".into()],
                    price: 525,
                    services: Some(10),
                    years: None,
                    max_km: None,
                    interval_months: None,
                    interval_km: None,
                    interval_unknown: true,
                },
            ],
            terms: String::new(),
        }
    }

    #[test]
    fn a_listed_model_gets_its_plan_with_the_rest_from_the_default() {
        let plan = advantage().plan_for("hilux", Some("Ute"));
        assert_eq!(
            plan,
            ServicePlan {
                price: 290,
                services: 6,
                years: 3,
                max_km: 75_000,
                interval_months: 6,
                interval_km: 10_000
            }
        );
    }

    #[test]
    fn model_and_body_match_and_other_models_get_the_default() {
        assert_eq!(advantage().plan_for("Corolla", Some("Hatch")).price, 245);
        assert_eq!(advantage().plan_for("Corolla", Some("Sedan")).price, 250);
        assert_eq!(advantage().plan_for("Corolla", None).price, 250);
        assert_eq!(
            advantage().plan_for("RAV4", Some("SUV")),
            ServicePlan::default()
        );
    }

    #[test]
    fn an_interval_the_manufacturer_does_not_give_is_unknown() {
        let a = advantage();
        assert!(!a.interval_known("Land Cruiser 70", Some("Cab Chassis")));
        assert!(a.interval_known("HiLux", None));
        assert!(a.interval_known("RAV4", None), "the default's interval");
    }

    #[test]
    fn names_compare_without_case_spaces_or_dashes() {
        assert_eq!(name_key("Land Cruiser-70"), name_key("landcruiser 70"));
        assert_ne!(name_key("LandCruiser 70"), name_key("LandCruiser 300"));
    }
}
