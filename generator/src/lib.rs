//! dealergen: dealer YAML + stock feed → static Astro site.
//!
//! The crate is laid out as the build's pipeline; its folders, from the
//! bottom up (a module uses only those above it in this list or beside it;
//! `node scripts/module-cycles.mjs`, a gate of the test command, fails on a
//! loop):
//!
//! - **Where things are and what was asked:** `project` (the checkout's
//!   folders), `cli` (the arguments), `selection` (which dealers, which
//!   instant, which shard).
//! - **`pipeline/`, what a dealer's site is made of:** `stock` (read the
//!   feed, keep the cars the site shows, present them), `site_data` (the
//!   config resolved into what the pages show), `search_index` (the
//!   precomputed search), `rich_text` (dealer Markdown to safe HTML),
//!   `pages` (the page table: every page a build makes, checked both ways
//!   against what Astro made).
//! - **`checks/`, what must hold before a site goes out:** `compliance`
//!   (finance figures on built pages), `asset_limits` (what Cloudflare
//!   allows).
//! - **`publish/`, the files a release carries:** the built pages scanned
//!   once (`scan`, `known`), no dead link (`links`), `_redirects`
//!   (`redirects`), `_headers` and the CSP (`headers`), `sitemap.xml` and
//!   `robots.txt` (`seo`).
//! - **`run/`, running builds:** `build` (one dealer end to end: the
//!   prepare state machine in `build/mod.rs`; `build::generate`, everything
//!   derived before Astro runs; `build::publish_plan`, the redirects and
//!   CSP origins; `build::edge_projection`, what the worker gets), `render` (the thin
//!   Astro project), `astro` (runs it, in a warm Node process of
//!   `astro_server`'s pool), `batch` (several dealers in one
//!   Astro run), `build_all` (many dealers: prepare, batch, check and
//!   publish each), `cache` (the build and inputs keys), `release` (the
//!   release format: written by a build, its atomic switch, read by
//!   deploy), `progress` (the progress line).
//! - **The commands:** `commands/` (one file per subcommand: build, check,
//!   schema, list, new, and the wiring of diff, explain and pull), `diff`, `explain` and
//!   `pull` (what those commands compute), `dev/` (one dealer and the edge
//!   worker with live reload), `deploy/` (plan, report, apply, rollback:
//!   releases to Cloudflare), `scaffold` (`dealergen new`'s file), `docs`
//!   (the YAML field reference).

pub mod checks;
pub mod cli;
pub mod commands;
pub mod deploy;
pub mod dev;
pub mod diff;
pub mod docs;
pub mod explain;
pub mod migrate;
pub mod pipeline;
pub mod project;
pub mod publish;
pub mod pull;
pub mod run;
pub mod scaffold;
pub mod selection;
pub mod status;
