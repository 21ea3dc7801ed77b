//! The view cache: a rendered page kept per request target, as the CMS
//! keeps its view cache, so a page is rendered once and then served from
//! the cache until the content changes (it never does here: the store is
//! read-only).
//!
//! Only targets [`keeps`] allows are kept: no query, or the search page's
//! `SearchText` alone. A query the page does not read (`?u=1`, `?u=2`, ...)
//! would otherwise make a new entry per request for the same page; such a
//! target is rendered and not kept, which is also what makes `yardstick
//! http --cold` miss (its unique `_bench=` parameter).
//!
//! The pages live in a [`FileCache`] (the kernel's, atomic writes), so a
//! restarted server given the same `--cache-dir` starts warm; in front of
//! it, pages in memory with their gzipped bytes, so a hit costs neither a
//! file read nor compressing. Both are bounded in bytes ([`ByteLru`]): past
//! the bound, the least recently used pages go, from memory or from disk.

use crate::gzip;
use crate::lru::ByteLru;
use bytes::Bytes;
use probes::filecache::{Expiry, FileCache};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The longest target kept: a longer one (a search for a page of text) is
/// rendered, not kept, so no single entry is mostly its key.
pub const MAX_KEPT_TARGET: usize = 1024;

/// What a page costs in memory beside its bytes: its key, the map's
/// entry, the `Arc`.
const ENTRY_OVERHEAD: u64 = 128;

/// The unit a page file takes on disk: a 10 KB page holds three of them.
const DISK_BLOCK: u64 = 4096;

/// The bytes a page file of `size` bytes takes on disk, in whole blocks,
/// so the folder's bound is near what `du` says of it.
pub fn on_disk(size: u64) -> u64 {
    size.div_ceil(DISK_BLOCK).max(1) * DISK_BLOCK
}

/// The bounds of the cache, in bytes of pages.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub disk: u64,
    pub memory: u64,
}

/// A page as it is served: its HTML, and gzipped.
#[derive(Debug)]
pub struct Stored {
    pub html: Bytes,
    pub gzip: Bytes,
}

impl Stored {
    /// Both copies held in allocations of their own length: a rendered
    /// page's string has grown by doubling, and a kept page is counted by
    /// its length.
    fn new(html: Bytes) -> Stored {
        let mut gzip = gzip::compress(&html);
        gzip.shrink_to_fit();
        Stored {
            html: Bytes::copy_from_slice(&html),
            gzip: Bytes::from(gzip),
        }
    }
}

/// Whether the page of `target` may be kept: no query, or the search
/// page with its `SearchText` parameter alone, and not over
/// [`MAX_KEPT_TARGET`] bytes.
pub fn keeps(target: &str) -> bool {
    if target.len() > MAX_KEPT_TARGET || target.contains('#') {
        return false;
    }
    match target.split_once('?') {
        None => true,
        Some((path, query)) => {
            let search = path.ends_with("/content/search");
            search && query.starts_with("SearchText=") && !query.contains('&')
        }
    }
}

/// The cache, or its absence (`--no-cache`).
pub struct ViewCache {
    files: Option<FileCache>,
    /// The folder's pages by file key, with their sizes.
    disk: Mutex<ByteLru<()>>,
    memory: Mutex<ByteLru<Arc<Stored>>>,
    /// The default cache folder, removed when the server ends.
    _temporary: Option<tempfile::TempDir>,
}

impl ViewCache {
    /// No cache: every lookup misses, nothing is kept.
    pub fn off() -> ViewCache {
        ViewCache {
            files: None,
            disk: Mutex::new(ByteLru::new(0)),
            memory: Mutex::new(ByteLru::new(0)),
            _temporary: None,
        }
    }

