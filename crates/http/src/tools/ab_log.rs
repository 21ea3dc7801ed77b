//! ab's output as it comes, read with `-v 2`: ab logs the headers of every
//! answer it gets, and the only way to know whether the answers it counted
//! were whole is what they declared of their length. ab itself ends an
//! answer at the server's close without comparing what it read with the
//! `Content-Length` (a page cut short after 10 bytes of a declared gigabyte
//! is a success to it), and it decodes no chunks.
//!
//! The log grows with the requests made (each answer's headers and the
//! start of its body), so it is read as it comes and only a tally of what
//! the answers declared is kept, with the text after the last header block:
//! ab's summary. A server can write text like ab's into its own answers;
//! such a forged header block only adds what it declares to the tally
//! (making ab's count less trusted, never more), and forged summary lines
//! are dropped when ab's own `..done` line comes.

use crate::process::Sink;
use std::collections::{BTreeMap, BTreeSet};

/// The line ab puts before the headers of an answer.
const HEADER_LOG: &str = "LOG: header received:";

/// The longest line kept whole; the rest of a longer one is dropped.
const LINE_CAP: usize = 16 * 1024;

/// The most summary text kept: ab's own is some 2 KB.
const SUMMARY_CAP: usize = 1024 * 1024;

/// The most header lines of one answer read.
const HEADER_LINES_CAP: usize = 200;

/// The most distinct declared lengths kept.
const LENGTHS_CAP: usize = 64;

/// What the answers in ab's log were, and what the 2xx ones declared of
/// their bodies.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Declared {
    /// Whole header blocks with a status line, of any status.
    pub(crate) logged: u64,
    /// The statuses of those that were not 2xx, by code.
    pub(crate) others: BTreeMap<u16, u64>,
    /// Answers whose head ab could not read, at least this many: no status
    /// line (HTTP/0.9), or a head the server never ended. ab counts them
    /// as 2xx successes of 0 bytes.
    pub(crate) unreadable: u64,
    /// Header blocks of 2xx answers read.
    pub(crate) answers: u64,
    /// The distinct `Content-Length`s declared (up to [`LENGTHS_CAP`]).
    pub(crate) lengths: BTreeSet<u64>,
    /// More distinct lengths than were kept.
    pub(crate) many_lengths: bool,
    /// Answers with no length, ended by the server's close: whole by
    /// HTTP/1.0's rule, whatever their size.
    pub(crate) close_delimited: u64,
    /// Answers ab cannot read to their end: chunked, or with lengths that
    /// contradict each other.
    pub(crate) unframed: u64,
}

/// ab's standard output, read as it comes.
#[derive(Debug, Default)]
pub(crate) struct AbLog {
    /// What the answers declared.
    pub(crate) declared: Declared,
    /// The text after the last header block and the last `..done` line.
    summary: String,
    /// Bytes of the line being read.
    line: Vec<u8>,
    /// The header lines of the answer being read, when in one.
    block: Option<Vec<String>>,
    /// A block that a new one followed before it ended: the same answer's
    /// head logged again with more of it (ab logs a head each time more of
    /// it arrives), or an answer whose head never ended.
    replaced: Option<Vec<String>>,
}

impl Sink for AbLog {
    fn take(&mut self, bytes: &[u8]) {
        for piece in bytes.split_inclusive(|b| *b == b'\n') {
            let room = LINE_CAP.saturating_sub(self.line.len());
            let (body, ended) = match piece.strip_suffix(b"\n") {
                Some(body) => (body, true),
                None => (piece, false),
            };
            self.line.extend_from_slice(&body[..body.len().min(room)]);
            if ended {
                let line = String::from_utf8_lossy(&self.line).into_owned();
                self.line.clear();
                self.read_line(&line);
            }
        }
    }
}

impl AbLog {
    /// The log of a whole output (a test's, or a captured one).
    pub(crate) fn of(stdout: &str) -> AbLog {
        let mut log = AbLog::default();
        log.take(stdout.as_bytes());
        log.finish();
        log
    }

    /// Reads a last line that had no newline.
    pub(crate) fn finish(&mut self) {
        if !self.line.is_empty() {
            let line = String::from_utf8_lossy(&self.line).into_owned();
            self.line.clear();
            self.read_line(&line);
        }
    }

    /// ab's summary: the text after its `..done` line.
    pub(crate) fn summary(&self) -> &str {
        &self.summary
    }

