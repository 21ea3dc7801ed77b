//! An answer's head: its status, how its body is framed and whether the
//! connection ends after it, decided from the few headers that say so.

use super::Keep;
use crate::failure::Failure;
use std::mem::MaybeUninit;

/// The most headers an answer may have.
pub(super) const MAX_HEADERS: usize = 100;

/// How a body is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Framing {
    /// No body (1xx, 204, 304).
    Empty,
    Length(u64),
    Chunked,
    /// Until the server closes the connection.
    Close,
}

/// A whole answer head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Head {
    /// Its bytes, the blank line included.
    pub(super) used: usize,
    pub(super) status: u16,
    pub(super) framing: Framing,
    /// The connection ends after this answer.
    pub(super) close: bool,
}

/// Parses an answer head at the start of `bytes`: None while it is not
/// whole. `keep` is told of a final answer's headers.
pub(super) fn parse(bytes: &[u8], keep: &mut impl Keep) -> Result<Option<Head>, Failure> {
    // Left unset: filling a hundred headers before each parse cost more
    // than the parse.
    let mut headers = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
    let mut answer = httparse::Response::new(&mut []);
    let parsed = httparse::ParserConfig::default().parse_response_with_uninit_headers(
        &mut answer,
        bytes,
        &mut headers,
    );
    let used = match parsed {
        Ok(httparse::Status::Complete(used)) => used,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(Failure::new(format!(
                "an answer with over {MAX_HEADERS} headers"
            )));
        }
        Err(e) => return Err(Failure::new(format!("an invalid answer head: {e}"))),
    };
    // httparse takes any three digits; a status is 100 to 999.
    let status = answer
        .code
        .filter(|c| *c >= 100)
        .ok_or_else(|| Failure::new("an invalid answer head: a status below 100"))?;
    // The headers of an informational head are not the page's.
    let informational = status < 200;
    let mut fields = Fields::default();
    for header in answer.headers.iter() {
        fields.note(header.name, header.value);
        if !informational {
            keep.header(header.name, header.value);
        }
    }
    let (framing, close) = fields.decide(status, answer.version == Some(0))?;
    Ok(Some(Head {
        used,
        status,
        framing,
        close,
    }))
}

/// What the framing headers of one head said.
#[derive(Default)]
struct Fields {
    /// The Content-Length, or why it is not one; judged only when it
    /// frames the body, as hyper judged it.
    length: Option<Result<u64, &'static str>>,
    /// A Transfer-Encoding was sent, and whether its last coding is
    /// chunked.
    coded: bool,
    chunked: bool,
    said_close: bool,
    said_keep_alive: bool,
}

impl Fields {
    fn note(&mut self, name: &str, value: &[u8]) {
        if name.eq_ignore_ascii_case("content-length") {
            let n = content_length(value);
            self.length = Some(match (self.length.take(), n) {
                (None, n) => n,
                (Some(Err(e)), _) | (_, Err(e)) => Err(e),
                (Some(Ok(m)), Ok(n)) if m == n => Ok(n),
                (Some(Ok(_)), Ok(_)) => Err("an answer with two Content-Lengths"),
            });
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            self.coded = true;
            // Only the last coding frames the body.
            self.chunked = last_token(value).eq_ignore_ascii_case(b"chunked");
        } else if name.eq_ignore_ascii_case("connection") {
            for token in value.split(|&b| b == b',') {
                let token = token.trim_ascii();
                self.said_close |= token.eq_ignore_ascii_case(b"close");
                self.said_keep_alive |= token.eq_ignore_ascii_case(b"keep-alive");
            }
        }
    }

    /// How the body of an answer of `status` is framed, and whether the
    /// connection ends after it.
    fn decide(self, status: u16, http_1_0: bool) -> Result<(Framing, bool), Failure> {
        let framing = match status {
            100..=199 | 204 | 304 => Framing::Empty,
            _ if self.coded && self.chunked => Framing::Chunked,
            // A coding that does not end in chunked is read to the close.
            _ if self.coded => Framing::Close,
            _ => match self.length {
                Some(Ok(n)) => Framing::Length(n),
                Some(Err(e)) => return Err(Failure::new(e)),
                None => Framing::Close,
            },
        };
        // A body framed both ways leaves the connection unsure of where
        // the next answer starts.
        let close = self.said_close
            || (http_1_0 && !self.said_keep_alive)
            || (self.coded && self.length.is_some())
            || framing == Framing::Close;
        Ok((framing, close))
    }
}

/// A Content-Length value: one decimal number, or the same number listed
/// more than once.
fn content_length(value: &[u8]) -> Result<u64, &'static str> {
    let bad = "an invalid Content-Length";
    let mut found: Option<u64> = None;
    for part in value.split(|&b| b == b',') {
        let part = part.trim_ascii();
        if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
            return Err(bad);
        }
        let n = std::str::from_utf8(part)
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or(bad)?;
        if found.is_some_and(|m| m != n) {
            return Err(bad);
        }
        found = Some(n);
    }
    found.ok_or(bad)
}

/// The last comma-separated token of a header value, trimmed.
fn last_token(value: &[u8]) -> &[u8] {
    value
        .rsplit(|&b| b == b',')
        .next()
        .unwrap_or_default()
        .trim_ascii()
}
