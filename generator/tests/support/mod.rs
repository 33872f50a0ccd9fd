//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod feed_server;

use std::path::{Path, PathBuf};

/// The checkout this test binary was built from (the workspace root).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the generator crate sits in the workspace")
        .to_path_buf()
}
