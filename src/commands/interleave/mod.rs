//! Several configurations of a bench measured in interleaved rounds on
//! fresh sets of worker processes: the machinery `compare-builds` (two
//! builds) and `matrix` (a base and its alternatives) share.
//!
//! Every configuration runs as a worker (see `worker`). In each round
//! every probe, in a shuffled order, takes one block of samples on each
//! configuration, the blocks back to back in a random order, so that all
//! configurations see the same moment of the machine. The rounds are
//! spread over several fresh sets of workers, because one process can sit
//! a few percent off another of the same build for its whole life; what a
//! set gives is one piece of evidence, and the judges (`judge::paired`,
//! `judge::matrix`) treat it so.
//!
//! The pieces: the `schedule` of rounds over the sets, the `launch` of each
//! set and the batches its first set agrees on, the `rounds` themselves,
//! and each probe's state on each configuration (`entry`).

pub(crate) mod client;
pub(crate) mod entry;
pub(crate) mod launch;
pub(crate) mod rounds;
pub(crate) mod schedule;
pub(crate) mod setup;

use crate::commands::flags::Number;
use crate::commands::micro::options::{MAX_SAMPLES, PROBE_TIMEOUT};
use std::path::PathBuf;
use std::time::Duration;

/// The most rounds `--rounds` asks for: far beyond any useful measurement.
pub(crate) const MAX_ROUNDS: u64 = 100_000;

/// One configuration measured: a bench binary, the environment and the
/// arguments its workers get.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Configuration {
    /// What the run calls it (`old`, `new`, or a matrix's name).
    pub(crate) name: String,
    /// The bench binary.
    pub(crate) path: PathBuf,
    /// Environment variables its workers get beside this process's.
    pub(crate) env: Vec<(String, String)>,
    /// Arguments its workers get: the bench's own parameters (`--node=57`).
    pub(crate) args: Vec<String>,
}

/// How the samples are taken, the same for every configuration.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sampling {
    /// Rounds in all, spread over the worker sets.
    pub(crate) rounds: usize,
    /// The fewest samples per probe, configuration and round.
    pub(crate) repeat: usize,
    /// Milliseconds of samples per probe, configuration and round.
    pub(crate) round_ms: u64,
    /// Untimed samples per probe and configuration before each set's
    /// first round.
    pub(crate) warmup: usize,
    /// A fixed batch; by default each worker picks one and all take the
    /// largest.
    pub(crate) min_batch: Option<u64>,
    /// The probes measured (`--probe=NAME` each); all when empty.
    pub(crate) probes: Vec<String>,
    /// How long a worker may take to answer.
    pub(crate) probe_timeout: Duration,
}

impl Default for Sampling {
    /// Every sampling option as it is when not given, for compare-builds
    /// and matrix alike.
    fn default() -> Sampling {
        Sampling {
            rounds: Sampling::ROUNDS,
            repeat: Sampling::REPEAT.default_usize(),
            round_ms: Sampling::ROUND_MS.default,
            warmup: Sampling::WARMUP.default_usize(),
            min_batch: None,
            probes: Vec::new(),
            probe_timeout: PROBE_TIMEOUT.default_duration(),
        }
    }
}

impl Sampling {
    /// `--rounds` when not given (each command has its own least number:
    /// what its verdict needs).
    pub(crate) const ROUNDS: usize = 30;
    /// `--round-time`: milliseconds each configuration spends on a probe in
    /// each round. One sample is at the mercy of one interruption; the
    /// median of several short ones is not, and a probe whose sample takes
    /// a millisecond can afford twenty a round.
    pub(crate) const ROUND_MS: Number = Number {
        default: 20,
        min: 0,
        max: 60_000,
    };
    /// `--repeat`: the fewest samples per probe, configuration and round.
    pub(crate) const REPEAT: Number = Number {
        default: 1,
        min: 1,
        max: MAX_SAMPLES,
    };
    /// `--warmup`: untimed samples before each set's first round.
    pub(crate) const WARMUP: Number = Number {
        default: 3,
        min: 0,
        max: MAX_SAMPLES,
    };
}

