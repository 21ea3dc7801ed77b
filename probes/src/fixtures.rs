//! Where the committed fixtures live, found without reading the working
//! directory's name: probes run from `cargo bench`, `cargo test` and
//! installed binaries alike.
//!
//! The folder is named relative to the working directory when it can be
//! (`probes/fixtures` under `cargo bench`), as the kernel names a site's
//! files relative to the site's root. An absolute name would make every
//! path a probe builds as long as the checkout's location, and the sizes
//! of those short-lived allocations moved what later allocations reuse, and
//! with them the counts of template_compile and template_render between two
//! checkouts of one commit (docs/evaluation.md, "What moves a count").

use std::path::PathBuf;
use std::sync::OnceLock;

/// Where this crate was built from, with its fixtures inside, in a static
/// of fixed size: the name's length moved the static data laid out after
/// it, and with it estimated cycles, through the simulated cache's sets
/// (docs/evaluation.md, "What moves a count").
static BUILT_AT: Padded = Padded::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures"));

/// The longest name Linux gives a path.
const PATH_MAX: usize = 4096;

/// A name in [`PATH_MAX`] bytes, the rest zero.
struct Padded {
    bytes: [u8; PATH_MAX],
    len: usize,
}

impl Padded {
    const fn new(name: &str) -> Padded {
        let name = name.as_bytes();
        assert!(name.len() <= PATH_MAX, "the crate's path is too long");
        let mut bytes = [0; PATH_MAX];
        let mut i = 0;
        while i < name.len() {
            bytes[i] = name[i];
            i += 1;
        }
        Padded {
            bytes,
            len: name.len(),
        }
    }

    fn as_str(&'static self) -> &'static str {
        // Made from a `&str` whole, so always UTF-8.
        self.bytes
            .get(..self.len)
            .and_then(|b| std::str::from_utf8(b).ok())
            .unwrap_or_default()
    }
}

/// The folder holding the suite's fixtures (`probes/fixtures`), or the one
/// named by `YARDSTICK_FIXTURES`.
pub fn dir() -> PathBuf {
    match std::env::var_os("YARDSTICK_FIXTURES") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(built_at()),
    }
}

/// A path inside the fixtures folder.
pub fn path(relative: &str) -> PathBuf {
    dir().join(relative)
}

/// [`BUILT_AT`], relative to the working directory where that names the
/// same folder; found once.
fn built_at() -> &'static str {
    static FOUND: OnceLock<&'static str> = OnceLock::new();
    FOUND.get_or_init(|| shortest_alias(BUILT_AT.as_str()))
}

/// The shortest tail of `absolute` (`fixtures`, `probes/fixtures`, ...)
/// that, read relative to the working directory, is the same folder; else
/// `absolute`. Allocates nothing whose size follows the checkout's
/// location: the tails are slices of `absolute`, and std names short paths
/// to the system from a buffer on the stack.
fn shortest_alias(absolute: &'static str) -> &'static str {
    let Some(target) = identity(absolute) else {
        return absolute;
    };
    absolute
        .match_indices('/')
        .rev()
        .map(|(at, _)| &absolute[at + 1..])
        .filter(|tail| !tail.is_empty())
        .find(|tail| identity(tail) == Some(target))
        .unwrap_or(absolute)
}

/// The device and inode of the folder at `path`.
#[cfg(unix)]
fn identity(path: &str) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_dir())
        .map(|m| (m.dev(), m.ino()))
}

/// Elsewhere the absolute name is kept.
#[cfg(not(unix))]
fn identity(_path: &str) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixtures_are_named_by_the_shortest_tail_that_reaches_them() {
        let found = built_at();
        assert!(found.ends_with("fixtures"), "{found}");
        // cargo runs this crate's tests from its own folder.
        assert_eq!(found, "fixtures");
        assert!(PathBuf::from(found).join("design").is_dir());
    }

    #[test]
    fn a_folder_the_working_directory_cannot_reach_stays_absolute() {
        let t = tempfile::tempdir().unwrap();
        let inner = t.path().join("elsewhere").join("fixtures");
        std::fs::create_dir_all(&inner).unwrap();
        let leaked: &'static str = Box::leak(inner.display().to_string().into_boxed_str());
        assert_eq!(shortest_alias(leaked), leaked);
        assert_eq!(shortest_alias("/no/such/folder"), "/no/such/folder");
    }
}
