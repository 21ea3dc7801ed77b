//! The saved run of a matrix: the base configuration's rows, the matrix,
//! and the settings that reproduce it.

use super::Measurement;
use super::options::MatrixOptions;
use crate::commands::interleave::Configuration;
use crate::commands::interleave::setup::Setup;
use crate::document::builder::{FigureKind, RunBuilder};
use crate::document::matrix::Matrix;
use crate::document::run::{Metric, Mode, Run};
use crate::document::settings::{
    ConfigurationSettings, MatrixSettings, SamplingSettings, Settings,
};
use std::collections::BTreeMap;

/// The run of a matrix.
pub(super) fn run(
    o: &MatrixOptions,
    configurations: &[Configuration],
    setup: Setup,
    measurement: Measurement,
    matrix: Matrix,
) -> Run {
    let timed = o.metric == Metric::Time;
    let settings = MatrixSettings {
        configurations: configurations.iter().map(configuration).collect(),
        metric: o.metric,
        rounds: if timed { o.sampling.rounds } else { 0 },
        sets: if timed { o.sets } else { 0 },
        sampling: SamplingSettings {
            repeat: o.sampling.repeat,
            round_ms: o.sampling.round_ms,
            fake_clock: setup.clock.describe(),
            samples_per_round: measurement.samples_per_round.into_iter().collect(),
            warmup: o.sampling.warmup,
            min_batch: o.sampling.min_batch,
            probes: o.sampling.probes.clone(),
            seed: setup.seed,
            cpu: setup.cpu,
        },
        other: BTreeMap::new(),
    };
    let figures = if timed {
        FigureKind::Times
    } else {
        FigureKind::Counts
    };
    let mut run = RunBuilder::new(Mode::Micro, setup.started, Settings::Matrix(settings))
        .warnings(setup.clock.warning())
        .rows(measurement.rows)
        .metric(o.metric)
        .build(setup.environment, figures);
    run.matrix = Some(matrix);
    run
}

/// A configuration as its run records it.
fn configuration(c: &Configuration) -> ConfigurationSettings {
    ConfigurationSettings {
        name: c.name.clone(),
        bench: c.path.display().to_string(),
        env: c.env.iter().map(|(k, v)| format!("{k}={v}")).collect(),
        args: c.args.clone(),
    }
}
