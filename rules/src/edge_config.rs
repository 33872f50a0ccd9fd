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
    format!("origin:{}", origin.trim_end_matches('/').to_ascii_lowercase())
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
        assert_eq!(origin_key("https://Example.com.au/"), "origin:https://example.com.au");
        assert_eq!(dealer_key("demo"), "dealer:demo");
    }
}
