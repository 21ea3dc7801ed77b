//! The Comparison document: the verdict of one run against a baseline.
//!
//! The rules that produce it live in `compare/`, one file per mode; this is
//! only the data, shared by every renderer.

use serde::{Deserialize, Serialize};

/// A run compared with a baseline.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Comparison {
    /// The baseline file, as named.
    pub baseline: String,
    /// `normalized` (micro: medians divided by each run's calibration),
    /// `instructions` (micro: instruction counts), `paired` (two builds
    /// measured in alternating rounds) or `http` (absolute times with a
    /// minimum delta).
    pub method: String,
    /// Percent a figure may worsen before it counts as a regression.
    pub threshold: f64,
    /// HTTP: milliseconds a time must also grow by to count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_delta: Option<f64>,
    /// How many checks regressed.
    pub regressions: usize,
    /// Every check made, regressed or not.
    pub checks: Vec<Check>,
    /// Rows of the baseline the run did not measure: listed, not counted.
    pub missing: Vec<String>,
    /// Rows the baseline does not have: listed, not counted.
    pub new: Vec<String>,
    /// Set-up differences that move numbers (rustc, profile, target, ...).
    pub environment_differences: Vec<EnvironmentDifference>,
    /// Micro: the two calibration medians and the speed factor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<CalibrationRatio>,
    /// Wall-time comparisons whose runs are of different machine classes
    /// (or either of unknown class): both machines, and whether the times
    /// were judged all the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machines: Option<MachineMismatch>,
    /// Why this baseline was the one compared with, when yardstick chose it
    /// (`cargo bench`): a committed baseline of this machine class, or the
    /// last run on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<String>,
    /// Counts: the set-up fields that differ from the baseline's (see
    /// `counts::setup`); when any does, the comparison is information.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup_differences: Vec<EnvironmentDifference>,
    /// Given as information: regressions are shown but do not fail the run
    /// (a comparison with the last run on this machine rather than with a
    /// committed baseline, or of counts made with another set-up).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub informational: bool,
}

impl Comparison {
    /// True when anything regressed and the comparison is a verdict, not
    /// information.
    pub fn failed(&self) -> bool {
        self.regressions > 0 && !self.informational
    }

    /// Why the times were not judged, or were judged only because asked,
    /// when the runs are of different machine classes.
    pub fn machine_note(&self) -> Option<String> {
        let m = self.machines.as_ref()?;
        let unknown = "unknown";
        let machines = if m.baseline_class == unknown && m.current_class == unknown {
            format!(
                "the machine class of both runs is unknown ({}; {})",
                m.baseline_cpu, m.current_cpu
            )
        } else {
            format!(
                "the baseline was made on machine class {} ({}), this run on {} ({})",
                m.baseline_class, m.baseline_cpu, m.current_class, m.current_cpu
            )
        };
        let record = if m.current_class == unknown {
            "no baseline can be recorded for a machine of unknown class".to_string()
        } else {
            format!(
                "record one for this class: pool five runs saved with --no-baseline --save=FILE \
                 by yardstick baseline FILE... --output=baselines/<bench>/{}.json",
                m.current_class
            )
        };
        Some(match m.judged {
            Judged::No => format!(
                "{machines}: wall time does not transfer between machine classes (another CPU \
                 moves each probe by another factor), so no time is judged and the changes are \
                 information; {record}, or compare with --cross-machine to judge anyway"
            ),
            Judged::CrossMachine => {
                format!("{machines}: judged anyway (--cross-machine); expect false alarms")
            }
            Judged::NotLoopback => format!(
                "{machines}: judged, since the pages were not all served on this machine's \
                 loopback (the network and the server's machine decide their times)"
            ),
        })
    }

    /// Why counts were not judged, when their set-ups differ.
    pub fn setup_note(&self) -> Option<String> {
        if self.setup_differences.is_empty() {
            return None;
        }
        let differences: Vec<_> = self
            .setup_differences
            .iter()
            .map(|d| (d.field.clone(), d.baseline.clone(), d.current.clone()))
            .collect();
        Some(format!(
            "the counts were made with another set-up ({}): a compiler, valgrind or batch of \
             its own moves counts by itself, so the changes are information, not a verdict",
            crate::judge::setup::describe(&differences)
        ))
    }

