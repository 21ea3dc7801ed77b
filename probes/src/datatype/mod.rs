//! Form datatype validation: whether what an editor posted for one content
//! attribute may be stored.
//!
//! Every check answers with a [`Verdict`], and every verdict carries a
//! message ([`Verdict::text`]): an invalid one names the rule that failed,
//! because the edit form shows it next to the field and "invalid" alone
//! leaves the editor guessing; a valid one says so in the same words the
//! form would show.
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
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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

    /// The message the form shows for this verdict, valid or not.
    pub fn text(&self) -> &str {
        match self {
            Verdict::Valid => VALID,
            Verdict::Invalid(message) => message,
        }
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
            Verdict::Valid => f.write_str(VALID),
            Verdict::Invalid(message) => write!(f, "invalid: {message}"),
        }
    }
}

/// The message of a valid verdict.
pub const VALID: &str = "Input accepted";

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verdict_carries_a_message() {
        assert_eq!(Verdict::Valid.text(), VALID);
        assert_eq!(
            Verdict::invalid("Required field is empty").text(),
            "Required field is empty"
        );
        assert_eq!(Verdict::Valid.to_string(), VALID);
        assert_eq!(Verdict::invalid("x").to_string(), "invalid: x");
    }
}
