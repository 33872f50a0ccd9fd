//! Navigation, footer, home page, offers, popup, reviews, forms, leads and
//! wording (docs/behaviour/content.md).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A header menu entry: a link (`href`), a dropdown (`children`), or a
/// dropdown the site builds itself (`menu`).
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
    /// A dropdown built by the site: `models` (the New Vehicles mega-menu from the `models` list) or `pre_owned` (used and demo stock by make, with counts). Leave out `href` and `children` with it.
    #[serde(default)]
    pub menu: Option<NavMenu>,
}

/// Dropdowns the site builds from the dealer's data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NavMenu {
    /// The New Vehicles mega-menu: the `models` list by category (loaded when first opened).
    Models,
    /// Pre-owned stock: all used cars, used cars per make and demo cars, with counts.
    PreOwned,
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
    /// Payment methods shown as a "Payments accepted" strip, in order, e.g. [mastercard, visa, maestro, google_pay, apple_pay]. Empty: no strip.
    pub payments: Vec<PaymentMethod>,
}

/// A payment method of the footer's strip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaymentMethod {
    Mastercard,
    Visa,
    Maestro,
    Amex,
    GooglePay,
    ApplePay,
    Eftpos,
}

impl PaymentMethod {
    /// Its name as shoppers know it.
    pub fn label(self) -> &'static str {
        match self {
            PaymentMethod::Mastercard => "Mastercard",
            PaymentMethod::Visa => "Visa",
            PaymentMethod::Maestro => "Maestro",
            PaymentMethod::Amex => "American Express",
            PaymentMethod::GooglePay => "Google Pay",
            PaymentMethod::ApplePay => "Apple Pay",
            PaymentMethod::Eftpos => "EFTPOS",
        }
    }

    /// The word used in YAML and in the icon's file name.
    pub fn key(self) -> &'static str {
        match self {
            PaymentMethod::Mastercard => "mastercard",
            PaymentMethod::Visa => "visa",
            PaymentMethod::Maestro => "maestro",
            PaymentMethod::Amex => "amex",
            PaymentMethod::GooglePay => "google_pay",
            PaymentMethod::ApplePay => "apple_pay",
            PaymentMethod::Eftpos => "eftpos",
        }
    }
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

/// The home page: its hero and the blocks below it.
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
    /// Blocks under the hero, in order. A block without content (no offers, no reviews...) shows nothing. Words: promotions, stock, offers, brands, models, sell_your_car, guarantee, features, reviews, blog; `locations: { show: service, title: ... }` for a block of locations.
    pub blocks: Vec<super::HomeBlock>,
}

impl Default for Home {
    fn default() -> Self {
        use super::HomeBlock as B;
        Home {
            hero_title: String::new(),
            hero_subtitle: "New, demo and used vehicles, serviced by people who know them.".into(),
            cta_label: "Browse our stock".into(),
            cta_href: "/search/".into(),
            blocks: vec![
                B::Promotions,
                B::Stock,
                B::Offers,
                B::Brands,
                B::SellYourCar,
                B::Guarantee,
                B::Features,
                B::Reviews,
                B::Blog,
                B::Locations(super::LocationBlock::default()),
            ],
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
    /// First day the offer shows, "2026-11-01" (or "2026-11-01 08:30"), in the dealer's time zone.
    #[serde(default)]
    pub start: Option<String>,
    /// Last day the offer shows, "2026-11-30" (or "2026-11-30 17:30"); it disappears from the site after it without a rebuild.
    #[serde(default)]
    pub expiry: Option<String>,
    /// Dealer websites (dealer file names, e.g. "sunshine-coast-toyota") this offer is hidden on; useful for offers kept in a preset shared by several dealers.
    #[serde(default)]
    pub excluded_website_ids: Vec<String>,
}

/// A popup shown once per shopper, on the home page.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Popup {
    /// Image path or URL (shown at most 600 px wide).
    pub image: String,
    /// Heading.
    pub title: String,
    /// Text.
    pub description: String,
    /// Button text.
    pub button_label: String,
    /// Button link.
    pub button_href: String,
    /// First day it shows, "2026-12-01" (or "2026-12-01 08:30"); leave out to show it at once.
    #[serde(default)]
    pub start: Option<String>,
    /// Last day it shows, "2026-12-24" (or "2026-12-24 17:00"), in the dealer's time zone; it stops showing after it without a rebuild.
    pub expiry: String,
}

/// Customer reviews: a summary (count and average) and the reviews themselves.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ReviewsConfig {
    /// Show the reviews section (the home page's `reviews` block, #reviews).
    pub enabled: bool,
    /// Reviews rated below this (1-5) are not listed; they still count in a summary made from `items`.
    #[schemars(range(min = 1, max = 5))]
    pub min_rating: u8,
    /// Page where shoppers leave a review (a "Leave a review" button).
    pub review_url: Option<String>,
    /// The review summary as the review service reports it (e.g. Google: 1410 reviews, 4.7). Leave out to count the `items` instead.
    pub summary: Option<ReviewSummary>,
    /// Show the reviews themselves under the summary; false shows the summary only.
    pub show_list: bool,
    /// At most this many reviews are shown, newest first.
    #[schemars(range(min = 1, max = 50))]
    pub max_shown: u32,
    /// The reviews, as written by customers.
    pub items: Vec<Review>,
}

