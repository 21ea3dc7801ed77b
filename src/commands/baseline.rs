//! `yardstick baseline RUN... --output=FILE`: pools saved runs of one build
//! into the baseline later runs compare with (see [`crate::baseline::pool`]),
//! with each probe's own threshold learned from the spread of the runs of
//! its class ([`crate::baseline::thresholds`]): the runs pooled, or a
//! bench's runs in a history (`--history=FILE --bench=NAME`).

use super::common::{Common, HISTORY};
use super::flags::{Def, Entry, Flag, Options, Section, Set, Spec};
use crate::baseline::pool;
use crate::baseline::thresholds::{self, Learned};
use crate::document::run::{Mode, Row, Run};
use crate::document::store;
use crate::error::Error;
use crate::output::layout::{Align, Table, change, significant};
use crate::output::stdout;
use lexopt::Parser;
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::PathBuf;

/// `yardstick baseline`'s command line.
pub(crate) static SPEC: Spec<BaselineOptions> = Spec {
    command: "baseline",
    usage: "usage: yardstick baseline RUN... --output=FILE",
    about: "Pools saved runs of one build and machine class into one baseline: every
sample of every run, each beside the calibration loop timed just before it.
Prints how far each run sat from the pooled figure, so an odd run is seen
before it becomes the baseline. Each probe gets a threshold of its own from
the spread of at least 20 runs of its class: the runs pooled, or a bench's
runs kept in a history (--history with --bench). docs/baselines.md,
\"Wall-time baselines\", has the recipe.",
    sections: &[Section {
        title: None,
        entries: &[
            Entry::Own(Def {
                long: "output",
                short: Some('o'),
                value: Some("FILE"),
                help: "where the baseline goes (required)",
                set: Set::Path(|o, p| o.output = p),
            }),
            Entry::SharedAs(
                &HISTORY,
                "learn each probe's threshold from this history's runs of the bench \
                 (--bench) and the runs' machine class, instead of from the runs pooled",
            ),
            Entry::Own(Def {
                long: "bench",
                short: None,
                value: Some("NAME"),
                help: "the bench whose kept runs teach the thresholds (micro for \
                       benches/micro.rs); needed with --history, so that another bench's \
                       runs never do",
                set: Set::Text(|o, v, _| {
                    o.bench = Some(v.to_string());
                    Ok(())
                }),
            }),
        ],
    }],
    notes: "",
    exit: "Exit codes: 0, or 2 on bad usage or input (one line on stderr).\n",
    refuses: &[],
};

/// What `yardstick baseline` was asked.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct BaselineOptions {
    pub runs: Vec<PathBuf>,
    pub output: PathBuf,
    /// `--history`, here.
    pub common: Common,
    /// `--bench`.
    pub bench: Option<String>,
}

impl Options for BaselineOptions {
    fn common(&mut self) -> Option<&mut Common> {
        Some(&mut self.common)
    }
}

impl BaselineOptions {
    pub fn parse(args: Vec<OsString>) -> Result<BaselineOptions, Error> {
        let mut o = BaselineOptions::default();
        let mut parser = Parser::from_args(args);
        while let Some(flag) = SPEC.next(&mut parser, &mut o)? {
            match flag {
                Flag::Value(v) => o.runs.push(PathBuf::from(v)),
                other => return Err(SPEC.unexpected(&other)),
            }
        }
        if o.output.as_os_str().is_empty() {
            return Err(Error::usage(format!(
                "--output is required; {}",
                SPEC.usage
            )));
        }
        if o.runs.is_empty() {
            return Err(Error::usage(format!("no run to pool; {}", SPEC.usage)));
        }
        if o.common.history.is_some() != o.bench.is_some() {
            return Err(Error::usage(
                "--history and --bench go together: the thresholds are learned from one \
                 bench's runs in one history",
            ));
        }
        Ok(o)
    }
}

