//! The settings cache: a settings name merged across its directory chain
//! once, kept in the file cache as one file, and read back from there while
//! none of the files it was merged from changed.
//!
//! A request reads the same handful of settings files, each across three or
//! four directories. The cache turns that into one read of one file in the
//! dialect the reader already parses (written by [`write`]), keyed by the
//! files it came from: their paths, sizes and modification times. An edit
//! to any of them makes a new key, so a stale entry is never read; a
//! settings store that cannot be written back (`write` refuses what the
//! dialect cannot say) is served uncached.

use std::path::Path;
use std::time::UNIX_EPOCH;

use sha2::{Digest, Sha256};

use super::overrides::{candidates, load};
use super::{Settings, SettingsError, write};
use crate::filecache::{Expiry, FileCache};

/// Settings kept in a file cache.
#[derive(Debug, Clone)]
pub struct SettingsCache {
    files: FileCache,
}

/// Where a [`SettingsCache::load`] found the settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// Read back from the cache.
    Cached,
    /// Merged from the files, and stored for next time when it could be.
    Merged,
}

impl SettingsCache {
    pub fn new(files: FileCache) -> SettingsCache {
        SettingsCache { files }
    }

    /// `name` (such as `content.ini`) across `dirs`, and where it came from.
    pub fn load<P: AsRef<Path>>(
        &self,
        name: &str,
        dirs: &[P],
    ) -> Result<(Settings, Found), SettingsError> {
        let key = key(name, dirs);
        if let Ok(Some(bytes)) = self.files.fetch(&key, Expiry::default())
            && let Ok(cached) = Settings::parse(name, &bytes)
        {
            return Ok((cached, Found::Cached));
        }
        let merged = load(name, dirs)?;
        if let Ok(text) = write(&merged) {
            let _ = self.files.store(&key, text.as_bytes());
        }
        Ok((merged, Found::Merged))
    }
}

/// The entry of `name` as merged from the files now in `dirs`.
fn key<P: AsRef<Path>>(name: &str, dirs: &[P]) -> String {
    let mut hash = Sha256::new();
    hash.update(name.as_bytes());
    for dir in dirs {
        for candidate in candidates(name) {
            let path = dir.as_ref().join(&candidate);
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            hash.update(path.display().to_string().as_bytes());
            hash.update(meta.len().to_le_bytes());
            hash.update(modified.to_le_bytes());
        }
    }
    let hex: String = hash.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("settings/{name}-{hex}.ini")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn a_merged_file_is_read_back_until_a_source_changes() {
        let dir = tempfile::tempdir().unwrap();
        let (base, over) = (dir.path().join("base"), dir.path().join("over"));
        fs::create_dir_all(&base).unwrap();
        fs::create_dir_all(&over).unwrap();
        fs::write(base.join("content.ini"), "[A]\nx=1\ny=2\n").unwrap();
        fs::write(over.join("content.ini.append"), "[A]\ny=3\n").unwrap();
        let cache = SettingsCache::new(FileCache::open(&dir.path().join("cache")).unwrap());
        let dirs = [&base, &over];
        let (first, found) = cache.load("content.ini", &dirs).unwrap();
        assert_eq!(found, Found::Merged);
        let (again, found) = cache.load("content.ini", &dirs).unwrap();
        assert_eq!(found, Found::Cached);
        for settings in [&first, &again] {
            let y = settings.variable("A", "y").and_then(|v| v.as_scalar());
            assert_eq!(y, Some("3"));
        }
        // An edit (another size) makes another key: merged again.
        fs::write(over.join("content.ini.append"), "[A]\ny=4\nz=5\n").unwrap();
        let (edited, found) = cache.load("content.ini", &dirs).unwrap();
        assert_eq!(found, Found::Merged);
        assert_eq!(
            edited.variable("A", "z").and_then(|v| v.as_scalar()),
            Some("5")
        );
    }
}
