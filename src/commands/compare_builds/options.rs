//! `yardstick compare-builds OLD NEW`: options of the paired comparison.

use crate::commands::common::{self, Common};
use crate::commands::flags::{Def, Entry, Flag, Number, Options, Preset, Section, Set, Spec};
use crate::commands::interleave::{Configuration, MAX_ROUNDS, Sampling, sampling_options};
use crate::document::comparison::Method;
use crate::judge::default_threshold;

use crate::error::Error;
use lexopt::Parser;
use std::ffi::OsString;
use std::path::PathBuf;

/// With fewer worker pairs even a slowdown in every pair cannot reach
/// p < 0.01 (the exact test's smallest p-value is 2^-pairs).
pub(crate) const MIN_PAIRS: usize = 7;

/// `--rounds`: at least one round on each of the fewest worker pairs.
const ROUNDS: Number = Number {
    default: Sampling::ROUNDS as u64,
    min: MIN_PAIRS as u64,
    max: MAX_ROUNDS,
};

/// `--pairs`: worker pairs. When not given, ten (fewer when there are
/// fewer rounds): ten pairs reach p < 0.001 when all agree, and the
/// default 30 rounds give each three, whose median stands up to one odd
/// round. Given, at most the rounds, which only the parse knows.
const PAIRS: Number = Number {
    default: 10,
    min: MIN_PAIRS as u64,
    max: MAX_ROUNDS,
};

