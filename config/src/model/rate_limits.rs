//! Rate limits of the dealer's edge API (`edge.rate_limits`). Every field
//! is optional: what a dealer leaves out keeps the platform default, which
//! is defined once, in `dealer_rules::edge_config::EdgeRateLimits`.

use dealer_rules::edge_config::{EdgeRateLimits, RouteLimit};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How often shoppers (and scripts) may call the dealer's edge API. Each call is counted against the calling connection (`per_client`) and against the whole dealer (`per_dealer`), over a sliding window; a call over either limit is answered 429 with the seconds to wait, except an enquiry over the dealer's limit, which is stored and delivered later (see `leads`). The defaults are far above what a shopper or a busy dealer does: change them only for a dealer whose traffic is unusual (a big group behind one office connection, a load test).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RateLimits {
    /// Enquiries sent (`POST /api/leads`). `per_client` refuses a connection that sends more (429). `per_dealer` is the most enquiries delivered to the dealer (e-mail, webhook) in the window without a passed captcha: an enquiry over it is not refused but stored and delivered once the window has room, so a flood can neither close the form nor flood the dealer's CRM. Enquiries that passed the captcha are delivered at once and never count; posts caught by the honeypot or refused by the captcha count nowhere. Default: 20 per client and 1,000 per dealer an hour.
    pub leads: RouteLimitOverride,
    /// Trade-in valuations saved with enquiries (`POST /api/miscellaneous`, where `trade_in.save_valuation` is on). Default: 20 per client and 1,000 per dealer an hour.
    pub save_valuation: RouteLimitOverride,
    /// Analytics events; also, counted apart with the same numbers, the keyword searches the search page reports for its popular searches. Default: 600 per client and 50,000 per dealer an hour.
    pub events: RouteLimitOverride,
    /// Car page views counted. Default: 600 per client and 100,000 per dealer an hour.
    pub views: RouteLimitOverride,
    /// Finance quotes. Default: 120 per client and 20,000 per dealer an hour.
    pub quotes: RouteLimitOverride,
    /// Phone numbers revealed. Default: 20 per client and 5,000 per dealer an hour.
    pub phone_reveal: RouteLimitOverride,
    /// Sign-in codes requested (each one is an SMS). `per_dealer` bounds the dealer's SMS bill: with the captcha on, a request needs a passed token and then never counts (a refused token is turned away and counts nowhere), so a stranger cannot use the budget up; without the captcha every request counts and one over it is refused. Default: 10 per client and 1,000 per dealer an hour.
    pub sign_in: RouteLimitOverride,
    /// Sign-in codes entered. `per_dealer` counts only wrong codes (and codes entered for a number with no live code); over it wrong codes are answered 429, and a right code is never refused for it. Default: 30 per client and 3,000 per dealer an hour.
    pub verify: RouteLimitOverride,
    /// Watchlist calls, including the "who is signed in" check every page makes. Default: 1,200 per client and 100,000 per dealer an hour.
    pub watchlist: RouteLimitOverride,
    /// Lead delivery status look-ups. Default: 120 per client and 10,000 per dealer an hour.
    pub lead_status: RouteLimitOverride,
    /// Online reservations started (each one may open a payment). Default: 10 per client and 1,000 per dealer an hour.
    pub checkout: RouteLimitOverride,
    /// "Is this car reserved?" checks from car pages; also, counted apart with the same numbers, the search page asking for the popular searches. Default: 1,200 per client and 200,000 per dealer an hour.
    pub car_status: RouteLimitOverride,
    /// Trade-in valuations asked for (each one may call the valuation service). Default: 20 per client and 1,000 per dealer an hour.
    pub valuation: RouteLimitOverride,
    /// Payment notifications from the payment provider (the client is the provider's sending address). Default: 2,000 per client and 20,000 per dealer an hour.
    pub payment_webhook: RouteLimitOverride,
    /// Seconds before another sign-in code can be sent to the same phone number. Short on purpose: a stranger requesting codes for someone's number can delay their sign-in by this much at most. Default: 60.
    #[schemars(range(min = 10, max = 900))]
    pub code_cooldown_secs: Option<u32>,
}

