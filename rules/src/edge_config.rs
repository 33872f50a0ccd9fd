//! The runtime facts the edge worker needs about one dealer.
//!
//! `dealergen build` writes one of these per dealer (as JSON, next to the
//! site); deployment puts it in the worker's KV namespace `CONFIG` under the
//! key `dealer:<slug>`, plus one key `origin:<origin>` → `<slug>` per allowed
//! origin. The worker derives the dealer from the request's `Origin` through
//! those keys and never trusts a dealer named in a request body.

use serde::{Deserialize, Serialize};

pub use crate::rate_limits::{EdgeRateLimits, LimitGroup, RouteLimit};

/// Step-up under attack: a dealer without a captcha of its own whose lead
/// budget is spent (a flood) has its forms ask for the platform's
/// Turnstile widget until the budget has room again. The platform's site
/// key (public) is this worker variable, its secret this worker secret
/// (`config/deploy.toml` `[edge] step_up_site_key`; the secret is put with
/// `wrangler secret put`). Without both, no step-up: leads over the budget
/// are held, as before.
pub const STEP_UP_SITE_KEY_VAR: &str = "STEP_UP_TURNSTILE_SITE_KEY";
pub const STEP_UP_SECRET: &str = "STEP_UP_TURNSTILE_SECRET";

/// KV key holding a dealer's [`EdgeConfig`] JSON.
pub fn dealer_key(slug: &str) -> String {
    format!("dealer:{slug}")
}

/// KV key holding the slugs of a dealer's visible cars (see [`car_list`]).
/// The worker counts views of these cars only.
pub fn cars_key(slug: &str) -> String {
    format!("cars:{slug}")
}

/// The KV value of [`cars_key`]: the car slugs, sorted, one per line.
pub fn car_list<'a>(slugs: impl IntoIterator<Item = &'a str>) -> String {
    let mut slugs: Vec<&str> = slugs.into_iter().collect();
    slugs.sort_unstable();
    slugs.dedup();
    slugs.join("\n")
}

/// Whether a [`car_list`] value names `slug`.
pub fn car_list_contains(list: &str, slug: &str) -> bool {
    !slug.is_empty() && list.split('\n').any(|line| line == slug)
}

/// KV key holding one visible car's [`EdgeCar`] JSON, by its page slug.
/// The lead, checkout and status calls read these: the vehicle of a lead
/// and whether a car may be reserved come from here, never from the client.
pub fn car_key(dealer: &str, slug: &str) -> String {
    format!("car:{dealer}:{slug}")
}

/// KV key mapping a visible car's feed id to its slug (the value), for
/// forms that name the car by `car_id`.
pub fn car_id_key(dealer: &str, id: &str) -> String {
    format!("car-id:{dealer}:{id}")
}

/// KV key mapping an allowed origin (scheme://host[:port]) to a dealer slug.
pub fn origin_key(origin: &str) -> String {
    format!("origin:{}", normalize_origin(origin))
}

