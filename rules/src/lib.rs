//! Rules that must behave identically in the generator (native) and in the
//! edge worker (wasm32). Keep this crate free of I/O and of anything that
//! does not compile for `wasm32-unknown-unknown`.

pub mod contact;
pub mod edge_config;
pub mod lead;
pub mod visibility;
