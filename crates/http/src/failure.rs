//! Why a request got no answer, in a few stable words: the messages are
//! counted per row (`Connection refused: 100`), so they must not carry
//! what varies from one request to the next (ports, addresses).

use std::error::Error as StdError;
use std::fmt;
use std::io;

/// A request that got no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure(pub(crate) String);

impl Failure {
    /// A failure in these words.
    pub(crate) fn new(message: impl Into<String>) -> Failure {
        Failure(message.into())
    }
}

/// The message of an interim or switching answer (`1xx`) taken for a page:
/// one wording for every client and tool, so their rows count it alike.
pub(crate) fn informational(status: u16) -> String {
    format!("HTTP {status}: an informational answer, not a page")
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
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
    let mut cause: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(err) = cause {
        if let Some(tls) = err.downcast_ref::<rustls::Error>() {
            return Failure(format!("TLS: {tls}"));
        }
        if let Some(io) = err.downcast_ref::<io::Error>() {
            if let Some(inner) = io.get_ref()
                && let Some(tls) = inner.downcast_ref::<rustls::Error>()
            {
                return Failure(format!("TLS: {tls}"));
            }
            if let Some(m) = io_kind(io.kind()) {
                return Failure(m.to_string());
            }
        }
        let text = err.to_string();
        if !text.is_empty() && !words.iter().any(|w: &String| w.contains(&text)) {
            words.push(text);
        }
        cause = err.source();
    }
    Failure(if words.is_empty() {
        "request failed".to_string()
    } else {
        words.join(": ")
    })
}

fn io_kind(kind: io::ErrorKind) -> Option<&'static str> {
    use io::ErrorKind::*;
    Some(match kind {
        ConnectionRefused => "Connection refused",
        ConnectionReset => "Connection reset",
        ConnectionAborted => "Connection aborted",
        BrokenPipe => "Broken pipe",
        TimedOut => "timeout",
        UnexpectedEof => "connection closed early",
        AddrNotAvailable => "address not available",
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
        assert_eq!(of_io(&refused).0, "Connection refused");
        let wrapped = Wrap("error trying to connect", refused);
        assert_eq!(of(&wrapped).0, "Connection refused");
        let tls = io::Error::new(
            io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer),
        );
        assert!(
            of_io(&tls).0.starts_with("TLS: invalid peer certificate"),
            "{}",
            of_io(&tls)
        );
        let other = Wrap("connection error", io::Error::other("weird"));
        assert_eq!(of(&other).0, "connection error: weird");
    }
}
