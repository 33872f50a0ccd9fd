//! The generator's integration tests: one test binary (linking the
//! dealergen library and its dependencies once, not once per file), one
//! module per concern. `cargo test -p dealergen --test integration <module>::`
//! runs one of them, e.g. `build::`.

mod support;

mod astro_server;
mod build;
mod config_fields;
mod deploy;
mod dev;
mod diff;
mod explain;
mod feed;
mod field_reference;
mod finance_compliance;
mod hostile_yaml;
mod slug_vectors;
mod stock_pull;
mod syndication;
