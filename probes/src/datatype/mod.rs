//! Form datatype validation: whether what an editor posted for one content
//! attribute may be stored.
//!
//! Every check answers with a [`Verdict`]; an invalid one always carries a
//! message naming the rule that failed, because the edit form shows it next
//! to the field and "invalid" alone leaves the editor guessing.
//!
//! - [`number`]: integer and float inputs, integer class settings.
//! - [`text`]: text lines and e-mail addresses.
//! - [`date`]: calendar dates.
//! - [`form`]: posted field names and validating a posted form.

pub mod date;
pub mod form;
pub mod number;
mod probe;
pub mod text;

pub use form::{Attribute, Datatype, PostedForm, posted_field};

use std::fmt;

/// The outcome of validating one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Valid,
    /// The human message names the rule ("The input must be between 1 and
    /// 1000").
    Invalid(String),
}

impl Verdict {
    pub fn is_valid(&self) -> bool {
        matches!(self, Verdict::Valid)
    }

    /// The message of an invalid verdict.
    pub fn message(&self) -> Option<&str> {
        match self {
            Verdict::Valid => None,
            Verdict::Invalid(message) => Some(message),
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Verdict::Invalid(message.into())
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Valid => f.write_str("valid"),
            Verdict::Invalid(message) => write!(f, "invalid: {message}"),
        }
    }
}

/// The message for a required input left empty.
pub const REQUIRED_EMPTY: &str = "Required field is empty";
/// The message for a required input the form did not post at all.
pub const REQUIRED_MISSING: &str = "Required field is missing";

/// Shared by every single-field datatype: what an empty input means.
pub(crate) fn empty_input(required: bool) -> Verdict {
    if required {
        Verdict::invalid(REQUIRED_EMPTY)
    } else {
        Verdict::Valid
    }
}
