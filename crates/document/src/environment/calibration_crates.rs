//! The versions of the crates whose code the calibration loop runs, as the
//! workspace's `Cargo.lock` resolves them.
//!
//! The loop (`measure/calibration.rs`) is the divisor of every "x calib"
//! figure, and its time moves with the regex and sha2 code the bench was
//! built with. Those versions are chosen by the lock of the *user's*
//! workspace, which yardstick's build script cannot see, so they are read at
//! run time, from the first `Cargo.lock` in the package's directory or above
//! it: the dependencies of yardstick's own entry there, and theirs.
//!
//! The crates recorded are those whose code runs in the timed loop, or
//! decides what runs there:
//! - `regex`, the searcher the loop calls;
//! - `regex-automata`, the engines regex hands the search to;
//! - `regex-syntax`, which parses the pattern at set-up (untimed), but whose
//!   literal extraction decides which prefilter the timed search runs;
//! - `memchr`, the literal search under that prefilter;
//! - `sha2`, the hash: its compression functions (portable, x86 SHA-NI,
//!   ARM) are in the crate itself.
//!
//! Left out: `aho-corasick` (regex's prefilter for several literals, where
//! the loop's pattern has a single byte's), `cpufeatures` (it asks the CPU
//! once which of sha2's functions it can run, and the CPU decides that, not
//! its version), and `digest` and `block-buffer` (sha2's buffering, which
//! hands the whole text to the compression at once).
//!
//! The lock is read with `basic-toml`, a TOML reader of one crate: every
//! bench builds this, and `toml`'s richer reader (spans, editing) is five
//! crates, which only the command's matrix files need. Reading it never
//! fails a run: a lock that cannot be read is left unrecorded.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The crates the loop runs, each with the dependencies that lead to it
/// from yardstick's own entry in the lock.
const CRATES: [(&str, &[&str]); 5] = [
    ("regex", &["regex"]),
    ("regex-automata", &["regex", "regex-automata"]),
    ("regex-syntax", &["regex", "regex-syntax"]),
    ("memchr", &["regex", "memchr"]),
    ("sha2", &["sha2"]),
];

/// The crate whose calibration loop runs these crates' code.
const MEASURING_CRATE: &str = "yardstick-measure";

/// A lock is a few hundred kilobytes; a file far larger is not one.
const MAX_LOCK_BYTES: u64 = 64 << 20;

/// The versions of the loop's crates (name → version) that the first
/// `Cargo.lock` in `start` or above it resolves for this yardstick, or
/// `None` when there is no lock, it cannot be read, or it names none of them.
pub fn calibration_crates(start: &Path) -> Option<BTreeMap<String, String>> {
    let text = read_lock(start)?;
    // The loop is yardstick-measure's, which shares this crate's version.
    let versions = resolve(&packages(&text), MEASURING_CRATE, env!("CARGO_PKG_VERSION"));
    (!versions.is_empty()).then_some(versions)
}

fn read_lock(start: &Path) -> Option<String> {
    let start = std::path::absolute(start).ok()?;
    let path = start
        .ancestors()
        .map(|dir| dir.join("Cargo.lock"))
        .find(|path| path.is_file())?;
    let mut text = String::new();
    File::open(path)
        .ok()?
        .take(MAX_LOCK_BYTES)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// The part of a lock read: its `[[package]]` entries.
#[derive(Debug, Default, serde::Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct Lock {
    #[serde(default)]
    package: Vec<Package>,
}

/// One `[[package]]` entry of a lock.
#[derive(Debug, Default, PartialEq, serde::Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct Package {
    name: String,
    version: String,
    /// As written: `"name"`, or `"name version"` (and in old locks a
    /// source) when the lock holds several versions of it.
    #[serde(default)]
    dependencies: Vec<String>,
}

