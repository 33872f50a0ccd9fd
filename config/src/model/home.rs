//! The home page's blocks and the content only blocks show: the
//! promotions slider, location blocks, the guarantee and features banners
//! and blog tiles (docs/behaviour/content.md §2.9, §2.11, §2.12).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A block of the home page. Most are one word; a location block is a
/// mapping: `locations: { show: service, title: Book a service }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum HomeBlock {
    /// The promotions slider (`promotions`), 1920 by 540.
    Promotions,
    /// Stock counts by type and make, with the "Show me N cars" search.
    Stock,
    /// Current offers (`offers`), linking to /special-offers/.
    Offers,
    /// Make tiles with stock counts and logos.
    Brands,
    /// Model cards (`models`), linking to /models/.
    Models,
    /// The sell-your-car banner (`sell_your_car`).
    SellYourCar,
    /// The guarantee banner (`guarantee`).
    Guarantee,
    /// The features banner carousel (`features_banner`).
    Features,
    /// Review summary and reviews (`reviews`, when enabled).
    Reviews,
    /// Blog tiles (`blog`).
    Blog,
    /// A block of locations: one shows as a card with its map, several as a carousel of cards.
    Locations(LocationBlock),
}

/// Which locations a block shows (docs/behaviour/content.md §2.9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct LocationBlock {
    /// Heading of the block.
    pub title: String,
    /// Which locations: all, primary, sales, service, parts, service-and-parts (a location counts for a department when it is of that kind or has its hours), or one location's id.
    pub show: String,
    /// Only locations that sell or service this make (their `manufacturers`), e.g. "Kia".
    pub manufacturer: Option<String>,
    /// Only locations of this subtype (their `subtype`), e.g. "buying".
    pub subtype: Option<String>,
    /// Location ids left out.
    pub exclude: Vec<String>,
}

impl Default for LocationBlock {
    fn default() -> Self {
        LocationBlock {
            title: "Our Locations".into(),
            show: "all".into(),
            manufacturer: None,
            subtype: None,
            exclude: Vec::new(),
        }
    }
}

/// The words of `show` that are not a location id.
pub const LOCATION_SHOW_WORDS: [&str; 6] = [
    "all",
    "primary",
    "sales",
    "service",
    "parts",
    "service-and-parts",
];

/// A slide of the promotions slider.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Promotion {
    /// Image path or URL, 1920 by 540 pixels.
    pub image: String,
    /// What the image says, for screen readers and when it does not load.
    pub alt: String,
    /// Where the slide goes (optional).
    #[serde(default)]
    pub href: Option<String>,
    /// First moment it shows, "2026-11-01" or "2026-11-01 08:30" (dealer's time zone).
    #[serde(default)]
    pub start: Option<String>,
    /// Last moment it shows, "2026-11-30" or "2026-11-30 17:30"; it disappears after it without a rebuild.
    #[serde(default)]
    pub expiry: Option<String>,
}

/// The guarantee banner, e.g. haggle-free price, 48hr money back.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Guarantee {
    /// Heading, e.g. "The Brisbane Motor Group guarantee". Empty: "Our guarantee".
    pub title: String,
    /// The promises, in order. Empty: no banner.
    pub items: Vec<GuaranteeItem>,
}

/// One promise of the guarantee banner.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GuaranteeItem {
    /// Short promise, e.g. "48hr money back".
    pub title: String,
    /// One line of detail (optional).
    #[serde(default)]
    pub text: String,
}

/// A slide of the features banner carousel, e.g. "Servicing for life".
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeatureSlide {
    /// Heading.
    pub title: String,
    /// A sentence or two.
    pub text: String,
    /// Image path or URL (optional).
    #[serde(default)]
    pub image: Option<String>,
    /// Where "Learn more" goes (optional).
    #[serde(default)]
    pub href: Option<String>,
}

/// Blog tiles.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Blog {
    /// Heading of the tiles.
    pub title: String,
    /// Where "All articles" goes (optional): the dealer's blog, a site path or an https URL. The old site's /blog and /blog/… addresses redirect there too (else to the home page).
    pub href: Option<String>,
    /// The posts, newest first.
    pub posts: Vec<BlogPost>,
}

impl Default for Blog {
    fn default() -> Self {
        Blog {
            title: "Latest news".into(),
            href: None,
            posts: Vec::new(),
        }
    }
}

/// A blog post tile.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlogPost {
    /// Title of the post.
    pub title: String,
    /// Where it is: a site path (/pages/...) or https URL.
    pub href: String,
    /// Tile image path or URL (shown 375 pixels wide).
    #[serde(default)]
    pub image: Option<String>,
    /// Date published, "2026-10-02".
    pub date: String,
    /// A sentence or two.
    #[serde(default)]
    pub excerpt: String,
}
