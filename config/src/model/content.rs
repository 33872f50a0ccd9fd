//! Navigation, footer, home page, offers, popup, reviews, forms, leads and
//! wording (spec 002).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A header menu entry; with `children` it is a dropdown.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NavItem {
    /// Text of the link, e.g. "Pre-owned Vehicles".
    pub label: String,
    /// Site path ("/search/used-cars") or full https URL. Optional for a dropdown that is not itself a link.
    #[serde(default)]
    pub href: Option<String>,
    /// Dropdown entries.
    #[serde(default)]
    pub children: Vec<Link>,
}

/// A link.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// Text of the link.
    pub label: String,
    /// Site path ("/about-us") or full https URL.
    pub href: String,
}

/// The footer.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Footer {
    /// Link groups, e.g. Buyer Tools, Servicing and Parts, Company.
    pub groups: Vec<FooterGroup>,
    /// Legal paragraph at the bottom of every page.
    pub legal_text: String,
}

/// A titled column of footer links.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FooterGroup {
    /// Heading, e.g. "Buyer Tools".
    pub title: String,
    /// Links in order.
    pub links: Vec<Link>,
}

/// The home page hero.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Home {
    /// Big heading. Empty: "{name}".
    pub hero_title: String,
    /// Line under the heading.
    pub hero_subtitle: String,
    /// Text of the hero button.
    pub cta_label: String,
    /// Where the hero button goes.
    pub cta_href: String,
}

impl Default for Home {
    fn default() -> Self {
        Home {
            hero_title: String::new(),
            hero_subtitle: "New, demo and used vehicles, serviced by people who know them.".into(),
            cta_label: "Browse our stock".into(),
            cta_href: "/search/".into(),
        }
    }
}

/// A special offer.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Offer {
    /// Id used in /offers/{id}; unique within the dealer.
    pub id: String,
    /// Title of the offer.
    pub name: String,
    /// Description; collapsed with "View more" when longer than 200 characters.
    pub description: String,
    /// Legal disclaimer of the offer.
    #[serde(default)]
    pub disclaimer: String,
    /// e.g. "Finance offer".
    #[serde(default)]
    pub category: Option<String>,
    /// Make the offer is for.
    #[serde(default)]
    pub manufacturer: Option<String>,
    /// Model the offer is for, e.g. "RAV4".
    #[serde(default)]
    pub model: Option<String>,
    /// Image path or URL.
    #[serde(default)]
    pub image: Option<String>,
    /// First day the offer shows, "2026-11-01".
    #[serde(default)]
    pub start: Option<String>,
    /// Last day the offer shows, "2026-11-30".
    #[serde(default)]
    pub expiry: Option<String>,
}

/// A popup shown once per shopper.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Popup {
    /// Image path or URL (max 600 px wide).
    pub image: String,
    /// Heading.
    pub title: String,
    /// Text.
    pub description: String,
    /// Button text.
    pub button_label: String,
    /// Button link.
    pub button_href: String,
    /// Last day it shows, "2026-12-24".
    pub expiry: String,
}

/// Reviews.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ReviewsConfig {
    /// Show the reviews section.
    pub enabled: bool,
    /// Reviews below this rating (1-5) are not shown.
    #[schemars(range(min = 1, max = 5))]
    pub min_rating: u8,
    /// Page where shoppers leave a review.
    pub review_url: Option<String>,
}

impl Default for ReviewsConfig {
    fn default() -> Self {
        ReviewsConfig {
            enabled: false,
            min_rating: 4,
            review_url: None,
        }
    }
}

/// Enquiry forms.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct FormsConfig {
    /// The message field must be filled in.
    pub message_required: bool,
    /// The terms checkbox must be ticked.
    pub terms_required: bool,
    /// State pre-selected in forms.
    pub default_state: super::AuState,
    /// Where the shopper lands after a successful form.
    pub success_path: String,
}

impl Default for FormsConfig {
    fn default() -> Self {
        FormsConfig {
            message_required: true,
            terms_required: true,
            default_state: super::AuState::QLD,
            success_path: "/success".into(),
        }
    }
}

/// Lead delivery.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct LeadsConfig {
    /// Dealer-wide lead address; ADF/XML e-mails go here (and to a location's `lead_email`).
    pub email: Option<String>,
    /// JSON webhook receiving every lead (https).
    pub webhook_url: Option<String>,
}

/// Wording that differs between dealers.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Copy {
    /// Shown instead of a price when a car has none.
    pub no_price_text: String,
    /// Shown when a car has no dealer comments.
    pub dealer_comments_pending: String,
    /// Tag for cars listed within the last 8 days.
    pub new_arrival_text: String,
}

impl Default for Copy {
    fn default() -> Self {
        Copy {
            no_price_text: "Enquire for price.".into(),
            dealer_comments_pending: "Dealer comments are pending. Please check back here later."
                .into(),
            new_arrival_text: "New Arrival".into(),
        }
    }
}

/// What location cards show (spec 002 §2.9: "only when the site's show flag is on").
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct LocationCards {
    /// Opening hours on the cards.
    pub show_hours: bool,
    /// Dealer licence numbers on the cards.
    pub show_licences: bool,
    /// Contact, Get Directions and Book a Service buttons on the cards.
    pub show_buttons: bool,
}

impl Default for LocationCards {
    fn default() -> Self {
        LocationCards {
            show_hours: true,
            show_licences: true,
            show_buttons: true,
        }
    }
}

/// Servicing.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ServiceConfig {
    /// External service-booking page (https). Empty: Book a Service goes to the site's own /genuine-service/ page (built when `pages.service` is on).
    pub booking_url: Option<String>,
    /// Roadside assistance phone shown on /roadside-assist/, e.g. "1800 555 010".
    pub roadside_phone: Option<String>,
}

/// The sell-your-car banner.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SellYourCar {
    /// Where the banner goes: /sell-your-car, /trade-in or the dealer's external page.
    pub href: String,
    /// Banner heading.
    pub headline: String,
    /// Banner button text.
    pub button_label: String,
}

impl Default for SellYourCar {
    fn default() -> Self {
        SellYourCar {
            href: "/sell-your-car".into(),
            headline: "We Would Love To Buy Your Vehicle. Get $$$ For Your Car Today!".into(),
            button_label: "Click Here To Sell".into(),
        }
    }
}

/// How offers are shown.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct OffersDisplay {
    /// Descriptions longer than this many characters collapse behind "View more"; 0 never collapses.
    pub collapse_description_over: u32,
}

impl Default for OffersDisplay {
    fn default() -> Self {
        OffersDisplay {
            collapse_description_over: 200,
        }
    }
}

/// Legal wording.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Legal {
    /// Complaint-handling text of /pages/complaint-handling-process.
    pub complaints_text: String,
    /// Days within which privacy complaints are answered.
    pub privacy_response_days: u32,
}

impl Default for Legal {
    fn default() -> Self {
        Legal {
            complaints_text: "If you are unhappy with our service, please speak to the manager of the department concerned or call the dealership. If we cannot resolve your complaint, you may contact your state's consumer protection regulator, or seek independent legal advice.".into(),
            privacy_response_days: 30,
        }
    }
}