/// The form origins are compared in: lower case, no trailing slash. Browsers
/// send `Origin` this way already; configuration written by hand may not be.
pub fn normalize_origin(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeConfig {
    /// Dealer slug (tenant id); every row the worker stores carries it.
    pub dealer: String,
    /// Dealer display name, used in lead e-mails.
    pub name: String,
    /// Origins allowed to call the API for this dealer (CORS and tenancy).
    pub origins: Vec<String>,
    /// The dealer's locations with the contact facts the worker may reveal.
    pub locations: Vec<EdgeLocation>,
    /// Where leads go.
    pub leads: LeadRouting,
    /// Switches that change what the worker accepts.
    pub features: EdgeFeatures,
    /// The dealer's id in the stock feed / old platform (`dealership_id` of
    /// phone-reveal records); none for dealers that never had one.
    #[serde(default)]
    pub dealership_id: Option<u64>,
    /// Form rules the worker enforces on leads.
    #[serde(default)]
    pub forms: EdgeForms,
    /// The dealer's quote service, if any (`POST /api/youx/quote`).
    #[serde(default)]
    pub finance: EdgeFinance,
    /// Whether `POST /api/events` records this dealer's analytics events.
    #[serde(default)]
    pub analytics: EdgeAnalytics,
    /// Rate limits of every rate-limited route, per client and per dealer.
    #[serde(default)]
    pub rate_limits: EdgeRateLimits,
    /// Reserving a car online: holds, the deposit and the payment provider.
    #[serde(default)]
    pub checkout: EdgeCheckout,
    /// The trade-in valuation service and whether valuations are saved.
    #[serde(default)]
    pub trade_in: EdgeTradeIn,
    /// The dealer's own words a popular search may not contain
    /// (`search.popular_searches_deny`, normalised), besides the worker's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub popular_searches_deny: Vec<String>,
}

/// Whether `path` is a page path on the dealer's own site: starts with one
/// `/` (so `//evil.example` or `@evil.example` cannot leave the site when
/// it follows the origin in a Location header), at most 200 characters of
/// letters, digits, `/ - _ .`, and so never CR/LF.
pub fn is_site_path(path: &str) -> bool {
    path.starts_with('/')
        && !path.starts_with("//")
        && path.len() <= 200
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.'))
}

/// Whether `text` is opt-in wording a form can show and a lead record: one
/// line (no control characters), not blank, at most [`OPT_IN_TEXT_MAX`]
/// characters. The build's check and the worker both ask it.
pub fn is_opt_in_text(text: &str) -> bool {
    !text.trim().is_empty() && text.chars().count() <= OPT_IN_TEXT_MAX && is_header_safe(text)
}

/// Whether `text` can go into a header or a mail subject as it is: no
/// control characters (CR/LF would start a header of its own).
fn is_header_safe(text: &str) -> bool {
    !text.chars().any(char::is_control)
}

/// Whether `url` is a URL the worker may send a request to: https:// (or
/// http:// to this machine's loopback, where local stand-ins listen and
/// nothing crosses a network), no spaces or control characters, a host
/// after the scheme.
fn is_request_target(url: &str) -> bool {
    let rest = url.strip_prefix("https://").or_else(|| {
        url.strip_prefix("http://").filter(|r| {
            ["127.0.0.1", "localhost", "[::1]"].iter().any(|host| {
                r.strip_prefix(host)
                    .is_some_and(|after| after.is_empty() || after.starts_with([':', '/']))
            })
        })
    });
    rest.is_some_and(|rest| {
        !rest.is_empty()
            && !rest.starts_with('/')
            && !rest.chars().any(|c| c.is_control() || c.is_whitespace())
    })
}

impl EdgeConfig {
    /// Sign-in by a code to the shopper's mobile is offered: for the
    /// watchlist, and to verify the mobile of a hold without a deposit.
    pub fn sign_in(&self) -> bool {
        self.features.watchlist || (self.checkout.enabled && self.checkout.unpaid_holds)
    }

    /// The first configured value that would reach a header, an address
    /// or a redirect unsafely, named by its key: the build refuses these
    /// (config/src/check), and the worker checks again what it reads from
    /// KV, so a hand-edited or tampered entry answers 503 before anything
    /// is stored, like any broken config.
    pub fn unsafe_value(&self) -> Option<String> {
        let bad = |key: &str, value: &str, why: &str| {
            Some(format!("{key} `{}` {why}", value.escape_debug()))
        };
        if !is_header_safe(&self.name) {
            return bad("name", &self.name, "has a control character");
        }
        for (i, origin) in self.origins.iter().enumerate() {
            let host = origin
                .strip_prefix("https://")
                .or_else(|| origin.strip_prefix("http://"));
            let ok = host.is_some_and(|h| {
                !h.is_empty()
                    && h.bytes().all(|b| {
                        b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'/')
                    })
            });
            if !ok {
                return bad(&format!("origins[{i}]"), origin, "is not a site origin");
            }
        }
        if !is_opt_in_text(&self.forms.opt_in_text) {
            return bad(
                "forms.opt_in_text",
                &self.forms.opt_in_text,
                "is not one line of at most 300 characters",
            );
        }
        if !is_site_path(&self.forms.success_path) {
            return bad(
                "forms.success_path",
                &self.forms.success_path,
                "is not a page path on the site",
            );
        }
        if !is_site_path(&format!("/{}", self.checkout.path)) || self.checkout.path.contains('/') {
            return bad(
                "checkout.path",
                &self.checkout.path,
                "is not one path segment",
            );
        }
        let emails = self
            .leads
            .email
            .iter()
            .map(|e| ("leads.email".to_string(), e))
            .chain(self.locations.iter().enumerate().filter_map(|(i, l)| {
                l.lead_email
                    .as_ref()
                    .map(|e| (format!("locations[{i}].lead_email"), e))
            }));
        for (key, email) in emails {
            if !crate::contact::is_valid_email(email) {
                return bad(&key, email, "is not an e-mail address");
            }
        }
        for (i, location) in self.locations.iter().enumerate() {
            if !is_header_safe(&location.name) {
                return bad(
                    &format!("locations[{i}].name"),
                    &location.name,
                    "has a control character",
                );
            }
        }
        let targets = [
            ("leads.webhook_url", self.leads.webhook_url.as_deref()),
            (
                "trade_in.valuation.url",
                self.trade_in.valuation.as_ref().map(|v| v.url.as_str()),
            ),
            (
                "finance.quote_provider.url",
                self.finance.quote_provider.as_ref().map(|q| q.url.as_str()),
            ),
        ];
        for (key, url) in targets {
            if let Some(url) = url.filter(|u| !is_request_target(u)) {
                return bad(key, url, "is not an https:// URL");
            }
        }
        None
    }

    /// Whether `origin` is one of this dealer's own origins. The worker checks
    /// this on top of the `origin:` KV key, so a stale or wrong key can never
    /// open one dealer's API (and CORS) to another dealer's site.
    pub fn allows_origin(&self, origin: &str) -> bool {
        let origin = normalize_origin(origin);
        self.origins.iter().any(|o| normalize_origin(o) == origin)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeLocation {
    /// Location id as used in the stock feed (`location_id`).
    pub id: String,
    pub name: String,
    /// Phone revealed by the phone-reveal call.
    pub phone: String,
    /// Lead e-mail for this location; falls back to the dealer's.
    pub lead_email: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeadRouting {
    /// Dealer-wide lead e-mail address (ADF/XML is sent here).
    pub email: Option<String>,
    /// JSON webhook that receives every lead, if set.
    pub webhook_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeFeatures {
    pub watchlist: bool,
    pub phone_reveal: bool,
    /// `POST /api/trade-in/valuation` answers (404 when off). Configs
    /// written before the field existed had trade-in on (the YAML default).
    #[serde(default = "yes")]
    pub trade_in: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeForms {
    /// The message field must be filled in on open-question forms (enquiry,
    /// general, fleet...). Off: the message is optional everywhere.
    pub message_required: bool,
    /// The terms checkbox must be ticked (`terms_conditions: true`).
    #[serde(default = "yes")]
    pub terms_required: bool,
    /// Site path a form posted without JavaScript is redirected to (303)
    /// after success, on the dealer's own origin.
    #[serde(default = "default_success_path")]
    pub success_path: String,
    /// Cloudflare Turnstile: when set, leads and checkout holds need a
    /// token the worker verifies; none means no captcha.
    #[serde(default)]
    pub captcha: Option<EdgeCaptcha>,
    /// The words beside the marketing opt-in's box, as the site shows them
    /// (`forms.opt_in_text`): a lead whose shopper ticked the box records
    /// them as what was agreed to.
    #[serde(default = "default_opt_in_text")]
    pub opt_in_text: String,
}

/// The marketing opt-in's words where the dealer gives none
/// (`forms.opt_in_text`). The Spam Act regulator (ACMA) expects consent
/// terms to say what the shopper agrees to receive and how to withdraw.
pub const OPT_IN_TEXT_DEFAULT: &str =
    "Send me offers and news by email and SMS. I can unsubscribe at any time.";

/// Longest opt-in wording accepted: a sentence or two beside a box.
pub const OPT_IN_TEXT_MAX: usize = 300;

fn default_success_path() -> String {
    "/success".into()
}

fn default_opt_in_text() -> String {
    OPT_IN_TEXT_DEFAULT.into()
}

impl Default for EdgeForms {
    /// Required unless the dealer switches it off.
    fn default() -> Self {
        EdgeForms {
            message_required: true,
            terms_required: true,
            success_path: default_success_path(),
            captcha: None,
            opt_in_text: default_opt_in_text(),
        }
    }
}

/// The dealer's Turnstile widget, as far as the worker needs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeCaptcha {
    /// Name of the worker secret holding the widget's secret key (only the
    /// name is in configuration).
    pub secret_name: String,
}

/// Online reservation (checkout) of cars.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EdgeCheckout {
    /// Holds are accepted at all. Which cars may be reserved is decided at
    /// build time per car ([`EdgeCar::checkout`]).
    pub enabled: bool,
    /// The checkout page's path segment below /cars/{slug}/: "checkout" or
    /// "buy-online" (the payment provider sends the shopper back there).
    pub path: String,
    /// Hours a paid reservation holds the car.
    pub hold_hours: u32,
    /// Who takes the deposit; none when the deposit is 0 (the car is then
    /// reserved without payment).
    pub payment: Option<EdgePayment>,
    /// Cars are reserved without a deposit (`features.checkout.deposit:
    /// 0`): nothing paid holds the car, so the shopper first proves the
    /// mobile is theirs with the sign-in code, and sign-in is open for
    /// that even when the watchlist is off.
    pub unpaid_holds: bool,
}

impl Default for EdgeCheckout {
    fn default() -> Self {
        EdgeCheckout {
            enabled: false,
            path: "checkout".into(),
            hold_hours: 48,
            payment: None,
            unpaid_holds: false,
        }
    }
}

/// The payment providers the worker speaks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PaymentProvider {
    /// Stripe Checkout (hosted payment page) and its signed webhooks.
    Stripe,
}

/// The dealer's payment account. Only secret NAMES are configuration; the
/// keys are worker secrets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgePayment {
    pub provider: PaymentProvider,
    /// Worker secret holding the API (secret) key.
    pub secret_name: String,
    /// Worker secret holding the webhook endpoint's signing secret.
    pub webhook_secret_name: String,
}

/// Trade-in valuations.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EdgeTradeIn {
    /// The dealer's valuation service; none: no estimates (the answers go
    /// with the lead for the dealer to price).
    pub valuation: Option<EdgeValuationService>,
    /// `POST /api/miscellaneous` stores valuations (404 when off).
    pub save_valuation: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeValuationService {
    /// Endpoint the worker POSTs the valuation request to (https).
    pub url: String,
    /// Name of the worker secret holding its API key.
    pub secret_name: String,
}

/// What the worker knows of one visible car (KV [`car_key`]), written by
/// the build from the same data the car's page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeCar {
    /// Feed id, as text.
    pub id: String,
    pub slug: String,
    /// "2023 Toyota Corolla Ascent Sport".
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stock_number: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vin: Option<String>,
    pub year: u16,
    pub make: String,
    pub model: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub badge: Option<String>,
    /// new, demo or used.
    pub car_type: String,
    /// in_stock, coming_soon or sold.
    pub status: String,
    /// The feed marks it reserved.
    pub reserved: bool,
    /// The price shown in dollars (0: none shown).
    pub price: f64,
    /// The price as shown ("$34,990", "Enquire for price.").
    pub price_text: String,
    pub km: u64,
    /// Absolute URL of the car's page on the dealer's site.
    pub url: String,
    pub location_id: String,
    /// May be reserved online (the dealer's checkout rules, decided by the
    /// build with [`crate::checkout::may_reserve`]).
    pub checkout: bool,
    /// Reservation deposit in dollars.
    pub deposit: u32,
}

