//! Feature switches and the vehicle detail page (docs/behaviour/search.md §4-5, car-page.md, content.md §2.6).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{CardButton, DetailTab, ServiceAdvantage, TabItem};

/// Features that dealers switch on or off.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Features {
    /// Shoppers can sign in by phone and save cars to a watchlist.
    pub watchlist: bool,
    /// Compare toggle on cards.
    pub compare: bool,
    /// Favourite toggle (kept on the shopper's device).
    pub favourites: bool,
    /// The phone number is masked until clicked (and the reveal is logged). Off: shown at once.
    pub phone_reveal: bool,
    /// Reserve / buy online.
    pub checkout: Checkout,
    /// Weekly subscription prices are shown when present.
    pub subscriptions: bool,
    /// Trade-in valuation is offered.
    pub trade_in: bool,
    /// Similar-cars carousel on the detail page.
    pub similar_cars: bool,
    /// Sticky mobile footer with Call Now (within opening hours) and Enquire.
    pub sticky_mobile_footer: bool,
    /// Header dropdowns open on hover on desktop.
    pub hover_dropdowns: bool,
    /// Cloudflare Turnstile on every form (enquiries, test drives, trade-in, reserve...), checked by the edge before anything is stored. Needs `forms.turnstile` (the widget's site key and the name of the worker secret holding its secret key). Off by default because each dealer needs its own Turnstile widget; a hidden honeypot field guards every form either way.
    pub captcha: bool,
    /// What Make an Offer opens.
    pub make_offer: MakeOfferMode,
}

/// How the Make an Offer button works.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MakeOfferMode {
    /// An offer form in a dialog (offer amount required).
    #[default]
    Dialog,
    /// The car page's enquiry form, set to an offer (`?enquiry=offer#enquire`); no dialog.
    EnquiryForm,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            watchlist: true,
            compare: false,
            favourites: true,
            phone_reveal: true,
            checkout: Checkout::default(),
            subscriptions: false,
            trade_in: true,
            similar_cars: true,
            sticky_mobile_footer: false,
            hover_dropdowns: false,
            captcha: false,
            make_offer: MakeOfferMode::Dialog,
        }
    }
}

/// Reserving a car online.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Checkout {
    /// Offer Reserve Now.
    pub enabled: bool,
    /// Path segment of the checkout page: /cars/{slug}/checkout or /cars/{slug}/buy-online.
    pub path: CheckoutPath,
    /// Refundable deposit in dollars, paid online through `payment`. 0: no payment is taken (the amount is not shown on the button); the shopper first confirms their mobile with the sign-in code texted to it (so sign-in and its SMS provider are on for this dealer, watchlist or not), and the car is reserved as soon as they send the form. At most 5 cars are held without a deposit at one time, one per shopper.
    pub deposit: u32,
    /// Hours the car stays reserved once the deposit is paid (the shopper has 30 minutes to pay first).
    #[schemars(range(min = 1, max = 720))]
    pub hold_hours: u32,
    /// Only these car types can be reserved or bought online; empty allows all.
    pub car_types: Vec<super::CarType>,
    /// Only these makes can be reserved or bought online (e.g. ["Kia", "MG"]); empty allows all.
    pub makes: Vec<String>,
    /// The dealer's payment account that takes the deposit. Required when checkout is enabled with a deposit above 0.
    pub payment: Option<Payment>,
}

/// A payment account. The keys themselves are worker secrets: only their names go in this file.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Payment {
    /// The payment provider (today: `stripe`, Stripe Checkout).
    pub provider: PaymentProvider,
    /// Name of the worker secret holding the provider's secret API key, e.g. "STRIPE_SECRET_KEY_BMG".
    pub secret_name: String,
    /// Name of the worker secret holding the signing secret of the provider's webhook endpoint (`/api/checkout/webhook`), e.g. "STRIPE_WEBHOOK_SECRET_BMG".
    pub webhook_secret_name: String,
}

/// Payment providers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PaymentProvider {
    /// Stripe Checkout.
    Stripe,
}

impl Default for Checkout {
    fn default() -> Self {
        Checkout {
            enabled: false,
            path: CheckoutPath::Checkout,
            deposit: 200,
            hold_hours: 48,
            car_types: Vec::new(),
            makes: Vec::new(),
            payment: None,
        }
    }
}

/// Checkout page path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CheckoutPath {
    /// /cars/{slug}/checkout
    Checkout,
    /// /cars/{slug}/buy-online
    BuyOnline,
}

/// The vehicle detail page.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DetailPageConfig {
    /// Sidebar buttons, in order.
    pub sidebar_buttons: Vec<CardButton>,
    /// Hide the Twitter/X share button.
    pub hide_x_share: bool,
    /// Text shown when the registration has expired; empty shows nothing.
    pub rego_expired_text: Option<String>,
    /// A bar with the car's name, price, Enquire and Call at the bottom of the screen once the shopper has scrolled 900 px (on phones the sticky mobile footer takes its place when `features.sticky_mobile_footer` is on).
    pub sticky_sidebar: bool,
    /// What the certified pre-owned badge's dialog lists (cars of `cards.certified_badge_make` marked certified in the feed).
    pub certified_benefits: Vec<String>,
    /// Tabs under the specifications, in order. A tab with nothing to show for a car is left out.
    pub tabs: Vec<DetailTab>,
    /// The What's Included tab.
    pub whats_included: Vec<TabItem>,
    /// The Why Buy From Us tab: the dealer's value-adds.
    pub why_buy_from_us: Vec<TabItem>,
    /// The Protect Your Car tab: warranties and protection products.
    pub protect_your_car: Vec<TabItem>,
    /// Capped-price servicing block with its price per model (e.g. Toyota Service Advantage); leave out for none.
    pub service_advantage: Option<ServiceAdvantage>,
}

impl Default for DetailPageConfig {
    fn default() -> Self {
        DetailPageConfig {
            sidebar_buttons: vec![
                CardButton::Enquire,
                CardButton::HistoryReport,
                CardButton::Finance,
                CardButton::TradeIn,
                CardButton::Reserve,
            ],
            hide_x_share: false,
            rego_expired_text: Some("Unregistered".into()),
            sticky_sidebar: true,
            // docs/behaviour/content.md §9: Toyota certified pre-owned.
            certified_benefits: vec![
                "90 point inspection".into(),
                "1-year extra warranty".into(),
                "12 months roadside assist".into(),
            ],
            tabs: vec![
                DetailTab::DealerComments,
                DetailTab::WhatsIncluded,
                DetailTab::WhyBuyFromUs,
                DetailTab::ReserveOnline,
                DetailTab::ProtectYourCar,
                DetailTab::Features,
            ],
            whats_included: Vec::new(),
            why_buy_from_us: Vec::new(),
            protect_your_car: Vec::new(),
            service_advantage: None,
        }
    }
}
