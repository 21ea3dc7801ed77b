//! HTTP/2's frames (RFC 9113 §4 and §6): the nine-byte header read, and
//! the few frames the client writes.

use crate::failure::Failure;
use std::ops::Range;

/// A frame header's length.
pub(crate) const HEAD: usize = 9;

/// Flags, as their frames use them.
pub(crate) const END_STREAM: u8 = 0x1;
pub(crate) const ACK: u8 = 0x1;
pub(crate) const END_HEADERS: u8 = 0x4;
const PADDED: u8 = 0x8;
/// RST_STREAM's code for a stream the server never processed.
pub(crate) const REFUSED_STREAM: u32 = 0x7;
const PRIORITY: u8 = 0x20;

/// The frame types the client tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Data,
    Headers,
    Priority,
    ResetStream,
    Settings,
    PushPromise,
    Ping,
    GoAway,
    WindowUpdate,
    Continuation,
    /// A type RFC 9113 says to pass over.
    Unknown,
}

impl Kind {
    fn of(byte: u8) -> Kind {
        match byte {
            0x0 => Kind::Data,
            0x1 => Kind::Headers,
            0x2 => Kind::Priority,
            0x3 => Kind::ResetStream,
            0x4 => Kind::Settings,
            0x5 => Kind::PushPromise,
            0x6 => Kind::Ping,
            0x7 => Kind::GoAway,
            0x8 => Kind::WindowUpdate,
            0x9 => Kind::Continuation,
            _ => Kind::Unknown,
        }
    }

    fn byte(self) -> u8 {
        match self {
            Kind::Data => 0x0,
            Kind::Headers => 0x1,
            Kind::Priority => 0x2,
            Kind::ResetStream => 0x3,
            Kind::Settings => 0x4,
            Kind::PushPromise => 0x5,
            Kind::Ping => 0x6,
            Kind::GoAway => 0x7,
            Kind::WindowUpdate => 0x8,
            Kind::Continuation => 0x9,
            Kind::Unknown => 0xff,
        }
    }
}

/// A frame's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Head {
    pub(crate) length: usize,
    kind: Kind,
    flags: u8,
    stream: u32,
}

impl Head {
    /// The frame whose payload starts at `start` of the buffer.
    pub(crate) fn at(self, start: usize) -> Frame {
        Frame {
            kind: self.kind,
            flags: self.flags,
            stream: self.stream,
            payload: start..start + self.length,
        }
    }
}

/// A frame read, its payload a range of the connection's buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Frame {
    pub(crate) kind: Kind,
    pub(crate) flags: u8,
    pub(crate) stream: u32,
    pub(crate) payload: Range<usize>,
}

/// The header in `bytes` (at least nine of them).
pub(crate) fn head(bytes: &[u8]) -> Head {
    let byte = |i: usize| bytes.get(i).copied().unwrap_or(0);
    Head {
        length: usize::from(byte(0)) << 16 | usize::from(byte(1)) << 8 | usize::from(byte(2)),
        kind: Kind::of(byte(3)),
        flags: byte(4),
        stream: u32::from_be_bytes([byte(5), byte(6), byte(7), byte(8)]) & 0x7fff_ffff,
    }
}

/// Appends a frame of `payload` (at most 16 MB) to `out`.
pub(crate) fn write(out: &mut Vec<u8>, kind: Kind, flags: u8, stream: u32, payload: &[u8]) {
    let length = u32::try_from(payload.len())
        .unwrap_or(u32::MAX)
        .min(0xff_ffff);
    out.extend_from_slice(&length.to_be_bytes()[1..]);
    out.push(kind.byte());
    out.push(flags);
    out.extend_from_slice(&(stream & 0x7fff_ffff).to_be_bytes());
    out.extend_from_slice(&payload[..length as usize]);
}

/// A request's HEADERS (then CONTINUATION frames, past `max` bytes) on
/// `stream`, ending it: a GET has no body.
pub(crate) fn headers(out: &mut Vec<u8>, stream: u32, block: &[u8], max: usize) {
    let mut pieces = block.chunks(max.max(1));
    let first = pieces.next().unwrap_or(&[]);
    let mut rest = pieces.peekable();
    let last = if rest.peek().is_none() {
        END_HEADERS
    } else {
        0
    };
    write(out, Kind::Headers, END_STREAM | last, stream, first);
    while let Some(piece) = rest.next() {
        let last = if rest.peek().is_none() {
            END_HEADERS
        } else {
            0
        };
        write(out, Kind::Continuation, last, stream, piece);
    }
}

/// Whether a DATA or HEADERS frame's flags end its stream.
pub(crate) fn ends_stream(flags: u8) -> bool {
    flags & END_STREAM != 0
}

/// A DATA frame's data, its padding taken off.
pub(crate) fn unpadded(flags: u8, payload: &[u8]) -> Result<&[u8], Failure> {
    if flags & PADDED == 0 {
        return Ok(payload);
    }
    let (&pad, rest) = payload
        .split_first()
        .ok_or_else(|| bad("a padded frame without its pad length"))?;
    rest.len()
        .checked_sub(usize::from(pad))
        .map(|end| &rest[..end])
        .ok_or_else(|| bad("more padding than the frame holds"))
}

/// A HEADERS frame's piece of its header block: padding and priority
/// taken off.
pub(crate) fn header_fragment(flags: u8, payload: &[u8]) -> Result<&[u8], Failure> {
    let fragment = unpadded(flags, payload)?;
    if flags & PRIORITY == 0 {
        return Ok(fragment);
    }
    fragment
        .get(5..)
        .ok_or_else(|| bad("a HEADERS frame too short for its priority"))
}

/// The 32-bit number a RST_STREAM or GOAWAY frame starts with (the error
/// code, or the last stream taken); 0 when it is too short to hold one.
pub(crate) fn code(payload: &[u8]) -> u32 {
    match payload.get(..4) {
        Some(b) => u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
        None => 0,
    }
}

/// An error code's name (RFC 9113 §7).
pub(crate) fn error_name(code: u32) -> String {
    let name = match code {
        0x0 => "NO_ERROR",
        0x1 => "PROTOCOL_ERROR",
        0x2 => "INTERNAL_ERROR",
        0x3 => "FLOW_CONTROL_ERROR",
        0x4 => "SETTINGS_TIMEOUT",
        0x5 => "STREAM_CLOSED",
        0x6 => "FRAME_SIZE_ERROR",
        0x7 => "REFUSED_STREAM",
        0x8 => "CANCEL",
        0x9 => "COMPRESSION_ERROR",
        0xa => "CONNECT_ERROR",
        0xb => "ENHANCE_YOUR_CALM",
        0xc => "INADEQUATE_SECURITY",
        0xd => "HTTP_1_1_REQUIRED",
        _ => return format!("error code {code}"),
    };
    name.to_string()
}

/// Whether the whole frames at the start of `bytes` hold a GOAWAY.
pub(crate) fn holds_goaway(mut bytes: &[u8]) -> bool {
    while bytes.len() >= HEAD {
        let h = head(bytes);
        if h.kind == Kind::GoAway {
            return true;
        }
        match bytes.get(HEAD + h.length..) {
            Some(rest) => bytes = rest,
            None => return false,
        }
    }
    false
}

fn bad(what: &str) -> Failure {
    super::protocol(what)
}
