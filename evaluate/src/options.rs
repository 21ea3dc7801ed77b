//! The evaluate command's options. `--quick` changes only the defaults, so
//! an explicit option wins whatever its position.

use crate::Error;
use crate::bench::Sampling;
use crate::plan::{Condition, Method, parse_list};
use lexopt::{Arg, Parser, ValueExt};
use std::ffi::OsString;
use std::path::PathBuf;

pub const USAGE: &str = "usage: evaluate [OPTIONS]
Measures how often yardstick's verdict flags identical code (A/A) and how
often it catches a slowdown injected into every probe, under load.

  --quick              a few runs of each, sampled more briefly (--repeat=2
                       --warmup=0), to check that the harness works
  --out DIR            results folder (default results/<date>/ in the workspace)
  --runs N             A/A runs per condition and method (default 300, quick 5)
  --power-runs N       runs per slowdown, condition and method (default 50, quick 2)
  --slowdowns LIST     injected slowdowns in percent (default 5,10,15,25,40)
  --conditions LIST    quiet,cpu,memory,bursty (default all)
  --methods LIST       stored-baseline (default all)
  --threshold PCT      the verdict's threshold (default 15)
  --repeat N --warmup N --min-batch K
                       how each bench run samples (default 3, 1, 20; quick 2, 0, 20)
  --memory-mib N       the memory hog's buffer (default 256)
  --burst MIN,MAX      the bursty hog's on/off periods in seconds (default 0.2,5; quick 0.2,2)
  --seed N             run order and bursty pattern (default 1)
  --bench NAME         bench target to build (default micro)
  --bench-bin PATH     use this bench executable instead of building one
  --workspace DIR      the workspace to build in and run from";

/// Everything the evaluation is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub quick: bool,
    pub out: Option<PathBuf>,
    pub aa_runs: usize,
    pub power_runs: usize,
    pub slowdowns: Vec<f64>,
    pub conditions: Vec<Condition>,
    pub methods: Vec<Method>,
    pub threshold: f64,
    pub sampling: Sampling,
    pub memory_mib: usize,
    pub burst: (f64, f64),
    pub seed: u64,
    pub bench: String,
    pub bench_bin: Option<PathBuf>,
    pub workspace: Option<PathBuf>,
    pub help: bool,
}

/// Options given explicitly; the rest come from the defaults of the mode.
#[derive(Default)]
struct Given {
    runs: Option<usize>,
    power_runs: Option<usize>,
    burst: Option<(f64, f64)>,
    repeat: Option<u32>,
    warmup: Option<u32>,
}

