//! The kinds a tool's failed requests are counted under in a row, as the
//! built-in client counts its own (`document::failures`): each tool names
//! its failures in its own words, and a row of any tool says refused,
//! dropped, kept waiting or answered badly alike.

use crate::document::failures::Failures;

/// One count of a row's failures: what [`super::Summary::add_failure`]
/// adds to.
pub(crate) type Count = fn(&mut Failures) -> &mut u64;

/// No connection: refused, unreachable, not resolved, TLS refused.
pub(crate) fn connect(f: &mut Failures) -> &mut u64 {
    &mut f.connect
}

/// A connection reset or closed before the answer's end.
pub(crate) fn closed(f: &mut Failures) -> &mut u64 {
    &mut f.closed
}

/// No answer in time.
pub(crate) fn timeout(f: &mut Failures) -> &mut u64 {
    &mut f.timeout
}

/// An answer of status 400 or above.
pub(crate) fn http(f: &mut Failures) -> &mut u64 {
    &mut f.http
}

/// Anything else: an answer that is no page, one cut short.
pub(crate) fn other(f: &mut Failures) -> &mut u64 {
    &mut f.other
}

/// The kind a tool's words for a failure name (`apr_socket_recv:
/// Connection reset by peer`, oha's `connection closed before message
/// completed`): a timeout first, then a connection lost, then one not
/// made, since "Connection reset" names the connection too; else other.
pub(crate) fn in_words(message: &str) -> Count {
    let m = message.to_ascii_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| m.contains(w));
    if any(&["timeout", "timed out", "expired"]) {
        timeout
    } else if any(&["reset", "closed", "broken pipe", "aborted", "eof"]) {
        closed
    } else if any(&[
        "refused",
        "connect",
        "unreachable",
        "resolve",
        "dns",
        "tls",
        "handshake",
        "certificate",
    ]) {
        connect
    } else {
        other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_of(message: &str) -> Failures {
        let mut f = Failures::default();
        *in_words(message)(&mut f) += 1;
        f
    }

    #[test]
    fn the_tools_words_name_their_kind() {
        let named = |connect, closed, timeout, other| Failures {
            connect,
            closed,
            timeout,
            other,
            http: 0,
        };
        for (words, kind) in [
            (
                "apr_socket_connect(): Connection refused (111)",
                named(1, 0, 0, 0),
            ),
            (
                "apr_socket_recv: Connection reset by peer (104)",
                named(0, 1, 0, 0),
            ),
            (
                "apr_pollset_poll: The timeout specified has expired (70007)",
                named(0, 0, 1, 0),
            ),
            (
                "connection closed before message completed",
                named(0, 1, 0, 0),
            ),
            ("Connection refused", named(1, 0, 0, 0)),
            ("cannot resolve no-such-host.invalid", named(1, 0, 0, 0)),
            (
                "error trying to connect: invalid peer certificate",
                named(1, 0, 0, 0),
            ),
            ("wrk: no request ended within the run", named(0, 0, 0, 1)),
            (
                "h2load: the warm-up was answered 301: not measured",
                named(0, 0, 0, 1),
            ),
        ] {
            assert_eq!(kind_of(words), kind, "{words}");
        }
    }
}
