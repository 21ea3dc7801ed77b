//! HTTP/1.1 for the measured requests, written for the one thing they do:
//! a GET whose answer is read to its last byte and counted, not kept.
//! hyper makes a header map, a body channel and a dispatcher's hand-offs
//! for every answer, which was most of the client's CPU time on a cached
//! page (docs/evaluation.md, "The client's own cost"). Here the request is
//! bytes made once, the answer's head is parsed in place by `httparse`,
//! only the headers a row needs are looked at, and the body is counted in
//! the connection's own buffer: nothing is allocated per request.
//!
//! Everything a peer sends is bounded: the head's size and header count,
//! a chunk or trailer line's length, the trailers. HTTP/2 has a reader of
//! its own (`http2`); the untimed requests (`fetch`) stay with hyper.

use super::connect::Stream;
use super::failure::{self, Failure};
use head::Framing;
use replay::Replay;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, ReadBuf};

/// The largest answer head read, in bytes (HTTP/2's header list too): a
/// page's head takes a few kilobytes, and hyper's 400 KB default let a
/// peer's head grow as far.
pub(crate) const MAX_HEAD: usize = 256 * 1024;
/// The longest chunk-size or trailer line, extensions included.
const MAX_LINE: usize = 4096;
/// The buffer's first size: a small page's whole answer (a kilobyte and its
/// head) fits, so one read takes it, and a short read tells the runtime the
/// socket is drained. Small, because every connection holds one (at 5,000
/// connections, 16 KB each was 80 MB); a larger answer grows it (`fill`),
/// once for the connection's life.
const FIRST_BUFFER: usize = 2 * 1024;
/// The largest the buffer grows to for a body: a read that fills it
/// doubles it, so a large page is read in few calls, on the connections
/// that fetch one.
const BODY_BUFFER: usize = 64 * 1024;

/// One HTTP/1.1 connection of a slot.
pub(crate) struct Connection {
    stream: Box<dyn Stream>,
    /// Bytes read and not yet used are `buf[pos..len]`.
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    /// The connection ends after the answer in hand: the server said so,
    /// or the protocol does.
    closed: bool,
    /// Whether any byte came since the request in hand was sent: a kept
    /// connection that ends before one did is the server's idle close
    /// racing the request, which may be sent again (RFC 9110 §9.2.2).
    heard: bool,
}

/// An answer read to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Received {
    pub(crate) status: u16,
    /// When the final answer's head was whole.
    pub(crate) head_at: Instant,
    /// Body bytes as transferred (chunk data, without the framing).
    pub(crate) bytes: u64,
}

/// What a caller keeps of the final answer's headers, told of each as it
/// is met.
pub(crate) trait Keep {
    /// A header as sent: `name` in the peer's case, `value` raw.
    fn header(&mut self, name: &str, value: &[u8]);
}

/// Keeps no header: for answers read only for their status and length
/// (the fuzz targets').
impl Keep for () {
    fn header(&mut self, _: &str, _: &[u8]) {}
}

impl Connection {
    pub(crate) fn new(stream: Box<dyn Stream>) -> Connection {
        Connection {
            stream,
            buf: vec![0; FIRST_BUFFER],
            pos: 0,
            len: 0,
            closed: false,
            heard: false,
        }
    }

    /// True when the request in hand got no byte of an answer.
    pub(crate) fn heard_nothing(&self) -> bool {
        !self.heard
    }

    /// True once the connection cannot carry another request.
    pub(crate) fn is_closed(&self) -> bool {
        self.closed
    }

    /// Polls the socket once without waiting: a connection the server
    /// closed while idle (or sent bytes no request asked for) is found out
    /// before a request is timed on it.
    pub(crate) fn still_open(&mut self) -> bool {
        if self.closed {
            return false;
        }
        let mut cx = Context::from_waker(Waker::noop());
        let mut probe = [0u8; 1];
        let mut buf = ReadBuf::new(&mut probe);
        match Pin::new(&mut self.stream).poll_read(&mut cx, &mut buf) {
            Poll::Pending => true,
            Poll::Ready(_) => {
                self.closed = true;
                false
            }
        }
    }

