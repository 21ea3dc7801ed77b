//! Which HTTP/2 answers a server cut short with a stream reset. hyper
//! ends a body without an error when the server resets its stream with
//! `NO_ERROR` or `CANCEL` (RFC 9113 §8.1 lets a server so tell a client to
//! stop sending a request body it does not need), even when the answer
//! itself never ended: without a `Content-Length` to hold it to, half a
//! page would count as a page. So the frames the server sends are
//! watched as they pass, their headers only (nine bytes a frame, the
//! payloads skipped), and each reset of a stream the server had not
//! ended with `END_STREAM` is counted.

use super::connect::ReadObserver;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

const DATA: u8 = 0x0;
const HEADERS: u8 = 0x1;
const RST_STREAM: u8 = 0x3;
const END_STREAM: u8 = 0x1;

/// Resets of streams that had not ended, counted on one connection.
#[derive(Debug, Clone, Default)]
pub(crate) struct Resets(Arc<AtomicU64>);

impl Resets {
    /// The count so far: an answer whose body ended while it grew was cut.
    pub(crate) fn count(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A connection's byte stream from the server, read as frames.
#[derive(Debug, Default)]
struct Frames {
    /// The header of the frame being read, `have` bytes of it so far.
    head: [u8; 9],
    have: usize,
    /// Payload bytes of the current frame still to pass.
    skip: u64,
    /// The last stream the server ended: the untimed requests (`fetch`)
    /// go one at a time on a connection, so one is enough.
    ended: u32,
}

impl Frames {
    /// Reads `bytes`, the next the server sent, adding to `resets` each
    /// reset of a stream it had not ended.
    fn read(&mut self, mut bytes: &[u8], resets: &AtomicU64) {
        while !bytes.is_empty() {
            if self.skip > 0 {
                let n = usize::try_from(self.skip)
                    .unwrap_or(usize::MAX)
                    .min(bytes.len());
                self.skip -= n as u64;
                bytes = &bytes[n..];
                continue;
            }
            let n = (9 - self.have).min(bytes.len());
            self.head[self.have..self.have + n].copy_from_slice(&bytes[..n]);
            self.have += n;
            bytes = &bytes[n..];
            if self.have < 9 {
                return;
            }
            self.have = 0;
            let h = self.head;
            self.skip = u64::from(u32::from_be_bytes([0, h[0], h[1], h[2]]));
            let (kind, flags) = (h[3], h[4]);
            let stream = u32::from_be_bytes([h[5], h[6], h[7], h[8]]) & 0x7fff_ffff;
            match kind {
                DATA | HEADERS if flags & END_STREAM != 0 => self.ended = stream,
                RST_STREAM if stream != 0 && stream != self.ended => {
                    resets.fetch_add(1, Ordering::Relaxed);
                }
                _ => {}
            }
        }
    }
}

/// The frames of a connection's incoming bytes, watched for resets.
#[derive(Debug, Default)]
pub(crate) struct Watch {
    frames: Frames,
    resets: Resets,
}

/// A watch for one connection, and the count it keeps.
pub(crate) fn watch() -> (Watch, Resets) {
    let watch = Watch::default();
    let resets = watch.resets.clone();
    (watch, resets)
}

impl ReadObserver for Watch {
    fn read(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.frames.read(bytes, &self.resets.0);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
        let len = u32::try_from(payload.len()).unwrap().to_be_bytes();
        let mut f = vec![len[1], len[2], len[3], kind, flags];
        f.extend_from_slice(&stream.to_be_bytes());
        f.extend_from_slice(payload);
        f
    }

    fn resets_in(bytes: &[u8], piece: usize) -> u64 {
        let (mut frames, count) = (Frames::default(), AtomicU64::new(0));
        for part in bytes.chunks(piece) {
            frames.read(part, &count);
        }
        count.load(Ordering::Relaxed)
    }

    #[test]
    fn a_reset_before_the_end_is_counted_and_one_after_it_is_not() {
        let settings = frame(0x4, 0, 0, &[0; 6]);
        let no_error = 0u32.to_be_bytes();
        // Stream 1 ends, then is reset (a server done with the request
        // body); stream 3 is reset halfway through its data.
        let mut bytes = settings.clone();
        bytes.extend(frame(HEADERS, 0x4, 1, b"head"));
        bytes.extend(frame(DATA, END_STREAM, 1, &[7; 100]));
        bytes.extend(frame(RST_STREAM, 0, 1, &no_error));
        assert_eq!(resets_in(&bytes, 1), 0);
        bytes.extend(frame(HEADERS, 0x4, 3, b"head"));
        bytes.extend(frame(DATA, 0, 3, &[7; 50]));
        bytes.extend(frame(RST_STREAM, 0, 3, &no_error));
        for piece in [1, 5, 9, 4096] {
            assert_eq!(resets_in(&bytes, piece), 1, "read {piece} bytes at a time");
        }
        // An answer of headers alone, ended by them.
        let mut bodiless = settings;
        bodiless.extend(frame(HEADERS, 0x4 | END_STREAM, 5, b"head"));
        bodiless.extend(frame(RST_STREAM, 0, 5, &no_error));
        assert_eq!(resets_in(&bodiless, 3), 0);
    }

    proptest! {
        #[test]
        fn never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..300), piece in 1usize..20) {
            let _ = resets_in(&bytes, piece);
        }
    }
}
