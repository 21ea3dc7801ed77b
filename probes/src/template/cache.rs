//! The compiled-template cache: one entry of the file cache per template
//! (`template/<digest>.tplc`) holding its compiled program, so a restart
//! does not recompile every design. The file cache writes each entry
//! atomically, so a reader never sees half of one.
//!
//! An entry is trusted only if everything checks out: the magic bytes, the
//! format version, the digest of the source it was compiled from (a changed
//! template makes it stale) and the digest of the payload (a torn write or
//! a flipped bit makes it corrupt). Anything else is recompiled and
//! rewritten.
//!
//! Layout: `YTPC` | version u16 | sha256(source) | payload length u32 |
//! sha256(payload) | payload.

use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::codec::{FORMAT_VERSION, decode, encode};
use super::compile::compile;
use super::error::TemplateError;
use super::program::Program;
use crate::filecache::{Expiry, FileCache};

const MAGIC: &[u8; 4] = b"YTPC";
const HEADER: usize = 4 + 2 + 32 + 4 + 32;

/// What the cache had for a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A valid entry for this exact source.
    Hit,
    /// No entry yet.
    Missing,
    /// An entry for another version of the source or of the format.
    Stale,
    /// An entry that fails its checks; the reason says which.
    Corrupt(String),
}

#[derive(Clone, Debug)]
pub struct CompiledCache {
    files: FileCache,
}

/// The file cache's folder of compiled templates.
const FOLDER: &str = "template";

impl CompiledCache {
    pub fn new(files: FileCache) -> Self {
        CompiledCache { files }
    }

    /// The entry's key for the template named `name`: a digest, so any
    /// name makes a plain file name.
    fn key(name: &str) -> String {
        let digest = Sha256::digest(name.as_bytes());
        let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
        format!("{FOLDER}/{hex}.tplc")
    }

    /// The entry file for the template named `key` (its path).
    pub fn entry_path(&self, key: &str) -> PathBuf {
        self.files.dir().join(CompiledCache::key(key))
    }

    /// The cached program for `source`, if the entry is valid. A compiled
    /// template never expires by age: its source's digest says when it is
    /// stale.
    pub fn load(&self, key: &str, source: &str) -> (Option<Program>, Outcome) {
        let bytes = match self
            .files
            .fetch(&CompiledCache::key(key), Expiry::default())
        {
            Ok(Some(b)) => b,
            Ok(None) => return (None, Outcome::Missing),
            Err(e) => return (None, Outcome::Corrupt(format!("unreadable: {e}"))),
        };
        match check(&bytes, source) {
            Ok(program) => (Some(program), Outcome::Hit),
            Err(outcome) => (None, outcome),
        }
    }

    /// Writes `program` as the entry for `source`, atomically (a temporary
    /// file renamed into place), so readers never see half an entry.
    pub fn store(&self, key: &str, source: &str, program: &Program) -> io::Result<()> {
        let payload = encode(program);
        let mut bytes = Vec::with_capacity(HEADER + payload.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&Sha256::digest(source.as_bytes()));
        let len = u32::try_from(payload.len()).map_err(io::Error::other)?;
        bytes.extend_from_slice(&len.to_le_bytes());
        bytes.extend_from_slice(&Sha256::digest(&payload));
        bytes.extend_from_slice(&payload);
        self.files
            .store(&CompiledCache::key(key), &bytes)
            .map_err(|e| e.error)
    }

    /// The cached program when valid; otherwise compiles `source` and
    /// rewrites the entry. A failed write only costs the next start a
    /// compile, so it is not an error.
    pub fn load_or_compile(
        &self,
        key: &str,
        source: &str,
    ) -> Result<(Program, Outcome), TemplateError> {
        let (cached, outcome) = self.load(key, source);
        if let Some(program) = cached {
            return Ok((program, outcome));
        }
        let program = compile(key, source)?;
        let _ = self.store(key, source, &program);
        Ok((program, outcome))
    }

    pub fn dir(&self) -> &Path {
        self.files.dir()
    }
}

