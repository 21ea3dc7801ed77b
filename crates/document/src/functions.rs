//! Where a counted probe's cost went, function by function.
//!
//! Callgrind counts per function anyway; a counted row keeps the functions
//! that make up most of its count, so that a verdict can say *where* a
//! count moved (see yardstick-judge's `attribution`) without a profiler run
//! by hand on another machine. The names are as valgrind demangled them,
//! with recursion levels (`f'2`) folded into `f`: instances of one generic
//! function that the symbol does not tell apart are one function here.
//!
//! Bounded, so a run stays small: the functions whose own cost covers
//! [`COVERED`] of the probe's, and those whose inclusive cost is at least
//! [`INCLUSIVE_SHARE`] of it (the spine of the call tree, where a change
//! made through callees shows), at most [`MAX_FUNCTIONS`]; the rest's own
//! costs are summed in [`Functions::other`]. The calls kept are those
//! between kept functions, the costliest [`MAX_CALLS`].

use crate::row::Counted;
use crate::run::Metric;
use serde::{Deserialize, Serialize};

/// The share of a probe's count the kept functions cover, at least.
pub const COVERED: f64 = 0.99;
/// The function the slowdown knob's share of a count is kept as (see
/// yardstick-measure's `inject`): what an injected slowdown is named by.
pub const INJECTED: &str = "yardstick::inject (YARDSTICK_INJECT)";

/// The least share of a probe's count a function's inclusive cost must
/// have to be kept for it alone.
pub const INCLUSIVE_SHARE: f64 = 0.005;
/// The most functions a row keeps.
pub const MAX_FUNCTIONS: usize = 200;
/// The most calls a row keeps.
pub const MAX_CALLS: usize = 400;

/// The functions of one counted probe, per iteration like the row's counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Functions {
    /// The functions kept, the costliest (by their own cost) first.
    pub top: Vec<Function>,
    /// The own cost of every function left out, summed.
    pub other: Counted,
    /// Calls from one kept function to another, the costliest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<Call>,
}

/// One function's cost in a probe.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Function {
    /// The name valgrind gave (demangled), or `0x…` where the binary has no
    /// symbol for it.
    pub name: String,
    /// The cost of its own instructions, callees left out: what moves when
    /// the function itself changes.
    #[serde(rename = "self")]
    pub own: Counted,
    /// Its cost with its callees'.
    pub inclusive: Counted,
}

/// Calls from one kept function to another.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Call {
    /// The caller, by its place in [`Functions::top`].
    pub caller: usize,
    /// The callee, by its place in [`Functions::top`].
    pub callee: usize,
    /// What the callee cost when called from here, its callees included.
    pub inclusive: Counted,
}

impl Functions {
    /// The function at `index` of [`Functions::top`], if there is one: a
    /// call read from a file may name any index.
    pub fn at(&self, index: usize) -> Option<&Function> {
        self.top.get(index)
    }
}

impl Counted {
    /// This cost in `metric`: instructions or estimated cycles; none for
    /// time, or where it was not counted.
    pub fn of(&self, metric: Metric) -> Option<f64> {
        match metric {
            Metric::Time => None,
            Metric::Instructions => self.instructions,
            Metric::EstimatedCycles => self.estimated_cycles,
        }
    }
}

/// Where a flagged count moved: what a counted check says beside its
/// verdict, so a failed run names the functions to look at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(tag = "kept", rename_all = "kebab-case")]
pub enum Attribution {
    /// Both runs kept their functions.
    Functions {
        /// The functions whose own cost moved most, the largest change
        /// first.
        moved: Vec<Moved>,
        /// The function whose call subtree holds nearly all of the change
        /// and is the smallest that does, by its inclusive counts: where
        /// a change made through callees (a copy, an allocation) starts.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        within: Option<Moved>,
        /// Judged by estimated cycles: how much the probe's instructions
        /// changed, in percent. Where the cycles moved and the
        /// instructions did not, the same work met the cache worse.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        instructions_pct: Option<f64>,
    },
    /// A run kept no functions (made before they were kept, or imported):
    /// the verdict stands without them.
    Unkept {
        /// Which: the baseline, the run, or both.
        side: Unkept,
    },
}

/// Which side of a comparison kept no functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Unkept {
    /// The baseline.
    Baseline,
    /// The run judged.
    Run,
    /// Neither kept any.
    Both,
}

/// One function whose own cost moved, per iteration, in the figure the
/// check judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Moved {
    /// The function, as [`Function::name`]; `other` for the functions
    /// neither run kept.
    pub name: String,
    /// Its own cost in the baseline (0: not kept there).
    pub baseline: f64,
    /// Its own cost in this run (0: not kept here).
    pub current: f64,
    /// Its share of the probe's change, in percent: above 100 where other
    /// functions moved the other way.
    pub share_pct: f64,
    /// Judged by estimated cycles: the change of its own instructions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions_change: Option<f64>,
    /// The caller through which its cost moved most, where both runs kept
    /// the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

impl Moved {
    /// How much its own cost grew (negative: shrank).
    pub fn change(&self) -> f64 {
        self.current - self.baseline
    }
}
