//! The verdict a run was delivered with, kept in the run, so that a script
//! (CI's gate, a dashboard) reads what the program decided instead of
//! deriving it again from the rows by rules of its own.

use serde::{Deserialize, Serialize};

/// The exit code of a delivered run, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct RunOutcome {
    /// The process's exit code: 0 passed (or information only), 1 a
    /// failure or a regression, 3 inconclusive (the machine ran too slow
    /// to judge).
    pub exit_code: i32,
    /// Whether something failed outright: a probe, a variant that
    /// disagrees with its reference, a matrix's cell, or too many
    /// requests. No machine excuses these, unlike a slowdown.
    pub broken: bool,
    /// The verdict's lines as printed: a FAIL line for each failure, then
    /// the closing line against the baseline, if there is one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
}