    /// The cache in `dir`, or in a fresh temporary folder; a folder that
    /// cannot be made or written is refused now, naming it. Pages already
    /// in the folder count toward its bound, the oldest removed past it.
    pub fn open(dir: Option<&Path>, bounds: Bounds) -> Result<ViewCache, String> {
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
        let mut disk = ByteLru::new(bounds.disk);
        for (key, size) in crate::cache_folder::pages(&dir) {
            for gone in disk.insert(&key, (), on_disk(size)) {
                remove(&files, &gone);
            }
        }
        Ok(ViewCache {
            files: Some(files),
            disk: Mutex::new(disk),
            memory: Mutex::new(ByteLru::new(bounds.memory)),
            _temporary: temporary,
        })
    }

    /// The page kept for `target`, if any. A cache file that cannot be
    /// read is a miss (the page is rendered again), said on stderr.
    pub fn get(&self, target: &str) -> Option<Arc<Stored>> {
        let files = self.files.as_ref()?;
        if !keeps(target) {
            return None;
        }
        if let Some(hit) = self.in_memory(target) {
            return Some(hit);
        }
        let key = key(target);
        let bytes = match files.fetch(&key, Expiry::default()) {
            Ok(found) => found?,
            Err(e) => {
                eprintln!("view cache: {e}");
                return None;
            }
        };
        if let Ok(mut disk) = self.disk.lock() {
            disk.get(&key);
        }
        Some(self.remember(target, Stored::new(Bytes::from(bytes))))
    }

    /// The page kept in memory for `target`, if any: no file is read, so
    /// a server thread may ask without blocking.
    pub fn in_memory(&self, target: &str) -> Option<Arc<Stored>> {
        self.memory.lock().ok()?.get(target)
    }

    /// Keeps `html` as the page of `target`, if [`keeps`] allows, and
    /// returns it as served. With the cache off, or a write that fails
    /// (said on stderr), the page is still served.
    pub fn put(&self, target: &str, html: Bytes) -> Arc<Stored> {
        let stored = Stored::new(html);
        let Some(files) = self.files.as_ref().filter(|_| keeps(target)) else {
            return Arc::new(stored);
        };
        let key = key(target);
        match files.store(&key, &stored.html) {
            Ok(()) => {
                let size = on_disk(stored.html.len() as u64);
                let removed = match self.disk.lock() {
                    Ok(mut disk) => disk.insert(&key, (), size),
                    Err(_) => vec![key.clone()],
                };
                removed.iter().for_each(|gone| remove(files, gone));
            }
            Err(e) => eprintln!("view cache: {e}"),
        }
        self.remember(target, stored)
    }

    /// Removes every page kept, in memory and in the folder; returns how
    /// many the folder held (a page in memory is in the folder too, unless
    /// its write failed).
    pub fn clear(&self) -> usize {
        if let Ok(mut memory) = self.memory.lock() {
            memory.clear();
        }
        let removed = match self.disk.lock() {
            Ok(mut disk) => disk.clear(),
            Err(_) => Vec::new(),
        };
        if let Some(files) = &self.files {
            removed.iter().for_each(|gone| remove(files, gone));
        }
        removed.len()
    }

    fn remember(&self, target: &str, stored: Stored) -> Arc<Stored> {
        let stored = Arc::new(stored);
        let weight = (stored.html.len() + stored.gzip.len() + target.len()) as u64;
        if let Ok(mut memory) = self.memory.lock() {
            memory.insert(target, Arc::clone(&stored), weight + ENTRY_OVERHEAD);
        }
        stored
    }

    /// The bytes of pages held on disk and in memory.
    #[cfg(test)]
    fn held(&self) -> (u64, u64) {
        let disk = self.disk.lock().map_or(0, |d| d.total());
        let memory = self.memory.lock().map_or(0, |m| m.total());
        (disk, memory)
    }
}

/// Removes the page file `key`; a failure is said on stderr (the page is
/// then over the bound until the next start counts it again).
fn remove(files: &FileCache, key: &str) {
    if let Err(e) = files.purge(key) {
        eprintln!("view cache: {e}");
    }
}