fn check(bytes: &[u8], source: &str) -> Result<Program, Outcome> {
    if bytes.len() < HEADER || &bytes[..4] != MAGIC {
        return Err(Outcome::Corrupt("not a compiled template".into()));
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version != FORMAT_VERSION {
        return Err(Outcome::Stale);
    }
    if bytes[6..38] != Sha256::digest(source.as_bytes())[..] {
        return Err(Outcome::Stale);
    }
    let len = u32::from_le_bytes([bytes[38], bytes[39], bytes[40], bytes[41]]) as usize;
    let payload = &bytes[HEADER..];
    if payload.len() != len {
        return Err(Outcome::Corrupt(format!(
            "payload is {} bytes, header says {len}",
            payload.len()
        )));
    }
    if bytes[42..74] != Sha256::digest(payload)[..] {
        return Err(Outcome::Corrupt("payload checksum mismatch".into()));
    }
    decode(payload).map_err(Outcome::Corrupt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn cache_in(dir: &Path) -> CompiledCache {
        CompiledCache::new(FileCache::open(dir).unwrap())
    }

    const SRC: &str = "{def $x=1}<p>{$x|wash}</p>{foreach $l as $i}{$i}{/foreach}";

    #[test]
    fn round_trip_then_hit() {
        let dir = tempfile::tempdir().unwrap();
        let cache = cache_in(&dir.path().join("c"));
        let (p1, o1) = cache.load_or_compile("a.tpl", SRC).unwrap();
        assert_eq!(o1, Outcome::Missing);
        let (p2, o2) = cache.load_or_compile("a.tpl", SRC).unwrap();
        assert_eq!(o2, Outcome::Hit);
        assert_eq!(p1, p2);
        assert_eq!(p2, compile("a.tpl", SRC).unwrap());
    }

    #[test]
    fn changed_source_is_stale_and_recompiled() {
        let dir = tempfile::tempdir().unwrap();
        let cache = cache_in(dir.path());
        cache.load_or_compile("a.tpl", SRC).unwrap();
        let changed = "{$y}";
        let (p, o) = cache.load_or_compile("a.tpl", changed).unwrap();
        assert_eq!(o, Outcome::Stale);
        assert_eq!(p, compile("a.tpl", changed).unwrap());
        assert_eq!(cache.load("a.tpl", changed).1, Outcome::Hit);
    }

    #[test]
    fn other_format_version_is_stale() {
        let dir = tempfile::tempdir().unwrap();
        let cache = cache_in(dir.path());
        cache.load_or_compile("a.tpl", SRC).unwrap();
        let path = cache.entry_path("a.tpl");
        let mut bytes = fs::read(&path).unwrap();
        bytes[4] = bytes[4].wrapping_add(1);
        fs::write(&path, &bytes).unwrap();
        assert_eq!(cache.load("a.tpl", SRC).1, Outcome::Stale);
    }

    #[test]
    fn corrupt_entries_are_recompiled_not_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let cache = cache_in(dir.path());
        let (good, _) = cache.load_or_compile("a.tpl", SRC).unwrap();
        let path = cache.entry_path("a.tpl");
        let valid = fs::read(&path).unwrap();
        let damage: Vec<(&str, Vec<u8>)> = vec![
            ("empty", Vec::new()),
            (
                "garbage",
                b"hello world, not a cache entry at all......................................"
                    .to_vec(),
            ),
            ("truncated", valid[..valid.len() - 3].to_vec()),
            ("flipped payload bit", {
                let mut b = valid.clone();
                let last = b.len() - 1;
                b[last] ^= 0x40;
                b
            }),
            ("bad magic", {
                let mut b = valid.clone();
                b[0] = b'X';
                b
            }),
        ];
        for (what, bytes) in damage {
            fs::write(&path, &bytes).unwrap();
            let (p, outcome) = cache.load_or_compile("a.tpl", SRC).unwrap();
            assert!(
                matches!(outcome, Outcome::Corrupt(_)),
                "{what}: {outcome:?}"
            );
            assert_eq!(p, good, "{what}");
            // ... and the entry was rewritten.
            assert_eq!(cache.load("a.tpl", SRC).1, Outcome::Hit, "{what}");
        }
    }

    #[test]
    fn compile_errors_pass_through() {
        let dir = tempfile::tempdir().unwrap();
        let cache = cache_in(dir.path());
        let err = cache.load_or_compile("bad.tpl", "{if 1}").unwrap_err();
        assert_eq!((err.file.as_str(), err.line, err.column), ("bad.tpl", 1, 1));
    }
}