/// One group of calls; each number left out keeps its default.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct RouteLimitOverride {
    /// Calls allowed from one connection (client address) within the window.
    #[schemars(range(min = 1, max = 1000000))]
    pub per_client: Option<u32>,
    /// Calls allowed for the whole dealer within the window.
    #[schemars(range(min = 1, max = 100000000))]
    pub per_dealer: Option<u32>,
    /// The window in seconds, e.g. 3600 for "an hour".
    #[schemars(range(min = 1, max = 86400))]
    pub window_secs: Option<u32>,
}

impl RouteLimitOverride {
    fn over(self, default: RouteLimit) -> RouteLimit {
        RouteLimit {
            per_client: self.per_client.unwrap_or(default.per_client),
            per_dealer: self.per_dealer.unwrap_or(default.per_dealer),
            window_secs: self.window_secs.unwrap_or(default.window_secs),
        }
    }
}

impl RateLimits {
    /// The limits the edge enforces: these overrides over the defaults.
    pub fn resolve(&self) -> EdgeRateLimits {
        let d = EdgeRateLimits::default();
        EdgeRateLimits {
            leads: self.leads.over(d.leads),
            save_valuation: self.save_valuation.over(d.save_valuation),
            events: self.events.over(d.events),
            views: self.views.over(d.views),
            quotes: self.quotes.over(d.quotes),
            phone_reveal: self.phone_reveal.over(d.phone_reveal),
            sign_in: self.sign_in.over(d.sign_in),
            verify: self.verify.over(d.verify),
            watchlist: self.watchlist.over(d.watchlist),
            lead_status: self.lead_status.over(d.lead_status),
            checkout: self.checkout.over(d.checkout),
            car_status: self.car_status.over(d.car_status),
            valuation: self.valuation.over(d.valuation),
            payment_webhook: self.payment_webhook.over(d.payment_webhook),
            code_cooldown_secs: self.code_cooldown_secs.unwrap_or(d.code_cooldown_secs),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_out_means_the_default() {
        assert_eq!(RateLimits::default().resolve(), EdgeRateLimits::default());
        let mut r = RateLimits::default();
        r.leads.per_client = Some(50);
        r.code_cooldown_secs = Some(30);
        let e = r.resolve();
        let d = EdgeRateLimits::default();
        assert_eq!(e.leads.per_client, 50);
        assert_eq!(
            e.leads.per_dealer, d.leads.per_dealer,
            "the rest of leads stays"
        );
        assert_eq!(e.leads.window_secs, d.leads.window_secs);
        assert_eq!(e.views, d.views);
        assert_eq!(e.code_cooldown_secs, 30);
    }

    /// The defaults are written out in the field docs (the editor's hover
    /// text); they must be the ones the edge applies.
    #[test]
    fn documented_defaults_are_the_real_ones() {
        let schema = serde_json::to_value(schemars::schema_for!(RateLimits)).unwrap();
        let props = schema["properties"].as_object().unwrap();
        let d = EdgeRateLimits::default();
        let thousands = |n: u32| {
            let s = n.to_string();
            let mut out = String::new();
            for (i, c) in s.chars().enumerate() {
                if i > 0 && (s.len() - i).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(c);
            }
            out
        };
        for (key, limit) in [
            ("leads", d.leads),
            ("save_valuation", d.save_valuation),
            ("events", d.events),
            ("views", d.views),
            ("quotes", d.quotes),
            ("phone_reveal", d.phone_reveal),
            ("sign_in", d.sign_in),
            ("verify", d.verify),
            ("watchlist", d.watchlist),
            ("lead_status", d.lead_status),
            ("checkout", d.checkout),
            ("car_status", d.car_status),
            ("valuation", d.valuation),
            ("payment_webhook", d.payment_webhook),
        ] {
            assert_eq!(limit.window_secs, 3600, "{key}: the docs say an hour");
            let text = props[key]["description"].as_str().unwrap_or_default();
            let want = format!(
                "Default: {} per client and {} per dealer an hour.",
                thousands(limit.per_client),
                thousands(limit.per_dealer)
            );
            assert!(text.contains(&want), "{key}: {text:?} should say {want:?}");
        }
        assert_eq!(props.len(), 15, "a field without a documented default here");
        let cooldown = props["code_cooldown_secs"]["description"].as_str().unwrap();
        assert!(cooldown.contains(&format!("Default: {}.", d.code_cooldown_secs)));
    }
}
