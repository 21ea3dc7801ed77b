//! HTTP/2 for the measured requests, written as `h1` is for HTTP/1.1: a
//! GET whose answer is read to its end and counted, not kept.
//!
//! hyper over the `h2` crate spent 54,000 instructions a request where
//! HTTP/1.1 spends 9,600: a header map built and dropped for every
//! answer, a task spawned for each, the stream state machine behind a
//! lock (docs/evaluation.md, "Where HTTP/2's CPU goes"). Here a connection
//! carries one request at a time, as a slot uses it; the request's header
//! block is made once, of literals HPACK's decoder at the server needs no
//! table for; the answer's frames are read in the connection's own buffer,
//! its header block decoded header by header (HPACK's table must follow
//! every one) with only the headers a row needs looked at, and its DATA
//! counted. The windows are opened wide at the start, so flow control
//! asks for a WINDOW_UPDATE only every gigabyte.
//!
//! Everything a peer sends is bounded: a frame by the size the client
//! allows (16 KB, the least RFC 9113 lets it), a header block by
//! `h1::MAX_HEAD`, HPACK's table by the size the client allows (4 KB).

use super::connect::Stream;
use super::failure::{self, Failure};
use super::h1::{Keep, MAX_HEAD, Received};
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, ReadBuf};

mod frame;
mod hpack;
mod request;
#[cfg(test)]
mod tests;

use frame::{Frame, Kind};
pub(crate) use request::{Block, Field, Way, blocks, path_field};

/// The largest frame payload the client takes: SETTINGS_MAX_FRAME_SIZE's
/// initial value, which the client leaves as it is.
const MAX_FRAME: usize = 16_384;
/// HPACK's table size the client allows the server, its initial value.
const TABLE_SIZE: usize = 4_096;
/// The window the client gives every stream, and the connection: as
/// large as HTTP/2 allows, so no answer waits on a WINDOW_UPDATE.
const WINDOW: u32 = (1 << 31) - 1;
/// The initial window, which the connection's WINDOW_UPDATE adds to.
const INITIAL_WINDOW: u32 = 65_535;
/// Bytes of DATA after which the connection's window is opened again.
const REFILL: u64 = 1 << 30;
/// The buffer's first size: a small page's answer fits (see `h1`).
const FIRST_BUFFER: usize = 2 * 1024;

/// The connection preface, then the client's SETTINGS: no push, every
/// stream's window as large as it may be, a header list no longer than
/// `MAX_HEAD`; then the connection's window opened as wide.
fn preface() -> Vec<u8> {
    let mut out = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    let settings: [(u16, u32); 3] = [
        (0x2, 0),                                           // ENABLE_PUSH
        (0x4, WINDOW),                                      // INITIAL_WINDOW_SIZE
        (0x6, u32::try_from(MAX_HEAD).unwrap_or(u32::MAX)), // MAX_HEADER_LIST_SIZE
    ];
    let mut payload = Vec::with_capacity(18);
    for (id, value) in settings {
        payload.extend_from_slice(&id.to_be_bytes());
        payload.extend_from_slice(&value.to_be_bytes());
    }
    frame::write(&mut out, Kind::Settings, 0, 0, &payload);
    frame::write(
        &mut out,
        Kind::WindowUpdate,
        0,
        0,
        &(WINDOW - INITIAL_WINDOW).to_be_bytes(),
    );
    out
}

/// One HTTP/2 connection of a slot.
pub(crate) struct Connection {
    stream: Box<dyn Stream>,
    /// Bytes read and not yet used are `buf[pos..len]`.
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    /// Frames to send before the next read: the preface at first, then
    /// acknowledgements and window updates.
    out: Vec<u8>,
    /// A header block sent in pieces, put together.
    block: Vec<u8>,
    decoder: hpack::Decoder,
    /// The server's table of the client's fields, as far as it matters.
    encoder: request::Encoder,
    /// The stream of the next request.
    next: u32,
    /// DATA bytes since the connection's window was last opened again.
    unacknowledged: u64,
    /// No request may follow: the server said GOAWAY, or the connection
    /// failed.
    closed: bool,
    /// The error code of a GOAWAY that let the request in hand finish,
    /// for the words of a loss that follows it.
    goaway: Option<u32>,
    /// Whether any frame came since the request in hand was sent (see
    /// `h1::Connection::heard_nothing`).
    heard: bool,
}

