//! One check of a comparison: one figure of one row, baseline against now,
//! and its typed verdict.
//!
//! Saved runs predate the typed verdict: a check is stored as the flags
//! `regressed` and `inconclusive`, and its figure and method as strings.
//! `CheckRecord` is that stored shape, so format 1 stays byte for byte
//! what it was; the reason a check is inconclusive is not stored, and is
//! read back from the figures that only that reason leaves (see
//! [`Reason`]).

use crate::functions::Attribution;
use serde::{Deserialize, Serialize};

/// The verdict on one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Within the threshold.
    Ok,
    /// Worse by more than the threshold: a regression.
    Regressed,
    /// Worse by more than the threshold, but without a verdict. Never
    /// counted as a regression.
    Inconclusive(Reason),
}

/// Why a check over the threshold has no verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Measured again, interleaved with the calibration loop, the slowdown
    /// did not show (the check has a `confirmation_pct`).
    Unconfirmed,
    /// compare-builds: the worker pairs disagree, the signed-rank test
    /// finds no significance (the check has a `p_value`).
    PairsDisagree,
    /// The machine cannot judge wall time here: it ran too slow against the
    /// baseline's calibration, or it is of another machine class. The
    /// comparison's notes say which.
    Machine,
}

impl Verdict {
    /// Regressed when `worse`, else ok.
    pub fn of(worse: bool) -> Verdict {
        if worse {
            Verdict::Regressed
        } else {
            Verdict::Ok
        }
    }

    /// The word a report shows.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Regressed => "REGRESSED",
            Verdict::Inconclusive(_) => "inconclusive",
        }
    }

    /// The word, and for a verdict withheld, why: what a page has room
    /// for and a terminal's table has not.
    pub fn explained(self) -> String {
        match self {
            Verdict::Inconclusive(reason) => format!("inconclusive: {}", reason.why()),
            other => other.word().to_string(),
        }
    }
}

impl Reason {
    /// Why the verdict was withheld, in a few words.
    pub fn why(self) -> &'static str {
        match self {
            Reason::Unconfirmed => "measured again, beside the calibration loop, it did not show",
            Reason::PairsDisagree => "the pairs of rounds disagree (no significance)",
            Reason::Machine => "this machine cannot judge the baseline's wall time",
        }
    }
}

/// Which figure of a row a check compares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(from = "String", into = "String")]
pub enum Figure {
    /// Micro, timed: the median of the per-round ratios to the calibration
    /// loop.
    MedianPerCalibration,
    /// Failed samples or requests.
    Errors,
    /// Instructions per iteration.
    Instructions,
    /// Estimated cycles per iteration.
    EstimatedCycles,
    /// compare-builds: the median of the worker pairs' ratios.
    PairedMedianRatio,
    /// HTTP: the median time.
    Median,
    /// HTTP: the 95th percentile.
    P95,
    /// HTTP: requests per second (lower is worse).
    Rps,
    /// HTTP: failed requests in percent (a change in points).
    ErrorRate,
    /// Allocations per iteration (judged on any machine).
    Allocs,
    /// Kernel mode: a process probe's `boot` or `process` median divided by
    /// the floor's (the empty child's) in the same run.
    MedianPerFloor,
    /// A figure this version does not know, read from a newer run.
    Other(String),
}

impl Figure {
    /// The name the run document and reports use.
    pub fn as_str(&self) -> &str {
        match self {
            Figure::MedianPerCalibration => "median/calib",
            Figure::Errors => "errors",
            Figure::Instructions => "instructions",
            Figure::EstimatedCycles => "estimated-cycles",
            Figure::PairedMedianRatio => "paired median ratio",
            Figure::Median => "median",
            Figure::P95 => "p95",
            Figure::Rps => "rps",
            Figure::ErrorRate => "error_rate",
            Figure::Allocs => "allocs",
            Figure::MedianPerFloor => "median/floor",
            Figure::Other(name) => name,
        }
    }

    /// A wall-time figure, which belongs to a machine (see
    /// `judge::machine`).
    pub fn is_time(&self) -> bool {
        matches!(
            self,
            Figure::MedianPerCalibration
                | Figure::Median
                | Figure::P95
                | Figure::Rps
                | Figure::MedianPerFloor
        )
    }

    /// A count, which belongs to no machine.
    pub fn is_count(&self) -> bool {
        matches!(
            self,
            Figure::Instructions | Figure::EstimatedCycles | Figure::Allocs
        )
    }
}

impl From<String> for Figure {
    fn from(name: String) -> Figure {
        const KNOWN: [Figure; 11] = [
            Figure::MedianPerCalibration,
            Figure::Errors,
            Figure::Instructions,
            Figure::EstimatedCycles,
            Figure::PairedMedianRatio,
            Figure::Median,
            Figure::P95,
            Figure::Rps,
            Figure::ErrorRate,
            Figure::Allocs,
            Figure::MedianPerFloor,
        ];
        KNOWN
            .into_iter()
            .find(|f| f.as_str() == name)
            .unwrap_or(Figure::Other(name))
    }
}

