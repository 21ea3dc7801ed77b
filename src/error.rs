//! The errors that stop a run before it can give a verdict. Each is one line
//! naming the file or option at fault, and exits with code 2.

use crate::text::clean;
use std::fmt;

/// A usage error, bad input, or a refusal; always exit code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A bad option or argument.
    Usage(String),
    /// A file that is missing, unreadable, not a run, or otherwise unusable.
    Input(String),
    /// A measurement that cannot be made: a probe past its timeout, a
    /// safety cap, a missing tool.
    Refused(String),
}

impl Error {
    /// A command line that asks for something impossible.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }

    /// A file or input that cannot be used.
    pub fn input(message: impl Into<String>) -> Error {
        Error::Input(message.into())
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> i32 {
        2
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Messages quote file contents, names and servers' words: one
        // line, whatever they hold.
        match self {
            Error::Usage(m) | Error::Input(m) => write!(f, "error: {}", clean(m)),
            Error::Refused(m) => write!(f, "REFUSED: {}", clean(m)),
        }
    }
}

impl std::error::Error for Error {}

impl From<lexopt::Error> for Error {
    fn from(e: lexopt::Error) -> Error {
        Error::Usage(e.to_string())
    }
}
