//! dealergen: dealer YAML + stock feed → static Astro site.
//!
//! The modules, from the bottom up (a module uses only those above it in
//! this list or beside it; `node scripts/module-cycles.mjs`, a gate of the
//! test command, fails on a loop):
//!
//! - **Where things are and what was asked:** `project` (the checkout's
//!   folders), `cli` (the arguments), `selection` (which dealers, which
//!   instant, which shard), `progress` (the build's progress line).
//! - **What a dealer's site is made of:** `stock` (read the feed, keep the
//!   cars the site shows, present them), `photos` (the site's own photo
//!   files), `search_index` (the precomputed search), `rich_text` (dealer
//!   Markdown to safe HTML), `site_data` (the config resolved into what the
//!   pages show), `pages` (every page a build makes).
//! - **Making and checking a site:** `render` (the thin Astro project),
//!   `astro` (runs it), `cache` (the build and inputs keys), `release` (the
//!   staged release and its atomic switch), `compliance` (finance figures
//!   on built pages), `publish` (links, sitemap, headers, redirects, and
//!   what Cloudflare allows: `asset_limits`).
//! - **Running builds:** `build` (one dealer end to end: the prepare
//!   state machine in `build/mod.rs`; `build::generate`, everything derived
//!   before Astro runs; `build::publish_plan`, the redirects and CSP
//!   origins; `build::edge`, what the worker gets), `batch` (several
//!   dealers in one Astro run), `build_all` (many dealers: prepare,
//!   batch, check and publish each).
//! - **The commands:** `commands` (each subcommand; `commands/` holds
//!   `diff`, `explain`, `pull`'s command wiring), `diff`, `explain` and
//!   `pull` (what those commands compute), `dev` (one dealer and the edge
//!   worker with live reload), `deploy` (upload releases to Cloudflare,
//!   roll back), `scaffold` (`dealergen new`'s file), `docs` (the YAML
//!   field reference).

pub mod asset_limits;
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
pub mod selection;
pub mod site_data;
pub mod stock;
