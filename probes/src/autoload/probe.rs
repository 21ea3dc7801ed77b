//! The `autoload_map` and `autoload_miss` probes: the kernel's class map
//! read and made ready for lookups, and 2,000 `class_exists()` checks of
//! names nobody defines, through Composer's loader and the kernel's.

use super::fixture::{self, ENTRIES, EXTENSION_MAP, KERNEL_MAP, MISSES, TEST_MAP};
use super::lookup::{Composer, Files, Kernel, class_exists};
use super::read::ClassMap;
use crate::fixtures;

/// FNV-1a of the fixture's entries in file order (`key \0 path \n`),
/// taken of the generator's own entries, never of what the reader read.
pub const CHECKSUM: u64 = 0x7cc9_ffe7_1f48_2d20;

/// FNV-1a over `key \0 path \n` for each entry, in order.
pub fn checksum<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str)>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for (key, path) in entries {
        for &b in key
            .as_bytes()
            .iter()
            .chain(b"\0")
            .chain(path.as_bytes())
            .chain(b"\n")
        {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// Thousands separators for the notes.
fn grouped(n: usize) -> String {
    if n < 1000 {
        n.to_string()
    } else {
        format!("{},{:03}", grouped(n / 1000), n % 1000)
    }
}

fn read(relative: &str) -> Result<Vec<u8>, String> {
    let path = fixtures::path(relative);
    std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse(relative: &str, bytes: &[u8]) -> Result<ClassMap, String> {
    ClassMap::parse(relative, bytes).map_err(|e| e.to_string())
}

fn check_map(map: &Result<ClassMap, String>) -> Result<(), String> {
    let map = map.as_ref()?;
    let sum = checksum(map.iter());
    if map.len() != ENTRIES || sum != CHECKSUM {
        return Err(format!(
            "{} entries, checksum {sum:#018x}; expected {ENTRIES}, {CHECKSUM:#018x}",
            map.len()
        ));
    }
    Ok(())
}

yardstick_probe::probe! {
    name: autoload_map,
    note: |b: &Vec<u8>| format!("autoload/ezp_kernel.php, {} KB, {} classes", b.len() / 1024, grouped(ENTRIES)),
    setup: || read(KERNEL_MAP),
    run: |bytes: &Vec<u8>| parse(KERNEL_MAP, bytes),
    check: |_, map: &Result<ClassMap, String>| check_map(map),
}

/// Both loaders, the installation's files and the names to check.
pub(crate) struct Loaders {
    composer: Composer,
    kernel: Kernel,
    files: Files,
    names: Vec<String>,
    /// How many names fall under a PSR-4 prefix, counted by a plain scan.
    under_prefix: usize,
}

fn loaders() -> Result<Loaders, String> {
    let mut maps = Vec::new();
    for relative in [TEST_MAP, EXTENSION_MAP, KERNEL_MAP] {
        maps.push(parse(relative, &read(relative)?)?);
    }
    let kernel = Kernel::merged(maps);
    let installation = fixture::generate();
    let files = Files::new(installation.files());
    let names = fixture::missing_names(&installation);
    let composer = Composer::new(
        installation.composer_class_map,
        installation.psr4,
        installation.psr0_fallbacks,
    );
    let under_prefix = names
        .iter()
        .filter(|n| composer.prefixes().any(|p| n.starts_with(p)))
        .count();
    Ok(Loaders {
        composer,
        kernel,
        files,
        names,
        under_prefix,
    })
}

/// Names checked and names found.
#[derive(Hash, Debug, PartialEq, Eq)]
pub(crate) struct Misses {
    checked: usize,
    found: usize,
}

fn check_all(l: &Loaders) -> Misses {
    let mut buf = String::with_capacity(256);
    let mut found = 0;
    for name in &l.names {
        if class_exists(&l.composer, &l.kernel, &l.files, name, &mut buf) {
            found += 1;
        }
    }
    Misses {
        checked: l.names.len(),
        found,
    }
}

fn check_misses(l: &Loaders, m: &Misses) -> Result<(), String> {
    if m.checked != MISSES || m.found != 0 || l.under_prefix < MISSES / 2 {
        return Err(format!(
            "{} names checked, {} found, {} under a PSR-4 prefix; expected {MISSES}, 0, at least {}",
            m.checked,
            m.found,
            l.under_prefix,
            MISSES / 2
        ));
    }
    Ok(())
}

yardstick_probe::probe! {
    name: autoload_miss,
    ops: 2000,
    note: |l: &Loaders| format!(
        "2,000 class_exists() misses, {} under a PSR-4 prefix; Composer, then {} merged classes",
        grouped(l.under_prefix),
        grouped(l.kernel.len())
    ),
    setup: loaders,
    run: check_all,
    check: |l: &Loaders, m: &Misses| check_misses(l, m),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_maps_are_the_generators() {
        let installation = fixture::generate();
        for (relative, text) in installation.texts() {
            let committed = read(relative).unwrap();
            assert!(
                committed == text.as_bytes(),
                "{relative}: run the autoload_fixture example"
            );
        }
        let sum = checksum(installation.kernel.iter().map(|(k, v)| (&**k, &**v)));
        assert_eq!(sum, CHECKSUM, "{sum:#018x}");
    }

    #[test]
    fn the_fixture_has_the_real_maps_mix() {
        let installation = fixture::generate();
        let k = &installation.kernel;
        let share = |p: &str| 100 * k.values().filter(|v| v.starts_with(p)).count() / k.len();
        assert_eq!(k.len(), ENTRIES);
        assert_eq!(
            (share("vendor/"), share("kernel/"), share("lib/")),
            (80, 14, 4)
        );
        let namespaced = k.keys().filter(|key| key.contains('\\')).count();
        assert_eq!(namespaced, 1624);
        assert!(k.contains_key("$name Builder\\Namespace_\\string"));
        assert!(installation.psr4.len() >= 300);
    }

    #[test]
    fn both_probes_pass_their_checks() {
        let bytes = read(KERNEL_MAP).unwrap();
        let map = parse(KERNEL_MAP, &bytes);
        check_map(&map).unwrap();
        let l = loaders().unwrap();
        let m = check_all(&l);
        check_misses(&l, &m).unwrap();
        assert!(l.under_prefix >= 1000, "{}", l.under_prefix);
        assert!(check_map(&Ok(ClassMap::default())).is_err());
        assert_eq!(
            (grouped(999), grouped(3721), grouped(1_002_003)),
            ("999".into(), "3,721".into(), "1,002,003".into())
        );
        assert!(
            check_misses(
                &l,
                &Misses {
                    checked: 2000,
                    found: 1
                }
            )
            .is_err()
        );
    }

    #[test]
    fn the_loaders_find_what_the_maps_and_prefixes_define() {
        let l = loaders().unwrap();
        let mut buf = String::new();
        let installation = fixture::generate();
        for (key, path) in installation.kernel.iter().step_by(97) {
            assert!(
                class_exists(&l.composer, &l.kernel, &l.files, key, &mut buf),
                "{key}"
            );
            assert_eq!(
                l.kernel.get(key),
                installation
                    .tests
                    .get(key)
                    .or(installation.extension.get(key))
                    .or(Some(path))
                    .map(|s| &**s)
            );
        }
        // A namespaced class Composer finds through its PSR-4 prefix.
        let (key, path) = installation
            .kernel
            .iter()
            .find(|(k, _)| k.starts_with("Symfony\\"))
            .unwrap();
        assert_eq!(
            l.composer.find(key, &l.files, &mut buf).as_deref(),
            Some(&**path)
        );
        // The first map wins: the test map's entry over the kernel's.
        let shared = installation
            .tests
            .keys()
            .find(|k| installation.kernel.contains_key(*k))
            .unwrap();
        assert!(l.kernel.get(shared).unwrap().starts_with("tests/"));
        assert_eq!(l.kernel.get(&shared.to_lowercase()), None);
        // With kernel overrides, the override map's entries win instead.
        let overrides = ClassMap::parse(
            "ezp_override.php",
            format!(
                "<?php return array('{shared}' => 'override/a.php', 'eZNew' => 'override/b.php',);"
            )
            .as_bytes(),
        )
        .unwrap();
        let before = l.kernel.len();
        let overridden = l.kernel.clone().overridden_by(overrides);
        assert_eq!(overridden.get(shared), Some("override/a.php"));
        assert_eq!(overridden.get("eZNew"), Some("override/b.php"));
        assert_eq!(overridden.len(), before + 1);
    }
}