impl From<Figure> for String {
    fn from(figure: Figure) -> String {
        figure.as_str().to_string()
    }
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One figure of one row, baseline against now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(from = "CheckRecord", into = "CheckRecord")]
pub struct Check {
    /// The row's key.
    pub key: String,
    /// What was compared.
    pub metric: Figure,
    /// The baseline's figure.
    pub baseline: f64,
    /// This run's figure.
    pub current: f64,
    /// Change in percent (percentage points for rates); positive is worse
    /// for times and errors, negative is worse for `rps`.
    pub change_pct: f64,
    /// The verdict.
    pub verdict: Verdict,
    /// Paired comparisons: the one-sided p-value that the row got slower.
    pub p_value: Option<f64>,
    /// Micro runs against a baseline: the change found when a flagged probe
    /// was measured again, interleaved with the calibration loop.
    pub confirmation_pct: Option<f64>,
    /// Paired comparisons: each round both builds measured, the evidence
    /// the p-value was drawn from, kept so that a report can show it.
    pub rounds: Vec<PairedRound>,
    /// The threshold this check was judged by and where it came from, where
    /// a probe can have one of its own (micro wall time); elsewhere the
    /// comparison's threshold.
    pub threshold: Option<Threshold>,
    /// Counted checks that did not pass: the functions that moved.
    pub attribution: Option<Attribution>,
}

/// The threshold one check was judged by, and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Threshold {
    /// Percent.
    pub percent: f64,
    /// Where it came from.
    #[serde(flatten)]
    pub basis: Basis,
}

/// Where a check's threshold came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(tag = "basis", rename_all = "lowercase")]
pub enum Basis {
    /// Learned from the spread of this many runs of the machine class (the
    /// baseline's thresholds).
    Learned {
        /// The runs.
        runs: usize,
    },
    /// The method's default: the baseline has no threshold for the probe,
    /// learned from this many runs (too few) when it says.
    Default {
        /// The runs the baseline's thresholds were learned from.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        runs: Option<usize>,
    },
    /// Given on the command line (`--threshold`), which wins over all.
    Given,
}

impl std::fmt::Display for Threshold {
    /// `9.1 % (41 runs of this class)`, `30 % (default: 3 runs)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let percent = if self.percent.fract() == 0.0 {
            format!("{}", self.percent)
        } else {
            format!("{:.1}", self.percent)
        };
        match self.basis {
            Basis::Learned { runs } => write!(f, "{percent} % ({runs} runs of this class)"),
            Basis::Default { runs: Some(runs) } => {
                let s = if runs == 1 { "" } else { "s" };
                write!(f, "{percent} % (default: {runs} run{s})")
            }
            Basis::Default { runs: None } => write!(f, "{percent} % (default)"),
            Basis::Given => write!(f, "{percent} % (--threshold)"),
        }
    }
}

/// One round of a paired comparison: both builds' figures for one row,
/// taken back to back by one pair of workers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct PairedRound {
    /// The worker pair that ran the round, from 0: the rounds of one pair
    /// make one piece of evidence.
    pub pair: usize,
    /// The round's number in the whole comparison, from 1.
    pub round: usize,
    /// The old build's figure: the median of its block of samples.
    pub baseline: f64,
    /// The new build's figure.
    pub current: f64,
}

impl Check {
    /// A check with no paired or confirmation figures.
    pub fn new(
        key: &str,
        metric: Figure,
        baseline: f64,
        current: f64,
        change_pct: f64,
        verdict: Verdict,
    ) -> Check {
        Check {
            key: key.to_string(),
            metric,
            baseline,
            current,
            change_pct,
            verdict,
            p_value: None,
            confirmation_pct: None,
            rounds: Vec::new(),
            threshold: None,
            attribution: None,
        }
    }

    /// True for a regression.
    pub fn regressed(&self) -> bool {
        self.verdict == Verdict::Regressed
    }

    /// True when over the threshold but without a verdict.
    pub fn inconclusive(&self) -> bool {
        matches!(self.verdict, Verdict::Inconclusive(_))
    }
}

