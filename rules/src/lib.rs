//! Rules that must behave identically in the generator (native) and in the
//! edge worker (wasm32): the edge config contract, contact details, the
//! finance formula, car slugs, stock visibility. Keep this crate free of I/O and of
//! anything that does not compile for `wasm32-unknown-unknown`.
//!
//! Rules only the worker needs live on its side, in `dealer-edge-core`
//! (`edge/core/`).

pub mod checkout;
pub mod colour_families;
pub mod contact;
pub mod edge_config;
pub mod finance;
pub mod finance_display;
pub mod rate_limits;
pub mod retention;
pub mod search_words;
pub mod slug;
pub mod trade_in;
pub mod visibility;
