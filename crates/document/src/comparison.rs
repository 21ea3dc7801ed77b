//! The Comparison document: the verdict of one run against a baseline.
//!
//! The rules that produce it live in `judge/`, one file per method; this is
//! only the data, shared by every renderer.

pub use super::check::{Check, Figure, PairedRound, Reason, Verdict};
use serde::ser::{SerializeStruct, Serializer};
use serde::{Deserialize, Serialize};

/// A run compared with a baseline.
///
/// Stored with a `regressions` count, which [`Comparison::regressions`]
/// computes from the checks, so the two never disagree.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[cfg_attr(
    test,
    derive(schemars::JsonSchema),
    schemars(transform = regressions_written)
)]
pub struct Comparison {
    /// The baseline file, as named.
    pub baseline: String,
    /// How the runs were judged.
    pub method: Method,
    /// Percent a figure may worsen before it counts as a regression.
    #[cfg_attr(test, schemars(extend("exclusiveMinimum" = 0)))]
    pub threshold: f64,
    /// HTTP: milliseconds a time must also grow by to count.
    #[serde(default)]
    pub min_delta: Option<f64>,
    /// Every check made, regressed or not.
    pub checks: Vec<Check>,
    /// Rows of the baseline the run did not measure: listed, not counted.
    pub missing: Vec<String>,
    /// Rows the baseline does not have: listed, not counted.
    pub new: Vec<String>,
    /// Set-up differences that move numbers (rustc, profile, target, ...).
    pub environment_differences: Vec<EnvironmentDifference>,
    /// Micro: the two calibration medians and the speed factor.
    #[serde(default)]
    pub calibration: Option<CalibrationRatio>,
    /// Wall-time comparisons whose runs are of different machine classes
    /// (or either of unknown class): both machines, and whether the times
    /// were judged all the same.
    #[serde(default)]
    pub machines: Option<MachineMismatch>,
    /// Runs made by different tools (an imported run against yardstick's,
    /// see [`crate::import`]): both tools, and whether the runs
    /// were judged all the same (`--cross-tool`).
    #[serde(default)]
    pub tools: Option<ToolMismatch>,
    /// Why this baseline was the one compared with, when yardstick chose it
    /// (`cargo bench`): a committed baseline of this machine class, or the
    /// last run on it.
    #[serde(default)]
    pub basis: Option<String>,
    /// Counts: the set-up fields that differ from the baseline's (see
    /// `counts::setup`); when any does, the comparison is information.
    #[serde(default)]
    pub setup_differences: Vec<EnvironmentDifference>,
    /// The bench's own parameters (`--node`) whose values differ from the
    /// baseline's: the probes did other work, so the comparison is
    /// information (see `yardstick_probe::param`).
    #[serde(default)]
    pub param_differences: Vec<EnvironmentDifference>,
    /// Given as information: regressions are shown but do not fail the run
    /// (a comparison with the last run on this machine rather than with a
    /// committed baseline, or of counts made with another set-up).
    #[serde(default)]
    pub informational: bool,
}

impl Comparison {
    /// An empty comparison with `baseline` by `method` at `threshold`.
    pub fn new(baseline: &str, method: Method, threshold: f64) -> Comparison {
        Comparison {
            baseline: baseline.to_string(),
            method,
            threshold,
            min_delta: None,
            checks: Vec::new(),
            missing: Vec::new(),
            new: Vec::new(),
            environment_differences: Vec::new(),
            calibration: None,
            machines: None,
            tools: None,
            basis: None,
            setup_differences: Vec::new(),
            param_differences: Vec::new(),
            informational: false,
        }
    }

    /// How many checks regressed.
    pub fn regressions(&self) -> usize {
        self.checks.iter().filter(|c| c.regressed()).count()
    }

    /// True when anything regressed and the comparison is a verdict, not
    /// information.
    pub fn failed(&self) -> bool {
        self.regressions() > 0 && !self.informational
    }