impl Connection {
    /// A connection over `stream`, which has agreed to HTTP/2 (by TLS's
    /// ALPN, or as asked on a cleartext one); the preface goes with the
    /// first request.
    pub(crate) fn new(stream: Box<dyn Stream>) -> Connection {
        Connection {
            stream,
            buf: vec![0; FIRST_BUFFER],
            pos: 0,
            len: 0,
            out: preface(),
            block: Vec::new(),
            decoder: hpack::Decoder::new(TABLE_SIZE),
            encoder: request::Encoder::new(),
            next: 1,
            unacknowledged: 0,
            closed: false,
            goaway: None,
            heard: false,
        }
    }

    /// How to send request `id`, whose kept fields take `table_bytes`
    /// (`request::Encoder::way`): the block to send is that way's.
    pub(crate) fn way(&mut self, id: u64, table_bytes: usize) -> Way {
        self.encoder.way(id, table_bytes)
    }

    /// True when the request in hand got no frame of an answer.
    pub(crate) fn heard_nothing(&self) -> bool {
        !self.heard
    }

    /// True once the connection cannot carry another request.
    pub(crate) fn is_closed(&self) -> bool {
        self.closed
    }

    /// Reads what the server sent while the connection was idle, without
    /// waiting: a connection it closed, or will close (a GOAWAY), is found
    /// out before a request is timed on it. The frames read stay in the
    /// buffer, and are answered (a PING, SETTINGS) at the next request.
    pub(crate) fn still_open(&mut self) -> bool {
        if self.closed {
            return false;
        }
        if self.buf.len() == self.len {
            let pending = self.len - self.pos;
            self.buf.copy_within(self.pos..self.len, 0);
            (self.pos, self.len) = (0, pending);
            if self.buf.len() == self.len {
                // A buffer full of idle frames: the next request reads
                // them.
                return true;
            }
        }
        let mut cx = Context::from_waker(Waker::noop());
        let mut spare = ReadBuf::new(&mut self.buf[self.len..]);
        match Pin::new(&mut self.stream).poll_read(&mut cx, &mut spare) {
            Poll::Pending => {}
            Poll::Ready(Ok(())) if spare.filled().is_empty() => self.closed = true,
            Poll::Ready(Ok(())) => self.len += spare.filled().len(),
            Poll::Ready(Err(_)) => self.closed = true,
        }
        if frame::holds_goaway(&self.buf[self.pos..self.len]) {
            self.closed = true;
        }
        !self.closed
    }

    /// Sends a GET of header block `block` on a new stream and reads the
    /// answer to its end, telling `keep` of each header of the final
    /// answer.
    pub(crate) async fn exchange(
        &mut self,
        block: &[u8],
        keep: &mut impl Keep,
    ) -> Result<Received, Failure> {
        self.heard = false;
        let id = self.next;
        // Stream ids run out after a billion requests: the next request
        // opens a new connection.
        match self.next.checked_add(2).filter(|n| *n <= 0x7fff_ffff) {
            Some(next) => self.next = next,
            None => self.closed = true,
        }
        match self.encoder.take_update() {
            // The server asked for a smaller table: the block begins by
            // saying so (RFC 7541 §4.2).
            Some(mut update) => {
                update.extend_from_slice(block);
                frame::headers(&mut self.out, id, &update, MAX_FRAME);
            }
            None => frame::headers(&mut self.out, id, block, MAX_FRAME),
        }
        let result = match self.send().await {
            Ok(()) => self.answer(id, keep).await,
            Err(failure) => Err(failure),
        };
        // A failed send may have left the block unread, and with it the
        // fields the next request would name by index; a failed answer
        // leaves the stream's state unknown. Either way the connection
        // goes.
        if result.is_err() {
            self.closed = true;
        }
        result
    }

    /// Writes the frames waiting to go.
    async fn send(&mut self) -> Result<(), Failure> {
        if self.out.is_empty() {
            return Ok(());
        }
        self.stream
            .write_all(&self.out)
            .await
            .map_err(|e| failure::of_io(&e))?;
        self.stream.flush().await.map_err(|e| failure::of_io(&e))?;
        self.out.clear();
        Ok(())
    }

