//! `yardstick baseline RUN... --output=FILE`: learns a baseline from several
//! saved runs of one build (see `learn`).

use super::common::{Flag, path, percent};
use crate::compare::micro::DEFAULT_THRESHOLD;
use crate::error::Error;
use crate::learn::{self, Learned};
use crate::report::layout::{Align, Table};
use crate::store;
use lexopt::Parser;
use std::ffi::OsString;
use std::path::PathBuf;

const USAGE: &str = "usage: yardstick baseline RUN RUN RUN... --output=FILE [--threshold=PCT]";

/// What `yardstick baseline` was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct LearnOptions {
    pub runs: Vec<PathBuf>,
    pub output: PathBuf,
    /// The highest threshold a probe is given: that of the comparisons the
    /// baseline is for.
    pub threshold: f64,
}

impl LearnOptions {
    pub fn parse(args: Vec<OsString>) -> Result<LearnOptions, Error> {
        let mut runs = Vec::new();
        let mut output = None;
        let mut threshold = DEFAULT_THRESHOLD;
        let mut parser = Parser::from_args(args);
        while let Some(arg) = parser.next()? {
            match Flag::from(arg) {
                Flag::Long(name) if name == "output" => {
                    output = Some(path(&mut parser, "--output")?)
                }
                Flag::Short('o') => output = Some(path(&mut parser, "-o")?),
                Flag::Long(name) if name == "threshold" => {
                    threshold = percent(&mut parser, "--threshold")?
                }
                Flag::Value(v) => runs.push(PathBuf::from(v)),
                other => return Err(other.unexpected()),
            }
        }
        let output =
            output.ok_or_else(|| Error::usage(format!("--output is required; {USAGE}")))?;
        if runs.len() < learn::MIN_RUNS {
            return Err(Error::usage(format!(
                "a baseline is learned from at least {} runs ({} given); {USAGE}",
                learn::MIN_RUNS,
                runs.len()
            )));
        }
        Ok(LearnOptions {
            runs,
            output,
            threshold,
        })
    }
}

/// Learns, saves and prints what was chosen for each probe.
pub fn main(options: &LearnOptions) -> Result<i32, Error> {
    let mut runs = Vec::with_capacity(options.runs.len());
    for p in &options.runs {
        runs.push((p.display().to_string(), store::load(p)?));
    }
    let learned = learn::learn(&runs, options.threshold)?;
    store::save(&options.output, &learned.run)?;
    print!("{}", render(&learned, options));
    Ok(0)
}

/// Per probe: the divisor kept, its threshold, and every divisor's fence.
fn render(learned: &Learned, options: &LearnOptions) -> String {
    let mut names: Vec<&str> = Vec::new();
    for c in &learned.choices {
        for (n, _) in &c.fences {
            if !names.contains(&n.name()) {
                names.push(n.name());
            }
        }
    }
    let mut columns = vec![
        ("probe", Align::Left),
        ("divisor", Align::Left),
        ("threshold", Align::Right),
    ];
    columns.extend(names.iter().map(|n| (*n, Align::Right)));
    let mut t = Table::new(&columns);
    for c in &learned.choices {
        let mut cells = vec![
            c.key.clone(),
            c.normalizer.name().to_string(),
            format!("{:.1} %", c.threshold),
        ];
        for name in &names {
            cells.push(
                c.fences
                    .iter()
                    .find(|(n, _)| n.name() == *name)
                    .map(|(_, f)| format!("{f:.1}"))
                    .unwrap_or_else(|| "-".into()),
            );
        }
        t.push(cells);
    }
    format!(
        "learned from {} runs, for comparisons at {} %; per divisor, the fence (Q3 + 3 IQR) of \
         its A/A changes in percent:\n{}saved {}\n",
        options.runs.len(),
        options.threshold,
        t.render(),
        options.output.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<LearnOptions, Error> {
        LearnOptions::parse(args.iter().map(OsString::from).collect())
    }

    #[test]
    fn runs_output_and_threshold() {
        let o = parse(&[
            "a.json",
            "b.json",
            "c.json",
            "--output=base.json",
            "--threshold=15",
        ])
        .unwrap();
        assert_eq!(o.runs.len(), 3);
        assert_eq!(o.output, PathBuf::from("base.json"));
        assert_eq!(o.threshold, 15.0);
        let o = parse(&["a", "b", "c", "-o", "x.json"]).unwrap();
        assert_eq!(o.threshold, DEFAULT_THRESHOLD);
    }

    #[test]
    fn refusals_name_the_option() {
        let e = parse(&["a", "b", "c"]).unwrap_err().to_string();
        assert!(e.contains("--output"), "{e}");
        let e = parse(&["a", "b", "-o", "x"]).unwrap_err().to_string();
        assert!(e.contains("at least 3 runs"), "{e}");
        let e = parse(&["a", "b", "c", "-o", "x", "--threshold=0"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("--threshold"), "{e}");
        let e = parse(&["a", "b", "c", "-o", "x", "--json"])
            .unwrap_err()
            .to_string();
        assert!(e.contains("--json"), "{e}");
    }
}
