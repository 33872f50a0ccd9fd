//! The dealer's rate limits: the groups of edge routes a dealer may limit,
//! listed once (in [`rate_limit_groups!`] below). From that one list come
//! - [`LimitGroup`], the groups with their names (the YAML keys under
//!   `edge.rate_limits`, and the names in the worker's counter keys);
//! - [`RateLimits`], what a dealer file says (every number optional), with
//!   the docs the dealer YAML's schema and field reference show;
//! - [`EdgeRateLimits`], what the worker enforces (the dealer's numbers
//!   over the platform defaults), stored in the dealer's edge config;
//! - the defaults.
//!
//! The worker maps each of its routes to a group (`dealer-edge-core`'s
//! `rate_limit::Route::group`).

use serde::{Deserialize, Serialize};

/// How often one route may be called: at most `per_client` calls from one
/// client address and `per_dealer` calls for the whole dealer within any
/// `window_secs` (a sliding window).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteLimit {
    pub per_client: u32,
    pub per_dealer: u32,
    pub window_secs: u32,
}

impl RouteLimit {
    const fn per_hour(per_client: u32, per_dealer: u32) -> Self {
        RouteLimit {
            per_client,
            per_dealer,
            window_secs: 3600,
        }
    }
}

/// One group of calls; each number left out keeps its default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct RouteLimitOverride {
    /// Calls allowed from one connection (client address) within the window.
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 1000000)))]
    pub per_client: Option<u32>,
    /// Calls allowed for the whole dealer within the window.
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 100000000)))]
    pub per_dealer: Option<u32>,
    /// The window in seconds, e.g. 3600 for "an hour".
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 86400)))]
    pub window_secs: Option<u32>,
}

impl RouteLimitOverride {
    /// These numbers over `default`.
    pub fn over(self, default: RouteLimit) -> RouteLimit {
        RouteLimit {
            per_client: self.per_client.unwrap_or(default.per_client),
            per_dealer: self.per_dealer.unwrap_or(default.per_dealer),
            window_secs: self.window_secs.unwrap_or(default.window_secs),
        }
    }
}

