//! The view cache: a rendered page kept per request target (path and
//! query, whole), as the CMS keeps its view cache, so a page is rendered
//! once and then served from the cache until the content changes (it never
//! does here: the store is read-only).
//!
//! The pages live in a [`FileCache`] (the kernel's, atomic writes), so a
//! restarted server given the same `--cache-dir` starts warm; in front of
//! it, a bounded map in memory holds each page with its gzipped bytes, so a
//! hit costs neither a file read nor compressing. Keying by the whole
//! target is what makes `yardstick http --cold` miss: its unique `_bench=`
//! parameter makes every target new.

use crate::gzip;
use bytes::Bytes;
use probes::filecache::{Expiry, FileCache};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, RwLock};

/// Pages the memory front holds at most (a `--cold` run makes a new page
/// per request); when full it is emptied, and the disk still holds all.
const MEMORY_PAGES: usize = 4096;

/// A page as it is served: its HTML, and gzipped.
#[derive(Debug)]
pub struct Stored {
    pub html: Bytes,
    pub gzip: Bytes,
}

impl Stored {
    fn new(html: Bytes) -> Stored {
        let gzip = Bytes::from(gzip::compress(&html));
        Stored { html, gzip }
    }
}

/// The cache, or its absence (`--no-cache`).
pub struct ViewCache {
    files: Option<FileCache>,
    memory: RwLock<HashMap<String, Arc<Stored>>>,
    /// The default cache folder, removed when the server ends.
    _temporary: Option<tempfile::TempDir>,
}

impl ViewCache {
    /// No cache: every lookup misses, nothing is kept.
    pub fn off() -> ViewCache {
        ViewCache {
            files: None,
            memory: RwLock::new(HashMap::new()),
            _temporary: None,
        }
    }

    /// The cache in `dir`, or in a fresh temporary folder; a folder that
    /// cannot be made or written is refused now, naming it.
    pub fn open(dir: Option<&Path>) -> Result<ViewCache, String> {
        let (dir, temporary) = match dir {
            Some(d) => (d.to_path_buf(), None),
            None => {
                let t = tempfile::Builder::new()
                    .prefix("yardstick-demo-cache")
                    .tempdir()
                    .map_err(|e| format!("cannot make a temporary cache folder: {e}"))?;
                (t.path().to_path_buf(), Some(t))
            }
        };
        let files = FileCache::open(&dir)
            .map_err(|e| format!("--cache-dir: cannot use {}: {}", e.path.display(), e.error))?;
        Ok(ViewCache {
            files: Some(files),
            memory: RwLock::new(HashMap::new()),
            _temporary: temporary,
        })
    }

    /// The page kept for `target`, if any. A cache file that cannot be
    /// read is a miss (the page is rendered again), said on stderr.
    pub fn get(&self, target: &str) -> Option<Arc<Stored>> {
        let files = self.files.as_ref()?;
        if let Some(hit) = self.in_memory(target) {
            return Some(hit);
        }
        let bytes = match files.fetch(&key(target), Expiry::default()) {
            Ok(found) => found?,
            Err(e) => {
                eprintln!("view cache: {e}");
                return None;
            }
        };
        Some(self.remember(target, Stored::new(Bytes::from(bytes))))
    }

    /// The page kept in memory for `target`, if any: no file is read, so
    /// a server thread may ask without blocking.
    pub fn in_memory(&self, target: &str) -> Option<Arc<Stored>> {
        self.memory.read().ok()?.get(target).map(Arc::clone)
    }

    /// Keeps `html` as the page of `target` and returns it as served. With
    /// the cache off, or a write that fails (said on stderr), the page is
    /// still served.
    pub fn put(&self, target: &str, html: Bytes) -> Arc<Stored> {
        let stored = Stored::new(html);
        let Some(files) = &self.files else {
            return Arc::new(stored);
        };
        if let Err(e) = files.store(&key(target), &stored.html) {
            eprintln!("view cache: {e}");
        }
        self.remember(target, stored)
    }

    fn remember(&self, target: &str, stored: Stored) -> Arc<Stored> {
        let stored = Arc::new(stored);
        if let Ok(mut memory) = self.memory.write() {
            // Full (a long --cold run): start afresh rather than keep the
            // first pages for ever; the warm ones come back from disk.
            if memory.len() >= MEMORY_PAGES {
                memory.clear();
            }
            memory.insert(target.to_string(), Arc::clone(&stored));
        }
        stored
    }
}

/// The cache file of `target`: its SHA-256 in hex, under a folder of its
/// first two digits (a target may hold any characters; a name may not).
fn key(target: &str) -> String {
    let digest = Sha256::digest(target.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("view/{}/{hex}.html", &hex[..2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_kept_per_whole_target_and_survive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ViewCache::open(Some(dir.path())).unwrap();
        assert!(cache.get("/").is_none());
        cache.put("/", Bytes::from_static(b"<p>home</p>"));
        assert_eq!(&cache.get("/").unwrap().html[..], b"<p>home</p>");
        assert!(cache.get("/?_bench=1").is_none());
        let again = ViewCache::open(Some(dir.path())).unwrap();
        let page = again.get("/").unwrap();
        assert_eq!(gzip::decompress(&page.gzip), b"<p>home</p>");
    }

    #[test]
    fn off_keeps_nothing_and_a_file_is_no_folder() {
        let off = ViewCache::off();
        off.put("/", Bytes::from_static(b"x"));
        assert!(off.get("/").is_none());
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain");
        std::fs::write(&file, b"").unwrap();
        let e = ViewCache::open(Some(&file)).err().unwrap();
        assert!(e.contains("plain") && !e.contains('\n'), "{e}");
    }
}
