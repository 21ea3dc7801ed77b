//! The reader of a class map file: `<?php`, comments, `return`, one array
//! literal of `'KEY' => 'PATH'` entries, `;`, and an optional `?>`.
//!
//! Accepted: any spaces, tabs and line breaks between tokens (so entries
//! split across lines), `/* */`, `//` and `#` comments, `array(`...`)` or
//! `[`...`]`, a trailing comma or none, a file ending with `?>` and blank
//! lines or without it. Keys and paths are PHP single-quoted strings: `\\`
//! is one backslash, `\'` a quote, any other backslash is itself. Odd keys
//! (`'$name Builder\\Namespace_\\string'`) are kept as they are. Refused,
//! with the file, line and column: anything else where a token is expected
//! (a double-quoted string, a constant, `$vendorDir . '...'`), a string
//! that never ends, a missing `=>` or `,`, a duplicate key, bytes that are
//! not UTF-8 and text after the end of the array.

use std::fmt;

use indexmap::IndexMap;
use rustc_hash::FxBuildHasher;

/// The entries of one class map, in file order, ready for exact lookups.
pub type Entries = IndexMap<Box<str>, Box<str>, FxBuildHasher>;

/// One class map read from a file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ClassMap {
    entries: Entries,
}

impl ClassMap {
    /// Reads `bytes`; `file` names the file in errors.
    pub fn parse(file: &str, bytes: &[u8]) -> Result<ClassMap, MapError> {
        let mut reader = Reader {
            file,
            bytes,
            text: "",
            at: 0,
        };
        // Checked once for the whole file: every string is then a slice
        // of it, cut at ASCII quotes and backslashes.
        reader.text = std::str::from_utf8(bytes)
            .map_err(|e| reader.error_at(e.valid_up_to(), "a byte that is not UTF-8"))?;
        reader.map()
    }

    /// The path of the class named exactly `class` (case matters, as in
    /// the CMS's `isset($classes[$className])`).
    pub fn get(&self, class: &str) -> Option<&str> {
        self.entries.get(class).map(|p| &**p)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in file order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(k, v)| (&**k, &**v))
    }

    pub fn into_entries(self) -> Entries {
        self.entries
    }
}

/// What is wrong, and where: line and column count from 1, the column in
/// bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub what: String,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.what
        )
    }
}

impl std::error::Error for MapError {}