impl Default for ReviewsConfig {
    fn default() -> Self {
        ReviewsConfig {
            enabled: false,
            min_rating: 4,
            review_url: None,
            summary: None,
            show_list: true,
            max_shown: 12,
            items: Vec::new(),
        }
    }
}

/// The totals of a review service.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewSummary {
    /// Number of reviews, e.g. 1410.
    pub count: u32,
    /// Average rating from 1 to 5, e.g. 4.7.
    #[schemars(range(min = 1, max = 5))]
    pub average_rating: f64,
}

/// One customer review.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Review {
    /// The customer's name as they gave it, e.g. "Sam T.".
    pub customer_name: String,
    /// What they wrote.
    pub text: String,
    /// Rating from 1 to 5 (halves allowed, e.g. 4.5).
    #[schemars(range(min = 1, max = 5))]
    pub rating: f64,
    /// Date of the review, "2026-10-02".
    pub review_date: String,
    /// Photo path or URL (optional).
    #[serde(default)]
    pub image: Option<String>,
    /// Leave this review out everywhere, the list and the count and average made from `items` (a review the review site removed, or one not from a customer). A review rated under `min_rating` is only left out of the list: it still counts, so the summary is never an average of the favourable reviews alone.
    #[serde(default)]
    pub hidden: bool,
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
    /// Quick amounts offered under the finance form's budget question, in whole dollars, ascending: the default [5000, 10000, 20000, 30000, 40000, 50000, 70000] suits cars; a truck or caravan dealer lists its own, e.g. [300000, 400000, 500000, 600000, 700000, 800000]. At most 8, each $1,000 to $5,000,000; empty: no quick amounts.
    pub budget_presets: Vec<u32>,
    /// The dealer's Cloudflare Turnstile widget, used when `features.captcha` is on.
    pub turnstile: Option<Turnstile>,
    /// The words beside every lead form's marketing opt-in box, e.g. "Send me Ford offers and service reminders by email and SMS. I can unsubscribe at any time." The box is always unticked until the shopper ticks it (the Spam Act regulator, ACMA, does not accept a pre-ticked box as consent); a lead whose shopper ticked it records these words, when and on which page, and carries them to the CRM. Say what the shopper will receive, from whom, and how to withdraw. One line, at most 300 characters; default "Send me offers and news by email and SMS. I can unsubscribe at any time."
    pub opt_in_text: String,
}

/// A Cloudflare Turnstile widget (dash.cloudflare.com → Turnstile), listing the dealer's site hostnames.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Turnstile {
    /// The widget's site key (public; shown in the page), e.g. "0x4AAAAAAAB1cD2eF3gH4iJ5".
    pub site_key: String,
    /// Name of the worker secret holding the widget's secret key, e.g. "TURNSTILE_SECRET_BMG".
    pub secret_name: String,
}

