//! The binary catalogue cache: the loaded tables written out so that a
//! later process can skip the XML.
//!
//! A cache is trusted only when it carries this build's format version,
//! its checksum matches its content, and it was made from a source with the
//! same SHA-256 as the one on disk now; anything else is rebuilt from the
//! source and rewritten. The hash index is rebuilt on reading, as its hashes
//! are seeded per process.
//!
//! Layout, little-endian: magic, version (u32), source SHA-256,
//! payload length (u64), SHA-256 of (source SHA-256 ‖ payload), payload.

use std::path::Path;

use sha2::{Digest, Sha256};

use super::catalogue::{
    Catalogue, LoadStats, Location, LocationLine, Message, Run, Span, TranslationKind,
};
use super::error::{ErrorKind, LoadError, Position, Warning};
use super::loader::load_bytes;

const MAGIC: &[u8; 8] = b"ysi18nc\0";
/// Bump whenever the payload layout changes: older caches are then rebuilt.
pub(super) const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 32 + 8 + 32;

/// How [`load_cached`] got its catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheOutcome {
    /// Read from a valid, current cache.
    Hit,
    /// Loaded from the source; the cache was (re)written unless
    /// `write_error` says why not.
    Rebuilt {
        reason: RebuildReason,
        write_error: Option<String>,
    },
}

/// Why a cache was not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RebuildReason {
    Missing,
    /// Made from a different source.
    Stale,
    /// Written by a build with another layout version.
    OtherVersion(u32),
    /// Unreadable, damaged or inconsistent.
    Corrupt(String),
}

/// Loads the catalogue at `source`, through the cache file at `cache`.
pub fn load_cached(source: &Path, cache: &Path) -> Result<(Catalogue, CacheOutcome), LoadError> {
    let file = source.display().to_string();
    let bytes = std::fs::read(source).map_err(|e| LoadError {
        file: file.clone(),
        position: None,
        kind: ErrorKind::Io(e.to_string()),
    })?;
    let fingerprint: [u8; 32] = Sha256::digest(&bytes).into();
    let reason = match std::fs::read(cache) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => RebuildReason::Missing,
        Err(e) => RebuildReason::Corrupt(e.to_string()),
        Ok(stored) => match decode(&file, &stored, &fingerprint) {
            Ok(catalogue) => return Ok((catalogue, CacheOutcome::Hit)),
            Err(reason) => reason,
        },
    };
    let catalogue = load_bytes(&file, &bytes)?;
    let write_error = write(cache, &encode(&catalogue, &fingerprint))
        .err()
        .map(|e| format!("{}: {e}", cache.display()));
    Ok((
        catalogue,
        CacheOutcome::Rebuilt {
            reason,
            write_error,
        },
    ))
}

/// Replaces the cache file whole, so a crash never leaves half a cache.
fn write(cache: &Path, bytes: &[u8]) -> std::io::Result<()> {
    yardstick_probe::fs::replace_file(cache, bytes, yardstick_probe::fs::Durability::Cache)
}

/// The cache bytes of `catalogue`, loaded from a source with SHA-256
/// `fingerprint`.
pub(super) fn encode(catalogue: &Catalogue, fingerprint: &[u8; 32]) -> Vec<u8> {
    let mut out = Out(Vec::with_capacity(catalogue.text.len() * 2 + 1024));
    let c = catalogue;
    for span in [c.language, c.source_language, c.version] {
        out.span(span);
    }
    out.bytes(c.text.as_bytes());
    out.len(c.contexts.len());
    for &span in &c.contexts {
        out.span(span);
    }
    out.len(c.messages.len());
    for m in &c.messages {
        for span in [
            m.context,
            m.source,
            m.comment,
            m.translator_comment,
            m.extra_comment,
            m.translation,
        ] {
            out.span(span);
        }
        out.run(m.forms);
        out.run(m.locations);
        let kind = match m.kind {
            TranslationKind::Finished => 0,
            TranslationKind::Unfinished => 1,
            TranslationKind::Obsolete => 2,
            TranslationKind::Vanished => 3,
        };
        out.0.push(kind << 1 | u8::from(m.numerus));
    }
    out.len(c.forms.len());
    for &span in &c.forms {
        out.span(span);
    }
    out.len(c.locations.len());
    for l in &c.locations {
        out.span(l.file);
        let (tag, value) = match l.line {
            LocationLine::None => (0u8, 0u32),
            LocationLine::Absolute(n) => (1, n),
            LocationLine::Relative(n) => (2, n as u32),
        };
        out.0.push(tag);
        out.u32(value);
    }
    let s = &c.stats;
    for n in [
        s.contexts,
        s.messages,
        s.unfinished,
        s.obsolete,
        s.vanished,
        s.empty,
        s.duplicates,
        s.numerus,
        s.skipped_elements,
    ] {
        out.len(n);
    }
    out.len(c.warnings.len());
    for w in &c.warnings {
        out.u32(w.position.line);
        out.u32(w.position.column);
        out.bytes(w.message.as_bytes());
    }
    let payload = out.0;
    let mut bytes = Vec::with_capacity(HEADER + payload.len());
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(fingerprint);
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&checksum(fingerprint, &payload));
    bytes.extend_from_slice(&payload);
    bytes
}

