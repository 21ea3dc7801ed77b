//! The evaluate command's options. `--quick` changes only the defaults, so
//! an explicit option wins whatever its position.

use crate::Error;
use crate::bench::{PairedSampling, Sampling};
use crate::plan::{Cell, Condition, Method, parse_list};
use lexopt::{Arg, Parser, ValueExt};
use std::ffi::OsString;
use std::path::PathBuf;

pub const USAGE: &str = "usage: evaluate [OPTIONS]
Measures how often yardstick's verdict flags identical code (A/A) and how
often it catches a slowdown injected into every probe, under load, for each
way of judging (method). Without options, the full evaluation: over two
hours on a quiet 2-core machine (the estimate is printed at the start).

  --quick              every method and condition briefly (timed runs
                       --repeat=2 --warmup=0 --min-batch=10, three probes
                       counted): checks that the harness works; the figures
                       mean nothing
  --estimate-only      make the baselines and time one trial of each method,
                       print the expected duration of each job, and stop
  --methods LIST       stored-baseline,confirmed,paired,instructions (default all)
  --conditions LIST    quiet,cpu,memory,bursty (default: each method's own,
                       see evaluate/README.md); a condition a method has no
                       default for takes the counts of its first one
  --runs N             A/A runs of every method and condition (default: each
                       method's own: 300 for the headline figures)
  --power-runs N       runs per slowdown of every method and condition
  --slowdowns LIST     injected slowdowns in percent, for every method
  --out DIR            results folder (default evaluate/results/<date>/ in
                       the workspace)
  --threshold PCT      the stored-baseline and confirmed threshold (default 15)
  --own-thresholds     judge each probe by its own threshold from the stored
                       baseline (learned from its runs, yardstick baseline's
                       rule), the default for a probe without one
  --baseline FILE      the stored baseline to judge by, made before (say, in
                       another sitting: its baseline.json), instead of
                       pooling --baseline-runs new ones
  --baseline-runs N    quiet runs pooled into the stored baseline with
                       `yardstick baseline` (default 5, quick 2; 1: the
                       baseline is one run)
  --repeat N --warmup N --min-batch K
                       how each timed run samples (default 3, 1, 20; quick 2, 0, 10);
                       the paired comparison uses the same batch, which must
                       make each slowdown a whole number of iterations
  --paired-rounds N --paired-pairs N --paired-repeat N --paired-warmup N
                       how each paired comparison samples (default 30, 10,
                       1, 1; quick 7, 7, 1, 1; pairs at most the rounds)
  --count-batch K      iterations counted per probe (default 50: 2 % is one)
  --count-probes LIST  probes to count (default all; quick: the three fastest)
  --memory-mib N       the memory hog's buffer (default 256)
  --burst MIN,MAX      the bursty hog's on/off periods in seconds (default 0.2,5; quick 0.2,2)
  --seed N             run order, paired rounds and bursty pattern (default 1)
  --bench NAME         bench target to build (default micro)
  --bench-bin PATH     use this bench executable instead of building one
  --yardstick-bin PATH use this `yardstick` command instead of the one built
  --workspace DIR      the workspace to build in and run from

evaluate combine --out DIR PART PART...
  one report from several results folders made the same way, each with its
  own --seed (see evaluate/README.md)

evaluate rescore thresholds [--method=NAME] [--fences=K] [--baseline-run=K]
                            [--max-machine-slowdown=P] [--estimate-slowdown]
                            RESULTS.json THRESHOLD...
evaluate rescore paired RESULTS.json [--threshold=T,...] [--alpha=A,...]
  a results file's trials judged again by yardstick's rules at other
  thresholds, fences, baselines, machine-slowdown limits or significance
  levels, without measuring (`evaluate rescore --help`)";

/// Which probes the instruction-count runs count.
#[derive(Debug, Clone, PartialEq)]
pub enum CountProbes {
    All,
    /// The `n` probes with the smallest timed median: callgrind runs
    /// about 50 times slower than the probe, so the slow ones dominate.
    Fastest(usize),
    Named(Vec<String>),
}

/// Everything the evaluation is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub quick: bool,
    pub estimate_only: bool,
    pub out: Option<PathBuf>,
    pub methods: Vec<Method>,
    /// `--conditions`, when given.
    pub conditions: Option<Vec<Condition>>,
    pub aa_runs: Option<usize>,
    pub power_runs: Option<usize>,
    pub slowdowns: Option<Vec<f64>>,
    pub threshold: f64,
    /// Judge by each probe's own threshold from the stored baseline, not
    /// by `threshold`.
    pub own_thresholds: bool,
    /// Quiet runs made at the start and pooled into the stored baseline.
    pub baseline_runs: usize,
    /// A stored baseline made before (in another sitting), used instead of
    /// making one.
    pub baseline: Option<PathBuf>,
    pub sampling: Sampling,
    pub paired: PairedSampling,
    pub count_batch: u32,
    pub count_probes: CountProbes,
    pub memory_mib: usize,
    pub burst: (f64, f64),
    pub seed: u64,
    pub bench: String,
    pub bench_bin: Option<PathBuf>,
    pub yardstick_bin: Option<PathBuf>,
    pub workspace: Option<PathBuf>,
    pub help: bool,
}

