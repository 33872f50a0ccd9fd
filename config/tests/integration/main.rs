//! The integration tests of the dealer YAML: one test binary, one module per
//! concern (`cargo test -p dealer-config --test integration <module>::`).

mod diagnostics;
mod hours_vectors;
mod image_vectors;
mod rate_limits_yaml;