    /// The rows over the threshold that were not judged because the machine
    /// ran too slow (see [`CalibrationRatio::too_slow`]); empty otherwise.
    pub fn too_slow_to_judge(&self) -> Vec<&str> {
        if !self.calibration.as_ref().is_some_and(|c| c.too_slow()) {
            return Vec::new();
        }
        self.checks
            .iter()
            .filter(|k| k.inconclusive)
            .map(|k| k.key.as_str())
            .collect()
    }

    /// Why nothing over the threshold was judged, when the machine ran too
    /// slow for it.
    pub fn too_slow_note(&self) -> Option<String> {
        let cal = self.calibration.as_ref().filter(|c| c.too_slow())?;
        let unjudged = self.too_slow_to_judge();
        Some(format!(
            "the calibration loop ran {:.1} % slower than in the baseline, more than \
             --max-machine-slowdown ({} %): under load that heavy the probes do not slow down \
             in proportion to the loop, so a probe over the threshold is inconclusive{}",
            cal.slowdown_pct(),
            cal.max_slowdown.unwrap_or_default(),
            if unjudged.is_empty() {
                String::new()
            } else {
                format!(" ({})", unjudged.join(", "))
            }
        ))
    }
}

/// One figure of one row, baseline against now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    pub key: String,
    /// What was compared: `median/calib`, `errors`, `median`, `p95`, `rps`,
    /// `error_rate`.
    pub metric: String,
    pub baseline: f64,
    pub current: f64,
    /// Change in percent (percentage points for rates); positive is worse
    /// for times and errors, negative is worse for `rps`.
    pub change_pct: f64,
    pub regressed: bool,
    /// Paired comparisons: the one-sided p-value that the row got slower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_value: Option<f64>,
    /// Slower by more than the threshold, but without a verdict: the paired
    /// comparison's worker pairs disagree, the confirmation did not see it
    /// again, or the machine ran too slow to judge (see
    /// [`CalibrationRatio::too_slow`]). Never counted as a regression.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inconclusive: bool,
    /// Micro runs against a baseline: the change found when a flagged probe
    /// was measured again, interleaved with the calibration loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmation_pct: Option<f64>,
}

impl Check {
    /// The word a report shows for the verdict.
    pub fn verdict_word(&self) -> &'static str {
        if self.regressed {
            "REGRESSED"
        } else if self.inconclusive {
            "inconclusive"
        } else {
            "ok"
        }
    }

    /// A check with no paired or confirmation figures.
    pub fn new(
        key: &str,
        metric: &str,
        baseline: f64,
        current: f64,
        change_pct: f64,
        regressed: bool,
    ) -> Check {
        Check {
            key: key.to_string(),
            metric: metric.to_string(),
            baseline,
            current,
            change_pct,
            regressed,
            p_value: None,
            inconclusive: false,
            confirmation_pct: None,
        }
    }
}

/// A set-up field that differs between the baseline and the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnvironmentDifference {
    pub field: String,
    pub baseline: String,
    pub current: String,
}

/// The calibration medians of both runs (ms) and how fast this machine is
/// relative to the baseline's: baseline / current (0.5 = half as fast).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationRatio {
    pub baseline: f64,
    pub current: f64,
    pub speed: f64,
    /// Percent the loop may run slower than in the baseline before a probe
    /// over the threshold is inconclusive instead of regressed: under load
    /// that heavy, probes no longer slow down in proportion to the loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_slowdown: Option<f64>,
}

impl CalibrationRatio {
    /// Percent the loop ran slower than in the baseline (negative: faster).
    pub fn slowdown_pct(&self) -> f64 {
        (self.current / self.baseline - 1.0) * 100.0
    }

    /// True when the machine ran too much slower than the baseline's for a
    /// normalised change to be judged. Compared as a product, so a loop
    /// exactly at the limit is judged.
    pub fn too_slow(&self) -> bool {
        self.max_slowdown
            .is_some_and(|limit| self.current > self.baseline * (1.0 + limit / 100.0))
    }
}

/// The machine classes of a wall-time comparison's two runs, when they
/// differ (see [`crate::document::environment::Cpu::class`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MachineMismatch {
    /// The baseline's class, `unknown` when it has none.
    pub baseline_class: String,
    pub current_class: String,
    /// Each machine's processor in a few words.
    pub baseline_cpu: String,
    pub current_cpu: String,
    pub judged: Judged,
}

/// Whether the times of runs of different machine classes were judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Judged {
    /// No verdict: the changes are information.
    No,
    /// Judged by the plain rule because `--cross-machine` asked for it.
    CrossMachine,
    /// Judged: HTTP targets off loopback, whose times are not this
    /// machine's alone.
    NotLoopback,
}