    /// Every note on why the changes are (or were judged as if they were
    /// not) information, in the order every format shows them: the tools,
    /// the machines, the count set-ups, the bench's parameters.
    pub fn notes(&self) -> impl Iterator<Item = String> {
        [
            self.tool_note(),
            self.machine_note(),
            self.setup_note(),
            self.param_note(),
        ]
        .into_iter()
        .flatten()
    }

    /// Why nothing was judged, or was judged only because asked, when the
    /// runs were made by different tools.
    pub fn tool_note(&self) -> Option<String> {
        let t = self.tools.as_ref()?;
        let tools = format!(
            "the baseline was made by {}, this run by {}",
            t.baseline_tool, t.current_tool
        );
        Some(if t.judged {
            format!("{tools}: judged anyway (--cross-tool); they time different code")
        } else {
            format!(
                "{tools}: they time different code under the same names, so nothing is judged \
                 and the changes are information; compare with --cross-tool to judge anyway"
            )
        })
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
        differences_note(
            &self.setup_differences,
            "the counts were made with another set-up",
            "a compiler, valgrind or batch of its own moves counts by itself",
        )
    }

    /// Why nothing was judged, when the bench's parameters differ.
    pub fn param_note(&self) -> Option<String> {
        differences_note(
            &self.param_differences,
            "the probes ran with other parameters than the baseline's",
            "they did other work",
        )
    }

    /// The rows over the threshold that were not judged because the machine
    /// ran too slow (see [`CalibrationRatio::too_slow`]); empty otherwise.
    pub fn too_slow_to_judge(&self) -> Vec<&str> {
        if !self.calibration.as_ref().is_some_and(|c| c.too_slow()) {
            return Vec::new();
        }
        self.checks
            .iter()
            .filter(|k| k.verdict == Verdict::Inconclusive(Reason::Machine))
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

/// A set-up field that differs between the baseline and the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct EnvironmentDifference {
    /// The set-up field (`rustc`, `profile`, ...).
    pub field: String,
    /// The baseline's value.
    pub baseline: String,
    /// This run's value.
    pub current: String,
}

impl From<(String, String, String)> for EnvironmentDifference {
    /// (field, baseline's value, this run's), as the set-up comparisons
    /// give them.
    fn from((field, baseline, current): (String, String, String)) -> Self {
        EnvironmentDifference {
            field,
            baseline,
            current,
        }
    }
}

/// The calibration medians of both runs (ms) and how fast this machine is
/// relative to the baseline's: baseline / current (0.5 = half as fast).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct CalibrationRatio {
    /// The baseline's calibration median (ms).
    pub baseline: f64,
    /// This run's calibration median (ms).
    pub current: f64,
    /// Baseline / current: this machine's speed relative to the baseline's.
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

/// The tools that made a comparison's two runs, when they differ.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct ToolMismatch {
    /// The tool that made the baseline (`yardstick`, `exp:benchmark`).
    pub baseline_tool: String,
    /// The tool that made this run.
    pub current_tool: String,
    /// Whether the runs were judged all the same (`--cross-tool`).
    pub judged: bool,
}

/// The machine classes of a wall-time comparison's two runs, when they
/// differ (see [`crate::environment::Cpu::class`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct MachineMismatch {
    /// The baseline's class, `unknown` when it has none.
    pub baseline_class: String,
    /// This run's class, `unknown` when it has none.
    pub current_class: String,
    /// Each machine's processor in a few words.
    pub baseline_cpu: String,
    /// This run's processor in a few words.
    pub current_cpu: String,
    /// Whether the times were judged all the same.
    pub judged: Judged,
}

/// Whether the times of runs of different machine classes were judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
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

/// The differences in a line: `valgrind valgrind-3.19.0 against
/// valgrind-3.22.0; batch 5 against 50`.
/// "`what` (the differences): `why`, so the changes are information, not a
/// verdict", or `None` when nothing differs.
fn differences_note(
    differences: &[EnvironmentDifference],
    what: &str,
    why: &str,
) -> Option<String> {
    if differences.is_empty() {
        return None;
    }
    let differences: Vec<_> = differences
        .iter()
        .map(|d| (d.field.clone(), d.baseline.clone(), d.current.clone()))
        .collect();
    Some(format!(
        "{what} ({}): {why}, so the changes are information, not a verdict",
        describe_differences(&differences)
    ))
}