/// Pools, saves, and prints how far each run sat from the pooled figure.
pub(crate) fn main(options: &BaselineOptions) -> Result<i32, Error> {
    // An output that is one of the runs pooled would replace it.
    let inputs: Vec<&std::path::Path> = options.runs.iter().map(PathBuf::as_path).collect();
    store::check_distinct(&options.output, "--output", &inputs)?;
    store::check_writable(&options.output)?;
    let mut runs = Vec::with_capacity(options.runs.len());
    for p in &options.runs {
        runs.push((p.display().to_string(), store::load(p)?));
    }
    // One run of another tool becomes a baseline as it is, in yardstick's
    // format; several are not pooled (`pool` says why).
    if let [(name, run)] = runs.as_slice()
        && let Some(imported) = &run.environment.imported
    {
        store::save(&options.output, run)?;
        stdout::line(&format!(
            "{name}: the {} run of {} rows, saved as a baseline as it is (runs of another \
             tool are not pooled)",
            imported.tool,
            run.rows.len()
        ));
        return Ok(0);
    }
    let mut pooled = pool::pool(&runs)?;
    // Kernel mode judges absolute times by one threshold: only micro
    // mode's normalised figures learn their own.
    let learned = match (&options.common.history, &options.bench) {
        _ if pooled.mode != Mode::Micro => None,
        (Some(history), Some(bench)) => Some(from_history(history, bench, &pooled)?),
        _ => Some(thresholds::learn(&pooled, &runs)),
    };
    pooled.thresholds = learned.as_ref().map(|l| l.thresholds.clone());
    store::save(&options.output, &pooled)?;
    stdout::print(&crate::output::github::shielded(&render(
        &runs,
        &pooled,
        learned.as_ref(),
        options,
    )));
    Ok(0)
}

/// The thresholds `bench`'s runs in the history `option` teach the probes
/// of `pooled`.
fn from_history(option: &str, bench: &str, pooled: &Run) -> Result<Learned, Error> {
    let location = crate::history::Location::from_option(option)?;
    let runs = crate::history::keeping::recorded::learning_runs(&location, pooled, bench)?;
    Ok(thresholds::learn(pooled, &runs))
}

/// Per probe: the pooled x calib, and the runs' own figures as changes from
/// it, so an odd run is seen before it would have become the baseline.
fn render(
    runs: &[(String, Run)],
    pooled: &Run,
    learned: Option<&Learned>,
    options: &BaselineOptions,
) -> String {
    let mut columns = vec![
        ("probe", Align::Left),
        ("n", Align::Right),
        ("x calib", Align::Right),
        ("runs from it: min", Align::Right),
        ("max", Align::Right),
    ];
    if learned.is_some() {
        columns.push(("threshold", Align::Right));
    }
    let mut t = Table::new(&columns);
    let indexes: Vec<HashMap<&str, &Row>> = runs
        .iter()
        .map(|(_, run)| run.rows.iter().map(|r| (r.key.as_str(), r)).collect())
        .collect();
    for row in &pooled.rows {
        let changes: Vec<f64> = indexes
            .iter()
            .filter_map(|index| index.get(row.key.as_str()).copied())
            .filter_map(|r| Some((r.normalized_median(f64::NAN)? / row.normalized? - 1.0) * 100.0))
            .collect();
        let low = changes.iter().copied().reduce(f64::min);
        let high = changes.iter().copied().reduce(f64::max);
        let shown = |v: Option<f64>| v.map_or_else(|| "-".to_string(), change);
        let mut cells = vec![
            row.key.clone(),
            row.figures.n.to_string(),
            row.normalized
                .map_or_else(|| "-".to_string(), |v| significant(v, 4)),
            shown(low),
            shown(high),
        ];
        if let Some(l) = learned {
            let own = l.thresholds.of(&row.key);
            cells.push(own.map_or_else(|| "default".to_string(), |t| format!("{t:.1} %")));
        }
        t.push(cells);
    }
    let (learned_from, notes) = match learned {
        Some(l) => (
            format!("; thresholds from {} runs of the class", l.thresholds.runs),
            l.notes
                .iter()
                .map(|n| format!("{}\n", crate::text::clean(n)))
                .collect(),
        ),
        None => (String::new(), String::new()),
    };
    format!(
        "pooled {} runs ({} samples per probe at most){learned_from}\n{}{notes}saved {}\n",
        runs.len(),
        pooled.rows.iter().map(|r| r.figures.n).max().unwrap_or(0),
        t.render(),
        crate::text::clean(&options.output.display().to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<BaselineOptions, Error> {
        BaselineOptions::parse(args.iter().map(OsString::from).collect())
    }

    #[test]
    fn runs_and_output() {
        let o = parse(&["a.json", "b.json", "c.json", "--output=base.json"]).unwrap();
        assert_eq!(o.runs.len(), 3);
        assert_eq!(o.output, PathBuf::from("base.json"));
        let o = parse(&["a", "-o", "x.json"]).unwrap();
        assert_eq!(o.runs, [PathBuf::from("a")]);
    }

    #[test]
    fn refusals_name_the_option() {
        let e = parse(&["a", "b"]).unwrap_err().to_string();
        assert!(e.contains("--output"), "{e}");
        let e = parse(&["-o", "x"]).unwrap_err().to_string();
        assert!(e.contains("no run"), "{e}");
        let e = parse(&["a", "-o", "x", "--json"]).unwrap_err().to_string();
        assert!(e.contains("--json"), "{e}");
    }
}