impl Default for FormsConfig {
    fn default() -> Self {
        FormsConfig {
            message_required: true,
            terms_required: true,
            default_state: super::AuState::QLD,
            success_path: "/success".into(),
            budget_presets: vec![5_000, 10_000, 20_000, 30_000, 40_000, 50_000, 70_000],
            turnstile: None,
            opt_in_text: dealer_rules::edge_config::OPT_IN_TEXT_DEFAULT.into(),
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
    /// Tag of a car no longer in stock, shown while it stays on the site
    /// (`stock.include_sold_cars_days`), e.g. "JUST SOLD".
    pub sold_text: String,
}

impl Default for Copy {
    fn default() -> Self {
        Copy {
            no_price_text: "Enquire for price.".into(),
            dealer_comments_pending: "Dealer comments are pending. Please check back here later."
                .into(),
            new_arrival_text: "New Arrival".into(),
            sold_text: "SOLD".into(),
        }
    }
}

/// What location cards show (docs/behaviour/content.md §2.9: "only when the site's show flag is on").
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct LocationCards {
    /// Opening hours on the cards.
    pub show_hours: bool,
    /// Dealer licence numbers, on the cards and the location pages.
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
    /// Extras a shopper booking a service can tick, e.g. ["Wheel alignment", "Tyre check"]: the contact form's Service Booking offers them, and the booking reaches the dealer with the ones ticked (`additional_services`, also in the ADF comments). At most 20, each at most 100 characters. None by default.
    pub additional_services: Vec<String>,
}

/// Trade-in valuations (the /trade-in flow and the car page's Trade In).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TradeIn {
    /// The dealer's valuation service, which prices a trade-in from its rego, kilometres and the shopper's answers. Leave out to price trade-ins by hand: the answers then go with the lead.
    pub valuation: Option<ValuationService>,
    /// Keep each valuation the shopper was shown with their trade-in lead.
    pub save_valuation: bool,
    /// Questions and answers shown under the trade-in form on /trade-in/
    /// (a trade-in FAQ, docs/behaviour/spec-rows.md C49), in this order, each answer behind its
    /// question (opened with a click or Enter, and without JavaScript).
    /// Empty: no FAQ. The dealer's own words: what it pays out, what it
    /// needs, how long a valuation holds.
    pub faq: Vec<FaqItem>,
}

/// One question of a FAQ.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FaqItem {
    /// The question, one line, e.g. "Do I have to buy a car from you?".
    pub question: String,
    /// The answer, plain text; a blank line starts a new paragraph.
    pub answer: String,
}

/// A valuation service the edge calls (request and response in edge/openapi.yaml, ValuationServiceRequest).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValuationService {
    /// Endpoint URL (https).
    pub url: String,
    /// Name of the worker secret holding the service's API key, e.g. "VALUATION_API_KEY".
    pub secret_name: String,
}

/// The sell-your-car banner (the home page's `sell_your_car` block).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct SellYourCar {
    /// Where the banner goes: /trade-in/ or the dealer's external page.
    pub href: String,
    /// Banner heading.
    pub headline: String,
    /// Banner button text.
    pub button_label: String,
}

impl Default for SellYourCar {
    fn default() -> Self {
        SellYourCar {
            href: "/trade-in/".into(),
            headline: "We Would Love To Buy Your Vehicle. Get $$$ For Your Car Today!".into(),
            button_label: "Click Here To Sell".into(),
        }
    }
}

/// How offers are shown (/special-offers/ and each offer's page).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct OffersDisplay {
    /// Descriptions longer than this many characters collapse behind "View more"; 0 never collapses.
    pub collapse_description_over: u32,
    /// A collapsed description shows its first this-many characters (cut at a word).
    #[schemars(range(min = 20, max = 1000))]
    pub collapsed_length: u32,
    /// Disclaimers longer than this many characters collapse behind "View full disclaimer"; 0 never collapses.
    pub collapse_disclaimer_over: u32,
    /// Buttons of each offer, in order: enquire (Enquire Now), explore (Explore {model}, when the offer's model is in `models`), test_drive (Book A Test Drive).
    pub buttons: Vec<OfferButton>,
    /// Offers to show although they list this dealer in `excluded_website_ids` (offer ids).
    pub show_excluded: Vec<String>,
    /// Heading shown after the offer form is sent.
    pub thank_you_title: String,
    /// Text shown after the offer form is sent.
    pub thank_you_text: String,
}

impl Default for OffersDisplay {
    fn default() -> Self {
        OffersDisplay {
            collapse_description_over: 200,
            collapsed_length: 160,
            collapse_disclaimer_over: 200,
            buttons: vec![
                OfferButton::Enquire,
                OfferButton::Explore,
                OfferButton::TestDrive,
            ],
            show_excluded: Vec::new(),
            thank_you_title: "Thank you for your submission!".into(),
            thank_you_text: "We'll be in touch with you about your offer shortly.".into(),
        }
    }
}

/// A button of an offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OfferButton {
    /// "Enquire Now": the offer's enquiry form.
    Enquire,
    /// "Explore {model}": the model's page (when the offer names a model in `models`).
    Explore,
    /// "Book A Test Drive": the offer's form, asking for a test drive.
    TestDrive,
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
