//! The errors that stop a run before it can give a verdict. Each is one line
//! naming the file or option at fault, and exits with code 2; `--help` stops
//! a command the same way, with its text and exit code 0.

use crate::text::clean;
use std::fmt;

/// A usage error, bad input, or a refusal (exit code 2); or the help a
/// command was asked for (exit code 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A bad option or argument.
    Usage(String),
    /// A file that is missing, unreadable, not a run, or otherwise unusable.
    Input(String),
    /// A measurement that cannot be made: a probe past its timeout, a
    /// safety cap, a missing tool.
    Refused(String),
    /// Not a failure: `--help` or `-h` asked for this command's help. The
    /// parser stops there, as at an error, so nothing runs and no other
    /// option is checked (clap models its help the same way); the text goes
    /// to stdout and the exit code is 0.
    Help(&'static str),
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

    /// Refuses a binary into which `linked` (more than one) of a kind found
    /// through `inventory` are linked: which one `acts` would otherwise be
    /// left to the order of linking. `what` names the kind and a crate
    /// that offers one.
    pub fn linked_once(linked: usize, what: &str, acts: &str) -> Result<(), Error> {
        if linked <= 1 {
            return Ok(());
        }
        Err(Error::usage(format!(
            "{linked} {what} are linked into this binary, and which {acts} would be left \
             to the linker: link one"
        )))
    }

    /// The process exit code for this error: 0 for help, else 2.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Help(_) => 0,
            _ => 2,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Messages quote file contents, names and servers' words: one
        // line, whatever they hold.
        match self {
            Error::Usage(m) | Error::Input(m) => write!(f, "error: {}", clean(m)),
            Error::Refused(m) => write!(f, "REFUSED: {}", clean(m)),
            // Our own text, several lines: not cleaned.
            Error::Help(text) => f.write_str(text.trim_end()),
        }
    }
}

impl std::error::Error for Error {}

impl From<lexopt::Error> for Error {
    fn from(e: lexopt::Error) -> Error {
        Error::Usage(e.to_string())
    }
}
