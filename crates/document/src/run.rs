//! The Run document: what one run measured, saved as JSON (format 1).
//!
//! Format 1 is a contract (see `schema/run-v1.json`): it grows only by
//! adding optional fields, readers ignore fields they do not know, and the
//! version changes only when the meaning of an existing field changes.

use crate::comparison::Comparison;
use crate::environment::Environment;
use crate::explanation::Explanation;
use crate::matrix::Matrix;
use crate::outcome::RunOutcome;
use crate::ranking::Ranking;
pub use crate::row::{Row, RowKind};
use crate::settings::Settings;
use crate::thresholds::Thresholds;
use serde::{Deserialize, Serialize};
use yardstick_stats::Summary;

/// The `tool` field of every document yardstick writes.
pub const TOOL: &str = "yardstick";
/// The format version this build reads and writes.
pub const FORMAT: u32 = 1;

/// The mode a run was made in. Runs compare only within one mode, since each
/// mode has its own comparison rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Probes in-process (micro mode and compare-builds).
    Micro,
    /// Pages over HTTP.
    Http,
    /// Probes that hold state, and whole processes, timed absolutely
    /// (`cargo bench --bench kernel`).
    Kernel,
}

impl Mode {
    /// Whether its rows are probes (micro and kernel mode), not pages.
    pub fn is_probes(self) -> bool {
        matches!(self, Mode::Micro | Mode::Kernel)
    }

    /// The name the run document uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Micro => "micro",
            Mode::Http => "http",
            Mode::Kernel => "kernel",
        }
    }

    /// A run of this mode measuring `metric`, in a user's words: `a micro
    /// run of wall time`, `an HTTP run`, `a kernel run of wall time`.
    pub fn a_run_of(self, metric: Metric) -> String {
        match self {
            Mode::Http => "an HTTP run".to_string(),
            Mode::Micro => format!("a micro run of {}", metric.said()),
            Mode::Kernel => format!("a kernel run of {}", metric.said()),
        }
    }
}

/// One saved run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Run {
    /// Always `yardstick`.
    #[cfg_attr(test, schemars(extend("const" = "yardstick")))]
    pub tool: String,
    /// The format version, 1.
    #[cfg_attr(test, schemars(extend("const" = 1)))]
    pub format: u32,
    /// What kind of run it is; runs compare only within a mode.
    pub mode: Mode,
    /// When the run started, RFC 3339 in UTC.
    pub started: String,
    /// The host name of the machine that made the run.
    pub machine: String,
    /// The run's options, as given (secrets hidden).
    pub settings: Settings,
    /// The set-up the run was made with.
    pub environment: Environment,
    /// Warnings that qualify every figure of the run (a debug build, load
    /// drift, an injected slowdown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// One row per probe or page.
    pub rows: Vec<Row>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The calibration loop's figures (timed micro runs).
    pub calibration: Option<CalibrationSummary>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The comparison with a baseline, when there was one.
    pub comparison: Option<Comparison>,
    /// HTTP mode with several servers: each later server against the first.
    #[serde(default, rename = "pairs", skip_serializing_if = "Option::is_none")]
    pub server_pairs: Option<Vec<ServerPair>>,
    /// What the rows measured: wall time (the default, left out),
    /// instruction counts (`--metric=instructions`) or estimated cycles
    /// (`--metric=estimated-cycles`).
    #[serde(default, skip_serializing_if = "Metric::is_time")]
    pub metric: Metric,
    /// Micro and kernel: the variants of each group ranked against their
    /// reference, when the run has groups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranking: Option<Ranking>,
    /// `matrix`: every probe on every configuration against the base.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matrix: Option<Matrix>,
    /// In a baseline: each probe's own threshold, learned from the spread
    /// of its class's runs when it was made (`yardstick baseline`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thresholds: Option<Thresholds>,
    /// The verdict the run was delivered with: its exit code and lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<RunOutcome>,
    /// A timed run's regressions explained by counts (`--explain`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Explanation>,
}

impl Run {
    /// The calibration loop's median, C, when the run has a usable one.
    pub fn calibration_median(&self) -> Option<f64> {
        self.calibration
            .as_ref()
            .map(|c| c.loops.median)
            .filter(|m| m.is_finite() && *m > 0.0)
    }

    /// A row's time per calibration loop ("x calib") as the judge reads it:
    /// recomputed from the row's samples and the loop's, never the stored
    /// `normalized` field, which an edited file could have changed.
    pub fn x_calib(&self, row: &Row) -> Option<f64> {
        row.normalized_median(self.calibration_median()?)
    }

