//! The kind of failure a tool's own words name: each tool says refused,
//! dropped, kept waiting or answered badly in its own way, and a row of any
//! tool counts them by the one list (`document::failures::Kind`) that the
//! built-in client counts its own by.

use crate::document::failures::Kind;

/// The kind a tool's words for a failure name (`apr_socket_recv:
/// Connection reset by peer`, oha's `connection closed before message
/// completed`): a timeout first, then a connection lost, then one not
/// made, since "Connection reset" names the connection too; else other.
pub(crate) fn in_words(message: &str) -> Kind {
    let m = message.to_ascii_lowercase();
    let any = |words: &[&str]| words.iter().any(|w| m.contains(w));
    if any(&["timeout", "timed out", "expired"]) {
        Kind::Timeout
    } else if any(&["reset", "closed", "broken pipe", "aborted", "eof"]) {
        Kind::Closed
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
        Kind::Connect
    } else {
        Kind::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::document::failures::Failures;

    fn kind_of(message: &str) -> Failures {
        let mut f = Failures::default();
        f.add(in_words(message), 1);
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
