//! The integration tests of the shared rules: one test binary, one module per
//! concern (`cargo test -p dealer-rules --test integration <module>::`).

mod checkout_vectors;
mod contact_vectors;
mod finance_display_vectors;
mod slug_vectors;
mod trade_in_vectors;