impl Options {
    pub fn parse<I>(args: I) -> Result<Options, Error>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut o = Options {
            quick: false,
            out: None,
            aa_runs: 300,
            power_runs: 50,
            slowdowns: vec![5.0, 10.0, 15.0, 25.0, 40.0],
            conditions: Condition::ALL.to_vec(),
            methods: Method::ALL.to_vec(),
            threshold: 15.0,
            sampling: Sampling {
                repeat: 3,
                warmup: 1,
                min_batch: 20,
            },
            memory_mib: 256,
            burst: (0.2, 5.0),
            seed: 1,
            bench: "micro".to_string(),
            bench_bin: None,
            workspace: None,
            help: false,
        };
        let mut given = Given::default();
        let mut p = Parser::from_args(args);
        while let Some(arg) = p.next().map_err(usage)? {
            match arg {
                Arg::Long("quick") => o.quick = true,
                Arg::Short('h') | Arg::Long("help") => o.help = true,
                Arg::Long("out") => o.out = Some(value(&mut p, "--out")?.into()),
                Arg::Long("runs") => given.runs = Some(number(&mut p, "--runs", 1)?),
                Arg::Long("power-runs") => {
                    given.power_runs = Some(number(&mut p, "--power-runs", 0)?)
                }
                Arg::Long("slowdowns") => o.slowdowns = slowdowns(&value(&mut p, "--slowdowns")?)?,
                Arg::Long("conditions") => {
                    o.conditions = parse_list(
                        &value(&mut p, "--conditions")?,
                        &Condition::ALL,
                        Condition::as_str,
                        "--conditions",
                    )
                    .map_err(Error)?
                }
                Arg::Long("methods") => {
                    o.methods = parse_list(
                        &value(&mut p, "--methods")?,
                        &Method::ALL,
                        Method::as_str,
                        "--methods",
                    )
                    .map_err(Error)?
                }
                Arg::Long("threshold") => {
                    o.threshold = positive(&value(&mut p, "--threshold")?, "--threshold")?
                }
                Arg::Long("repeat") => given.repeat = Some(number(&mut p, "--repeat", 1)? as u32),
                Arg::Long("warmup") => given.warmup = Some(number(&mut p, "--warmup", 0)? as u32),
                Arg::Long("min-batch") => {
                    o.sampling.min_batch = number(&mut p, "--min-batch", 1)? as u32
                }
                Arg::Long("memory-mib") => o.memory_mib = number(&mut p, "--memory-mib", 1)?,
                Arg::Long("burst") => given.burst = Some(burst(&value(&mut p, "--burst")?)?),
                Arg::Long("seed") => o.seed = number(&mut p, "--seed", 0)? as u64,
                Arg::Long("bench") => o.bench = value(&mut p, "--bench")?,
                Arg::Long("bench-bin") => o.bench_bin = Some(value(&mut p, "--bench-bin")?.into()),
                Arg::Long("workspace") => o.workspace = Some(value(&mut p, "--workspace")?.into()),
                other => return Err(usage(other.unexpected())),
            }
        }
        if o.quick {
            (o.aa_runs, o.power_runs, o.burst) = (5, 2, (0.2, 2.0));
            (o.sampling.repeat, o.sampling.warmup) = (2, 0);
        }
        o.aa_runs = given.runs.unwrap_or(o.aa_runs);
        o.power_runs = given.power_runs.unwrap_or(o.power_runs);
        o.burst = given.burst.unwrap_or(o.burst);
        o.sampling.repeat = given.repeat.unwrap_or(o.sampling.repeat);
        o.sampling.warmup = given.warmup.unwrap_or(o.sampling.warmup);
        Ok(o)
    }
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

    #[test]
    fn defaults_are_the_full_evaluation() {
        let o = Options::parse(Vec::<String>::new()).unwrap();
        assert_eq!((o.aa_runs, o.power_runs), (300, 50));
        assert_eq!(o.conditions, Condition::ALL);
        assert_eq!(o.slowdowns, [5.0, 10.0, 15.0, 25.0, 40.0]);
        assert_eq!(o.threshold, 15.0);
        assert_eq!(o.burst, (0.2, 5.0));
        assert_eq!(
            (o.sampling.repeat, o.sampling.warmup, o.sampling.min_batch),
            (3, 1, 20)
        );
    }

    #[test]
    fn quick_changes_defaults_but_not_explicit_options() {
        let o = Options::parse(["--runs=7", "--quick"]).unwrap();
        assert_eq!((o.aa_runs, o.power_runs, o.burst), (7, 2, (0.2, 2.0)));
        assert_eq!((o.sampling.repeat, o.sampling.warmup), (2, 0));
        let o = Options::parse(["--warmup=2", "--quick", "--repeat=4"]).unwrap();
        assert_eq!((o.sampling.repeat, o.sampling.warmup), (4, 2));
        let o = Options::parse([
            "--quick",
            "--conditions=quiet,cpu",
            "--power-runs",
            "0",
            "--slowdowns=40,5",
            "--burst=1,3",
            "--out",
            "x",
        ])
        .unwrap();
        assert_eq!(o.conditions, [Condition::Quiet, Condition::Cpu]);
        assert_eq!((o.aa_runs, o.power_runs, o.burst), (5, 0, (1.0, 3.0)));
        assert_eq!(o.slowdowns, [5.0, 40.0]);
        assert_eq!(o.out, Some(PathBuf::from("x")));
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
            (vec!["--methods=paired"], "--methods"),
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
