//! Shared helpers of rmm's integration tests and benchmarks.

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// The spec the generated crate is made from.
pub fn spec_path() -> PathBuf {
    root().join("rmm-spec.yaml")
}
