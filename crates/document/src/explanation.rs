//! Why a timed run regressed, by counts (`--explain`): the regressed
//! probes counted under callgrind and judged against the committed count
//! baseline of this set-up, with the functions that moved; or why they
//! could not be. A count that did not move is a finding too: the slowdown
//! is then not in the work but in the memory system, contention or the
//! machine.

use crate::comparison::Comparison;
use serde::{Deserialize, Serialize};

/// What `--explain` found for a timed run's regressions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum Explanation {
    /// The regressed probes' counts against the count baseline, every
    /// check listed, moved or not.
    Counts {
        /// The comparison of the counts.
        comparison: Box<Comparison>,
    },
    /// Nothing was counted, and why (no valgrind, no count baseline of
    /// this set-up).
    Uncounted {
        /// Why, in a line.
        why: String,
    },
}
