//! Dealer configuration: the YAML a marketer edits, typed and checked.
//!
//! `yaml` parses with positions, `load` runs the whole pipeline, `check`
//! holds the rules, `diagnostic` prints problems, `model` is the typed
//! config, `hours` the opening-hours rules shared with the generator.
pub mod check;
pub mod diagnostic;
pub mod hours;
pub mod load;
pub mod model;
pub mod yaml;

pub use diagnostic::{Diagnostic, Severity, SourceFiles};
pub use load::{schema, LoadedDealer, Loader, Rejected};
pub use model::DealerConfig;
