//! `yardstick matrix`: options of a configuration matrix.

use super::listed::Listed;
use crate::commands::common::{self, Common};
use crate::commands::flags::{Def, Entry, Flag, Number, Options, Section, Set, Spec};
use crate::commands::interleave::{Configuration, MAX_ROUNDS, Sampling, sampling_options};
use crate::commands::micro::options::metric;
use crate::document::run::Metric;
use crate::error::Error;
use crate::stats::order;
use lexopt::Parser;
use std::ffi::OsString;
use std::path::PathBuf;

/// `--sets`: worker sets. When not given, ten (fewer when there are fewer
/// rounds): ten sets give a 97.9 % interval between the 2nd and 9th.
/// Given, at most the rounds, which only the parse knows.
const SETS: Number = Number {
    default: 10,
    min: order::MIN_VALUES as u64,
    max: MAX_ROUNDS,
};

/// `--rounds`: at least one round on each of the fewest worker sets an
/// interval of their medians needs.
const ROUNDS: Number = Number {
    default: Sampling::ROUNDS as u64,
    min: order::MIN_VALUES as u64,
    max: MAX_ROUNDS,
};

/// `matrix`' command line: what `--help` prints, and what the parser takes.
pub(crate) static SPEC: Spec<MatrixOptions> = Spec {
    command: "matrix",
    usage: "usage: yardstick matrix [FILE.toml] [--bench=PATH] [--config=NAME:SPEC]... [OPTIONS]",
    about: "Measures configurations of a bench (binaries, environments, arguments) against
a base configuration: in each round every probe is timed on each
configuration, blocks of samples back to back in a random order, on fresh
sets of worker processes. Each cell is the configuration's figure over the
base's, the median of the sets' ratios with a 95 % interval; a cell whose
probe failed, whose worker was lost, or whose result differs from the base's
is failed (exit 1), never fast.",
    sections: &[
        Section {
            title: Some("Configurations"),
            entries: &[
                Entry::Own(Def {
                    long: "config",
                    short: None,
                    value: Some("NAME:SPEC"),
                    help: "a configuration (repeatable): NAME:K=V,K=V runs --bench with that \
                           environment, NAME:PATH another bench binary, NAME: --bench as it is",
                    set: Set::Text(|o, v, option| {
                        o.listed.push(Listed::parse(v, option)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "bench",
                    short: None,
                    value: Some("PATH"),
                    help: "the bench binary of --config's environments",
                    set: Set::Text(|o, v, _| {
                        o.bench = Some(PathBuf::from(v));
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "bench-arg",
                    short: None,
                    value: Some("ARG"),
                    help: "an argument every --config's workers get, such as the bench's \
                           --node=57 (repeatable)",
                    set: Set::Text(|o, v, _| {
                        o.bench_args.push(v.to_string());
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "base",
                    short: None,
                    value: Some("NAME"),
                    help: "the configuration the others divide by (default: the first)",
                    set: Set::Text(|o, v, _| {
                        o.base = Some(v.to_string());
                        Ok(())
                    }),
                }),
            ],
        },
        Section {
            title: Some("Measuring"),
            entries: &[
                Entry::Own(Def {
                    long: "metric",
                    short: None,
                    value: Some("METRIC"),
                    help: "time, instructions or estimated-cycles (default time; a count runs \
                           each configuration once under callgrind, exactly)",
                    set: Set::Text(|o, v, _| {
                        o.metric = metric(v)?;
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "rounds",
                    short: None,
                    value: Some("N"),
                    help: "rounds; an interval needs 6, on as many worker sets",
                    set: Set::Number(ROUNDS, |o, n, _| o.sampling.rounds = n as _),
                }),
                Entry::Own(Def {
                    long: "sets",
                    short: None,
                    value: Some("N"),
                    help: "worker sets the rounds are spread over, at most the rounds; when not \
                           given, the rounds if fewer than the default",
                    set: Set::Number(SETS, |o, n, _| o.sets_asked = Some(n as usize)),
                }),
                sampling_options!(side: "configuration", set: "set", batch: "the largest of the configurations'", workers: "every worker runs"),
            ],
        },
        Section {
            title: Some("Output"),
            entries: &[
                Entry::SharedGroup(common::OUTPUT),
                Entry::SharedAs(&common::SAVE, "also write the matrix's run as JSON"),
                Entry::Shared(&common::HTML),
            ],
        },
    ],
    notes: "A matrix file (TOML) lists [[configuration]] tables, each with name and
optionally bench, env and args; top-level bench, base and args apply to all.
Paths in it are relative to its folder.",
    exit: "Exit codes: 0 every cell measured, 1 a failed cell, 2 bad usage or input.",
    refuses: &[
        ("threshold", "a matrix measures, it does not judge a change"),
        ("baseline", "the base configuration is the baseline"),
        ("no-baseline", "the base configuration is the baseline"),
        ("all-checks", "a matrix judges no change"),
        ("min-delta", "a matrix judges no change"),
        (
            "max-machine-slowdown",
            "every configuration shares the machine's load",
        ),
        ("cross-machine", "every configuration runs on this machine"),
        ("cross-tool", "every configuration is measured by yardstick"),
        ("record", "a matrix is not a run of one build"),
        ("history", "a matrix is not a run of one build"),
    ],
};

impl Options for MatrixOptions {
    fn common(&mut self) -> Option<&mut Common> {
        Some(&mut self.common)
    }
}

/// Everything `matrix` accepts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MatrixOptions {
    /// Output, quiet.
    pub(crate) common: Common,
    /// The matrix file, when given.
    pub(crate) file: Option<PathBuf>,
    /// `--bench`.
    pub(crate) bench: Option<PathBuf>,
    /// `--bench-arg` each.
    pub(crate) bench_args: Vec<String>,
    /// `--config` each, in order.
    pub(crate) listed: Vec<Listed>,
    /// `--base`.
    pub(crate) base: Option<String>,
    /// Wall time or a count.
    pub(crate) metric: Metric,
    /// How the samples are taken.
    pub(crate) sampling: Sampling,
    /// Worker sets the rounds are spread over.
    pub(crate) sets: usize,
    /// Seed of the random orders; drawn when not given.
    pub(crate) seed: Option<u64>,
    /// The CPU every worker runs on.
    pub(crate) cpu: Option<usize>,
    /// `--sets` as given; its default hangs on the rounds.
    sets_asked: Option<usize>,
}

impl Default for MatrixOptions {
    fn default() -> MatrixOptions {
        MatrixOptions {
            common: Common::default(),
            file: None,
            bench: None,
            bench_args: Vec::new(),
            listed: Vec::new(),
            base: None,
            metric: Metric::Time,
            sampling: Sampling::default(),
            sets: SETS.default_usize(),
            seed: None,
            cpu: None,
            sets_asked: None,
        }
    }
}

/// The most configurations one matrix measures. A round keeps one worker
/// process of each running, so this bounds the processes (and their reader
/// threads) a matrix starts at once.
pub(crate) const MAX_CONFIGURATIONS: usize = 64;

impl MatrixOptions {
    /// Reads `matrix`' arguments (after the command's name); the error
    /// names the option at fault.
    pub(crate) fn parse(args: Vec<OsString>) -> Result<MatrixOptions, Error> {
        let mut o = MatrixOptions::default();
        let mut parser = Parser::from_args(args);
        while let Some(flag) = SPEC.next(&mut parser, &mut o)? {
            match flag {
                Flag::Value(v) if o.file.is_none() => o.file = Some(PathBuf::from(v)),
                other => return Err(SPEC.unexpected(&other)),
            }
        }
        o.sets = o
            .sets_asked
            .unwrap_or(SETS.default_usize().min(o.sampling.rounds));
        if o.sets > o.sampling.rounds {
            return Err(Error::usage(format!(
                "--sets: {} sets need at least as many rounds (--rounds={})",
                o.sets, o.sampling.rounds
            )));
        }
        if o.file.is_some() {
            let with = [
                ("--config", !o.listed.is_empty()),
                ("--bench", o.bench.is_some()),
                ("--bench-arg", !o.bench_args.is_empty()),
            ];
            if let Some((option, _)) = with.iter().find(|(_, given)| *given) {
                return Err(Error::usage(format!(
                    "{option}: the matrix file gives the configurations; say it there"
                )));
            }
        }
        Ok(o)
    }

    /// The configurations, the base first, each with its binary checked;
    /// the error names the file's line or the option at fault.
    pub(crate) fn configurations(&self) -> Result<Vec<Configuration>, Error> {
        let (mut listed, file_base) = match &self.file {
            Some(file) => super::file::read(file)?,
            None => (self.listed_by_options()?, None),
        };
        if listed.len() < 2 {
            return Err(Error::usage(
                "matrix: at least two configurations are needed, a base and another",
            ));
        }
        if listed.len() > MAX_CONFIGURATIONS {
            let source = self
                .file
                .as_ref()
                .map_or("--config".to_string(), |f| f.display().to_string());
            return Err(Error::usage(format!(
                "{source}: {} configurations, more than the {MAX_CONFIGURATIONS} a matrix \
                 measures (each keeps a worker process running through every round): split it",
                listed.len()
            )));
        }
        let base = self.base.clone().or(file_base);
        if let Some(base) = base {
            let Some(at) = listed.iter().position(|l| l.name == base) else {
                return Err(Error::usage(format!(
                    "--base: no configuration is named `{base}`"
                )));
            };
            let base = listed.remove(at);
            listed.insert(0, base);
        }
        Ok(listed
            .into_iter()
            .map(|l| Configuration {
                name: l.name,
                path: l.path,
                env: l.env,
                args: l.args,
            })
            .collect())
    }

    /// The `--config` configurations, each with its binary.
    fn listed_by_options(&self) -> Result<Vec<Listed>, Error> {
        let mut listed: Vec<Listed> = Vec::new();
        for l in &self.listed {
            if listed.iter().any(|seen| seen.name == l.name) {
                return Err(Error::usage(format!(
                    "--config: configuration `{}` is named twice",
                    l.name
                )));
            }
            let path = if l.path.as_os_str().is_empty() {
                self.bench.clone().ok_or_else(|| {
                    Error::usage(format!(
                        "--config={}: an environment needs --bench=PATH, the binary it runs",
                        l.name
                    ))
                })?
            } else {
                l.path.clone()
            };
            if !path.is_file() {
                return Err(Error::usage(format!(
                    "--config={}: {}: no such bench binary",
                    l.name,
                    path.display()
                )));
            }
            let mut args = self.bench_args.clone();
            args.extend(l.args.iter().cloned());
            listed.push(Listed {
                path,
                args,
                ..l.clone()
            });
        }
        Ok(listed)
    }
}

#[cfg(test)]
mod tests;
