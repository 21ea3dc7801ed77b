//! Load errors and warnings, positioned so that a translator can open the
//! catalogue at the offending spot.

use std::fmt;

/// Why a catalogue could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be read at all.
    Io(String),
    /// The bytes are not a well-formed XML document (the parser's reason).
    NotXml(String),
    /// The document's root element is not `TS`.
    WrongRoot(String),
    /// A `message` ended without a `source`.
    MessageWithoutSource,
    /// The file ends while `element` is still open.
    Truncated(String),
    /// A known element stands where the format does not allow it.
    Misplaced { element: String, parent: String },
    /// An element that may appear once appears again.
    Repeated(String),
    /// An attribute value the format does not define.
    BadAttribute {
        element: String,
        attribute: String,
        value: String,
    },
    /// An entity reference other than the five XML ones.
    UnknownEntity(String),
    /// Text where only elements belong.
    UnexpectedText(String),
    /// A second root element, or text after the root.
    AfterRoot,
    /// The file is larger than the catalogue's 32-bit offsets can address.
    TooLarge(u64),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io(reason) => write!(f, "cannot read: {reason}"),
            ErrorKind::NotXml(reason) => write!(f, "not XML: {reason}"),
            ErrorKind::WrongRoot(found) => {
                write!(f, "wrong root element <{found}>, expected <TS>")
            }
            ErrorKind::MessageWithoutSource => f.write_str("<message> without <source>"),
            ErrorKind::Truncated(open) => {
                write!(f, "truncated file: <{open}> is never closed")
            }
            ErrorKind::Misplaced { element, parent } => {
                write!(f, "<{element}> is not allowed inside <{parent}>")
            }
            ErrorKind::Repeated(element) => write!(f, "second <{element}> in one element"),
            ErrorKind::BadAttribute {
                element,
                attribute,
                value,
            } => write!(f, "<{element}> has an invalid {attribute}=\"{value}\""),
            ErrorKind::UnknownEntity(name) => write!(f, "unknown entity &{name};"),
            ErrorKind::UnexpectedText(text) => write!(f, "unexpected text \"{text}\""),
            ErrorKind::AfterRoot => f.write_str("content after the root element"),
            ErrorKind::TooLarge(len) => {
                write!(f, "file of {len} bytes is too large for a catalogue")
            }
        }
    }
}

/// A load failure naming the file and, where it has one, the 1-based line
/// and column (in characters) of the offending markup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    /// `None` when the failure has no place in the text (unreadable file).
    pub position: Option<Position>,
    pub kind: ErrorKind,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(Position { line, column }) => {
                write!(f, "{}:{line}:{column}: {}", self.file, self.kind)
            }
            None => write!(f, "{}: {}", self.file, self.kind),
        }
    }
}

impl std::error::Error for LoadError {}

/// A 1-based line and column; the column counts characters, not bytes, so
/// that it matches what an editor shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: u32,
    pub column: u32,
}

impl Position {
    /// The position of byte `offset` in `text` (clamped to its end).
    pub fn of_offset(text: &[u8], offset: usize) -> Position {
        LineCounter::default().position(text, offset)
    }
}

/// Turns byte offsets into positions when they arrive in increasing order,
/// counting each newline once: warnings on a large file stay linear.
#[derive(Debug, Default)]
pub(crate) struct LineCounter {
    offset: usize,
    line_start: usize,
    line: u32,
}

impl LineCounter {
    pub(crate) fn position(&mut self, text: &[u8], offset: usize) -> Position {
        let offset = offset.min(text.len());
        if offset < self.offset {
            *self = LineCounter::default();
        }
        // Counting and searching whole slices vectorises; a byte loop that
        // tracks the line start does not.
        let skipped = &text[self.offset..offset];
        let newlines = memchr::memchr_iter(b'\n', skipped).count();
        self.line = self
            .line
            .saturating_add(u32::try_from(newlines).unwrap_or(u32::MAX));
        if let Some(last) = memchr::memrchr(b'\n', skipped) {
            self.line_start = self.offset + last + 1;
        }
        self.offset = offset;
        // Continuation bytes do not start a character.
        let column = text[self.line_start..offset]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count();
        Position {
            line: self.line.saturating_add(1),
            column: u32::try_from(column).unwrap_or(u32::MAX).saturating_add(1),
        }
    }
}

/// Something worth a translator's attention that does not stop loading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub position: Position,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}",
            self.position.line, self.position.column, self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "ab\nüx\n\nz".as_bytes();
        let at = |o| Position::of_offset(text, o);
        assert_eq!(at(0), Position { line: 1, column: 1 });
        assert_eq!(at(2), Position { line: 1, column: 3 });
        assert_eq!(at(3), Position { line: 2, column: 1 });
        // 'x' follows the two-byte 'ü': byte 5, character column 2.
        assert_eq!(at(5), Position { line: 2, column: 2 });
        assert_eq!(at(7), Position { line: 3, column: 1 });
        assert_eq!(at(8), Position { line: 4, column: 1 });
        assert_eq!(at(99), Position { line: 4, column: 2 });
    }

    #[test]
    fn the_counter_agrees_with_fresh_counts_and_rewinds() {
        let text = "one\ntwo\nthree\n".as_bytes();
        let mut counter = LineCounter::default();
        for offset in [0, 4, 5, 9, 14, 2] {
            assert_eq!(
                counter.position(text, offset),
                Position::of_offset(text, offset)
            );
        }
    }

    #[test]
    fn messages_name_file_line_and_column() {
        let err = LoadError {
            file: "de.ts".into(),
            position: Some(Position { line: 4, column: 9 }),
            kind: ErrorKind::MessageWithoutSource,
        };
        assert_eq!(err.to_string(), "de.ts:4:9: <message> without <source>");
        let io = LoadError {
            file: "x.ts".into(),
            position: None,
            kind: ErrorKind::Io("gone".into()),
        };
        assert_eq!(io.to_string(), "x.ts: cannot read: gone");
    }
}
