//! Rules that must behave identically in the generator (native) and in the
//! edge worker (wasm32). Keep this crate free of I/O and of anything that
//! does not compile for `wasm32-unknown-unknown`.

pub mod adf;
pub mod contact;
pub mod delivery;
pub mod edge_config;
pub mod finance;
pub mod input;
pub mod lead;
pub mod quote;
pub mod rate_limit;
pub mod requests;
pub mod session;
pub mod visibility;
