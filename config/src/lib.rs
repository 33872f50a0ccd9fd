//! Dealer configuration.