    /// Sends `request` (a whole request head) and reads the answer to its
    /// end, telling `keep` of each header of the final answer.
    pub(crate) async fn exchange(
        &mut self,
        request: &[u8],
        keep: &mut impl Keep,
    ) -> Result<Received, Failure> {
        self.heard = false;
        self.stream
            .write_all(request)
            .await
            .map_err(|e| failure::of_io(&e))?;
        self.stream.flush().await.map_err(|e| failure::of_io(&e))?;
        let (status, framing) = loop {
            let (status, framing) = self.read_head(keep).await?;
            match status {
                // `100 Continue`, `102 Processing`, `103 Early Hints`: the
                // final answer follows.
                100..=199 if status != 101 => continue,
                101 => {
                    return Err(Failure::new(crate::failure::informational(101)));
                }
                _ => break (status, framing),
            }
        };
        let head_at = Instant::now();
        let bytes = match framing {
            Framing::Empty => 0,
            Framing::Length(n) => self.skip(n).await?,
            Framing::Chunked => self.chunks().await?,
            Framing::Close => self.until_close().await?,
        };
        // Bytes past the answer were asked for by no request: the
        // connection is out of step, and is not used again. A stray line
        // end, which some servers send after a body, is passed over, as
        // hyper passed it over.
        if self.buf[self.pos..self.len]
            .iter()
            .any(|b| !matches!(b, b'\r' | b'\n'))
        {
            self.closed = true;
        }
        self.pos = 0;
        self.len = 0;
        Ok(Received {
            status,
            head_at,
            bytes,
        })
    }

    /// Reads one answer head and consumes it: its status and how its body
    /// is framed. `keep` is told of its headers.
    async fn read_head(&mut self, keep: &mut impl Keep) -> Result<(u16, Framing), Failure> {
        loop {
            if let Some(head) = head::parse(&self.buf[self.pos..self.len], keep)? {
                self.pos += head.used;
                self.closed |= head.close;
                return Ok((head.status, head.framing));
            }
            if self.len - self.pos >= MAX_HEAD {
                return Err(Failure::new(format!(
                    "the answer's head is over {} KiB",
                    MAX_HEAD / 1024
                )));
            }
            if !self.fill(MAX_HEAD).await? {
                return Err(Failure::closed("connection closed before the answer"));
            }
        }
    }

    /// Reads more bytes into the buffer, growing it up to `limit` bytes
    /// when unused bytes fill it, or a read filled it; false at the end of
    /// the stream.
    async fn fill(&mut self, limit: usize) -> Result<bool, Failure> {
        if self.pos == self.len {
            self.pos = 0;
            self.len = 0;
        } else if self.len == self.buf.len() && self.pos > 0 {
            self.buf.copy_within(self.pos..self.len, 0);
            self.len -= self.pos;
            self.pos = 0;
        }
        if self.len == self.buf.len() {
            let grown = (self.buf.len() * 2).min(limit.max(FIRST_BUFFER));
            if grown <= self.buf.len() {
                return Err(Failure::new("an answer part too large to read"));
            }
            self.buf.resize(grown, 0);
        }
        let n = self
            .stream
            .read(&mut self.buf[self.len..])
            .await
            .map_err(|e| failure::of_io(&e))?;
        self.len += n;
        self.heard |= n > 0;
        if n > 0 && self.len == self.buf.len() && self.buf.len() < limit {
            // More is likely waiting: read it in larger parts.
            let grown = (self.buf.len() * 2).min(limit);
            self.buf.resize(grown, 0);
        }
        Ok(n > 0)
    }

    /// Consumes `n` body bytes; `n` when they all came.
    async fn skip(&mut self, n: u64) -> Result<u64, Failure> {
        let mut left = n;
        loop {
            let here = u64::try_from(self.len - self.pos).unwrap_or(u64::MAX);
            let used = here.min(left);
            // `used` is at most what the buffer holds, so it fits.
            self.pos += usize::try_from(used).unwrap_or(0);
            left -= used;
            if left == 0 {
                return Ok(n);
            }
            if !self.fill(BODY_BUFFER).await? {
                return Err(Failure::closed("connection closed within the answer"));
            }
        }
    }

