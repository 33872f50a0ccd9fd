//! Where `dealergen stock pull` fetches a dealer's stock feed from
//! (`stock.source`). The build never fetches: it reads the file at
//! `stock.feed`, which `stock pull` replaces only with a feed that passed
//! its checks.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The dealer platform's export of the stock, fetched by `dealergen stock pull` and written to `stock.feed` (the build reads only that file). Give either `url` or `file`. A new feed replaces the old one only when it parses, contains cars, and does not shrink the site by more than `max_drop_percent`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StockSource {
    /// Address of the feed, e.g. "https://feeds.example.com.au/dealers/1041/stock.json". Must be https (http only for a feed on this machine, such as a local exporter).
    #[serde(default)]
    pub url: Option<String>,
    /// Path of an exported feed file instead of a URL, relative to the dealer file, e.g. "../exports/bmg-stock.json".
    #[serde(default)]
    pub file: Option<String>,
    /// An HTTP header sent with the request whose value comes from an environment variable (the value is a secret and never goes in this file), e.g. `{ header: Authorization, env: BMG_FEED_TOKEN }` with `BMG_FEED_TOKEN="Bearer abc..."` set in CI.
    #[serde(default)]
    pub auth: Option<FeedAuth>,
    /// Seconds to wait for the feed server before giving up on one attempt (connecting and reading the whole feed).
    #[serde(default = "default_timeout_secs")]
    #[schemars(range(min = 1, max = 600))]
    pub timeout_secs: u32,
    /// Attempts after the first when the server fails (timeout, connection error, 5xx, 429), with a growing pause between them (1 s, 2 s, 4 s...).
    #[serde(default = "default_retries")]
    #[schemars(range(min = 0, max = 10))]
    pub retries: u32,
    /// The drop guard: when the new feed would show more than this many percent fewer cars than the current one (counted after the visibility rules), it is refused and the current feed kept (a broken export must not empty the site). `dealergen stock pull --accept-drop` takes it anyway. 100 turns the guard off.
    #[serde(default = "default_max_drop_percent")]
    #[schemars(range(min = 0, max = 100))]
    pub max_drop_percent: u32,
}

/// A secret request header for the feed server.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedAuth {
    /// Header name, e.g. "Authorization" or "X-Api-Key".
    pub header: String,
    /// Name of the environment variable holding the header's value, e.g. "BMG_FEED_TOKEN" (capital letters, digits and _).
    pub env: String,
}

pub(crate) fn default_timeout_secs() -> u32 {
    30
}
pub(crate) fn default_retries() -> u32 {
    3
}
pub(crate) fn default_max_drop_percent() -> u32 {
    30
}

/// Where a source points, once checked: exactly one of `url` and `file`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceLocation<'a> {
    Url(&'a str),
    File(&'a str),
}

impl StockSource {
    /// The URL or file; `None` only for a source the checks refuse
    /// (neither or both given).
    pub fn location(&self) -> Option<SourceLocation<'_>> {
        match (&self.url, &self.file) {
            (Some(u), None) => Some(SourceLocation::Url(u)),
            (None, Some(f)) => Some(SourceLocation::File(f)),
            _ => None,
        }
    }
}
