//! dealergen: dealer YAML + stock feed → static Astro site.
//!
//! `commands` wires the subcommands; `build` runs one dealer end to end;
//! `stock` reads and filters the feed; `site_data` resolves the config for
//! the pages; `render` writes the Astro project; `astro` builds and
//! publishes it.

pub mod astro;
pub mod build;
pub mod cli;
pub mod commands;
pub mod project;
pub mod publish;
pub mod render;
pub mod rich_text;
pub mod scaffold;
pub mod search_index;
pub mod site_data;
pub mod stock;
