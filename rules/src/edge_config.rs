//! The runtime facts the edge worker needs about one dealer.
//!
//! `dealergen build` writes one of these per dealer (as JSON, next to the
//! site); deployment puts it in the worker's KV namespace `CONFIG` under the
//! key `dealer:<slug>`, plus one key `origin:<origin>` → `<slug>` per allowed
//! origin. The worker derives the dealer from the request's `Origin` through
//! those keys and never trusts a dealer named in a request body.

use serde::{Deserialize, Serialize};

/// KV key holding a dealer's [`EdgeConfig`] JSON.
pub fn dealer_key(slug: &str) -> String {
    format!("dealer:{slug}")
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
}

impl EdgeConfig {
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
            },
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
}
