//! The file cache: entries under a cache directory, as the CMS's cluster
//! file handler keeps them (compiled templates, the settings cache, the
//! output of `{cache-block}`).
//!
//! - **Atomic writes.** An entry is replaced whole through
//!   [`yardstick_probe::fs::replace_file`], the writer saved runs go through too
//!   (a temporary file renamed into place), so a reader, or a process
//!   killed mid-write, sees the old entry or the new one, never half of
//!   one. Not synced ([`Durability::Cache`]): a cache lost to a power cut
//!   is rebuilt, and a sync on every miss would time the disk in every
//!   cold render.
//! - **Expiry by age and by timestamp.** An entry is stale when it is older
//!   than the reader's `max_age`, or older than a moment after which
//!   everything of its kind is stale (the CMS's "content changed at T"):
//!   its mtime says when it was written.
//! - **Expire and purge.** `expire` makes an entry stale without removing
//!   it (another process may be reading it): its mtime goes to the epoch,
//!   which every reader takes as stale. `purge` removes it, or a whole
//!   folder of entries.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, SystemTime};
use yardstick_probe::fs::Durability;

/// A cache directory.
#[derive(Debug, Clone)]
pub struct FileCache {
    dir: PathBuf,
}

/// When an entry counts as stale.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Expiry {
    /// Older than this is stale; `None`: age alone never makes it stale.
    pub max_age: Option<Duration>,
    /// Written before this moment is stale.
    pub expired_before: Option<SystemTime>,
}

/// Why the cache could not do what was asked, naming the path.
#[derive(Debug)]
pub struct CacheError {
    pub path: PathBuf,
    pub error: io::Error,
}

impl std::fmt::Display for CacheError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for CacheError {}

fn at(path: &Path) -> impl FnOnce(io::Error) -> CacheError + '_ {
    move |error| CacheError {
        path: path.to_path_buf(),
        error,
    }
}

impl FileCache {
    /// The cache in `dir`, made if missing. A directory that cannot be
    /// made or written is refused now, not at the first write.
    pub fn open(dir: &Path) -> Result<FileCache, CacheError> {
        fs::create_dir_all(dir).map_err(at(dir))?;
        tempfile::Builder::new()
            .prefix(".probe")
            .tempfile_in(dir)
            .map_err(at(dir))?;
        Ok(FileCache {
            dir: dir.to_path_buf(),
        })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of entry `key`: a relative path of plain names
    /// (`template-block/ab/abcdef.cache`); a key that would leave the
    /// directory is refused.
    pub fn path(&self, key: &str) -> Result<PathBuf, CacheError> {
        let relative = Path::new(key);
        let plain = !key.is_empty()
            && relative
                .components()
                .all(|c| matches!(c, Component::Normal(_)));
        if !plain {
            return Err(CacheError {
                path: self.dir.join(key),
                error: io::Error::new(io::ErrorKind::InvalidInput, "not a cache key"),
            });
        }
        Ok(self.dir.join(relative))
    }

    /// Writes entry `key` atomically.
    pub fn store(&self, key: &str, bytes: &[u8]) -> Result<(), CacheError> {
        let path = self.path(key)?;
        let parent = path.parent().unwrap_or(&self.dir);
        fs::create_dir_all(parent).map_err(at(parent))?;
        yardstick_probe::fs::replace_file(&path, bytes, Durability::Cache).map_err(at(&path))
    }

    /// Entry `key`, or `None` when it is missing or stale.
    pub fn fetch(&self, key: &str, expiry: Expiry) -> Result<Option<Vec<u8>>, CacheError> {
        let path = self.path(key)?;
        let mut file = match fs::File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(at(&path)(e)),
        };
        let written = file
            .metadata()
            .and_then(|m| m.modified())
            .map_err(at(&path))?;
        if stale(written, expiry, SystemTime::now()) {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut file, &mut bytes).map_err(at(&path))?;
        Ok(Some(bytes))
    }

