//! Why a request got no answer, in a few stable words: the messages are
//! counted per row (`Connection refused: 100`), so they must not carry
//! what varies from one request to the next (ports, addresses).

use std::error::Error as StdError;
use std::fmt;
use std::io;

/// A request that got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// What failed, as the row counts it apart.
    pub(crate) kind: Kind,
    /// Why, in stable words.
    pub(crate) message: String,
}

/// What failed, as a row counts it apart. A refused connection is a
/// server out of room; a connection closed under a request is one it
/// dropped; a timeout is one it kept waiting. A failure here is never
/// `Http`: an error page is an answer, counted by its status.
pub(crate) use crate::document::failures::Kind;

impl Failure {
    /// A failure in these words, of no kind of its own.
    pub(crate) fn new(message: impl Into<String>) -> Failure {
        Failure::of(Kind::Other, message)
    }

    /// A failure of `kind` in these words.
    fn of(kind: Kind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
        }
    }

    /// A connection closed or reset under the request.
    pub(crate) fn closed(message: impl Into<String>) -> Failure {
        Failure::of(Kind::Closed, message)
    }

    /// No answer in time.
    pub(crate) fn timeout(message: impl Into<String>) -> Failure {
        Failure::of(Kind::Timeout, message)
    }

    /// The same failure, met while opening the connection: the request
    /// never reached the server. A connection the server reset or closed
    /// as it was opened (it accepted, then dropped it) stays closed, as its
    /// words say.
    pub(crate) fn at_connect(self) -> Failure {
        match self.kind {
            Kind::Closed | Kind::Timeout | Kind::Http => self,
            Kind::Connect | Kind::Other => Failure {
                kind: Kind::Connect,
                ..self
            },
        }
    }

    /// Whether the connection is what failed: the slot opens a new one,
    /// after a pause if the server answers other slots meanwhile.
    pub(crate) fn lost_the_connection(&self) -> bool {
        matches!(self.kind, Kind::Connect | Kind::Closed)
    }
}

/// The message of an interim or switching answer (`1xx`) taken for a page:
/// one wording for every client and tool, so their rows count it alike.
pub(crate) fn informational(status: u16) -> String {
    format!("HTTP {status}: an informational answer, not a page")
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The failure an I/O error stands for.
pub(crate) fn of_io(e: &io::Error) -> Failure {
    of(e)
}

/// The failure an error stands for: the first cause along its chain that
/// says something stable (a refused or reset connection, a TLS alert),
/// else the chain's own words.
pub(crate) fn of(e: &(dyn StdError + 'static)) -> Failure {
    let mut words = Vec::new();
    let mut kind = Kind::Other;
    let mut cause: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(err) = cause {
        // hyper says a connection closed in its own error, without an I/O
        // cause to read.
        if let Some(h) = err.downcast_ref::<hyper::Error>()
            && (h.is_closed() || h.is_incomplete_message() || h.is_canceled())
        {
            kind = Kind::Closed;
        }
        if let Some(tls) = err.downcast_ref::<rustls::Error>() {
            return Failure::new(format!("TLS: {tls}"));
        }
        if let Some(io) = err.downcast_ref::<io::Error>() {
            if let Some(inner) = io.get_ref()
                && let Some(tls) = inner.downcast_ref::<rustls::Error>()
            {
                return Failure::new(format!("TLS: {tls}"));
            }
            if let Some((kind, m)) = io_kind(io.kind()) {
                return Failure::of(kind, m);
            }
        }
        let text = err.to_string();
        if !text.is_empty() && !words.iter().any(|w: &String| w.contains(&text)) {
            words.push(text);
        }
        cause = err.source();
    }
    if words.is_empty() {
        Failure::of(kind, "request failed")
    } else {
        Failure::of(kind, words.join(": "))
    }
}

/// The kind and the words of an I/O error's kind, where they are stable.
fn io_kind(kind: io::ErrorKind) -> Option<(Kind, &'static str)> {
    use io::ErrorKind::*;
    Some(match kind {
        ConnectionRefused => (Kind::Connect, "Connection refused"),
        AddrNotAvailable => (Kind::Connect, "address not available"),
        ConnectionReset => (Kind::Closed, "Connection reset"),
        ConnectionAborted => (Kind::Closed, "Connection aborted"),
        BrokenPipe => (Kind::Closed, "Broken pipe"),
        UnexpectedEof => (Kind::Closed, "connection closed early"),
        TimedOut => (Kind::Timeout, "timeout"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Wrap(&'static str, io::Error);
    impl fmt::Display for Wrap {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }
    impl StdError for Wrap {
        fn source(&self) -> Option<&(dyn StdError + 'static)> {
            Some(&self.1)
        }
    }

    #[test]
    fn stable_words_for_common_causes() {
        let refused = io::Error::new(io::ErrorKind::ConnectionRefused, "os error 111 on port 9");
        assert_eq!(of_io(&refused).message, "Connection refused");
        assert_eq!(of_io(&refused).kind, Kind::Connect);
        let wrapped = Wrap("error trying to connect", refused);
        assert_eq!(of(&wrapped).message, "Connection refused");
        let tls = io::Error::new(
            io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
        );
        assert!(
            of_io(&tls)
                .message
                .starts_with("TLS: invalid peer certificate"),
            "{}",
            of_io(&tls)
        );
        let other = Wrap("connection error", io::Error::other("weird"));
        assert_eq!(of(&other).message, "connection error: weird");
        assert_eq!(of(&other).kind, Kind::Other);
        let reset = io::Error::new(io::ErrorKind::ConnectionReset, "by peer");
        assert_eq!(of_io(&reset).kind, Kind::Closed);
        assert_eq!(of_io(&reset).at_connect().kind, Kind::Closed);
        assert_eq!(Failure::new("TLS: bad").at_connect().kind, Kind::Connect);
    }
}
