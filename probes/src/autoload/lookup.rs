//! The two registered autoloaders, asked in turn as `class_exists()` asks
//! them: Composer's `ClassLoader` first, then the kernel's merged maps.
//!
//! The file check. Composer's PSR-4 and PSR-0 search ends each candidate
//! path with `file_exists()`. Here that check asks a set of the
//! installation's files, built once at set-up ([`Files`]), not the file
//! system: a `stat` per candidate would time the machine's file system
//! and its cache (and differ between a warm run, a cold one and valgrind's
//! counted run), where the probe means to time the loaders' own work:
//! building each candidate path and asking whether it exists. PHP's own
//! stat cache answers a repeated `file_exists()` from memory in much the
//! same way. The set holds every path the maps name and every file under
//! the PSR-4 directories, so a check that built a wrong path would find
//! nothing and one that built a right path of a defined class finds it.
//!
//! Left out of Composer's `findFile()`: its memo of missing classes (a
//! request checks each name once, so within one the memo only records),
//! APCu, PSR-4 fallback directories (none in the data) and the include
//! path (off by default).

use rustc_hash::{FxHashMap, FxHashSet};

use super::read::{ClassMap, Entries};

/// The installation's files, by their path relative to its root.
#[derive(Debug, Default, Clone)]
pub struct Files(FxHashSet<Box<str>>);

impl Files {
    pub fn new(paths: impl IntoIterator<Item = String>) -> Files {
        Files(paths.into_iter().map(String::into_boxed_str).collect())
    }

    pub fn exists(&self, path: &str) -> bool {
        self.0.contains(path)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Composer's `ClassLoader`, as its generated `autoload_static.php` fills
/// it: a class map, PSR-4 prefixes (each ending with `\`) with their
/// directories, and PSR-0 fallback directories.
#[derive(Debug, Clone)]
pub struct Composer {
    class_map: FxHashMap<Box<str>, Box<str>>,
    psr4: FxHashMap<Box<str>, Vec<Box<str>>>,
    /// Composer's `prefixLengthsPsr4`, reduced to what it is used for:
    /// whether any prefix starts with this byte.
    first_bytes: [bool; 256],
    psr0_fallbacks: Vec<Box<str>>,
}

impl Composer {
    pub fn new(
        class_map: impl IntoIterator<Item = (String, String)>,
        psr4: impl IntoIterator<Item = (String, Vec<String>)>,
        psr0_fallbacks: Vec<String>,
    ) -> Composer {
        let mut first_bytes = [false; 256];
        let psr4: FxHashMap<Box<str>, Vec<Box<str>>> = psr4
            .into_iter()
            .map(|(prefix, dirs)| {
                if let Some(&b) = prefix.as_bytes().first() {
                    first_bytes[usize::from(b)] = true;
                }
                (prefix.into(), dirs.into_iter().map(Into::into).collect())
            })
            .collect();
        Composer {
            class_map: class_map
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
            psr4,
            first_bytes,
            psr0_fallbacks: psr0_fallbacks.into_iter().map(Into::into).collect(),
        }
    }

    pub fn prefixes(&self) -> impl Iterator<Item = &str> {
        self.psr4.keys().map(|k| &**k)
    }

    /// `findFile()`: the class map, then the PSR-4 prefixes from the
    /// longest namespace prefix of `class` to the shortest, each of its
    /// directories in order, then the PSR-0 fallbacks. `buf` is a reused
    /// path buffer.
    pub fn find(&self, class: &str, files: &Files, buf: &mut String) -> Option<String> {
        if let Some(path) = self.class_map.get(class) {
            return Some(path.to_string());
        }
        let first = class.as_bytes().first().copied()?;
        if self.first_bytes[usize::from(first)] {
            // Cut at each `\` from the right: `A\B\C` tries `A\B\`, `A\`.
            let mut end = class.len();
            while let Some(cut) = class[..end].rfind('\\') {
                end = cut;
                if let Some(dirs) = self.psr4.get(&class[..=cut]) {
                    for dir in dirs {
                        candidate(buf, dir, "", &class[cut + 1..], false);
                        if files.exists(buf) {
                            return Some(buf.clone());
                        }
                    }
                }
            }
        }
        // PSR-0: the namespace's `\` and the class name's `_` are folders.
        let name_at = class.rfind('\\').map_or(0, |i| i + 1);
        for dir in &self.psr0_fallbacks {
            candidate(buf, dir, &class[..name_at], &class[name_at..], true);
            if files.exists(buf) {
                return Some(buf.clone());
            }
        }
        None
    }
}

/// `dir/NAMESPACE/NAME.php` into `buf`, the namespace's `\` made `/`, and
/// the name's `_` too under PSR-0.
fn candidate(buf: &mut String, dir: &str, namespace: &str, name: &str, psr0: bool) {
    if crate::faults::on(crate::faults::Fault::CandidateRescan) {
        crate::faults::hash(namespace.as_bytes(), 2);
        crate::faults::hash(name.as_bytes(), 2);
    }
    buf.clear();
    buf.push_str(dir);
    buf.push('/');
    for c in namespace.chars() {
        buf.push(if c == '\\' { '/' } else { c });
    }
    for c in name.chars() {
        buf.push(if c == '\\' || (psr0 && c == '_') {
            '/'
        } else {
            c
        });
    }
    buf.push_str(".php");
}

/// The kernel's autoloader (`autoload.php`): the test, extension and
/// kernel maps joined once with PHP's `+`, the first map's entry winning.
#[derive(Debug, Default, Clone)]
pub struct Kernel {
    classes: Entries,
}

impl Kernel {
    /// Joins `maps` in order, as `$tests + $extensions + $kernel`.
    pub fn merged(maps: impl IntoIterator<Item = ClassMap>) -> Kernel {
        let mut classes = Entries::default();
        for map in maps {
            for (key, path) in map.into_entries() {
                classes.entry(key).or_insert(path);
            }
        }
        Kernel { classes }
    }

    /// The maps with kernel overrides enabled: `overrides` merged last
    /// with PHP's `array_merge`, so its entries win. The probes time the
    /// CMS's default, without overrides.
    pub fn overridden_by(mut self, overrides: ClassMap) -> Kernel {
        for (key, path) in overrides.into_entries() {
            self.classes.insert(key, path);
        }
        self
    }

    pub fn get(&self, class: &str) -> Option<&str> {
        self.classes.get(class).map(|p| &**p)
    }

    pub fn len(&self) -> usize {
        self.classes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.classes.is_empty()
    }
}

/// What `class_exists($class)` finds through both loaders, in order.
pub fn class_exists(
    composer: &Composer,
    kernel: &Kernel,
    files: &Files,
    class: &str,
    buf: &mut String,
) -> bool {
    composer.find(class, files, buf).is_some() || kernel.get(class).is_some()
}