struct Reader<'a> {
    file: &'a str,
    bytes: &'a [u8],
    /// `bytes`, once they are known to be UTF-8.
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn map(mut self) -> Result<ClassMap, MapError> {
        if !self.bytes.starts_with(b"<?php") {
            return Err(self.error_at(0, "the file does not start with `<?php`"));
        }
        self.at = 5;
        self.trivia()?;
        self.word(b"return", "`return`")?;
        self.trivia()?;
        let close = if self.eat(b"[") {
            b']'
        } else {
            self.word(b"array", "`array(` or `[`")?;
            self.trivia()?;
            self.expect(b'(', "`(` after `array`")?;
            b')'
        };
        // One entry a line in the generator's layout: room for them all
        // at once, not grown twelve times.
        let lines = memchr::memchr_iter(b'\n', &self.bytes[self.at..]).count();
        let mut entries = Entries::with_capacity_and_hasher(lines, FxBuildHasher);
        loop {
            self.trivia()?;
            if self.eat(&[close]) {
                break;
            }
            let key_at = self.at;
            let key = self.string("a quoted class name or the end of the array")?;
            self.trivia()?;
            self.word(b"=>", "`=>` after the class name")?;
            self.trivia()?;
            let path = self.string("a quoted path")?;
            match entries.entry(key) {
                indexmap::map::Entry::Vacant(slot) => {
                    slot.insert(path);
                }
                indexmap::map::Entry::Occupied(slot) => {
                    let what = format!("the class `{}` is named twice", slot.key());
                    return Err(self.error_at(key_at, &what));
                }
            }
            self.trivia()?;
            if self.eat(b",") {
                continue;
            }
            self.expect(close, "`,` or the end of the array")?;
            break;
        }
        self.trivia()?;
        self.expect(b';', "`;` after the array")?;
        self.trivia()?;
        if self.eat(b"?>") {
            let rest = &self.bytes[self.at..];
            if let Some(i) = rest.iter().position(|b| !b.is_ascii_whitespace()) {
                return Err(self.error_at(self.at + i, "text after `?>`"));
            }
        } else if self.at < self.bytes.len() {
            return Err(self.error_at(self.at, "text after the array"));
        }
        Ok(ClassMap { entries })
    }

    /// Skips white space and comments.
    fn trivia(&mut self) -> Result<(), MapError> {
        loop {
            let rest = self.bytes.get(self.at..).unwrap_or_default();
            // The generator aligns its arrows with runs of spaces: eight at
            // a time first.
            let mut spaces = 0;
            while rest.get(spaces..spaces + 8) == Some(b"        ") {
                spaces += 8;
            }
            let rest = &rest[spaces..];
            self.at += spaces;
            let blank = rest
                .iter()
                .position(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                .unwrap_or(rest.len());
            self.at += blank;
            match self.bytes.get(self.at) {
                Some(b'#') => self.line_comment(),
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'/') => self.line_comment(),
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'*') => {
                    let body = &self.bytes[self.at + 2..];
                    match memchr::memmem::find(body, b"*/") {
                        Some(end) => self.at += 2 + end + 2,
                        None => return Err(self.error_at(self.at, "a comment that never ends")),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// A `//` or `#` comment ends at the line's end or at `?>`, as in PHP.
    fn line_comment(&mut self) {
        let rest = &self.bytes[self.at..];
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let end = memchr::memmem::find(&rest[..end], b"?>").unwrap_or(end);
        self.at += end;
    }

    fn eat(&mut self, token: &[u8]) -> bool {
        let found = self.bytes[self.at..].starts_with(token);
        if found {
            self.at += token.len();
        }
        found
    }

    fn expect(&mut self, byte: u8, wanted: &str) -> Result<(), MapError> {
        if self.eat(&[byte]) {
            Ok(())
        } else {
            Err(self.unexpected(wanted))
        }
    }

    /// A keyword, matched as PHP does: case-insensitively.
    fn word(&mut self, word: &[u8], wanted: &str) -> Result<(), MapError> {
        let end = self.at + word.len();
        match self.bytes.get(self.at..end) {
            Some(found) if found.eq_ignore_ascii_case(word) => {
                self.at = end;
                Ok(())
            }
            _ => Err(self.unexpected(wanted)),
        }
    }

    /// A single-quoted string, unescaped.
    fn string(&mut self, wanted: &str) -> Result<Box<str>, MapError> {
        let start = self.at;
        if crate::faults::on(crate::faults::Fault::ClassMapHash) {
            let rest = &self.text.as_bytes()[self.at..];
            crate::faults::hash(&rest[..rest.len().min(32)], 1);
        }
        if !self.eat(b"'") {
            return Err(self.unexpected(wanted));
        }
        let body = &self.text[self.at..];
        let (end, len) = match string_end(body.as_bytes()) {
            Some(found) => found,
            None => return Err(self.error_at(start, "a string that never ends")),
        };
        self.at += end + 1;
        let raw = &body[..end];
        if len == end {
            return Ok(Box::from(raw));
        }
        // Sized once: `into_boxed_str` then has nothing to shrink.
        let mut out = String::with_capacity(len);
        let mut rest = raw;
        while let Some(i) = memchr::memchr(b'\\', rest.as_bytes()) {
            out.push_str(&rest[..i]);
            match rest.as_bytes().get(i + 1) {
                Some(&c @ (b'\\' | b'\'')) => {
                    out.push(char::from(c));
                    rest = &rest[i + 2..];
                }
                _ => {
                    out.push('\\');
                    rest = &rest[i + 1..];
                }
            }
        }
        out.push_str(rest);
        Ok(out.into_boxed_str())
    }

    fn unexpected(&self, wanted: &str) -> MapError {
        let found = match self.bytes.get(self.at) {
            None => "the end of the file".to_string(),
            Some(b'"') => "a double-quoted string".to_string(),
            Some(&b) if b.is_ascii_graphic() => format!("`{}`", b as char),
            Some(&b) => format!("byte 0x{b:02x}"),
        };
        self.error_at(self.at, &format!("expected {wanted}, found {found}"))
    }

    fn error_at(&self, at: usize, what: &str) -> MapError {
        let before = &self.bytes[..at.min(self.bytes.len())];
        let line = 1 + memchr::memchr_iter(b'\n', before).count();
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        MapError {
            file: self.file.to_string(),
            line,
            column: before.len() - line_start + 1,
            what: what.to_string(),
        }
    }
}

/// Where the single-quoted string whose body starts `body` ends (the index
/// of its closing quote) and its length once unescaped: `\\` and `\'`
/// stand for their second byte, any other backslash is itself.
fn string_end(body: &[u8]) -> Option<(usize, usize)> {
    let mut escapes = 0;
    let mut from = 0;
    loop {
        let i = from + memchr::memchr2(b'\'', b'\\', body.get(from..)?)?;
        if body[i] == b'\'' {
            return Some((i, i - escapes));
        }
        if matches!(body.get(i + 1), Some(b'\\' | b'\'')) {
            escapes += 1;
            from = i + 2;
        } else {
            from = i + 1;
        }
    }
}

/// Writes `entries` as the generator does: a doc comment, `return array(`,
/// one aligned entry a line with a trailing comma, `);` and `?>`.
pub fn write<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str)> + Clone) -> String {
    let quote = |s: &str| format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"));
    let width = entries
        .clone()
        .into_iter()
        .map(|(k, _)| quote(k).len())
        .max()
        .unwrap_or(0);
    let mut out = String::from(
        "<?php\n/**\n * Autoloader definition for eZ Publish Kernel files.\n *\n * @copyright Copyright (C) eZ Systems AS. All rights reserved.\n * @license For full copyright and license information view LICENSE file distributed with this source code.\n * @version //autogentag//\n * @package kernel\n *\n */\n\nreturn array(\n",
    );
    for (key, path) in entries {
        let key = quote(key);
        out.push_str(&format!("      {key:<width$} => {},\n", quote(path)));
    }
    out.push_str("    );\n\n?>\n");
    out
}