/// `compare-builds`' command line: what `--help` prints, and what the
/// parser takes.
pub(crate) static SPEC: Spec<PairedOptions> = Spec {
    command: "compare-builds",
    usage: "usage: yardstick compare-builds OLD NEW [OPTIONS]",
    about: "Measures two bench binaries (say, built from the main branch and from a pull
request) on one CPU: in each round every probe is timed on each build, one
block of samples right after the other, in a random order; the rounds are
spread over fresh pairs of worker processes. NEW regresses (exit 1) when the
median of the pairs' ratios exceeds the threshold and a one-sided signed-rank
test over the pairs gives p < 0.01.",
    sections: &[
        Section {
            title: None,
            entries: &[
                Entry::Own(Def {
                    long: "rounds",
                    short: None,
                    value: Some("N"),
                    help: "rounds; a verdict at p < 0.01 needs 7, on as many worker pairs",
                    set: Set::Number(ROUNDS, |o, n, _| o.sampling.rounds = n as _),
                }),
                Entry::Own(Def {
                    long: "pairs",
                    short: None,
                    value: Some("N"),
                    help: "worker pairs the rounds are spread over, at most the rounds; when not \
                           given, the rounds if fewer than the default",
                    set: Set::Number(PAIRS, |o, n, _| o.pairs_asked = Some(n as usize)),
                }),
                sampling_options!(side: "build", set: "pair", batch: "the larger of the two builds'", workers: "both workers run"),
                Entry::Stating(
                    &common::THRESHOLD,
                    "how much slower regresses",
                    &[Preset::always(default_threshold(&Method::Paired))],
                ),
                Entry::Own(Def {
                    long: "env-old",
                    short: None,
                    value: Some("NAME=VALUE"),
                    help: "extra environment for OLD's workers (repeatable)",
                    set: Set::Text(|o, v, option| {
                        o.env_old.push(assignment(v, option)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "env-new",
                    short: None,
                    value: Some("NAME=VALUE"),
                    help: "extra environment for NEW's workers (repeatable)",
                    set: Set::Text(|o, v, option| {
                        o.env_new.push(assignment(v, option)?);
                        Ok(())
                    }),
                }),
                Entry::Shared(&common::ALL_CHECKS),
            ],
        },
        Section {
            title: Some("Output"),
            entries: &[
                Entry::SharedGroup(common::OUTPUT),
                Entry::SharedAs(&common::SAVE, "also write the comparison's run as JSON"),
                Entry::Shared(&common::RECORD),
                Entry::Shared(&common::HISTORY),
                Entry::Shared(&common::HTML),
            ],
        },
    ],
    notes: "",
    exit: common::EXIT_CODES,
    refuses: &[
        ("baseline", "OLD is the baseline"),
        ("no-baseline", "OLD is the baseline"),
        ("cross-machine", "both builds run on this machine"),
        ("cross-tool", "both builds are measured by yardstick"),
        (
            "max-machine-slowdown",
            "both builds share the machine's load",
        ),
        ("min-delta", "it applies to kernel and HTTP runs"),
    ],
};

impl Options for PairedOptions {
    fn common(&mut self) -> Option<&mut Common> {
        Some(&mut self.common)
    }
}

/// Everything `compare-builds` accepts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PairedOptions {
    /// The options every command takes (output, threshold, quiet).
    pub(crate) common: Common,
    /// The old bench binary, built from the code compared against: the
    /// baseline.
    pub(crate) old: PathBuf,
    /// The new bench binary, built from the code judged.
    pub(crate) new: PathBuf,
    /// How the samples are taken, as a matrix takes them: rounds (in each,
    /// every probe is timed on each build, the two blocks of samples back
    /// to back in a random order), samples a round, warm-up, batch, probes
    /// and the worker's timeout.
    pub(crate) sampling: Sampling,
    /// Fresh pairs of worker processes the rounds are spread over; each
    /// pair is one piece of evidence (see `judge::paired`).
    pub(crate) pairs: usize,
    /// Extra environment for the old build's workers (`--env-old=K=V`).
    pub(crate) env_old: Vec<(String, String)>,
    /// Extra environment for the new build's workers (`--env-new=K=V`).
    pub(crate) env_new: Vec<(String, String)>,
    /// Seed of the round order; random when not given.
    pub(crate) seed: Option<u64>,
    /// The CPU both workers run on (`--cpu=N`); by default the last one this
    /// process may use.
    pub(crate) cpu: Option<usize>,
    /// `--pairs` as given; [`PairedOptions::parse`] sets `pairs` from it
    /// once `--rounds` is known, since the default hangs on the rounds.
    pairs_asked: Option<usize>,
}

impl Default for PairedOptions {
    /// Every option as it is when not given; no binaries yet.
    fn default() -> PairedOptions {
        PairedOptions {
            common: Common::default(),
            old: PathBuf::new(),
            new: PathBuf::new(),
            sampling: Sampling::default(),
            pairs: PAIRS.default_usize(),
            env_old: Vec::new(),
            env_new: Vec::new(),
            seed: None,
            cpu: None,
            pairs_asked: None,
        }
    }
}

impl PairedOptions {
    /// Reads `compare-builds`' arguments (after the command's name); the
    /// error names the option at fault.
    pub(crate) fn parse(args: Vec<OsString>) -> Result<PairedOptions, Error> {
        let mut o = PairedOptions::default();
        let mut binaries = Vec::new();
        let mut parser = Parser::from_args(args);
        while let Some(flag) = SPEC.next(&mut parser, &mut o)? {
            match flag {
                Flag::Value(v) => binaries.push(PathBuf::from(v)),
                other => return Err(SPEC.unexpected(&other)),
            }
        }
        o.pairs = o
            .pairs_asked
            .unwrap_or(PAIRS.default_usize().min(o.sampling.rounds));
        o.check_pairs()?;
        [o.old, o.new] = <[PathBuf; 2]>::try_from(binaries).map_err(|_| {
            Error::usage("usage: yardstick compare-builds OLD NEW [OPTIONS] (two bench binaries)")
        })?;
        Ok(o)
    }

    /// The two builds as the measurement's configurations, the old one
    /// first.
    pub(crate) fn configurations(&self) -> Vec<Configuration> {
        let configuration = |name: &str, path: &PathBuf, env: &[(String, String)]| Configuration {
            name: name.to_string(),
            path: path.clone(),
            env: env.to_vec(),
            args: Vec::new(),
        };
        vec![
            configuration("old", &self.old, &self.env_old),
            configuration("new", &self.new, &self.env_new),
        ]
    }

    /// Refuses more pairs than rounds; `PAIRS` and `ROUNDS` already refuse
    /// too few for a verdict at p < 0.01.
    fn check_pairs(&self) -> Result<(), Error> {
        if self.pairs > self.sampling.rounds {
            return Err(Error::usage(format!(
                "--pairs: {} pairs need at least as many rounds (--rounds={})",
                self.pairs, self.sampling.rounds
            )));
        }
        Ok(())
    }
}

/// `text` as NAME=VALUE.
fn assignment(text: &str, option: &str) -> Result<(String, String), Error> {
    match text.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.to_string(), v.to_string())),
        _ => Err(Error::usage(format!(
            "{option}: `{text}` is not NAME=VALUE"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<PairedOptions, Error> {
        PairedOptions::parse(args.iter().map(OsString::from).collect())
    }

    #[test]
    fn binaries_and_options() {
        let o = parse(&[
            "old",
            "new",
            "--rounds=7",
            "--env-new=YARDSTICK_INJECT=*:5",
            "--seed=7",
            "--probe-timeout=9",
            "--json",
        ])
        .unwrap();
        assert_eq!(o.sampling.probe_timeout, std::time::Duration::from_secs(9));
        assert_eq!((o.old, o.new), (PathBuf::from("old"), PathBuf::from("new")));
        assert_eq!(
            (
                o.sampling.rounds,
                o.sampling.repeat,
                o.sampling.warmup,
                o.seed
            ),
            (7, 1, 3, Some(7))
        );
        // Fewer rounds than the default pairs: one round per pair.
        assert_eq!(o.pairs, 7);
        assert_eq!(
            o.env_new,
            vec![("YARDSTICK_INJECT".to_string(), "*:5".to_string())]
        );
        let o = parse(&["old", "new"]).unwrap();
        assert_eq!((o.sampling.rounds, o.pairs), (30, PAIRS.default_usize()));
        assert_eq!(o.sampling.round_ms, Sampling::ROUND_MS.default);
        let o = parse(&["old", "new", "--pairs=15", "--round-time=0"]).unwrap();
        assert_eq!((o.pairs, o.sampling.round_ms), (15, 0));
    }

    #[test]
    fn refusals_name_the_option() {
        for (args, needle) in [
            (vec!["one"], "compare-builds OLD NEW"),
            (vec!["a", "b", "c"], "compare-builds OLD NEW"),
            (vec!["a", "b", "--rounds=6"], "--rounds"),
            (vec!["a", "b", "--pairs=6"], "--pairs"),
            (vec!["a", "b", "--rounds=8", "--pairs=9"], "--pairs"),
            (vec!["a", "b", "--env-new=NOVALUE"], "--env-new"),
            (vec!["a", "b", "--rounds=99999999"], "--rounds"),
            (vec!["a", "b", "--probe-timeout=0"], "--probe-timeout"),
            (vec!["a", "b", "--round-time=-1"], "--round-time"),
            (vec!["a", "b", "--round-time=60001"], "--round-time"),
            (
                vec!["a", "b", "--max-machine-slowdown=50"],
                "--max-machine-slowdown",
            ),
            (vec!["a", "b", "--min-delta=1"], "--min-delta"),
        ] {
            let e = parse(&args).unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
    }
}