    /// Reads a chunked body to its end, trailers included; its data bytes.
    async fn chunks(&mut self) -> Result<u64, Failure> {
        let mut bytes = 0u64;
        loop {
            let line = self.line().await?;
            let size = chunk_size(&self.buf[line])?;
            if size == 0 {
                break;
            }
            self.skip(size).await?;
            bytes = bytes.saturating_add(size);
            if !self.line().await?.is_empty() {
                return Err(Failure::new("a chunk longer than its size"));
            }
        }
        let mut trailers = 0usize;
        loop {
            let line = self.line().await?;
            if line.is_empty() {
                return Ok(bytes);
            }
            trailers += line.len();
            if trailers > MAX_HEAD {
                return Err(Failure::new(format!(
                    "the answer's trailers are over {} KiB",
                    MAX_HEAD / 1024
                )));
            }
        }
    }

    /// Where the next line is in the buffer, up to its CRLF (consumed):
    /// valid until the next read. At most `MAX_LINE` bytes.
    async fn line(&mut self) -> Result<std::ops::Range<usize>, Failure> {
        loop {
            let unused = &self.buf[self.pos..self.len];
            let within = &unused[..unused.len().min(MAX_LINE + 2)];
            if let Some(end) = within.windows(2).position(|w| w == b"\r\n") {
                let line = self.pos..self.pos + end;
                self.pos += end + 2;
                return Ok(line);
            }
            if unused.len() >= MAX_LINE + 2 {
                return Err(Failure::new(format!(
                    "a chunk or trailer line over {} KiB",
                    MAX_LINE / 1024
                )));
            }
            if !self.fill(2 * MAX_LINE).await? {
                return Err(Failure::closed("connection closed within the answer"));
            }
        }
    }

    /// Reads until the server closes; the bytes read.
    async fn until_close(&mut self) -> Result<u64, Failure> {
        self.closed = true;
        let mut bytes = u64::try_from(self.len - self.pos).unwrap_or(u64::MAX);
        self.pos = self.len;
        while self.fill(BODY_BUFFER).await? {
            bytes = bytes.saturating_add(u64::try_from(self.len - self.pos).unwrap_or(0));
            self.pos = self.len;
        }
        Ok(bytes)
    }
}

/// The size a chunk line gives (hex digits, then any extensions).
fn chunk_size(line: &[u8]) -> Result<u64, Failure> {
    let digits = line
        .split(|&b| b == b';')
        .next()
        .unwrap_or_default()
        .trim_ascii();
    let bad = || Failure::new("an invalid chunk size");
    if digits.is_empty() || digits.len() > 16 || !digits.iter().all(u8::is_ascii_hexdigit) {
        return Err(bad());
    }
    let text = std::str::from_utf8(digits).map_err(|_| bad())?;
    u64::from_str_radix(text, 16).map_err(|_| bad())
}

/// Reads one answer to a GET from a peer that sends `bytes`, `chunk` at a
/// time (all at once for 0), then closes: the status and body bytes, or
/// why there is none. The way in for the fuzz target.
#[doc(hidden)]
pub fn read_answer(bytes: &[u8], chunk: usize) -> Result<(u16, u64), String> {
    replayed(Replay::of(bytes, chunk).chunks).0
}

/// The answer to one GET from a peer that sends `chunks`, a read each,
/// then closes; and whether the connection then ended.
fn replayed(chunks: std::collections::VecDeque<Vec<u8>>) -> (Result<(u16, u64), String>, bool) {
    let mut conn = Connection::new(Box::new(Replay {
        chunks,
        idle: false,
    }));
    let runtime = match tokio::runtime::Builder::new_current_thread().build() {
        Ok(runtime) => runtime,
        Err(e) => return (Err(e.to_string()), true),
    };
    let got = runtime.block_on(conn.exchange(b"GET / HTTP/1.1\r\n\r\n", &mut ()));
    (
        got.map(|r| (r.status, r.bytes)).map_err(|f| f.message),
        conn.is_closed(),
    )
}

mod head;
pub(crate) mod replay;
#[cfg(test)]
mod tests;
