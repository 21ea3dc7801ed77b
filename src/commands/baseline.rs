//! `yardstick baseline RUN... --output=FILE`: pools saved runs of one build
//! into the baseline later runs compare with (see [`crate::baseline::pool`]).

use super::common::Common;
use super::flags::{Def, Entry, Flag, Options, Section, Set, Spec};
use crate::baseline::pool;
use crate::document::run::{Row, Run};
use crate::document::store;
use crate::error::Error;
use crate::output::layout::{Align, Table, change, significant};
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
before it becomes the baseline. docs/baselines.md, \"Wall-time baselines\",
has the recipe.",
    sections: &[Section {
        title: None,
        entries: &[Entry::Own(Def {
            long: "output",
            short: Some('o'),
            value: Some("FILE"),
            help: "where the baseline goes (required)",
            set: Set::Path(|o, p| o.output = p),
        })],
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
}

impl Options for BaselineOptions {
    fn common(&mut self) -> Option<&mut Common> {
        None
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
        Ok(o)
    }
}

/// Pools, saves, and prints how far each run sat from the pooled figure.
pub(crate) fn main(options: &BaselineOptions) -> Result<i32, Error> {
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
        println!(
            "{name}: the {} run of {} rows, saved as a baseline as it is (runs of another \
             tool are not pooled)",
            imported.tool,
            run.rows.len()
        );
        return Ok(0);
    }
    let pooled = pool::pool(&runs)?;
    store::save(&options.output, &pooled)?;
    print!(
        "{}",
        crate::output::github::shielded(&render(&runs, &pooled, options))
    );
    Ok(0)
}

/// Per probe: the pooled x calib, and the runs' own figures as changes from
/// it, so an odd run is seen before it would have become the baseline.
fn render(runs: &[(String, Run)], pooled: &Run, options: &BaselineOptions) -> String {
    let mut t = Table::new(&[
        ("probe", Align::Left),
        ("n", Align::Right),
        ("x calib", Align::Right),
        ("runs from it: min", Align::Right),
        ("max", Align::Right),
    ]);
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
        t.push(vec![
            row.key.clone(),
            row.figures.n.to_string(),
            row.normalized
                .map_or_else(|| "-".to_string(), |v| significant(v, 4)),
            shown(low),
            shown(high),
        ]);
    }
    format!(
        "pooled {} runs ({} samples per probe at most)\n{}saved {}\n",
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
