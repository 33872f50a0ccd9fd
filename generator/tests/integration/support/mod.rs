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

/// Fails the test (never skips it) when Astro is missing, naming the fix.
pub fn require_astro() {
    assert!(
        repo_root().join("node_modules/astro").is_dir(),
        "Astro is not installed: run scripts/install.sh (the test command does)"
    );
}
