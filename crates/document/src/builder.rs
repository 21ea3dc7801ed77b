//! The one way a mode makes its [`Run`]: what every run carries alike (the
//! tool, the format, the machine, the debug-build warning) is set here once,
//! and each mode adds only what it measured.

use crate::environment::Environment;
use crate::run::{CalibrationSummary, FORMAT, Metric, Mode, Row, Run, ServerPair, TOOL};
use crate::settings::Settings;

/// What a debug build makes unrepresentative, in the run's first warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FigureKind {
    /// Wall times of probes.
    Times,
    /// Instruction counts and estimated cycles.
    Counts,
    /// HTTP: the built-in client's own share of each request.
    ClientTime,
    /// Nothing a debug build could skew (an external load tool's times).
    Unaffected,
}

/// A run being assembled; [`RunBuilder::build`] finishes it.
#[must_use]
pub struct RunBuilder {
    mode: Mode,
    started: String,
    metric: Metric,
    settings: Settings,
    warnings: Vec<String>,
    rows: Vec<Row>,
    calibration: Option<CalibrationSummary>,
    server_pairs: Option<Vec<ServerPair>>,
}

impl RunBuilder {
    /// A run of `mode` that started at `started` (RFC 3339), made with
    /// `settings`: a run cannot be made without the settings of its kind.
    pub fn new(mode: Mode, started: String, settings: Settings) -> RunBuilder {
        RunBuilder {
            mode,
            started,
            metric: Metric::Time,
            settings,
            warnings: Vec::new(),
            rows: Vec::new(),
            calibration: None,
            server_pairs: None,
        }
    }

    /// What the rows measured (wall time unless said).
    pub fn metric(mut self, metric: Metric) -> RunBuilder {
        self.metric = metric;
        self
    }

    /// Warnings that qualify every figure of the run, in order.
    pub fn warnings(mut self, warnings: impl IntoIterator<Item = String>) -> RunBuilder {
        self.warnings.extend(warnings);
        self
    }

    /// The measured rows.
    pub fn rows(mut self, rows: Vec<Row>) -> RunBuilder {
        self.rows = rows;
        self
    }

    /// The calibration loop's figures (timed micro runs).
    pub fn calibration(mut self, calibration: Option<CalibrationSummary>) -> RunBuilder {
        self.calibration = calibration;
        self
    }

    /// HTTP with several servers: each later server against the first.
    pub fn server_pairs(mut self, pairs: Option<Vec<ServerPair>>) -> RunBuilder {
        self.server_pairs = pairs;
        self
    }

    /// The run, made in `environment`. A debug build's warning comes first:
    /// it qualifies every figure after it.
    pub fn build(self, environment: Environment, figures: FigureKind) -> Run {
        let mut warnings = self.warnings;
        let subject = match figures {
            FigureKind::Times => Some("times are"),
            FigureKind::Counts => Some("counts are"),
            FigureKind::ClientTime => Some("the client's own time is"),
            FigureKind::Unaffected => None,
        };
        if let Some(subject) = subject.filter(|_| environment.is_debug_build()) {
            warnings.insert(0, format!("debug build: {subject} not representative"));
        }
        Run {
            tool: TOOL.to_string(),
            format: FORMAT,
            mode: self.mode,
            started: self.started,
            machine: environment.machine.clone(),
            settings: self.settings,
            environment,
            warnings,
            rows: self.rows,
            calibration: self.calibration,
            comparison: None,
            server_pairs: self.server_pairs,
            metric: self.metric,
            ranking: None,
            matrix: None,
            thresholds: None,
            outcome: None,
            explanation: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn debug_environment(debug: bool) -> Environment {
        Environment {
            machine: "host".into(),
            debug_assertions: debug,
            opt_level: if debug { "0" } else { "3" }.into(),
            ..Environment::default()
        }
    }

    #[test]
    fn what_every_run_carries_alike_is_set_once() {
        let run = RunBuilder::new(Mode::Micro, "now".into(), Settings::default())
            .build(debug_environment(false), FigureKind::Times);
        assert_eq!((run.machine.as_str(), run.tool.as_str()), ("host", TOOL));
    }

    #[test]
    fn a_debug_build_warns_first_about_the_figures_it_skews() {
        let run = |figures| {
            RunBuilder::new(Mode::Micro, "now".into(), Settings::default())
                .warnings(["drift".to_string()])
                .build(debug_environment(true), figures)
                .warnings
        };
        assert_eq!(
            run(FigureKind::Counts),
            ["debug build: counts are not representative", "drift"]
        );
        assert_eq!(run(FigureKind::Unaffected), ["drift"]);
        let release = RunBuilder::new(Mode::Http, "now".into(), Settings::Http(Default::default()))
            .build(debug_environment(false), FigureKind::ClientTime);
        assert!(release.warnings.is_empty());
    }
}
