//! Where the committed fixtures live, found without reading the working
//! directory: probes run from `cargo bench`, `cargo test` and installed
//! binaries alike.

use std::path::PathBuf;

/// The folder holding the suite's fixtures (`probes/fixtures`), or the one
/// named by `YARDSTICK_FIXTURES`.
pub fn dir() -> PathBuf {
    match std::env::var_os("YARDSTICK_FIXTURES") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
    }
}

/// A path inside the fixtures folder.
pub fn path(relative: &str) -> PathBuf {
    dir().join(relative)
}