/// Options given explicitly; the rest come from the defaults of the mode.
#[derive(Default)]
struct Given {
    burst: Option<(f64, f64)>,
    min_batch: Option<u32>,
    repeat: Option<u32>,
    warmup: Option<u32>,
    rounds: Option<u32>,
    baseline_runs: Option<usize>,
    count_probes: Option<CountProbes>,
}

impl Given {
    /// Reads the option `--name` (and its value) when it is one whose
    /// default `--quick` changes; false for any other name.
    fn read(&mut self, name: &str, p: &mut Parser) -> Result<bool, Error> {
        match name {
            "baseline-runs" => self.baseline_runs = Some(number(p, "--baseline-runs", 1)?),
            "repeat" => self.repeat = Some(number(p, "--repeat", 1)? as u32),
            "warmup" => self.warmup = Some(number(p, "--warmup", 0)? as u32),
            "min-batch" => self.min_batch = Some(number(p, "--min-batch", 1)? as u32),
            "paired-rounds" => self.rounds = Some(number(p, "--paired-rounds", 7)? as u32),
            "count-probes" => self.count_probes = Some(count_probes(&value(p, "--count-probes")?)?),
            "burst" => self.burst = Some(burst(&value(p, "--burst")?)?),
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl Options {
    pub fn parse<I>(args: I) -> Result<Options, Error>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut o = Options::full();
        let mut given = Given::default();
        let mut p = Parser::from_args(args);
        while let Some(arg) = p.next().map_err(usage)? {
            match arg {
                Arg::Short('h') | Arg::Long("help") => o.help = true,
                Arg::Long(name) => {
                    let name = name.to_string();
                    if !(o.read(&name, &mut p)? || given.read(&name, &mut p)?) {
                        return Err(usage(Arg::Long(&name).unexpected()));
                    }
                }
                other => return Err(usage(other.unexpected())),
            }
        }
        Ok(o.with(given))
    }

    /// The full evaluation's options: what runs without any option.
    fn full() -> Options {
        Options {
            quick: false,
            estimate_only: false,
            out: None,
            methods: Method::ALL.to_vec(),
            conditions: None,
            aa_runs: None,
            power_runs: None,
            slowdowns: None,
            threshold: 15.0,
            own_thresholds: false,
            baseline_runs: 5,
            baseline: None,
            sampling: Sampling {
                repeat: 3,
                warmup: 1,
                min_batch: 20,
            },
            paired: PairedSampling {
                rounds: 30,
                pairs: 10,
                repeat: 1,
                warmup: 1,
            },
            count_batch: 50,
            count_probes: CountProbes::All,
            memory_mib: 256,
            burst: (0.2, 5.0),
            seed: 1,
            bench: "micro".to_string(),
            bench_bin: None,
            yardstick_bin: None,
            workspace: None,
            help: false,
        }
    }

    /// Reads the option `--name` (and its value) when it is one whose
    /// default `--quick` leaves alone; false for any other name.
    fn read(&mut self, name: &str, p: &mut Parser) -> Result<bool, Error> {
        match name {
            "quick" => self.quick = true,
            "estimate-only" => self.estimate_only = true,
            "out" => self.out = Some(value(p, "--out")?.into()),
            "runs" => self.aa_runs = Some(number(p, "--runs", 1)?),
            "power-runs" => self.power_runs = Some(number(p, "--power-runs", 0)?),
            "slowdowns" => self.slowdowns = Some(slowdowns(&value(p, "--slowdowns")?)?),
            "conditions" => {
                let text = value(p, "--conditions")?;
                let all = &Condition::ALL;
                self.conditions = Some(list(&text, all, Condition::as_str, "--conditions")?)
            }
            "methods" => {
                let text = value(p, "--methods")?;
                self.methods = list(&text, &Method::ALL, Method::as_str, "--methods")?
            }
            "threshold" => self.threshold = positive(&value(p, "--threshold")?, "--threshold")?,
            "own-thresholds" => self.own_thresholds = true,
            "baseline" => self.baseline = Some(value(p, "--baseline")?.into()),
            "paired-pairs" => self.paired.pairs = number(p, "--paired-pairs", 7)? as u32,
            "paired-repeat" => self.paired.repeat = number(p, "--paired-repeat", 1)? as u32,
            "paired-warmup" => self.paired.warmup = number(p, "--paired-warmup", 0)? as u32,
            "count-batch" => self.count_batch = number(p, "--count-batch", 1)? as u32,
            "memory-mib" => self.memory_mib = number(p, "--memory-mib", 1)?,
            "seed" => self.seed = number(p, "--seed", 0)? as u64,
            "bench" => self.bench = value(p, "--bench")?,
            "bench-bin" => self.bench_bin = Some(value(p, "--bench-bin")?.into()),
            "yardstick-bin" => self.yardstick_bin = Some(value(p, "--yardstick-bin")?.into()),
            "workspace" => self.workspace = Some(value(p, "--workspace")?.into()),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The options with `--quick`'s defaults where it was given, then the
    /// options given explicitly over both: an explicit option wins
    /// whatever its position.
    fn with(mut self, given: Given) -> Options {
        if self.quick {
            self.burst = (0.2, 2.0);
            (self.sampling.repeat, self.sampling.warmup) = (2, 0);
            // Quick slowdowns are 10 and 40 %: one and four iterations of
            // ten, in half the time of a batch of twenty.
            self.sampling.min_batch = 10;
            self.paired.rounds = 7;
            self.count_probes = CountProbes::Fastest(3);
            self.baseline_runs = 2;
        }
        self.baseline_runs = given.baseline_runs.unwrap_or(self.baseline_runs);
        self.burst = given.burst.unwrap_or(self.burst);
        self.sampling.repeat = given.repeat.unwrap_or(self.sampling.repeat);
        self.sampling.warmup = given.warmup.unwrap_or(self.sampling.warmup);
        self.sampling.min_batch = given.min_batch.unwrap_or(self.sampling.min_batch);
        self.paired.rounds = given.rounds.unwrap_or(self.paired.rounds);
        // Never more worker pairs than rounds (compare-builds refuses it);
        // the results record the pairs the comparisons used.
        self.paired.pairs = self.paired.pairs.min(self.paired.rounds);
        self.count_probes = given.count_probes.unwrap_or(self.count_probes);
        self
    }

    /// The runs to make: each method's own cells (quick or full), under
    /// `--conditions` when given, with `--runs`, `--power-runs` and
    /// `--slowdowns` applied to all.
    pub fn cells(&self) -> Vec<Cell> {
        let mut out = Vec::new();
        for method in &self.methods {
            let own = if self.quick {
                method.quick_cells()
            } else {
                method.default_cells()
            };
            let chosen: Vec<Cell> = match &self.conditions {
                None => own,
                Some(conditions) => conditions
                    .iter()
                    .filter_map(|c| {
                        own.iter()
                            .find(|x| x.condition == *c)
                            .or_else(|| own.first())
                            .map(|x| Cell {
                                condition: *c,
                                ..x.clone()
                            })
                    })
                    .collect(),
            };
            for mut cell in chosen {
                cell.aa_runs = self.aa_runs.unwrap_or(cell.aa_runs);
                cell.power_runs = self.power_runs.unwrap_or(cell.power_runs);
                if let Some(s) = &self.slowdowns {
                    cell.slowdowns = s.clone();
                }
                out.push(cell);
            }
        }
        out
    }
}

fn count_probes(text: &str) -> Result<CountProbes, Error> {
    let names: Vec<String> = text
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(String::from)
        .collect();
    match names.as_slice() {
        [] => Err(Error("--count-probes: nothing selected".to_string())),
        [all] if all == "all" => Ok(CountProbes::All),
        _ => Ok(CountProbes::Named(names)),
    }
}

/// A list of names (`--methods`, `--conditions`).
fn list<T: Copy + PartialEq>(
    text: &str,
    all: &[T],
    name: fn(T) -> &'static str,
    what: &str,
) -> Result<Vec<T>, Error> {
    parse_list(text, all, name, what).map_err(Error)
}

fn usage(e: lexopt::Error) -> Error {
    Error(format!("{e}\n{USAGE}"))
}

fn value(p: &mut Parser, name: &str) -> Result<String, Error> {
    let v = p.value().map_err(usage)?;
    v.string()
        .map_err(|_| Error(format!("{name}: not valid UTF-8")))
}

/// A whole number of at least `min`; large counts are capped by usize.
fn number(p: &mut Parser, name: &str, min: usize) -> Result<usize, Error> {
    let text = value(p, name)?;
    match text.trim().parse::<usize>() {
        Ok(n) if n >= min && n <= 1_000_000 => Ok(n),
        _ => Err(Error(format!(
            "{name}: `{text}` is not a whole number from {min} to 1000000"
        ))),
    }
}

fn positive(text: &str, name: &str) -> Result<f64, Error> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 1000.0 => Ok(v),
        _ => Err(Error(format!(
            "{name}: `{text}` is not a number above 0 and at most 1000"
        ))),
    }
}

fn slowdowns(text: &str) -> Result<Vec<f64>, Error> {
    let mut out = Vec::new();
    for part in text.split(',').filter(|p| !p.trim().is_empty()) {
        let v = positive(part, "--slowdowns")?;
        if out.contains(&v) {
            return Err(Error(format!("--slowdowns: {v} given twice")));
        }
        out.push(v);
    }
    out.sort_by(f64::total_cmp);
    Ok(out)
}

fn burst(text: &str) -> Result<(f64, f64), Error> {
    let bad = || {
        Error(format!(
            "--burst: `{text}` is not MIN,MAX seconds with 0 < MIN <= MAX"
        ))
    };
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (a, b) = (positive(a, "--burst")?, positive(b, "--burst")?);
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(cells: &[Cell], m: Method, c: Condition) -> Option<&Cell> {
        cells.iter().find(|x| x.method == m && x.condition == c)
    }

    #[test]
    fn defaults_are_the_full_evaluation() {
        let o = Options::parse(Vec::<String>::new()).unwrap();
        assert_eq!(o.methods, Method::ALL);
        assert_eq!(o.threshold, 15.0);
        assert_eq!(o.burst, (0.2, 5.0));
        assert_eq!(
            (o.sampling.repeat, o.sampling.warmup, o.sampling.min_batch),
            (3, 1, 20)
        );
        assert_eq!(
            (
                o.paired.rounds,
                o.paired.pairs,
                o.paired.repeat,
                o.paired.warmup
            ),
            (30, 10, 1, 1)
        );
        assert_eq!((o.count_batch, &o.count_probes), (50, &CountProbes::All));
        assert_eq!(o.baseline_runs, 5);
        let cells = o.cells();
        let stored = find(&cells, Method::StoredBaseline, Condition::Cpu).unwrap();
        assert_eq!((stored.aa_runs, stored.power_runs), (300, 10));
        assert_eq!(stored.slowdowns, [5.0, 10.0, 15.0, 25.0, 40.0]);
        assert!(find(&cells, Method::StoredBaseline, Condition::Memory).is_none());
        let counts = find(&cells, Method::Instructions, Condition::Quiet).unwrap();
        assert_eq!(
            (counts.aa_runs, counts.slowdowns.as_slice()),
            (20, &[2.0][..])
        );
    }

    #[test]
    fn quick_changes_defaults_but_not_explicit_options() {
        let o = Options::parse(["--runs=7", "--quick"]).unwrap();
        assert_eq!(o.burst, (0.2, 2.0));
        assert_eq!(
            (o.sampling.repeat, o.sampling.warmup, o.sampling.min_batch),
            (2, 0, 10)
        );
        assert_eq!((o.paired.rounds, o.paired.pairs), (7, 7));
        assert!(!o.estimate_only);
        assert_eq!(o.count_probes, CountProbes::Fastest(3));
        assert_eq!(o.baseline_runs, 2);
        let cells = o.cells();
        assert!(cells.iter().all(|c| c.aa_runs == 7));
        for m in Method::ALL {
            assert!(cells.iter().any(|c| c.method == m), "{m:?}");
        }
        let o = Options::parse([
            "--warmup=2",
            "--quick",
            "--repeat=4",
            "--paired-rounds=9",
            "--count-probes=all",
            "--min-batch=20",
            "--estimate-only",
            "--baseline-runs=1",
        ])
        .unwrap();
        assert_eq!(o.baseline_runs, 1);
        assert_eq!((o.sampling.repeat, o.sampling.warmup), (4, 2));
        assert!(o.estimate_only && o.sampling.min_batch == 20);
        assert_eq!((o.paired.rounds, &o.count_probes), (9, &CountProbes::All));
        assert_eq!(o.paired.pairs, 9);
        let o = Options::parse([
            "--quick",
            "--methods=paired,stored-baseline",
            "--conditions=quiet,memory",
            "--power-runs",
            "0",
            "--slowdowns=40,5",
            "--burst=1,3",
            "--count-probes=a,b",
            "--out",
            "x",
        ])
        .unwrap();
        assert_eq!(o.burst, (1.0, 3.0));
        assert_eq!(o.out, Some(PathBuf::from("x")));
        assert_eq!(
            o.count_probes,
            CountProbes::Named(vec!["a".into(), "b".into()])
        );
        let cells = o.cells();
        assert_eq!(cells.len(), 4);
        // Paired has no quick cell under memory: it takes its first one's.
        let memory = find(&cells, Method::Paired, Condition::Memory).unwrap();
        assert_eq!((memory.aa_runs, memory.power_runs), (2, 0));
        assert!(cells.iter().all(|c| c.slowdowns == [5.0, 40.0]));
    }

    #[test]
    fn bad_options_name_themselves() {
        for (args, needle) in [
            (vec!["--runs=0"], "--runs"),
            (vec!["--runs=x"], "--runs"),
            (vec!["--threshold=-1"], "--threshold"),
            (vec!["--slowdowns=5,5"], "--slowdowns"),
            (vec!["--burst=3,1"], "--burst"),
            (vec!["--burst=3"], "--burst"),
            (vec!["--conditions=gpu"], "--conditions"),
            (vec!["--methods=cycles"], "--methods"),
            (vec!["--paired-rounds=6"], "--paired-rounds"),
            (vec!["--paired-pairs=6"], "--paired-pairs"),
            (vec!["--count-probes=,"], "--count-probes"),
            (vec!["--frobnicate"], "--frobnicate"),
            (vec!["stray"], "stray"),
            (vec!["--out"], "--out"),
        ] {
            let e = Options::parse(args).unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
    }
}

#[cfg(test)]
mod properties {
    use super::Options;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn parsing_never_panics(args in proptest::collection::vec("(--?[a-z-]{0,12}(=[^\u{0}]{0,8})?|[^\u{0}]{0,8})", 0..6)) {
            let _ = Options::parse(args);
        }
    }
}
