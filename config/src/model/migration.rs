//! A dealer's move onto the platform: the old site's addresses that must
//! keep answering (`redirects`), and the ones the dealer lets go
//! (`migration.accept_missing`). `dealergen migrate-check` reads both
//! (docs/migrating.md).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One address of the dealer's old site and where it now goes, written into the site's `_redirects` (Cloudflare's format) ahead of the platform's own rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DealerRedirect {
    /// The old address: a site path such as "/diamond-advantage" or "/blog/2019/our-new-showroom". Matched as written (the old site's "/buying" and "/buying/" are two addresses: list both if both were linked). A `*` at the end matches the rest of the path ("/news/*"); a `:name` segment matches one segment ("/team/:person"). A plain path may carry name=value pairs ("/used-cars?make=kia"): the site worker answers a request for that path, with or without the slash, whose query has every pair (at most 100 such rules; the path is no page of the site). Not a page of the site, not under /api/, /_astro/ or /cars/.
    pub from: String,
    /// Where it goes: a page of this site ("/about-us/"), or an https URL elsewhere. May use the `from`'s `:splat` (what its `*` matched) and its `:name` segments, e.g. "/search/?keyword=:splat". Never another redirect's `from` (point it at the last one instead).
    pub to: String,
    /// 301 (moved for good, the default: search engines move the ranking to `to`) or 302 (for now).
    #[serde(default = "moved_for_good")]
    #[schemars(range(min = 301, max = 302))]
    pub status: u16,
}

fn moved_for_good() -> u16 {
    301
}

/// What `dealergen migrate-check` may find missing without failing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Migration {
    /// Old addresses the dealer lets answer 404 on purpose (a page nobody should reach any more), as site paths ("/old-promo-2019") or with a `*` at the end ("/wp-content/*"). `migrate-check` lists them as missing but accepted, and still fails on every other missing address. None by default.
    pub accept_missing: Vec<String>,
}