fn checksum(fingerprint: &[u8; 32], payload: &[u8]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(fingerprint);
    hasher.update(payload);
    hasher.finalize().into()
}

/// Reads a cache made from a source with SHA-256 `fingerprint`, checking
/// everything a damaged file could get wrong before building on it.
pub(super) fn decode(
    file: &str,
    bytes: &[u8],
    fingerprint: &[u8; 32],
) -> Result<Catalogue, RebuildReason> {
    let corrupt = |why: &str| RebuildReason::Corrupt(why.to_string());
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(corrupt("not a catalogue cache"));
    }
    let mut input = In { bytes, at: 8 };
    let version = input.u32().map_err(RebuildReason::Corrupt)?;
    if version != VERSION {
        return Err(RebuildReason::OtherVersion(version));
    }
    let (stored_fingerprint, payload_len, stored_checksum) =
        read_header(&mut input).map_err(RebuildReason::Corrupt)?;
    let payload = &bytes[HEADER..];
    if payload.len() as u64 != payload_len {
        return Err(corrupt("payload length differs from the header"));
    }
    let stored_fingerprint: [u8; 32] = stored_fingerprint
        .try_into()
        .map_err(|_| corrupt("short header"))?;
    if checksum(&stored_fingerprint, payload)[..] != stored_checksum[..] {
        return Err(corrupt("checksum mismatch"));
    }
    if &stored_fingerprint != fingerprint {
        return Err(RebuildReason::Stale);
    }
    let mut input = In {
        bytes: payload,
        at: 0,
    };
    read_payload(file, &mut input).map_err(RebuildReason::Corrupt)
}

fn read_header<'a>(input: &mut In<'a>) -> Result<(&'a [u8], u64, &'a [u8]), String> {
    Ok((input.take(32)?, input.u64()?, input.take(32)?))
}