    /// The row of `key`, if the run has one.
    pub fn row(&self, key: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.key == key)
    }

    /// A row's samples each relative to the calibration loop, by the rule
    /// of [`Run::x_calib`], whose median they have; none without a loop.
    pub fn x_calib_samples(&self, row: &Row) -> Vec<f64> {
        row.x_calib_samples(self.calibration_median().unwrap_or(f64::NAN))
    }
}

/// The figure a micro run compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Wall time, normalised by the calibration loop.
    #[default]
    Time,
    /// Instructions per iteration counted by callgrind: repeatable whatever
    /// else the machine does, so small changes can be trusted.
    Instructions,
    /// Instructions and the misses of a simulated cache, weighed into
    /// estimated cycles (see `counts::costs`): as repeatable, and not blind
    /// to memory.
    #[serde(rename = "estimated-cycles")]
    EstimatedCycles,
}

impl Metric {
    /// True for wall time, the one metric judged only within a machine
    /// class.
    pub fn is_time(&self) -> bool {
        *self == Metric::Time
    }

    /// True for the metrics counted under callgrind.
    pub fn is_count(&self) -> bool {
        *self != Metric::Time
    }

    /// The figure in a user's words.
    pub fn said(self) -> &'static str {
        match self {
            Metric::Time => "wall time",
            Metric::Instructions => "instruction counts",
            Metric::EstimatedCycles => "estimated cycles",
        }
    }

    /// The name the run document uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Time => "time",
            Metric::Instructions => "instructions",
            Metric::EstimatedCycles => "estimated-cycles",
        }
    }
}

/// The calibration loop's figures for a run (milliseconds per loop).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct CalibrationSummary {
    /// Every measured loop (one before each probe sample); its median is C,
    /// the divisor of the run's normalised figures.
    #[serde(flatten)]
    pub loops: Summary,
    /// The median loop of the first half of the rounds.
    pub before_median: f64,
    /// The median loop of the second half of the rounds.
    pub after_median: f64,
    /// after / before − 1, in percent: how much the machine's speed moved
    /// while the probes ran.
    pub drift_pct: f64,
    /// The first loop's checksum, which proves its work unchanged.
    pub checksum: u64,
}

/// A timed micro run of `rows` for unit tests, everything else empty; for
/// the tests of every crate that reads runs.
#[doc(hidden)]
pub fn test_micro_run(rows: Vec<Row>, calibration: Option<CalibrationSummary>) -> Run {
    Run {
        tool: TOOL.into(),
        format: FORMAT,
        mode: Mode::Micro,
        started: String::new(),
        machine: String::new(),
        settings: Settings::default(),
        // One machine class, so that comparisons of test runs judge.
        environment: Environment {
            machine_class: Some("test-cpu-2cpu-00000000".to_string()),
            ..Environment::default()
        },
        warnings: Vec::new(),
        rows,
        calibration,
        comparison: None,
        server_pairs: None,
        metric: Metric::Time,
        ranking: None,
        matrix: None,
        thresholds: None,
        outcome: None,
        explanation: None,
    }
}

impl CalibrationSummary {
    /// The summary of the loops timed in the first half of the rounds
    /// (`before`) and the second (`after`); none without loops in both, or
    /// with a loop median that is not a positive time (an edited file).
    pub fn of(before: &[f64], after: &[f64], checksum: u64) -> Option<CalibrationSummary> {
        let all: Vec<f64> = before.iter().chain(after).copied().collect();
        let s = Summary::of(&all)?;
        let before_median = yardstick_stats::median(before).filter(|m| *m > 0.0)?;
        let after_median = yardstick_stats::median(after)?;
        Some(CalibrationSummary {
            loops: s,
            before_median,
            after_median,
            drift_pct: (after_median / before_median - 1.0) * 100.0,
            checksum,
        })
    }
}

/// One server compared with the first, for one page (HTTP `--compare`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct ServerPair {
    /// The page.
    pub name: String,
    /// The first server, which the others are compared with.
    pub base: String,
    /// The server compared.
    pub other: String,
    /// The first server's median (ms).
    pub base_median: Option<f64>,
    /// The other server's median (ms).
    pub other_median: Option<f64>,
    /// Other / base median.
    pub median_ratio: Option<f64>,
    /// The first server's requests per second.
    pub base_rps: Option<f64>,
    /// The other server's requests per second.
    pub other_rps: Option<f64>,
    /// Other / base requests per second.
    pub rps_ratio: Option<f64>,
}
