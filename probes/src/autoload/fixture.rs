//! The generator of the suite's class map fixtures and of the Composer data
//! beside them.
//!
//! The kernel map has the size and mix of a current release's
//! `autoload/ezp_kernel.php`: 3,721 entries, 2,977 (80 %) into `vendor/`,
//! 521 (14 %) into `kernel/`, 186 (5 %) into `lib/` and 37 into `update/`;
//! 1,624 keys (44 %) have a namespace, one of them the generator's artefact
//! `$name Builder\Namespace_\string`. The extension map (180 entries) and
//! the test map (60) share a few keys with the kernel map, so the merge's
//! "first map wins" has work to do.
//!
//! Composer's data has no format document, so it is made here and never
//! written to a file: a PSR-4 prefix per package (300, `Vendor\Package\`,
//! a quarter with two directories, `src` and `lib`, as packages that moved
//! their sources have), a class map of the 1,353 unnamespaced vendor
//! classes (the Zeta Components, which Composer loads by class map), and
//! two PSR-0 fallback directories. Every namespaced key of the kernel map
//! lives under one of the prefixes, at the path PSR-4 gives it.
//!
//! Everything is a pure function of [`SEED`]; `cargo run -p probes
//! --example autoload_fixture` rewrites the committed maps and a test
//! checks them against the generator.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use super::read::write;

/// Where the maps are committed, below the fixtures folder, in the order
/// the kernel merges them.
pub const TEST_MAP: &str = "autoload/ezp_tests.php";
pub const EXTENSION_MAP: &str = "autoload/ezp_extension.php";
pub const KERNEL_MAP: &str = "autoload/ezp_kernel.php";

pub const SEED: u64 = 0x00a7_0108_2026_0002;

pub const ENTRIES: usize = 3721;
const VENDOR_NAMESPACED: usize = 1624;
const VENDOR_PLAIN: usize = 1353;
const KERNEL: usize = 521;
const LIB: usize = 186;
const PREFIXES: usize = 300;
pub const MISSES: usize = 2000;

/// The generated maps and Composer's data.
#[derive(Debug, Clone)]
pub struct Installation {
    pub kernel: BTreeMap<String, String>,
    pub extension: BTreeMap<String, String>,
    pub tests: BTreeMap<String, String>,
    pub composer_class_map: Vec<(String, String)>,
    pub psr4: Vec<(String, Vec<String>)>,
    pub psr0_fallbacks: Vec<String>,
}

impl Installation {
    /// Every file the maps and the prefixes' classes name.
    pub fn files(&self) -> Vec<String> {
        let maps = [&self.kernel, &self.extension, &self.tests];
        let mut files: Vec<String> = maps.iter().flat_map(|m| m.values().cloned()).collect();
        files.extend(self.composer_class_map.iter().map(|(_, p)| p.clone()));
        files
    }

    /// The three map files' text, in merge order.
    pub fn texts(&self) -> [(&'static str, String); 3] {
        let text = |m: &BTreeMap<String, String>| write(m.iter().map(|(k, v)| (&**k, &**v)));
        [
            (TEST_MAP, text(&self.tests)),
            (EXTENSION_MAP, text(&self.extension)),
            (KERNEL_MAP, text(&self.kernel)),
        ]
    }
}

/// SplitMix64, written out so the fixture never changes with a
/// dependency's version.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const VENDORS: [&str; 15] = [
    "Symfony",
    "Doctrine",
    "Zend",
    "Monolog",
    "Psr",
    "Sensio",
    "Twig",
    "Guzzle",
    "Ez",
    "Knp",
    "Pagerfanta",
    "Stash",
    "League",
    "Behat",
    "Composer",
];
const WORDS: [&str; 48] = [
    "Http",
    "Kernel",
    "Cache",
    "Config",
    "Console",
    "Routing",
    "Form",
    "Security",
    "Event",
    "Content",
    "Search",
    "Storage",
    "Image",
    "Io",
    "Core",
    "Bundle",
    "Bridge",
    "Persistence",
    "Query",
    "Mapper",
    "Handler",
    "Gateway",
    "Field",
    "Type",
    "Value",
    "Section",
    "Location",
    "User",
    "Role",
    "Policy",
    "Limitation",
    "Language",
    "Url",
    "Alias",
    "Trash",
    "Version",
    "Draft",
    "Relation",
    "Object",
    "State",
    "Template",
    "Debug",
    "Log",
    "Session",
    "Translation",
    "Validator",
    "Serializer",
    "Filesystem",
];
const SUFFIXES: [&str; 12] = [
    "",
    "Interface",
    "Exception",
    "Factory",
    "Builder",
    "Listener",
    "Visitor",
    "Converter",
    "Provider",
    "Test",
    "Trait",
    "Service",
];
const ZETA: [&str; 12] = [
    "Archive",
    "Base",
    "Cache",
    "ConsoleTools",
    "Database",
    "Feed",
    "Graph",
    "Mail",
    "PersistentObject",
    "Search",
    "Template",
    "Webdav",
];

fn lower(s: &str) -> String {
    s.to_ascii_lowercase()
}

/// A class name of two or three words and a suffix.
fn class_name(rng: &mut Rng) -> String {
    let mut name = format!("{}{}", rng.pick(&WORDS), rng.pick(&WORDS));
    if rng.next().is_multiple_of(3) {
        name.push_str(rng.pick(&WORDS));
    }
    name.push_str(rng.pick(&SUFFIXES));
    name
}

