//! The models a dealer sells (docs/behaviour/content.md §2.2, §2.8, §3 "Model"): /models,
//! each model's page and the New Vehicles mega-menu.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Link;

/// A model of the dealer's range, e.g. RAV4.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Model {
    /// Name as shoppers know it, e.g. "RAV4 Hybrid".
    pub name: String,
    /// URL slug of its page /models/{slug}/. Defaults to the name in kebab case.
    #[serde(default)]
    pub slug: Option<String>,
    /// Make, e.g. "Kia". Defaults to the dealer's `manufacturer`; needed for a multi-brand dealer.
    #[serde(default)]
    pub manufacturer: Option<String>,
    /// available (labelled All-New) or coming_soon (labelled Upcoming).
    #[serde(default)]
    pub status: ModelStatus,
    /// Which group of /models and the mega-menu it is in.
    pub body: ModelBody,
    /// Image path or URL (a side view on a plain background works best).
    pub image: String,
    /// A sentence or two for its page.
    #[serde(default)]
    pub description: String,
    /// "Explore {model}" goes here instead of the model's own page, e.g. the manufacturer's page of the model.
    #[serde(default)]
    pub override_url: Option<String>,
    /// Where the model's "View accessories" goes: the manufacturer's accessories page for the model (https) or a page of this site. The old platform's /{model}/accessories address redirects here too. Without it: the parts page, where a location serves parts; else no link.
    #[serde(default)]
    pub accessories_url: Option<String>,
    /// The model's name in the stock feed when it differs, e.g. "RAV4" for "RAV4 Hybrid" (for "Our Stock" and its count).
    #[serde(default)]
    pub stock_model: Option<String>,
}

/// Whether a model is on sale yet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModelStatus {
    /// On sale: labelled "All-New".
    #[default]
    Available,
    /// Announced, not yet on sale: labelled "Upcoming".
    ComingSoon,
}

impl ModelStatus {
    /// The label the spec gives each status: Upcoming for coming_soon, All-New for any other.
    pub fn label(self) -> &'static str {
        match self {
            ModelStatus::Available => "All-New",
            ModelStatus::ComingSoon => "Upcoming",
        }
    }
}

/// The groups of /models, in the order they are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ModelBody {
    /// Cars
    #[serde(rename = "cars")]
    Cars,
    /// Hatch & sedans
    #[serde(rename = "hatch-sedans")]
    HatchSedans,
    /// SUVs & 4WDs
    #[serde(rename = "suvs-4wds")]
    Suvs4wds,
    /// Utes & Vans
    #[serde(rename = "utes-vans")]
    UtesVans,
    /// GR & performance
    #[serde(rename = "gr-performance")]
    GrPerformance,
    /// Electrified
    #[serde(rename = "electrified")]
    Electrified,
    /// Upcoming
    #[serde(rename = "upcoming")]
    Upcoming,
    /// Discontinued
    #[serde(rename = "discontinued")]
    Discontinued,
}

impl ModelBody {
    /// Every group in the order of docs/behaviour/content.md §2.8.
    pub const ORDER: [ModelBody; 8] = [
        ModelBody::Cars,
        ModelBody::HatchSedans,
        ModelBody::Suvs4wds,
        ModelBody::UtesVans,
        ModelBody::GrPerformance,
        ModelBody::Electrified,
        ModelBody::Upcoming,
        ModelBody::Discontinued,
    ];

    /// The group's heading.
    pub fn label(self) -> &'static str {
        match self {
            ModelBody::Cars => "Cars",
            ModelBody::HatchSedans => "Hatch & sedans",
            ModelBody::Suvs4wds => "SUVs & 4WDs",
            ModelBody::UtesVans => "Utes & Vans",
            ModelBody::GrPerformance => "GR & performance",
            ModelBody::Electrified => "Electrified",
            ModelBody::Upcoming => "Upcoming",
            ModelBody::Discontinued => "Discontinued",
        }
    }

    /// The word in YAML, URLs (/models/#suvs-4wds) and the data.
    pub fn key(self) -> &'static str {
        match self {
            ModelBody::Cars => "cars",
            ModelBody::HatchSedans => "hatch-sedans",
            ModelBody::Suvs4wds => "suvs-4wds",
            ModelBody::UtesVans => "utes-vans",
            ModelBody::GrPerformance => "gr-performance",
            ModelBody::Electrified => "electrified",
            ModelBody::Upcoming => "upcoming",
            ModelBody::Discontinued => "discontinued",
        }
    }
}

/// The New Vehicles mega-menu (a `navigation` entry with `menu: models`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ModelMenu {
    /// Models whose name contains one of these words come first, in this order (e.g. [Corolla, RAV4, HiLux]); the rest follow alphabetically.
    pub preferred_order: Vec<String>,
    /// Extra links under the menu on phones, e.g. all models, new stock, book a test drive.
    pub mobile_links: Vec<Link>,
}