/// The options `compare-builds` and `matrix` share, defined once for an
/// options type with the fields `sampling`, `seed` and `cpu`, and worded
/// for each: `side` is what a probe is timed on ("build", "configuration"),
/// `set` a group of workers ("pair", "set"), `batch` whose batch wins
/// ("the larger of the two builds'"), `workers` who runs on the CPU
/// ("both workers run"). `--rounds` and the worker groups' count are each
/// command's own: what its verdict needs of them differs.
macro_rules! sampling_options {
    (side: $side:literal, set: $set:literal, batch: $batch:literal, workers: $workers:literal) => {
        $crate::commands::flags::Entry::Group(&[
            $crate::commands::flags::Entry::Own($crate::commands::flags::Def {
                long: "round-time",
                short: None,
                value: Some("MS"),
                help: concat!(
                    "milliseconds of samples per probe, ",
                    $side,
                    " and round; 0: --repeat samples"
                ),
                set: $crate::commands::flags::Set::Number(
                    $crate::commands::interleave::Sampling::ROUND_MS,
                    |o, n, _| o.sampling.round_ms = n as _,
                ),
            }),
            $crate::commands::flags::Entry::Own($crate::commands::flags::Def {
                long: "repeat",
                short: None,
                value: Some("N"),
                help: concat!("the fewest samples per probe, ", $side, " and round"),
                set: $crate::commands::flags::Set::Number(
                    $crate::commands::interleave::Sampling::REPEAT,
                    |o, n, _| o.sampling.repeat = n as _,
                ),
            }),
            $crate::commands::flags::Entry::Own($crate::commands::flags::Def {
                long: "warmup",
                short: None,
                value: Some("N"),
                help: concat!(
                    "untimed samples per probe and ",
                    $side,
                    " before each ",
                    $set,
                    "'s first round"
                ),
                set: $crate::commands::flags::Set::Number(
                    $crate::commands::interleave::Sampling::WARMUP,
                    |o, n, _| o.sampling.warmup = n as _,
                ),
            }),
            $crate::commands::flags::Entry::Own($crate::commands::flags::Def {
                long: "min-batch",
                short: None,
                value: Some("K"),
                help: concat!(
                    "iterations per sample (default: ",
                    $batch,
                    " choices; 1 to 1000000000)"
                ),
                set: $crate::commands::flags::Set::Text(|o, v, option| {
                    o.sampling.min_batch = Some($crate::commands::flags::bounded(
                        v,
                        option,
                        1,
                        $crate::commands::micro::options::MAX_BATCH,
                    )?);
                    Ok(())
                }),
            }),
            $crate::commands::flags::Entry::Own($crate::commands::flags::Def {
                long: "probe",
                short: None,
                value: Some("NAME"),
                help: "measure only this probe (repeatable)",
                set: $crate::commands::flags::Set::Text(|o, v, _| {
                    o.sampling.probes.push(v.to_string());
                    Ok(())
                }),
            }),
            $crate::commands::flags::Entry::Own($crate::commands::flags::Def {
                long: "seed",
                short: None,
                value: Some("N"),
                help: "seed of the random orders (default: drawn, and saved in the run's settings)",
                set: $crate::commands::flags::Set::Text(|o, v, option| {
                    o.seed = Some($crate::commands::flags::count(v, option)?);
                    Ok(())
                }),
            }),
            $crate::commands::flags::Entry::Own($crate::commands::flags::Def {
                long: "cpu",
                short: None,
                value: Some("N"),
                help: concat!(
                    "the CPU ",
                    $workers,
                    " on (default: the last one this process may use; 0 to 65536)"
                ),
                set: $crate::commands::flags::Set::Text(|o, v, option| {
                    o.cpu = Some($crate::commands::flags::bounded(v, option, 0, 1 << 16)? as usize);
                    Ok(())
                }),
            }),
            $crate::commands::flags::Entry::Own($crate::commands::flags::Def {
                long: "probe-timeout",
                short: None,
                value: Some("SECONDS"),
                help: "how long a worker may take to answer",
                set: $crate::commands::flags::Set::Seconds(
                    $crate::commands::micro::options::PROBE_TIMEOUT,
                    |o, d| o.sampling.probe_timeout = d,
                ),
            }),
        ])
    };
}
pub(crate) use sampling_options;

/// What becomes of a worker that ends, stops answering or answers
/// nonsense once the first set has greeted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OnLostWorker {
    /// The measurement stops with the worker's error (exit 2): a paired
    /// comparison has nothing to judge without both sides.
    Stop,
    /// Its configuration fails every probe not yet finished, and the
    /// others go on: in a matrix, a configuration that kills its worker is
    /// a finding, not an error of the command.
    FailConfiguration,
}