fn prefixes(rng: &mut Rng) -> Vec<(String, Vec<String>)> {
    let mut seen = BTreeMap::new();
    while seen.len() < PREFIXES {
        let vendor = rng.pick(&VENDORS);
        let package = format!(
            "{}{}",
            rng.pick(&WORDS),
            rng.pick(&["", "Bundle", "Component"])
        );
        let prefix = format!("{vendor}\\{package}\\");
        let root = format!("vendor/{}/{}", lower(vendor), lower(&package));
        let mut dirs = vec![format!("{root}/src")];
        if rng.next().is_multiple_of(4) {
            dirs.push(format!("{root}/lib"));
        }
        seen.entry(prefix).or_insert(dirs);
    }
    seen.into_iter().collect()
}

/// `count` new keys from `make`, put into `map` (a taken key is drawn
/// again).
fn fill(
    map: &mut BTreeMap<String, String>,
    rng: &mut Rng,
    count: usize,
    mut make: impl FnMut(&mut Rng) -> (String, String),
) {
    let mut added = 0;
    while added < count {
        let (key, path) = make(rng);
        if let Entry::Vacant(slot) = map.entry(key) {
            slot.insert(path);
            added += 1;
        }
    }
}

/// The generator.
pub fn generate() -> Installation {
    let mut rng = Rng(SEED);
    let psr4 = prefixes(&mut rng);
    let mut kernel = BTreeMap::new();
    kernel.insert(
        "$name Builder\\Namespace_\\string".to_string(),
        "vendor/ezsystems/ezpublish-kernel/eZ/Publish/Core/Base/Container/string.php".to_string(),
    );
    fill(&mut kernel, &mut rng, VENDOR_NAMESPACED - 1, |rng| {
        let (prefix, dirs) = &psr4[(rng.next() % psr4.len() as u64) as usize];
        let sub = rng.pick(&WORDS);
        let name = class_name(rng);
        (
            format!("{prefix}{sub}\\{name}"),
            format!("{}/{sub}/{name}.php", dirs[0]),
        )
    });
    let mut plain = BTreeMap::new();
    fill(&mut plain, &mut rng, VENDOR_PLAIN, |rng| {
        let component = rng.pick(&ZETA);
        let name = class_name(rng);
        let path = format!(
            "vendor/zetacomponents/{}/src/{}.php",
            lower(component),
            lower(&name)
        );
        (format!("ezc{component}{name}"), path)
    });
    let composer_class_map: Vec<(String, String)> =
        plain.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    kernel.extend(plain);
    fill(&mut kernel, &mut rng, KERNEL, |rng| {
        let name = class_name(rng);
        let dir = rng.pick(&["classes", "private/classes", "common", "content"]);
        (
            format!("eZ{name}"),
            format!("kernel/{dir}/ez{}.php", lower(&name)),
        )
    });
    fill(&mut kernel, &mut rng, LIB, |rng| {
        let name = class_name(rng);
        let lib = lower(rng.pick(&WORDS));
        (
            format!("eZ{name}"),
            format!("lib/ez{lib}/classes/ez{}.php", lower(&name)),
        )
    });
    let rest = ENTRIES - kernel.len();
    fill(&mut kernel, &mut rng, rest, |rng| {
        let name = class_name(rng);
        (
            format!("ezpUpdate{name}"),
            format!("update/common/scripts/{}.php", lower(&name)),
        )
    });
    let shared: Vec<String> = kernel.keys().step_by(600).cloned().collect();
    let mut extension = BTreeMap::new();
    for key in &shared {
        extension.insert(
            key.clone(),
            format!("extension/ezoverride/classes/{}.php", lower(key)),
        );
    }
    fill(&mut extension, &mut rng, 180 - shared.len(), |rng| {
        let name = class_name(rng);
        let ext = lower(rng.pick(&WORDS));
        (
            format!("ezf{name}"),
            format!("extension/ez{ext}/classes/{}.php", lower(&name)),
        )
    });
    let mut tests = BTreeMap::new();
    for key in shared.iter().take(3) {
        tests.insert(
            key.clone(),
            format!("tests/toolkit/mocks/{}.php", lower(key)),
        );
    }
    fill(&mut tests, &mut rng, 57, |rng| {
        let name = class_name(rng);
        (
            format!("ezpTest{name}"),
            format!("tests/toolkit/{}.php", lower(&name)),
        )
    });
    Installation {
        kernel,
        extension,
        tests,
        composer_class_map,
        psr4,
        psr0_fallbacks: vec!["src".into(), "vendor/ezsystems/legacy-bridge/lib".into()],
    }
}

/// The 2,000 names `autoload_miss` checks: three in five under a PSR-4
/// prefix (so Composer builds and checks candidate paths), one in five
/// without a namespace, one in five in a vendor no prefix names.
pub fn missing_names(installation: &Installation) -> Vec<String> {
    let mut rng = Rng(SEED ^ 0x5eed);
    (0..MISSES)
        .map(|i| match i % 5 {
            0..=2 => {
                let (prefix, _) = &installation.psr4[(rng.next() % PREFIXES as u64) as usize];
                format!(
                    "{prefix}{}\\Missing{}{i}",
                    rng.pick(&WORDS),
                    rng.pick(&WORDS)
                )
            }
            3 => format!("eZMissing{}_{}{i}", rng.pick(&WORDS), rng.pick(&WORDS)),
            _ => format!("Acme\\{}\\Missing{i}", rng.pick(&WORDS)),
        })
        .collect()
}
