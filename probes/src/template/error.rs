//! Errors and warnings that point into a template.
//!
//! A designer fixing a template needs the file, the line, the column and
//! the line itself with a caret under the culprit; every message here
//! carries all four.

use std::fmt;

/// A byte range in a template's source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: clamp_u32(start),
            end: clamp_u32(end.max(start)),
        }
    }

    pub fn at(pos: usize) -> Span {
        Span::new(pos, pos)
    }
}

fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Converts byte offsets to 1-based line and column numbers.
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    /// Byte offset where each line starts.
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(source: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', source.as_bytes()).map(|i| i + 1));
        LineIndex { starts }
    }

    /// Line and column (both from 1; the column counts characters, so a
    /// caret lines up under multi-byte text).
    pub fn position(&self, source: &str, offset: u32) -> (u32, u32) {
        let offset = (offset as usize).min(source.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.starts[line];
        let col = source
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line as u32 + 1, col as u32 + 1)
    }

    /// The text of line `line` (1-based), without its line break.
    pub fn line_text<'s>(&self, source: &'s str, line: u32) -> &'s str {
        let i = (line as usize).saturating_sub(1);
        let Some(&start) = self.starts.get(i) else {
            return "";
        };
        let end = self.starts.get(i + 1).copied().unwrap_or(source.len());
        source
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }
}

/// A template that cannot be compiled, or a render that could not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// The offending line followed by a caret line.
    pub excerpt: String,
}

impl TemplateError {
    /// An error at byte `offset` of `source`.
    pub fn at(file: &str, source: &str, lines: &LineIndex, offset: u32, message: String) -> Self {
        let (line, column) = lines.position(source, offset);
        let text = lines.line_text(source, line);
        TemplateError {
            file: file.to_string(),
            line,
            column,
            message,
            excerpt: caret_excerpt(line, column, text),
        }
    }

    /// An error about a whole file (unreadable, not found) with no position.
    pub fn file(file: &str, message: String) -> Self {
        TemplateError {
            file: file.to_string(),
            line: 0,
            column: 0,
            message,
            excerpt: String::new(),
        }
    }
}

/// `  12 | text` and a caret under column `column`. Tabs before the caret
/// are repeated so that it lines up in a terminal.
fn caret_excerpt(line: u32, column: u32, text: &str) -> String {
    let gutter = line.to_string();
    let pad: String = text
        .chars()
        .take(column.saturating_sub(1) as usize)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    format!(
        "{gutter} | {text}\n{blank} | {pad}^",
        blank = " ".repeat(gutter.len())
    )
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: {}", self.file, self.message);
        }
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )?;
        // Render errors come from compiled programs, which keep positions
        // but not the source text, so they have no excerpt.
        if !self.excerpt.is_empty() {
            write!(f, "\n{}", self.excerpt)?;
        }
        Ok(())
    }
}

impl std::error::Error for TemplateError {}

/// Something a template does that compiles but probably is not meant, such
/// as an operator from an extension this engine does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: warning: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let src = "ab\nçd{x\n\nlast";
        let idx = LineIndex::new(src);
        assert_eq!(idx.position(src, 0), (1, 1));
        assert_eq!(idx.position(src, 3), (2, 1));
        // 'ç' is two bytes but one column.
        assert_eq!(idx.position(src, 6), (2, 3));
        assert_eq!(idx.position(src, 9), (3, 1));
        assert_eq!(idx.position(src, 999), (4, 5));
        assert_eq!(idx.line_text(src, 2), "çd{x");
        assert_eq!(idx.line_text(src, 9), "");
    }

    #[test]
    fn message_names_file_line_column_with_caret() {
        let src = "line one\n\t{if $a}\n";
        let idx = LineIndex::new(src);
        let err = TemplateError::at("a.tpl", src, &idx, 10, "unclosed block {if}".into());
        assert_eq!(
            err.to_string(),
            "a.tpl:2:2: unclosed block {if}\n2 | \t{if $a}\n  | \t^"
        );
    }
}