    /// Reads frames until stream `id` ends.
    async fn answer(&mut self, id: u32, keep: &mut impl Keep) -> Result<Received, Failure> {
        let mut answer = Answer::default();
        loop {
            let frame = self.frame().await?;
            // Only a frame of the request's stream says the server took
            // it: a PING or SETTINGS left from the idle time does not.
            self.heard |= frame.stream == id;
            let done = self.on_frame(&frame, id, &mut answer, keep)?;
            match done {
                Some(received) => {
                    // The answer is whole: a write that fails now (an
                    // acknowledgement) loses the connection, not the page.
                    if self.send().await.is_err() {
                        self.closed = true;
                    }
                    return Ok(received);
                }
                None => self.send().await?,
            }
        }
    }

    /// What one frame does to the answer to stream `id`: its end, when
    /// it ends it.
    fn on_frame(
        &mut self,
        frame: &Frame,
        id: u32,
        answer: &mut Answer,
        keep: &mut impl Keep,
    ) -> Result<Option<Received>, Failure> {
        let payload = &self.buf[frame.payload.clone()];
        match frame.kind {
            Kind::Data => {
                credit(&mut self.out, &mut self.unacknowledged, 0, payload.len());
                if frame.stream != id {
                    return Ok(None);
                }
                // The stream's window too: an answer past 2 GB would
                // otherwise wait for one.
                credit(&mut self.out, &mut answer.unacknowledged, id, payload.len());
                let Some(status) = answer.status else {
                    return Err(protocol("DATA before the answer's headers"));
                };
                let data = frame::unpadded(frame.flags, payload)?;
                answer.bytes += data.len() as u64;
                answer.end(status, frame::ends_stream(frame.flags))
            }
            Kind::Headers | Kind::Continuation => self.header_block(frame, id, answer, keep),
            Kind::Settings => {
                if frame.flags & frame::ACK == 0 {
                    if !payload.len().is_multiple_of(6) {
                        return Err(protocol("SETTINGS not a whole number of settings"));
                    }
                    for setting in payload.chunks_exact(6) {
                        // SETTINGS_HEADER_TABLE_SIZE: the room its table
                        // of the client's fields may take.
                        if setting[..2] == [0, 1] {
                            let size = u32::from_be_bytes([
                                setting[2], setting[3], setting[4], setting[5],
                            ]);
                            self.encoder.limit(size as usize);
                        }
                    }
                    frame::write(&mut self.out, Kind::Settings, frame::ACK, 0, &[]);
                }
                Ok(None)
            }
            Kind::Ping => {
                if frame.flags & frame::ACK == 0 {
                    let echo: Vec<u8> = payload.to_vec();
                    frame::write(&mut self.out, Kind::Ping, frame::ACK, 0, &echo);
                }
                Ok(None)
            }
            Kind::ResetStream if frame.stream == id => {
                let code = frame::code(payload);
                if code == frame::REFUSED_STREAM {
                    // Never processed (RFC 9113 §8.7): it may be sent again.
                    self.heard = false;
                }
                Err(Failure::closed(format!(
                    "HTTP/2 stream reset before the answer's end ({})",
                    frame::error_name(code)
                )))
            }
            Kind::GoAway => {
                self.closed = true;
                let last = frame::code(payload) & 0x7fff_ffff;
                let code = frame::code(payload.get(4..).unwrap_or_default());
                if last < id {
                    // The server will not answer this request: it was
                    // never taken, and may be sent again.
                    self.heard = false;
                    return Err(Failure::closed(format!(
                        "HTTP/2 GOAWAY ({}) before the request was taken",
                        frame::error_name(code)
                    )));
                }
                self.goaway = Some(code);
                Ok(None)
            }
            Kind::PushPromise => Err(protocol("PUSH_PROMISE, which the client turned off")),
            Kind::ResetStream | Kind::Priority | Kind::WindowUpdate | Kind::Unknown => Ok(None),
        }
    }