/// The `[[package]]` entries of a lock's text; none when it is not TOML
/// of a lock's shape.
fn packages(text: &str) -> Vec<Package> {
    basic_toml::from_str::<Lock>(text).map_or_else(|_| Vec::new(), |lock| lock.package)
}

/// The loop's crates that the entries of package `name` at `version` lead
/// to, each where every such entry leads to one version.
fn resolve(packages: &[Package], name: &str, version: &str) -> BTreeMap<String, String> {
    let roots: Vec<&Package> = packages
        .iter()
        .filter(|p| p.name == name && p.version == version)
        .collect();
    let mut out = BTreeMap::new();
    for (crate_name, path) in CRATES {
        let found: BTreeSet<&str> = roots
            .iter()
            .filter_map(|root| follow(packages, root, path))
            .map(|p| p.version.as_str())
            .collect();
        if let (1, Some(version)) = (found.len(), found.first()) {
            out.insert(crate_name.to_string(), version.to_string());
        }
    }
    out
}

/// The entry reached from `root` through the dependencies named by `path`.
fn follow<'a>(packages: &'a [Package], root: &'a Package, path: &[&str]) -> Option<&'a Package> {
    path.iter()
        .try_fold(root, |from, name| dependency(packages, from, name))
}

/// The entry `from` depends on under `name`, or `None` where the lock does
/// not tell one version (two dependencies of that name, or an unversioned
/// one while several versions are locked).
fn dependency<'a>(packages: &'a [Package], from: &Package, name: &str) -> Option<&'a Package> {
    let mut specs = from.dependencies.iter().filter_map(|spec| {
        let mut words = spec.split_whitespace();
        (words.next() == Some(name)).then(|| words.next())
    });
    let version = specs.next()?;
    if specs.next().is_some() {
        return None;
    }
    let mut candidates = packages
        .iter()
        .filter(|p| p.name == name && version.is_none_or(|v| p.version == v));
    let first = candidates.next()?;
    candidates
        .all(|p| p.version == first.version)
        .then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A lock of cargo's layout: yardstick depends on one of two regexes.
    const LOCK: &str = r#"# This file is automatically @generated by Cargo.
# It is not intended for manual editing.
version = 4

[[package]]
name = "memchr"
version = "2.7.6"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "old"
version = "0.1.0"
dependencies = [
 "regex 1.5.0",
]

[[package]]
name = "regex"
version = "1.5.0"
dependencies = [
 "memchr",
 "regex-syntax 0.6.29",
]

[[package]]
name = "regex"
version = "1.13.2"
dependencies = [
 "memchr",
 "regex-automata",
 "regex-syntax 0.8.12",
]

[[package]]
name = "regex-automata"
version = "0.4.19"
dependencies = ["memchr", "regex-syntax 0.8.12"]

[[package]]
name = "regex-syntax"
version = "0.6.29"

[[package]]
name = "regex-syntax"
version = "0.8.12"

[[package]]
name = "sha2"
version = "0.10.9"
dependencies = [
 "cpufeatures",
]