/// The differences of two set-ups in words: "field A in the baseline, B
/// now", joined.
pub fn describe_differences(differences: &[(String, String, String)]) -> String {
    differences
        .iter()
        .map(|(field, baseline, current)| {
            format!("{field} {baseline} in the baseline, {current} now")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// How a comparison judges.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Micro, timed: medians divided by each run's calibration.
    #[default]
    Normalized,
    /// Micro: instruction counts.
    Instructions,
    /// Micro: estimated cycles (instructions and simulated cache misses).
    EstimatedCycles,
    /// compare-builds: two builds measured in alternating rounds.
    Paired,
    /// HTTP: absolute times with a minimum delta.
    Http,
    /// Kernel mode: absolute medians with a minimum delta, within one
    /// machine class.
    Absolute,
}

impl Method {
    /// The name the run document and reports use.
    pub fn as_str(&self) -> &'static str {
        match self {
            Method::Normalized => "normalized",
            Method::Instructions => "instructions",
            Method::EstimatedCycles => "estimated-cycles",
            Method::Paired => "paired",
            Method::Http => "http",
            Method::Absolute => "absolute",
        }
    }

    /// What the comparison judges, in a user's words.
    pub fn said(&self) -> &'static str {
        match self {
            Method::Normalized => "times relative to the calibration loop",
            Method::Instructions => "instruction counts",
            Method::EstimatedCycles => "estimated cycles",
            Method::Paired => "paired rounds of two builds",
            Method::Http => "HTTP times",
            Method::Absolute => "absolute times",
        }
    }
}

/// The `regressions` count that a comparison is written with and never
/// read back by, for the schema its readers go by.
#[cfg(test)]
fn regressions_written(schema: &mut schemars::Schema) {
    if let Some(properties) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    {
        properties.insert(
            "regressions".into(),
            serde_json::json!({
                "description": "How many checks regressed, counted from the checks",
                "type": "integer",
                "minimum": 0
            }),
        );
    }
}

impl Serialize for Comparison {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// Writes `value` under `name`, or skips the field when `absent`.
        fn field<S: SerializeStruct, T: Serialize + ?Sized>(
            s: &mut S,
            name: &'static str,
            value: &T,
            absent: bool,
        ) -> Result<(), S::Error> {
            if absent {
                s.skip_field(name)
            } else {
                s.serialize_field(name, value)
            }
        }
        let mut s = serializer.serialize_struct("Comparison", 15)?;
        s.serialize_field("baseline", &self.baseline)?;
        s.serialize_field("method", &self.method)?;
        s.serialize_field("threshold", &self.threshold)?;
        field(
            &mut s,
            "min_delta",
            &self.min_delta,
            self.min_delta.is_none(),
        )?;
        s.serialize_field("regressions", &self.regressions())?;
        s.serialize_field("checks", &self.checks)?;
        s.serialize_field("missing", &self.missing)?;
        s.serialize_field("new", &self.new)?;
        s.serialize_field("environment_differences", &self.environment_differences)?;
        field(
            &mut s,
            "calibration",
            &self.calibration,
            self.calibration.is_none(),
        )?;
        field(&mut s, "machines", &self.machines, self.machines.is_none())?;
        field(&mut s, "tools", &self.tools, self.tools.is_none())?;
        field(&mut s, "basis", &self.basis, self.basis.is_none())?;
        let no_setup = self.setup_differences.is_empty();
        field(
            &mut s,
            "setup_differences",
            &self.setup_differences,
            no_setup,
        )?;
        let no_params = self.param_differences.is_empty();
        field(
            &mut s,
            "param_differences",
            &self.param_differences,
            no_params,
        )?;
        field(
            &mut s,
            "informational",
            &self.informational,
            !self.informational,
        )?;
        s.end()
    }
}