    /// A HEADERS or CONTINUATION frame: a piece of a header block, decoded
    /// once whole.
    fn header_block(
        &mut self,
        frame: &Frame,
        id: u32,
        answer: &mut Answer,
        keep: &mut impl Keep,
    ) -> Result<Option<Received>, Failure> {
        let payload = &self.buf[frame.payload.clone()];
        let piece = match frame.kind {
            Kind::Headers => {
                if answer.block_open {
                    return Err(protocol("HEADERS inside another header block"));
                }
                answer.block_stream = frame.stream;
                answer.block_ends_stream = frame::ends_stream(frame.flags);
                frame::header_fragment(frame.flags, payload)?
            }
            _ => {
                if !answer.block_open || frame.stream != answer.block_stream {
                    return Err(protocol("CONTINUATION outside a header block"));
                }
                payload
            }
        };
        // A block in one frame, as a page's answer mostly is, is decoded
        // where it was read; one in pieces is put together first.
        let whole = frame.kind == Kind::Headers && frame.flags & frame::END_HEADERS != 0;
        if !whole {
            if self.block.len() + piece.len() > MAX_HEAD {
                return Err(Failure::new(format!(
                    "HTTP/2 header block larger than {MAX_HEAD} bytes"
                )));
            }
            self.block.extend_from_slice(piece);
            answer.block_open = frame.flags & frame::END_HEADERS == 0;
            if answer.block_open {
                return Ok(None);
            }
        }
        let block: &[u8] = if whole { piece } else { &self.block };
        let ours = answer.block_stream == id;
        let heads = ours && answer.status.is_none();
        let mut status: Option<u16> = None;
        let mut statuses = 0u32;
        let mut declared = Declared::default();
        // The decoded list, bounded as the client's SETTINGS said: an
        // indexed field of a byte can stand for 4 KB of table.
        let mut listed = 0usize;
        let decoded = self.decoder.decode(block, |name, value| {
            listed = listed.saturating_add(name.len() + value.len() + 32);
            if listed > MAX_HEAD {
                return;
            }
            if name == b":status" {
                statuses += 1;
                status = three_digits(value);
            } else if heads
                && status.is_some_and(|s| s >= 200)
                && let Ok(name) = std::str::from_utf8(name)
            {
                // Pseudo-headers come first, so the status is known: an
                // interim answer's headers are not the page's.
                if name == "content-length" {
                    declared.note(value);
                }
                keep.header(name, value);
            }
        });
        self.block.clear();
        decoded.map_err(|e| protocol(&format!("a header block that is not HPACK: {}", e.0)))?;
        if listed > MAX_HEAD {
            return Err(Failure::new(format!(
                "HTTP/2 header list larger than {MAX_HEAD} bytes"
            )));
        }
        if !ours {
            return Ok(None);
        }
        if let Some(status) = answer.status {
            // Trailers, which must end the stream.
            if !answer.block_ends_stream {
                return Err(protocol("trailers that do not end the stream"));
            }
            return answer.end(status, true);
        }
        let status = match status {
            Some(s) if statuses == 1 => s,
            _ => return Err(protocol("an answer without one valid :status")),
        };
        match status {
            // An interim answer: the final one follows on the stream.
            100..=199 if status != 101 && answer.block_ends_stream => {
                Err(protocol("an interim answer that ends the stream"))
            }
            100..=199 if status != 101 => Ok(None),
            101 => Err(Failure::new(failure::informational(101))),
            _ => {
                answer.status = Some(status);
                answer.head_at = Some(Instant::now());
                answer.declared = declared.length();
                answer.end(status, answer.block_ends_stream)
            }
        }
    }

    /// The next frame, its payload in the buffer.
    async fn frame(&mut self) -> Result<Frame, Failure> {
        // Bytes already used are dropped only when a frame does not fit:
        // most answers are read in one or two reads.
        self.fill(frame::HEAD).await?;
        let head = frame::head(&self.buf[self.pos..self.pos + frame::HEAD]);
        if head.length > MAX_FRAME {
            return Err(protocol(&format!(
                "a frame of {} bytes, more than the {MAX_FRAME} allowed",
                head.length
            )));
        }
        self.fill(frame::HEAD + head.length).await?;
        let start = self.pos + frame::HEAD;
        self.pos = start + head.length;
        Ok(head.at(start))
    }

    /// Reads until `n` bytes are at hand; an end of the stream first is
    /// the connection's loss.
    async fn fill(&mut self, n: usize) -> Result<(), Failure> {
        if self.len - self.pos >= n {
            return Ok(());
        }
        if self.buf.len() - self.pos < n {
            self.buf.copy_within(self.pos..self.len, 0);
            self.len -= self.pos;
            self.pos = 0;
            if self.buf.len() < n {
                let grown = n.max(self.buf.len() * 2).min(frame::HEAD + MAX_FRAME);
                self.buf.resize(grown.max(n), 0);
            }
        }
        while self.len - self.pos < n {
            let read = self
                .stream
                .read(&mut self.buf[self.len..])
                .await
                .map_err(|e| failure::of_io(&e))?;
            if read == 0 {
                self.closed = true;
                return Err(Failure::closed(match self.goaway {
                    Some(code) => format!(
                        "connection closed after a GOAWAY ({}) before the answer's end",
                        frame::error_name(code)
                    ),
                    None => "connection closed before the answer's end".to_string(),
                }));
            }
            self.len += read;
        }
        Ok(())
    }
}