    fn read_line(&mut self, line: &str) {
        let text = line.strip_suffix('\r').unwrap_or(line);
        if text == HEADER_LOG {
            // A block cut short (a header that came in two reads) is
            // logged again whole: only the last one counts.
            if let Some(open) = self.block.take() {
                self.settle(&open);
                self.replaced = Some(open);
            }
            self.block = Some(Vec::new());
            self.summary.clear();
            return;
        }
        if let Some(block) = &mut self.block {
            // A head ends at an empty line of its own, CRLF: ab prints its
            // buffer and a bare newline after it each time more of a head
            // came, so an empty line without its CR is that newline after a
            // head that stopped at a line's end, not the head's end.
            if line == "\r" {
                let block = std::mem::take(block);
                self.block = None;
                self.settle(&block);
                self.declared.count(&block);
            } else if text == "..done" || block.len() >= HEADER_LINES_CAP {
                // A head that never ended: ab took the close for its end.
                let block = std::mem::take(block);
                self.block = None;
                self.settle(&block);
                self.declared.unreadable = self.declared.unreadable.saturating_add(1);
                self.outside(text);
            } else {
                block.push(text.to_string());
            }
            return;
        }
        self.outside(text);
    }

    /// Counts the block a new one replaced as an answer whose head never
    /// ended, unless `next` is that same head logged again with more of it.
    fn settle(&mut self, next: &[String]) {
        if let Some(old) = self.replaced.take()
            && !extends(&old, next)
        {
            self.declared.unreadable = self.declared.unreadable.saturating_add(1);
        }
    }

    /// A line outside any header block: the body's start, ab's messages, or
    /// its summary, which follows its `..done`.
    fn outside(&mut self, text: &str) {
        if text.ends_with("..done") {
            self.summary.clear();
        } else if self.summary.len() + text.len() < SUMMARY_CAP {
            self.summary.push_str(text);
            self.summary.push('\n');
        }
    }
}

impl Declared {
    /// Counts one answer's header block (its status line first).
    fn count(&mut self, block: &[String]) {
        let Some(status) = block.first().and_then(|line| status_of(line)) else {
            self.unreadable = self.unreadable.saturating_add(1);
            return;
        };
        self.logged = self.logged.saturating_add(1);
        // Other answers are errors already (ab's `Non-2xx responses`).
        if !(200..300).contains(&status) {
            *self.others.entry(status).or_default() += 1;
            return;
        }
        self.answers = self.answers.saturating_add(1);
        let mut lengths = BTreeSet::new();
        let mut unframed = false;
        for line in &block[1..] {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            let name = name.trim();
            if name.eq_ignore_ascii_case("content-length") {
                match value.trim().parse::<u64>() {
                    Ok(n) => {
                        lengths.insert(n);
                    }
                    Err(_) => unframed = true,
                }
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                unframed = true;
            }
        }
        match (unframed, lengths.len()) {
            (false, 0) => self.close_delimited = self.close_delimited.saturating_add(1),
            (false, 1) => self.add_length(lengths),
            _ => self.unframed = self.unframed.saturating_add(1),
        }
    }

    fn add_length(&mut self, lengths: BTreeSet<u64>) {
        for n in lengths {
            if self.lengths.len() < LENGTHS_CAP || self.lengths.contains(&n) {
                self.lengths.insert(n);
            } else {
                self.many_lengths = true;
            }
        }
    }

    /// What the answers declared, for a note: `1000 bytes`, `lengths of
    /// 10 to 20 bytes`, `chunked or contradictory lengths`.
    pub(crate) fn described(&self) -> String {
        let lengths = match (self.lengths.first(), self.lengths.last()) {
            (Some(a), Some(b)) if a == b && !self.many_lengths => Some(format!("{a} bytes")),
            (Some(a), Some(b)) => Some(format!("lengths of {a} to {b} bytes")),
            _ => None,
        };
        let unframed = (self.unframed > 0).then(|| "chunked or contradictory lengths".to_string());
        let unreadable = (self.unreadable > 0).then(|| {
            format!(
                "{} answers had no head ab could read (no status line, or a head never ended)",
                self.unreadable
            )
        });
        let parts: Vec<String> = lengths
            .into_iter()
            .chain(unframed)
            .chain(unreadable)
            .collect();
        format!("they declared {}", parts.join(" and "))
    }

    /// Some when every 2xx answer declared `length` bytes, or no length
    /// (the [`Close`] says whether any did the latter).
    pub(crate) fn all_of(&self, length: u64) -> Option<Close> {
        let only = self.lengths.iter().all(|&n| n == length);
        (only && !self.many_lengths && self.unframed == 0 && self.unreadable == 0).then_some(
            Close {
                any: self.close_delimited > 0,
            },
        )
    }
}

/// The status of a status line (`HTTP/1.1 200 OK`), if it is one.
fn status_of(line: &str) -> Option<u16> {
    let mut words = line.split_whitespace();
    let version = words.next()?.strip_prefix("HTTP/")?;
    let code = words.next()?;
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    (digits(version) && code.len() == 3 && code.bytes().all(|b| b.is_ascii_digit()))
        .then(|| code.parse().ok())
        .flatten()
}