/// A check as format 1 stores it: one figure of one row, baseline against
/// now. Its field docs are the schema's words for readers of a saved run.
#[derive(Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
struct CheckRecord {
    /// The row's key.
    key: String,
    /// The figure compared.
    metric: Figure,
    /// The baseline's figure.
    baseline: f64,
    /// This run's figure.
    current: f64,
    /// The change in percent (percentage points for rates); positive is
    /// worse for times and errors, negative for requests per second.
    change_pct: f64,
    /// Whether the figure regressed: over the threshold, and confirmed
    /// where a confirmation was made.
    regressed: bool,
    /// Paired comparisons: the one-sided p-value that the row got slower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, schemars(range(min = 0.0, max = 1.0)))]
    p_value: Option<f64>,
    /// Over the threshold, but without a verdict (the machine ran slow, or
    /// the confirmation disagreed): not a regression.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    inconclusive: bool,
    /// Micro runs against a baseline: the change found when a flagged
    /// probe was measured again, interleaved with the calibration loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    confirmation_pct: Option<f64>,
    /// Paired comparisons: each round both builds measured, the evidence
    /// the p-value was drawn from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    rounds: Vec<PairedRound>,
    /// The threshold this check was judged by and where it came from,
    /// where a probe can have one of its own; elsewhere the comparison's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    threshold: Option<Threshold>,
    /// Counted checks that did not pass: the functions whose own count
    /// moved most, or which side kept none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    attribution: Option<Attribution>,
}

impl From<CheckRecord> for Check {
    fn from(r: CheckRecord) -> Check {
        // Each reason leaves its own figure; a regression wins over a flag
        // a hand-edited file might also set.
        let verdict = match (r.regressed, r.inconclusive) {
            (true, _) => Verdict::Regressed,
            (false, false) => Verdict::Ok,
            (false, true) if r.confirmation_pct.is_some() => {
                Verdict::Inconclusive(Reason::Unconfirmed)
            }
            (false, true) if r.p_value.is_some() => Verdict::Inconclusive(Reason::PairsDisagree),
            (false, true) => Verdict::Inconclusive(Reason::Machine),
        };
        Check {
            key: r.key,
            metric: r.metric,
            baseline: r.baseline,
            current: r.current,
            change_pct: r.change_pct,
            verdict,
            p_value: r.p_value,
            confirmation_pct: r.confirmation_pct,
            rounds: r.rounds,
            threshold: r.threshold,
            attribution: r.attribution,
        }
    }
}

impl From<Check> for CheckRecord {
    fn from(c: Check) -> CheckRecord {
        CheckRecord {
            regressed: c.regressed(),
            inconclusive: c.inconclusive(),
            key: c.key,
            metric: c.metric,
            baseline: c.baseline,
            current: c.current,
            change_pct: c.change_pct,
            p_value: c.p_value,
            confirmation_pct: c.confirmation_pct,
            rounds: c.rounds,
            threshold: c.threshold,
            attribution: c.attribution,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> (Check, String) {
        let check: Check = serde_json::from_str(text).unwrap();
        let again = serde_json::to_string(&check).unwrap();
        (check, again)
    }

    #[test]
    fn every_stored_shape_reads_back_to_its_verdict_and_writes_the_same_bytes() {
        let cases = [
            (
                r#"{"key":"a","metric":"median/calib","baseline":1.0,"current":1.5,"change_pct":50.0,"regressed":true}"#,
                Verdict::Regressed,
            ),
            (
                r#"{"key":"a","metric":"median","baseline":1.0,"current":1.0,"change_pct":0.0,"regressed":false}"#,
                Verdict::Ok,
            ),
            (
                r#"{"key":"a","metric":"median/calib","baseline":1.0,"current":1.5,"change_pct":50.0,"regressed":false,"inconclusive":true,"confirmation_pct":1.0}"#,
                Verdict::Inconclusive(Reason::Unconfirmed),
            ),
            (
                r#"{"key":"a","metric":"paired median ratio","baseline":1.0,"current":1.5,"change_pct":50.0,"regressed":false,"p_value":0.2,"inconclusive":true}"#,
                Verdict::Inconclusive(Reason::PairsDisagree),
            ),
            (
                r#"{"key":"a","metric":"p95","baseline":1.0,"current":1.5,"change_pct":50.0,"regressed":false,"inconclusive":true}"#,
                Verdict::Inconclusive(Reason::Machine),
            ),
        ];
        for (text, verdict) in cases {
            let (check, again) = round_trip(text);
            assert_eq!(check.verdict, verdict, "{text}");
            assert_eq!(again, text);
        }
    }

    #[test]
    fn a_figure_of_a_newer_version_is_kept_by_name() {
        let (check, again) = round_trip(
            r#"{"key":"a","metric":"allocations","baseline":1.0,"current":1.0,"change_pct":0.0,"regressed":false}"#,
        );
        assert_eq!(check.metric, Figure::Other("allocations".into()));
        assert!(again.contains(r#""metric":"allocations""#));
        for name in [
            "median/calib",
            "errors",
            "instructions",
            "estimated-cycles",
            "rps",
        ] {
            assert_eq!(Figure::from(name.to_string()).as_str(), name);
            assert!(!matches!(Figure::from(name.to_string()), Figure::Other(_)));
        }
    }
}