/// The one list of limit groups: each group's docs (as the dealer reads
/// them), its field (the YAML key), its [`LimitGroup`] variant and its
/// default `(per_client, per_dealer)` an hour. Each default is also written
/// out in its doc ("Default: …"), which a test holds to the numbers.
macro_rules! rate_limit_groups {
    ($( $(#[doc = $doc:literal])+ $field:ident / $variant:ident = ($per_client:expr, $per_dealer:expr), )+) => {
        /// A group of edge routes with limits of its own.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum LimitGroup {
            $( $(#[doc = $doc])+ $variant, )+
        }

        impl LimitGroup {
            /// Every group, in the order of the dealer YAML's docs.
            pub const ALL: &'static [LimitGroup] = &[$(LimitGroup::$variant),+];

            /// Its YAML key under `edge.rate_limits` (also its name in the
            /// worker's counter keys and logs).
            pub fn name(self) -> &'static str {
                match self {
                    $(LimitGroup::$variant => stringify!($field),)+
                }
            }
        }

        /// How often shoppers (and scripts) may call the dealer's edge API. Each call is counted against the calling connection (`per_client`) and against the whole dealer (`per_dealer`), over a sliding window; a call over either limit is answered 429 with the seconds to wait, except an enquiry over the dealer's limit, which is stored and delivered later (see `leads`). The defaults are far above what a shopper or a busy dealer does: change them only for a dealer whose traffic is unusual (a big group behind one office connection, a load test).
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(default, deny_unknown_fields)]
        pub struct RateLimits {
            $( $(#[doc = $doc])+ pub $field: RouteLimitOverride, )+
            /// Seconds before another sign-in code can be sent to the same phone number. Short on purpose: a stranger requesting codes for someone's number can delay their sign-in by this much at most. Default: 60.
            #[cfg_attr(feature = "schema", schemars(range(min = 10, max = 900)))]
            pub code_cooldown_secs: Option<u32>,
        }

        /// The dealer's rate limits as the worker enforces them: one
        /// [`RouteLimit`] per group ([`RateLimits`] has each one's docs).
        /// The defaults are far above what a real shopper or a busy dealer
        /// does (a mobile carrier may put many shoppers behind one
        /// address), and far below what a script does.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct EdgeRateLimits {
            $( pub $field: RouteLimit, )+
            /// Seconds before another code may be sent to the same number.
            pub code_cooldown_secs: u32,
        }

        impl RateLimits {
            /// The limits the edge enforces: these overrides over the defaults.
            pub fn resolve(&self) -> EdgeRateLimits {
                let d = EdgeRateLimits::default();
                EdgeRateLimits {
                    $( $field: self.$field.over(d.$field), )+
                    code_cooldown_secs: self.code_cooldown_secs.unwrap_or(d.code_cooldown_secs),
                }
            }
        }

        impl EdgeRateLimits {
            /// The limits of `group`.
            pub fn get(&self, group: LimitGroup) -> RouteLimit {
                match group {
                    $(LimitGroup::$variant => self.$field,)+
                }
            }
        }

        impl Default for EdgeRateLimits {
            fn default() -> Self {
                EdgeRateLimits {
                    $( $field: RouteLimit::per_hour($per_client, $per_dealer), )+
                    code_cooldown_secs: 60,
                }
            }
        }
    };
}

rate_limit_groups! {
    /// Enquiries sent (`POST /api/leads`). `per_client` refuses a connection that sends more (429). `per_dealer` is the most enquiries delivered to the dealer (e-mail, webhook) in the window without a passed captcha: an enquiry over it is not refused but stored and delivered once the window has room, so a flood can neither close the form nor flood the dealer's CRM. Enquiries that passed the captcha are delivered at once and never count; posts caught by the honeypot or refused by the captcha count nowhere. Default: 20 per client and 1,000 per dealer an hour.
    leads / Leads = (20, 1_000),
    /// Trade-in valuations saved with enquiries (`POST /api/miscellaneous`, where `trade_in.save_valuation` is on). Default: 20 per client and 1,000 per dealer an hour.
    save_valuation / SaveValuation = (20, 1_000),
    /// Analytics events; also, counted apart with the same numbers, the keyword searches the search page reports for its popular searches. Default: 600 per client and 50,000 per dealer an hour.
    events / Events = (600, 50_000),
    /// Car page views counted. Default: 600 per client and 100,000 per dealer an hour.
    views / Views = (600, 100_000),
    /// Finance quotes. Default: 120 per client and 20,000 per dealer an hour.
    quotes / Quotes = (120, 20_000),
    /// Phone numbers revealed. Default: 20 per client and 5,000 per dealer an hour.
    phone_reveal / PhoneReveal = (20, 5_000),
    /// Sign-in codes requested (each one is an SMS). `per_dealer` bounds the dealer's SMS bill: with the captcha on, a request needs a passed token and then never counts (a refused token is turned away and counts nowhere), so a stranger cannot use the budget up; without the captcha every request counts and one over it is refused. Default: 10 per client and 1,000 per dealer an hour.
    sign_in / SignIn = (10, 1_000),
    /// Sign-in codes entered. `per_dealer` counts only wrong codes (and codes entered for a number with no live code); over it wrong codes are answered 429, and a right code is never refused for it. Default: 30 per client and 3,000 per dealer an hour.
    verify / Verify = (30, 3_000),
    /// Watchlist calls, including the "who is signed in" check every page makes. Default: 1,200 per client and 100,000 per dealer an hour.
    watchlist / Watchlist = (1_200, 100_000),
    /// Lead delivery status look-ups. Default: 120 per client and 10,000 per dealer an hour.
    lead_status / LeadStatus = (120, 10_000),
    /// Online reservations started (each one may open a payment). Default: 10 per client and 1,000 per dealer an hour.
    checkout / Checkout = (10, 1_000),
    /// "Is this car reserved?" checks from car pages; also, counted apart with the same numbers, the search page asking for the popular searches. Default: 1,200 per client and 200,000 per dealer an hour.
    car_status / CarStatus = (1_200, 200_000),
    /// Trade-in valuations asked for (each one may call the valuation service). Default: 20 per client and 1,000 per dealer an hour.
    valuation / Valuation = (20, 1_000),
    /// Payment notifications from the payment provider (the client is the provider's sending address). Default: 2,000 per client and 20,000 per dealer an hour.
    payment_webhook / PaymentWebhook = (2_000, 20_000),
}

/// The ranges a stored limit must be in (the dealer YAML's schema states
/// the same maxima; it asks a dealer for a cooldown of at least 10 s, the
/// worker only refuses none at all, which tests with short waits use).
pub const PER_CLIENT_MAX: u32 = 1_000_000;
pub const PER_DEALER_MAX: u32 = 100_000_000;
pub const WINDOW_SECS_MAX: u32 = 86_400;
pub const CODE_COOLDOWN_SECS: std::ops::RangeInclusive<u32> = 1..=900;

impl EdgeRateLimits {
    /// Every group's limits with its name, as in the YAML.
    pub fn routes(&self) -> impl Iterator<Item = (&'static str, RouteLimit)> + '_ {
        LimitGroup::ALL.iter().map(|&g| (g.name(), self.get(g)))
    }

    /// The first limit out of range, named (`leads.per_client is 0; ...`):
    /// a stored configuration with one is refused rather than read as
    /// something else (0 calls is not "one call", 0 s is not "1 s").
    pub fn out_of_range(&self) -> Option<String> {
        for (name, l) in self.routes() {
            for (field, value, max) in [
                ("per_client", l.per_client, PER_CLIENT_MAX),
                ("per_dealer", l.per_dealer, PER_DEALER_MAX),
                ("window_secs", l.window_secs, WINDOW_SECS_MAX),
            ] {
                if !(1..=max).contains(&value) {
                    return Some(format!(
                        "rate_limits.{name}.{field} is {value}; it must be 1 to {max}"
                    ));
                }
            }
        }
        (!CODE_COOLDOWN_SECS.contains(&self.code_cooldown_secs)).then(|| {
            format!(
                "rate_limits.code_cooldown_secs is {}; it must be {} to {}",
                self.code_cooldown_secs,
                CODE_COOLDOWN_SECS.start(),
                CODE_COOLDOWN_SECS.end()
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_out_means_the_default() {
        assert_eq!(RateLimits::default().resolve(), EdgeRateLimits::default());
        let r = RateLimits {
            leads: RouteLimitOverride {
                per_client: Some(50),
                ..Default::default()
            },
            views: RouteLimitOverride {
                window_secs: Some(60),
                ..Default::default()
            },
            code_cooldown_secs: Some(30),
            ..Default::default()
        };
        let e = r.resolve();
        let d = EdgeRateLimits::default();
        assert_eq!(e.leads.per_client, 50);
        assert_eq!(
            e.leads.per_dealer, d.leads.per_dealer,
            "the rest of leads stays"
        );
        assert_eq!(e.leads.window_secs, d.leads.window_secs);
        assert_eq!(e.views.window_secs, 60);
        assert_eq!(e.views.per_client, d.views.per_client);
        assert_eq!(e.quotes, d.quotes);
        assert_eq!(e.payment_webhook, d.payment_webhook);
        assert_eq!(e.code_cooldown_secs, 30);
    }

    #[test]
    fn every_group_resolves_its_own_override() {
        // Each group set alone lands in that group and no other (a slip
        // in the one list's matches would move a dealer's number).
        for &group in LimitGroup::ALL {
            let mut yaml = serde_json::Map::new();
            yaml.insert(
                group.name().into(),
                serde_json::json!({ "per_client": 7, "per_dealer": 8, "window_secs": 9 }),
            );
            let r: RateLimits = serde_json::from_value(yaml.into()).unwrap();
            let e = r.resolve();
            let d = EdgeRateLimits::default();
            for &other in LimitGroup::ALL {
                let want = if other == group {
                    RouteLimit {
                        per_client: 7,
                        per_dealer: 8,
                        window_secs: 9,
                    }
                } else {
                    d.get(other)
                };
                assert_eq!(
                    e.get(other),
                    want,
                    "{} set, {} read",
                    group.name(),
                    other.name()
                );
            }
            let stored = serde_json::to_value(&e).unwrap();
            assert_eq!(
                stored[group.name()]["per_client"],
                7,
                "stored under its name"
            );
        }
    }

    #[test]
    fn names_are_the_fields() {
        let stored = serde_json::to_value(EdgeRateLimits::default()).unwrap();
        let mut fields: Vec<&str> = stored
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        fields.retain(|f| *f != "code_cooldown_secs");
        fields.sort_unstable();
        let mut names: Vec<&str> = LimitGroup::ALL.iter().map(|g| g.name()).collect();
        names.sort_unstable();
        assert_eq!(fields, names);
    }

    #[test]
    fn out_of_range_names_the_limit() {
        let mut e = EdgeRateLimits::default();
        assert_eq!(e.out_of_range(), None);
        e.checkout.window_secs = 0;
        assert_eq!(
            e.out_of_range().as_deref(),
            Some("rate_limits.checkout.window_secs is 0; it must be 1 to 86400")
        );
    }
}
