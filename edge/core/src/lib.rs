//! Everything the edge worker decides, as plain Rust: no I/O, no JavaScript,
//! so every rule is tested natively with `cargo test`. The workers-rs shell
//! (`edge/src/`) only does routing, KV, D1, queues, fetch and responses, and
//! applies what these functions decide.
//!
//! Rules the generator needs as well (contact details, the edge config
//! contract, finance, visibility) live in `dealer-rules` (`rules/`).

pub mod adf;
pub mod checkout;
pub mod config;
pub mod counters;
pub mod delivery;
pub mod events;
pub mod features;
pub mod form_post;
pub mod html;
pub mod http;
pub mod input;
pub mod lead;
pub mod lead_flow;
pub mod lead_parts;
pub mod outbound;
pub mod quote;
pub mod rate_limit;
pub mod read_cache;
pub mod requests;
pub mod search_queries;
pub mod session;
pub mod turnstile;
pub mod valuation;
pub mod vehicle;
