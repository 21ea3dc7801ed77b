//! The statuses in h2load's verbose output (`-v`), read as it comes.
//! h2load counts every status from 000 to 399 that is not 2xx as a 3xx
//! success: a `000` or a `101`, which the other clients count as errors,
//! looks like a redirect in its summary. Its verbose output shows each
//! answer: over HTTP/1.1 the bytes as read (`HTTP/1.1 200 OK` ...), over
//! HTTP/2 each header (`[stream_id=1] :status: 200`). The warm-up runs with
//! it, and the statuses seen there say what the measured run's 3xx are.
//!
//! Only the distinct statuses are kept, so the output (which holds every
//! body) costs nothing to read. A body can hold text like a status; such
//! text only adds statuses, which can only refuse the page, never make a
//! count more trusted.

use crate::process::Sink;
use std::collections::BTreeSet;

/// What goes before a status over HTTP/1.1, a digit and a space between.
const H1: &[u8] = b"HTTP/1.";
/// What goes before a status over HTTP/2.
const H2: &[u8] = b":status: ";
/// The longest text a status is found in: a match across two reads is
/// found in the last read's end kept with the next.
const LONGEST: usize = 16;

/// The statuses seen in h2load's verbose output.
#[derive(Debug, Default)]
pub(crate) struct Statuses {
    pub(crate) seen: BTreeSet<u16>,
    /// The last bytes of the last read.
    tail: Vec<u8>,
}

impl Sink for Statuses {
    fn take(&mut self, bytes: &[u8]) {
        let mut hay = std::mem::take(&mut self.tail);
        hay.extend_from_slice(bytes);
        for i in 0..hay.len() {
            let rest = &hay[i..];
            let code = if let Some(after) = rest.strip_prefix(H1) {
                match after {
                    [v, b' ', code @ ..] if v.is_ascii_digit() => code,
                    _ => continue,
                }
            } else if let Some(code) = rest.strip_prefix(H2) {
                code
            } else {
                continue;
            };
            if let Some(status) = three_digits(code) {
                self.seen.insert(status);
            }
        }
        let keep = hay.len().saturating_sub(LONGEST);
        self.tail = hay.split_off(keep);
    }
}

impl Statuses {
    /// The statuses seen in a whole output.
    #[cfg(test)]
    fn of(text: &str) -> Statuses {
        let mut s = Statuses::default();
        s.take(text.as_bytes());
        s
    }

    /// A status seen that h2load takes for a 3xx success and the other
    /// clients count as an error: below 100, or `101`. An interim 100, 102
    /// or 103 is not one: h2load reads past it to the final answer.
    pub(crate) fn not_a_page(&self) -> Option<u16> {
        self.seen.iter().copied().find(|&s| s < 100 || s == 101)
    }
}

/// The status in the first three bytes of `code`, when they are digits.
fn three_digits(code: &[u8]) -> Option<u16> {
    match code {
        [a, b, c, ..] if [a, b, c].iter().all(|d| d.is_ascii_digit()) => {
            Some(u16::from(a - b'0') * 100 + u16::from(b - b'0') * 10 + u16::from(c - b'0'))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn statuses_of_both_protocols_are_seen_across_reads() {
        let h1 = "HTTP/1.1 000 X\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n\r\n";
        assert_eq!(Statuses::of(h1).seen, BTreeSet::from([0, 200]));
        let h2 = "[stream_id=1] :status: 302\n[stream_id=1] location: /\n";
        assert_eq!(Statuses::of(h2).seen, BTreeSet::from([302]));
        // A byte at a time, as a pipe may give it.
        let mut s = Statuses::default();
        for b in "xxHTTP/1.1 101 Switching\r\n".as_bytes() {
            s.take(std::slice::from_ref(b));
        }
        assert_eq!(s.not_a_page(), Some(101));
        let interim = Statuses::of("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n");
        assert_eq!(interim.not_a_page(), None);
    }

    proptest! {
        #[test]
        fn never_panics(chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..8)) {
            let mut s = Statuses::default();
            for c in &chunks {
                s.take(c);
            }
            prop_assert!(s.tail.len() <= LONGEST);
        }
    }
}