    /// Makes entry `key` stale for every reader, without removing it: its
    /// mtime goes back to the epoch. A missing entry is already stale.
    pub fn expire(&self, key: &str) -> Result<(), CacheError> {
        let path = self.path(key)?;
        match fs::File::options().write(true).open(&path) {
            Ok(file) => file.set_modified(SystemTime::UNIX_EPOCH).map_err(at(&path)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(at(&path)(e)),
        }
    }

    /// Removes entry `key`, or every entry under it when it names a folder.
    pub fn purge(&self, key: &str) -> Result<(), CacheError> {
        let path = self.path(key)?;
        let removed = match fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => fs::remove_dir_all(&path),
            Ok(_) => fs::remove_file(&path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e),
        };
        removed.map_err(at(&path))
    }
}

/// Whether an entry written at `written` is stale at `now`.
fn stale(written: SystemTime, expiry: Expiry, now: SystemTime) -> bool {
    let too_old = expiry
        .max_age
        .is_some_and(|age| now.duration_since(written).is_ok_and(|d| d > age));
    let expired = expiry.expired_before.is_some_and(|t| written < t);
    // `expire` dates an entry to the epoch: stale for every reader.
    written <= SystemTime::UNIX_EPOCH || too_old || expired
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache() -> (tempfile::TempDir, FileCache) {
        let dir = tempfile::tempdir().unwrap();
        let cache = FileCache::open(&dir.path().join("cache")).unwrap();
        (dir, cache)
    }

    #[test]
    fn stored_entries_are_fetched_and_purged() {
        let (_d, c) = cache();
        c.store("a/b/entry.cache", b"one").unwrap();
        let fresh = Expiry::default();
        assert_eq!(c.fetch("a/b/entry.cache", fresh).unwrap().unwrap(), b"one");
        c.store("a/b/entry.cache", b"two").unwrap();
        assert_eq!(c.fetch("a/b/entry.cache", fresh).unwrap().unwrap(), b"two");
        c.purge("a").unwrap();
        assert_eq!(c.fetch("a/b/entry.cache", fresh).unwrap(), None);
        // No temporary file is left beside an entry.
        c.store("x", b"1").unwrap();
        let names: Vec<_> = fs::read_dir(c.dir())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, ["x"]);
    }

    #[test]
    fn an_expired_entry_is_stale_but_still_there() {
        let (_d, c) = cache();
        c.store("k", b"v").unwrap();
        c.expire("k").unwrap();
        assert_eq!(c.fetch("k", Expiry::default()).unwrap(), None);
        assert!(c.path("k").unwrap().exists());
        c.expire("missing").unwrap();
        c.store("k", b"new").unwrap();
        assert_eq!(c.fetch("k", Expiry::default()).unwrap().unwrap(), b"new");
    }

    #[test]
    fn staleness_by_age_and_by_timestamp() {
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let later = |s| t0 + Duration::from_secs(s);
        let age = |s| Expiry {
            max_age: Some(Duration::from_secs(s)),
            expired_before: None,
        };
        assert!(!stale(t0, age(60), later(60)));
        assert!(stale(t0, age(60), later(61)));
        assert!(!stale(t0, Expiry::default(), later(1_000_000)));
        let changed = |s| Expiry {
            max_age: None,
            expired_before: Some(later(s)),
        };
        assert!(stale(t0, changed(1), later(2)));
        assert!(!stale(later(5), changed(1), later(6)));
    }

    #[test]
    fn keys_stay_inside_the_directory() {
        let (_d, c) = cache();
        for key in ["", "../x", "/etc/passwd", "a/../../b"] {
            let e = c.store(key, b"no").unwrap_err();
            assert!(e.to_string().contains("not a cache key"), "{key}: {e}");
        }
    }

    #[test]
    fn an_unwritable_directory_is_refused_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain-file");
        fs::write(&file, b"").unwrap();
        let e = FileCache::open(&file.join("cache")).unwrap_err();
        assert!(e.to_string().contains("plain-file"), "{e}");
    }
}