/// The cache file of `target`: its SHA-256 in hex, under a folder of its
/// first two digits (a target may hold any characters; a name may not).
fn key(target: &str) -> String {
    let digest = Sha256::digest(target.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("{}/{}/{hex}.html", crate::cache_folder::PAGES, &hex[..2])
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOUNDS: Bounds = Bounds {
        disk: 1 << 20,
        memory: 1 << 20,
    };

    #[test]
    fn pages_are_kept_per_whole_target_and_survive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ViewCache::open(Some(dir.path()), BOUNDS).unwrap();
        assert!(cache.get("/").is_none());
        cache.put("/", Bytes::from_static(b"<p>home</p>"));
        assert_eq!(&cache.get("/").unwrap().html[..], b"<p>home</p>");
        assert!(cache.get("/news").is_none());
        let again = ViewCache::open(Some(dir.path()), BOUNDS).unwrap();
        let page = again.get("/").unwrap();
        assert_eq!(gzip::decompress(&page.gzip), b"<p>home</p>");
    }

    #[test]
    fn a_cleared_cache_holds_nothing_in_memory_on_disk_or_after_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ViewCache::open(Some(dir.path()), BOUNDS).unwrap();
        cache.put("/", Bytes::from_static(b"<p>home</p>"));
        cache.put("/news", Bytes::from_static(b"<p>news</p>"));
        assert_eq!(cache.clear(), 2);
        assert!(cache.in_memory("/").is_none() && cache.get("/news").is_none());
        assert_eq!(cache.held(), (0, 0));
        assert!(crate::cache_folder::pages(dir.path()).is_empty());
        let again = ViewCache::open(Some(dir.path()), BOUNDS).unwrap();
        assert!(again.get("/").is_none());
        assert_eq!(ViewCache::off().clear(), 0);
    }

    #[test]
    fn off_keeps_nothing_and_a_file_is_no_folder() {
        let off = ViewCache::off();
        off.put("/", Bytes::from_static(b"x"));
        assert!(off.get("/").is_none());
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain");
        std::fs::write(&file, b"").unwrap();
        let e = ViewCache::open(Some(&file), BOUNDS).err().unwrap();
        assert!(e.contains("plain") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn only_targets_whose_query_the_page_reads_are_kept() {
        for kept in ["/", "/news", "/content/search?SearchText=harbour"] {
            assert!(keeps(kept), "{kept}");
        }
        let long = format!("/{}", "a".repeat(MAX_KEPT_TARGET));
        for not in [
            "/?_bench=1",
            "/products?u=7",
            "/content/search?SearchText=a&u=1",
            "/content/search?u=1",
            "/news?SearchText=a",
            long.as_str(),
        ] {
            assert!(!keeps(not), "{not}");
        }
        let dir = tempfile::tempdir().unwrap();
        let cache = ViewCache::open(Some(dir.path()), BOUNDS).unwrap();
        let page = cache.put("/?_bench=1", Bytes::from_static(b"cold"));
        assert_eq!(&page.html[..], b"cold");
        assert!(cache.get("/?_bench=1").is_none());
        assert_eq!(cache.held(), (0, 0));
    }

    #[test]
    fn disk_and_memory_stay_within_their_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let bounds = Bounds {
            disk: 10 * 4096,
            memory: 6_000,
        };
        let cache = ViewCache::open(Some(dir.path()), bounds).unwrap();
        let page = Bytes::from(vec![b'x'; 4000]);
        for n in 0..100 {
            cache.put(&format!("/page-{n}"), page.clone());
            let (disk, memory) = cache.held();
            assert!(disk <= bounds.disk && memory <= bounds.memory, "{n}");
        }
        let on_disk = crate::cache_folder::pages(dir.path());
        assert_eq!(on_disk.len(), 10);
        assert!(cache.get("/page-99").is_some() && cache.get("/page-0").is_none());
        // A restart counts what the folder holds, and keeps to a smaller bound.
        let smaller = Bounds {
            disk: 5 * 4096,
            memory: 1,
        };
        drop(ViewCache::open(Some(dir.path()), smaller).unwrap());
        assert_eq!(crate::cache_folder::pages(dir.path()).len(), 5);
    }
}
