//! Running builds: `build` (one dealer end to end: prepare, generate, the
//! publish plan, the worker's data), `render` (the thin Astro project),
//! `astro` (runs it), `astro_server` (the warm Astro processes it runs in), `batch` (several dealers in one Astro run),
//! `build_all` (many dealers: prepare, batch, check and publish each),
//! `cache` (the build and inputs keys), `release` (the staged release and
//! its atomic switch), `progress` (the build's progress line).

pub mod astro;
pub mod astro_server;
pub mod batch;
pub mod build;
pub mod build_all;
pub mod cache;
pub mod progress;
pub mod release;
pub mod render;