/// Whether `next` is the head `old` logged again with more of it: the
/// same lines, the last one perhaps grown.
fn extends(old: &[String], next: &[String]) -> bool {
    let Some((last, whole)) = old.split_last() else {
        return true;
    };
    next.len() >= old.len()
        && next[..whole.len()] == *whole
        && next[whole.len()].starts_with(last.as_str())
}

/// Whether some answers were ended by the server's close without a length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Close {
    pub(crate) any: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn block(head: &str, body: &str) -> String {
        format!("{HEADER_LOG}\n{head}\r\n\r\n{body}\n")
    }

    #[test]
    fn every_answers_declared_length_is_counted() {
        let mut out = String::from("Benchmarking 127.0.0.1 (be patient)...INFO: GET header ==\n");
        out += &block(
            "HTTP/1.1 200 OK\r\nContent-Length: 1000000000",
            "0123456789",
        );
        out += &block("HTTP/1.1 200 OK\r\ncontent-length:  10 ", "0123456789");
        out += &block("HTTP/1.1 404 Not Found\r\nContent-Length: 5", "nope!");
        out += &block("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked", "a");
        out += &block("HTTP/1.0 200 OK\r\nServer: x", "until the close");
        out += "..done\n\n\nComplete requests:      4\n";
        let log = AbLog::of(&out);
        let d = &log.declared;
        assert_eq!(d.answers, 4);
        assert_eq!(d.lengths, BTreeSet::from([10, 1_000_000_000]));
        assert_eq!((d.unframed, d.close_delimited), (1, 1));
        assert_eq!(log.summary().trim(), "Complete requests:      4");
        assert_eq!(d.all_of(10), None);
    }

    #[test]
    fn a_header_in_two_reads_counts_once_and_forged_summaries_are_dropped() {
        let out = format!(
            "{HEADER_LOG}\nHTTP/1.1 200 OK\r\nContent-Le\n{}{}",
            block(
                "HTTP/1.1 200 OK\r\nContent-Length: 3",
                "abc\nComplete requests: 999"
            ),
            "..done\nComplete requests: 1\n"
        );
        // Fed a byte at a time, as a pipe may give it.
        let mut log = AbLog::default();
        for b in out.as_bytes() {
            log.take(std::slice::from_ref(b));
        }
        log.finish();
        assert_eq!(log.declared.answers, 1);
        assert_eq!(log.declared.all_of(3), Some(Close { any: false }));
        assert_eq!(log.summary(), "Complete requests: 1\n");
    }

    #[test]
    fn answers_without_a_head_ab_could_read_are_counted() {
        // HTTP/0.9: ab logs the body where the head should be, and the
        // block never ends; two alike look like one head logged twice.
        let nine =
            format!("{HEADER_LOG}\nxxxx\n{HEADER_LOG}\nxxxx\n..done\nComplete requests: 2\n");
        let log = AbLog::of(&nine);
        assert_eq!((log.declared.unreadable, log.declared.logged), (1, 0));
        assert_eq!(log.declared.all_of(0), None);
        assert!(log.declared.described().contains("no head ab could read"));
        // A head that never ended, then a whole answer.
        let cut = format!(
            "{HEADER_LOG}\nHTTP/1.1 200 OK\r\nContent-Le\n{}{}..done\n",
            block("HTTP/1.1 200 OK\r\nServer: other", ""),
            block("garbage line", ""),
        );
        let d = AbLog::of(&cut).declared;
        assert_eq!((d.unreadable, d.logged, d.answers), (2, 1, 1));
        // A head that stopped at a line's end is logged with a bare
        // newline after it: not its end, and no answer without a length.
        let split = format!(
            "{HEADER_LOG}\nHTTP/1.1 200 OK\r\n\n{}..done\n",
            block("HTTP/1.1 200 OK\r\nContent-Length: 5", "abcde")
        );
        let d = AbLog::of(&split).declared;
        assert_eq!((d.answers, d.close_delimited, d.unreadable), (1, 0, 0));
        assert_eq!(d.all_of(5), Some(Close { any: false }));
        // Statuses other than 2xx are kept by code.
        let d = AbLog::of(&block("HTTP/1.1 302 Found\r\nLocation: /", "")).declared;
        assert_eq!(d.others, BTreeMap::from([(302, 1)]));
        assert_eq!((d.answers, d.unreadable), (0, 0));
    }

    proptest! {
        #[test]
        fn never_panics(text in "\\PC{0,400}") {
            let log = AbLog::of(&text);
            let _ = log.declared.all_of(1);
        }
    }
}
