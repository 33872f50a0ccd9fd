//! Dealer configuration: the YAML a marketer edits, typed and checked.
//!
//! [`Loader`] reads a dealer file (YAML with positions), merges it over its
//! preset, checks it and returns a typed [`DealerConfig`] or every problem
//! with file, line and key. `model` is the typed config, `diagnostic` prints
//! problems, `hours`, `moment`, `places` and `slug` are rules the generator shares
//! with the checks, `suggest` the "did you mean" used in messages.
//!
//! The YAML tree and the checks stay private: what passes them is a
//! `DealerConfig`, and nothing outside needs to re-check it.

mod check;
pub mod content;
pub mod diagnostic;
pub mod finance_text;
pub mod hours;
pub mod images;
mod load;
pub mod model;
pub mod moment;
pub mod places;
mod read;
pub mod redirect_rules;
pub mod slug;
pub mod suggest;
mod yaml;

pub use diagnostic::{Diagnostic, Severity, SourceFiles};
pub use load::{dealer_refs, schema, DealerRefs, LoadedDealer, Loader, Rejected};
pub use model::{DealerConfig, TimeZone};
pub use yaml::{MAX_ALIAS_NODES, MAX_DEPTH, MAX_FILE_BYTES};
