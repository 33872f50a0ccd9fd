//! What a dealer's site is made of, from the dealer's config and stock
//! feed, before Astro runs: `stock` (read the feed, keep the cars the site
//! shows, leave out photos the site cannot serve, present them),
//! `site_data` (the config resolved into what the pages show),
//! `search_index` (the precomputed search), `rich_text` (dealer Markdown to
//! safe HTML), `pages` (the page table: every page a build makes),
//! `syndication` (the Google and Meta vehicle ads feeds, from the
//! presented cars), `url_path` (a site path's escapes decoded).
//! Pure data in, data out: nothing here runs Astro or writes a release.

pub mod rich_text;
pub mod search_index;
pub mod site_data;
pub mod stock;
pub mod syndication;
pub mod url_path;