fn read_payload(file: &str, input: &mut In<'_>) -> Result<Catalogue, String> {
    let mut c = Catalogue::with_capacity(file, 0);
    let language = input.span()?;
    let source_language = input.span()?;
    c.version = input.span()?;
    c.text = String::from_utf8(input.bytes()?.to_vec()).map_err(|e| e.to_string())?;
    let n = input.count(8)?;
    c.contexts = (0..n).map(|_| input.span()).collect::<Result<_, _>>()?;
    let n = input.count(6 * 8 + 2 * 8 + 1)?;
    c.messages = Vec::with_capacity(n);
    for _ in 0..n {
        let spans: [Span; 6] = [
            input.span()?,
            input.span()?,
            input.span()?,
            input.span()?,
            input.span()?,
            input.span()?,
        ];
        let forms = input.run()?;
        let locations = input.run()?;
        let flags = input.take(1)?[0];
        let kind = match flags >> 1 {
            0 => TranslationKind::Finished,
            1 => TranslationKind::Unfinished,
            2 => TranslationKind::Obsolete,
            3 => TranslationKind::Vanished,
            _ => return Err("bad message flags".into()),
        };
        c.messages.push(Message {
            context: spans[0],
            source: spans[1],
            comment: spans[2],
            translator_comment: spans[3],
            extra_comment: spans[4],
            translation: spans[5],
            forms,
            locations,
            numerus: flags & 1 == 1,
            kind,
        });
    }
    let n = input.count(8)?;
    c.forms = (0..n).map(|_| input.span()).collect::<Result<_, _>>()?;
    let n = input.count(8 + 1 + 4)?;
    c.locations = Vec::with_capacity(n);
    for _ in 0..n {
        let file = input.span()?;
        let tag = input.take(1)?[0];
        let value = input.u32()?;
        let line = match tag {
            0 => LocationLine::None,
            1 => LocationLine::Absolute(value),
            2 => LocationLine::Relative(value as i32),
            _ => return Err("bad location line".into()),
        };
        c.locations.push(Location { file, line });
    }
    let mut counts = [0usize; 9];
    for n in &mut counts {
        *n = input.len()?;
    }
    let [
        contexts,
        messages,
        unfinished,
        obsolete,
        vanished,
        empty,
        duplicates,
        numerus,
        skipped_elements,
    ] = counts;
    c.stats = LoadStats {
        contexts,
        messages,
        unfinished,
        obsolete,
        vanished,
        empty,
        duplicates,
        numerus,
        skipped_elements,
    };
    let n = input.count(4 + 4 + 8)?;
    for _ in 0..n {
        let line = input.u32()?;
        let column = input.u32()?;
        let message = String::from_utf8(input.bytes()?.to_vec()).map_err(|e| e.to_string())?;
        c.warnings.push(Warning {
            position: Position { line, column },
            message,
        });
    }
    if input.at != input.bytes.len() {
        return Err("trailing bytes".into());
    }
    c.set_languages(language, source_language);
    check_references(&c)?;
    c.reindex();
    Ok(c)
}

/// Every span inside the arena on character boundaries, every run inside
/// its table: afterwards no accessor can slice out of bounds.
fn check_references(c: &Catalogue) -> Result<(), String> {
    let span_ok = |s: Span| {
        let start = s.start as usize;
        c.text.get(start..start + s.len as usize).is_some()
    };
    let run_ok = |r: Run, len: usize| r.start as usize + r.len as usize <= len;
    let spans = [c.language, c.source_language, c.version]
        .into_iter()
        .chain(c.contexts.iter().copied())
        .chain(c.forms.iter().copied())
        .chain(c.locations.iter().map(|l| l.file))
        .chain(c.messages.iter().flat_map(|m| {
            [
                m.context,
                m.source,
                m.comment,
                m.translator_comment,
                m.extra_comment,
                m.translation,
            ]
        }));
    for span in spans {
        if !span_ok(span) {
            return Err("string outside the text".into());
        }
    }
    for m in &c.messages {
        if !run_ok(m.forms, c.forms.len()) || !run_ok(m.locations, c.locations.len()) {
            return Err("message refers past its tables".into());
        }
    }
    Ok(())
}

struct Out(Vec<u8>);

impl Out {
    fn u32(&mut self, n: u32) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u64).to_le_bytes());
    }
    fn span(&mut self, s: Span) {
        self.u32(s.start);
        self.u32(s.len);
    }
    fn run(&mut self, r: Run) {
        self.u32(r.start);
        self.u32(r.len);
    }
    fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.0.extend_from_slice(b);
    }
}

struct In<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> In<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).ok_or("length overflow")?;
        let slice = self.bytes.get(self.at..end).ok_or("cut short")?;
        self.at = end;
        Ok(slice)
    }
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, String> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn len(&mut self) -> Result<usize, String> {
        usize::try_from(self.u64()?).map_err(|_| "length overflow".to_string())
    }
    /// A count of items of at least `size` bytes each, refused when the
    /// rest of the input could not hold them (no huge allocation on a
    /// damaged count).
    fn count(&mut self, size: usize) -> Result<usize, String> {
        let n = self.len()?;
        if n.checked_mul(size)
            .is_none_or(|total| total > self.bytes.len() - self.at)
        {
            return Err("count larger than the cache".into());
        }
        Ok(n)
    }
    fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.len()?;
        self.take(n)
    }
    fn span(&mut self) -> Result<Span, String> {
        Ok(Span {
            start: self.u32()?,
            len: self.u32()?,
        })
    }
    fn run(&mut self) -> Result<Run, String> {
        Ok(Run {
            start: self.u32()?,
            len: self.u32()?,
        })
    }
}

#[cfg(test)]
mod tests;