/// Reads one answer to a GET from a peer that sends `bytes` (its frames,
/// from its SETTINGS on), `chunk` at a time (all at once for 0), then
/// closes: the status and body bytes, or why there is none. The way in for
/// the fuzz target.
#[doc(hidden)]
pub fn read_answer(bytes: &[u8], chunk: usize) -> Result<(u16, u64), String> {
    let mut conn = Connection::new(Box::new(super::h1::replay::Replay::of(bytes, chunk)));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|e| e.to_string())?;
    let (block, _) = blocks(false, "localhost", "/", &[]).plain;
    runtime
        .block_on(conn.exchange(&block, &mut ()))
        .map(|r| (r.status, r.bytes))
        .map_err(|f| f.message)
}

/// The answer to the stream in hand, as its frames come.
#[derive(Default)]
struct Answer {
    /// The final answer's status, once its headers came.
    status: Option<u16>,
    head_at: Option<Instant>,
    bytes: u64,
    /// A header block is open: its pieces so far are the connection's
    /// `block`.
    block_open: bool,
    block_stream: u32,
    /// The block's HEADERS frame ended its stream.
    block_ends_stream: bool,
    /// The body's length, as the final answer's `content-length` said it
    /// once.
    declared: Option<u64>,
    /// DATA bytes on the stream since its window was last opened again.
    unacknowledged: u64,
}

impl Answer {
    /// The answer, when `ended` (its stream ended with `status`): a
    /// body shorter or longer than its declared length is no page (RFC
    /// 9113 §8.1.1), except where a status has no body.
    fn end(&self, status: u16, ended: bool) -> Result<Option<Received>, Failure> {
        if !ended {
            return Ok(None);
        }
        if let Some(declared) = self.declared
            && declared != self.bytes
            && !matches!(status, 204 | 304)
        {
            return Err(Failure::new(format!(
                "body cut short: {} of {declared} declared bytes",
                self.bytes
            )));
        }
        Ok(Some(Received {
            status,
            head_at: self.head_at.unwrap_or_else(Instant::now),
            bytes: self.bytes,
        }))
    }
}

/// The `content-length` values of an answer: a length when there is one,
/// of digits.
#[derive(Default)]
struct Declared {
    values: u32,
    length: Option<u64>,
}

impl Declared {
    fn note(&mut self, value: &[u8]) {
        self.values += 1;
        self.length = std::str::from_utf8(value)
            .ok()
            .and_then(|v| v.trim().parse().ok());
    }

    fn length(&self) -> Option<u64> {
        if self.values == 1 { self.length } else { None }
    }
}

/// Counts `n` DATA bytes against a window (the connection's, stream 0, or
/// a stream's), and opens it again once [`REFILL`] bytes came.
fn credit(out: &mut Vec<u8>, unacknowledged: &mut u64, stream: u32, n: usize) {
    *unacknowledged += n as u64;
    if *unacknowledged >= REFILL {
        let n = u32::try_from(*unacknowledged).unwrap_or(WINDOW);
        frame::write(out, Kind::WindowUpdate, 0, stream, &n.to_be_bytes());
        *unacknowledged = 0;
    }
}

/// A status of three digits, 100 to 999, as RFC 9110 §15 writes them.
fn three_digits(value: &[u8]) -> Option<u16> {
    match *value {
        [a @ b'1'..=b'9', b @ b'0'..=b'9', c @ b'0'..=b'9'] => {
            Some(u16::from(a - b'0') * 100 + u16::from(b - b'0') * 10 + u16::from(c - b'0'))
        }
        _ => None,
    }
}

/// A peer that does not speak HTTP/2 as RFC 9113 says.
pub(crate) fn protocol(what: &str) -> Failure {
    Failure::new(format!("HTTP/2 protocol error: {what}"))
}