/// Not `deny_unknown_fields`: configs written before quotes stopped being
/// computed carry a `calculator` section, and such a KV value must keep
/// loading until the next deploy replaces it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct EdgeFinance {
    /// The quote service the worker forwards quote requests to. None: the
    /// dealer has no quotes and the endpoint answers 404 (the worker never
    /// makes a quote up: its comparison rate would be a misleading credit
    /// advertisement).
    pub quote_provider: Option<EdgeQuoteProvider>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EdgeQuoteProvider {
    /// Endpoint the worker POSTs the quote request to.
    pub url: String,
    /// Name of the worker secret holding its API key. Only the name is in
    /// configuration; the key itself lives in the worker's secrets.
    pub secret_name: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EdgeAnalytics {
    /// Record events in the worker's D1 `events` table.
    pub enabled: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_keys_ignore_case_and_trailing_slash() {
        assert_eq!(
            origin_key("https://Example.com.au/"),
            "origin:https://example.com.au"
        );
        assert_eq!(dealer_key("demo"), "dealer:demo");
    }

    #[test]
    fn allows_only_own_origins() {
        let config = EdgeConfig {
            dealer: "demo".into(),
            name: "Demo".into(),
            origins: vec![
                "https://Demo.example/".into(),
                "http://127.0.0.1:4321".into(),
            ],
            locations: vec![],
            leads: LeadRouting {
                email: None,
                webhook_url: None,
            },
            features: EdgeFeatures {
                watchlist: false,
                phone_reveal: false,
                trade_in: true,
            },
            dealership_id: None,
            forms: EdgeForms::default(),
            finance: EdgeFinance::default(),
            analytics: EdgeAnalytics::default(),
            rate_limits: EdgeRateLimits::default(),
            checkout: EdgeCheckout::default(),
            trade_in: EdgeTradeIn::default(),
            popular_searches_deny: Vec::new(),
        };
        assert!(config.allows_origin("https://demo.example"));
        assert!(config.allows_origin("http://127.0.0.1:4321"));
        assert!(
            !config.allows_origin("http://demo.example"),
            "scheme matters"
        );
        assert!(!config.allows_origin("https://demo.example.evil.com"));
        assert!(
            !config.allows_origin("http://127.0.0.1:4322"),
            "port matters"
        );
        assert!(!config.allows_origin("null"));
    }

    #[test]
    fn configs_written_before_the_new_sections_still_load() {
        // A KV value from an older `dealergen build` must keep working.
        let old = r#"{"dealer":"d","name":"D","origins":[],"locations":[],
            "leads":{"email":null,"webhook_url":null},
            "features":{"watchlist":true,"phone_reveal":false}}"#;
        let c: EdgeConfig = serde_json::from_str(old).unwrap();
        assert!(c.forms.message_required);
        assert_eq!(c.finance.quote_provider, None);
        assert!(!c.analytics.enabled);
        assert_eq!(c.rate_limits, EdgeRateLimits::default());
        assert!(c.forms.terms_required && c.forms.captcha.is_none());
        assert_eq!(c.forms.success_path, "/success");
        assert_eq!(c.forms.opt_in_text, OPT_IN_TEXT_DEFAULT);
        assert!(c.features.trade_in);
        assert_eq!(c.checkout, EdgeCheckout::default());
        assert!(!c.checkout.enabled && c.checkout.hold_hours == 48);
        assert_eq!(c.trade_in, EdgeTradeIn::default());
        let with_calculator = r#"{"dealer":"d","name":"D","origins":[],"locations":[],
            "leads":{"email":null,"webhook_url":null},
            "features":{"watchlist":true,"phone_reveal":false},
            "finance":{"calculator":{"default_interest_rate":10.0},
                       "quote_provider":{"url":"https://q.example/q","secret_name":"K"}}}"#;
        let c: EdgeConfig = serde_json::from_str(with_calculator).unwrap();
        assert_eq!(c.finance.quote_provider.unwrap().secret_name, "K");
    }

    #[test]
    fn opt_in_text_is_one_short_line() {
        assert!(is_opt_in_text(OPT_IN_TEXT_DEFAULT));
        assert!(is_opt_in_text("Send me Ford offers."));
        for bad in [
            "",
            "   ",
            "Offers\nBcc: x@evil.example",
            "Offers\r",
            "\u{7}",
        ] {
            assert!(!is_opt_in_text(bad), "{bad:?}");
        }
        assert!(is_opt_in_text(&"a".repeat(OPT_IN_TEXT_MAX)));
        assert!(!is_opt_in_text(&"a".repeat(OPT_IN_TEXT_MAX + 1)));
        let mut config: EdgeConfig = serde_json::from_str(
            r#"{"dealer":"d","name":"D","origins":[],"locations":[],
            "leads":{"email":null,"webhook_url":null},
            "features":{"watchlist":true,"phone_reveal":false}}"#,
        )
        .unwrap();
        assert_eq!(config.unsafe_value(), None);
        config.forms.opt_in_text = "Offers\r\nBcc: x@evil.example".into();
        assert!(config
            .unsafe_value()
            .is_some_and(|why| why.starts_with("forms.opt_in_text")));
    }

    #[test]
    fn car_keys() {
        assert_eq!(car_key("demo", "2021-kia-rio-9"), "car:demo:2021-kia-rio-9");
        assert_eq!(car_id_key("demo", "9"), "car-id:demo:9");
    }

    #[test]
    fn car_lists_are_sorted_lines() {
        let list = car_list(["b-2", "a-1", "b-2", "c_3"]);
        assert_eq!(list, "a-1\nb-2\nc_3");
        assert!(car_list_contains(&list, "a-1") && car_list_contains(&list, "c_3"));
        assert!(!car_list_contains(&list, "a"), "whole lines only");
        assert!(!car_list_contains(&list, "a-1\nb-2"));
        assert!(!car_list_contains("", ""));
        assert_eq!(cars_key("demo"), "cars:demo");
    }

    #[test]
    fn default_limits_are_generous_but_finite() {
        let d = EdgeRateLimits::default();
        for (_, l) in d.routes() {
            assert!(l.per_client >= 10 && l.per_dealer >= 50 * l.per_client.min(20));
            assert!(l.per_dealer > l.per_client && l.window_secs == 3600);
        }
        assert_eq!(
            d.phone_reveal.per_client, 20,
            "a handful of reveals, not a scrape"
        );
        assert!(
            d.code_cooldown_secs <= 120,
            "a stranger delays sign-in briefly at most"
        );
    }
}