[[package]]
name = "yardstick"
version = "0.1.0"
dependencies = [
 "regex 1.13.2",
 "sha2",
]
"#;

    fn versions(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn follows_yardstick_s_own_dependencies() {
        let found = resolve(&packages(LOCK), "yardstick", "0.1.0");
        assert_eq!(
            found,
            versions(&[
                ("memchr", "2.7.6"),
                ("regex", "1.13.2"),
                ("regex-automata", "0.4.19"),
                ("regex-syntax", "0.8.12"),
                ("sha2", "0.10.9"),
            ])
        );
    }

    #[test]
    fn another_yardstick_or_none_records_nothing() {
        assert!(resolve(&packages(LOCK), "yardstick", "0.2.0").is_empty());
        assert!(resolve(&packages(LOCK), "other", "0.1.0").is_empty());
    }

    #[test]
    fn an_ambiguous_dependency_is_left_out() {
        // "regex" without a version while two are locked: not a lock cargo
        // writes, and not one to guess in.
        let lock = LOCK.replace("\"regex 1.13.2\"", "\"regex\"");
        let found = resolve(&packages(&lock), "yardstick", "0.1.0");
        assert_eq!(found, versions(&[("sha2", "0.10.9")]));
    }

    #[test]
    fn an_old_lock_s_sources_are_read_past() {
        let lock = "[[package]]\nname = \"yardstick\"\nversion = \"0.1.0\"\n\
            dependencies = [\n \"sha2 0.9.0 (registry+https://example.org/index)\",\n]\n\n\
            [[package]]\nname = \"sha2\"\nversion = \"0.9.0\"\n\n\
            [metadata]\n\"checksum sha2 0.9.0 (registry+x)\" = \"00\"\n";
        let found = resolve(&packages(lock), "yardstick", "0.1.0");
        assert_eq!(found, versions(&[("sha2", "0.9.0")]));
    }

    #[test]
    fn a_lock_that_is_not_toml_records_nothing() {
        let lock = "[[package]]\nname = \"yardstick\"\nversion = \"0.1.0\"\n\
            dependencies = [\n \"sha2\",\n[[package]]\nname = \"sha2\"\nversion = \"0.10.0\"\n";
        assert!(packages(lock).is_empty());
        assert!(resolve(&packages(lock), "yardstick", "0.1.0").is_empty());
    }

    #[test]
    fn the_lock_is_the_first_above_the_package() {
        let t = tempfile::tempdir().unwrap();
        let package = t.path().join("crates/bench");
        std::fs::create_dir_all(&package).unwrap();
        std::fs::write(t.path().join("Cargo.lock"), LOCK).unwrap();
        let found = read_lock(&package).map(|text| resolve(&packages(&text), "yardstick", "0.1.0"));
        assert_eq!(found.map(|v| v.len()), Some(5));
        // One nearer, of another workspace, wins.
        std::fs::write(package.join("Cargo.lock"), "version = 4\n").unwrap();
        assert_eq!(read_lock(&package).as_deref(), Some("version = 4\n"));
    }

    #[test]
    fn a_lock_that_is_not_text_is_unrecorded() {
        let t = tempfile::tempdir().unwrap();
        std::fs::write(t.path().join("Cargo.lock"), [0xff, 0xfe, b'\n']).unwrap();
        assert_eq!(read_lock(t.path()), None);
        assert_eq!(calibration_crates(t.path()), None);
    }

    #[test]
    fn this_workspace_s_lock_names_every_crate_of_the_loop() {
        let found = calibration_crates(crate::repository()).unwrap_or_default();
        let names: Vec<&str> = found.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            ["memchr", "regex", "regex-automata", "regex-syntax", "sha2"]
        );
        assert!(found.values().all(|v| !v.is_empty()), "{found:?}");
    }

    /// Lines of a lock, and text of any kind, in any order.
    fn lock_lines() -> impl Strategy<Value = String> {
        let line = prop_oneof![
            Just("[[package]]".to_string()),
            Just("name = \"yardstick\"".to_string()),
            Just("version = \"0.1.0\"".to_string()),
            Just("name = \"regex\"".to_string()),
            Just("dependencies = [".to_string()),
            Just(" \"regex\",".to_string()),
            Just(" \"regex 0.1.0\",".to_string()),
            Just("]".to_string()),
            Just("[metadata]".to_string()),
            ".*",
        ];
        prop::collection::vec(line, 0..40).prop_map(|lines| lines.join("\n"))
    }

    proptest! {
        #[test]
        fn any_text_is_read_without_a_panic(text in lock_lines()) {
            let packages = packages(&text);
            let found = resolve(&packages, "yardstick", "0.1.0");
            prop_assert!(found.len() <= CRATES.len());
        }

        #[test]
        fn any_string_is_read_without_a_panic(text in any::<String>()) {
            let _ = resolve(&packages(&text), "yardstick", "0.1.0");
        }
    }
}
