//! dealergen: dealer YAML + stock feed → static Astro site.
//!
//! `commands` wires the subcommands; `build` runs one dealer end to end;
//! `stock` reads and filters the feed; `site_data` resolves the config for
//! the pages; `render` writes the Astro project; `astro` builds it;
//! `release` publishes it atomically; `cache` decides whether it must be
//! rebuilt; `compliance` checks the built pages' finance figures before
//! they are published.

pub mod astro;
pub mod batch;
pub mod build;
pub mod build_all;
pub mod cache;
pub mod cli;
pub mod commands;
pub mod compliance;
pub mod deploy;
pub mod dev;
pub mod diff;
pub mod docs;
pub mod explain;
pub mod pages;
pub mod photos;
pub mod progress;
pub mod project;
pub mod publish;
pub mod pull;
pub mod release;
pub mod render;
pub mod rich_text;
pub mod scaffold;
pub mod search_index;
pub mod site_data;
pub mod stock;
