//! Which run a new run is judged against: a file named on the command line,
//! a committed baseline of this machine class or of counts ([`history`],
//! [`counts`]), and baselines pooled from several runs ([`pool`]); and
//! where a bench keeps its runs ([`keeper`]). The harness (`yardstick`)
//! chooses a bench's baseline here, and the `yardstick` command pools one.

#![warn(missing_docs)]

pub mod counts;
pub mod history;
pub mod keeper;
pub mod pool;
pub mod thresholds;

// The crates below, by the names the rest of yardstick gives them.
use yardstick_document as document;
use yardstick_document::error;
use yardstick_judge as judge;
use yardstick_measure as measure;
use yardstick_probe as probe;
use yardstick_stats as stats;

use crate::document::run::{Metric, Mode, Run};
use crate::document::store;
use crate::error::Error;
use crate::history::{Bench, Choice, Last};
use crate::judge::Rules;
use crate::keeper::FromHistory;
use std::path::Path;

/// A baseline run and the name it is shown under.
pub struct Baseline {
    /// How the baseline is named in messages and reports (its path as typed).
    pub name: String,
    /// The baseline run itself.
    pub run: Run,
    /// Why it was chosen, when yardstick chose it.
    pub basis: Option<String>,
    /// Compared as information: its regressions do not fail the run.
    pub informational: bool,
}

/// What the command line asks to compare with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked<'a> {
    /// This file (`--baseline`).
    File(&'a Path),
    /// Nothing (`--no-baseline`).
    None,
    /// Whatever a bench chooses; nothing for other commands.
    Default,
    /// The last N runs like this one kept in the history
    /// (`--baseline=history[:N]`), and the history.
    History(usize, Option<&'a str>),
    /// The run saved as this name (`--save-baseline=NAME`).
    Named(&'a str),
}

/// The baseline a run is compared with, or why there is none.
pub enum Resolved {
    /// The baseline found.
    Baseline(Box<Baseline>),
    /// None asked for (`--no-baseline`, or no default to look for).
    NotAsked,
    /// A bench found nothing to judge by; the reason, in a line.
    Nothing(String),
}

impl Baseline {
    /// The baseline to compare with: the file asked for, else (for a bench,
    /// unless none is asked for) the one `bench` chooses for machine class
    /// `class`.
    /// Read before measuring, so a bad file costs no run.
    ///
    /// `--baseline=history[:N]` takes the history's runs like a run of
    /// `kind` (mode and metric); with too few it says so and falls back to
    /// what a bench chooses.
    pub fn resolve(
        asked: Asked<'_>,
        bench: Option<&Bench>,
        class: Option<&str>,
        kind: (Mode, Metric),
    ) -> Result<Resolved, Error> {
        let bench = match asked {
            Asked::File(path) => {
                return Baseline::load(path).map(|b| Resolved::Baseline(Box::new(b)));
            }
            Asked::None => None,
            Asked::Default => bench,
            Asked::History(n, option) => {
                return Baseline::from_history(n, option, bench, class, kind);
            }
            Asked::Named(name) => {
                let path = history::named(name);
                if !path.is_file() {
                    return Err(Error::input(format!(
                        "--baseline={name}: no such file, and no baseline saved as {name} ({}: \
                         --save-baseline={name} saves one)",
                        path.display()
                    )));
                }
                return Baseline::load(&path).map(|b| Resolved::Baseline(Box::new(b)));
            }
        };
        let Some(bench) = bench else {
            return Ok(Resolved::NotAsked);
        };
        let shown = class.unwrap_or("unknown");
        Ok(match bench.choose(class) {
            Choice::Committed(path) => Resolved::Baseline(Box::new(Baseline {
                basis: Some(format!("committed for machine class {shown}")),
                ..Baseline::load(&path)?
            })),
            Choice::LastRun(last) => match Baseline::last(last) {
                Ok(b) => Resolved::Baseline(Box::new(Baseline {
                    basis: Some(format!(
                        "the last run on machine class {shown}, as information: no baseline is \
                         committed for it{}{}",
                        class
                            .map(|c| format!(" ({})", bench.committed(c).display()))
                            .unwrap_or_default(),
                        bench.legacy_note()
                    )),
                    informational: true,
                    ..b
                })),
                // A kept run that cannot be read is no reason to refuse
                // the run: the next run replaces it.
                Err(e) => Resolved::Nothing(format!("the last run kept is unreadable ({e})")),
            },
            Choice::Nothing(why) => Resolved::Nothing(why),
        })
    }

    /// `--baseline=history[:N]`, falling back to what `bench` chooses.
    fn from_history(
        n: usize,
        option: Option<&str>,
        bench: Option<&Bench>,
        class: Option<&str>,
        kind: (Mode, Metric),
    ) -> Result<Resolved, Error> {
        let name = bench.map(|b| b.name.as_str());
        let too_few = match keeper::keeper().history_baseline(n, option, kind, name)? {
            FromHistory::Baseline(b) => return Ok(Resolved::Baseline(b)),
            FromHistory::TooFew(why) => why,
        };
        // As cargo bench chooses, never across machine classes.
        Ok(
            match Baseline::resolve(Asked::Default, bench, class, kind)? {
                Resolved::Baseline(b) => Resolved::Baseline(Box::new(Baseline {
                    basis: Some(format!(
                        "{} (--baseline=history: {too_few})",
                        b.basis.clone().unwrap_or_default()
                    )),
                    ..*b
                })),
                Resolved::NotAsked => Resolved::Nothing(format!("--baseline=history: {too_few}")),
                Resolved::Nothing(why) => {
                    Resolved::Nothing(format!("--baseline=history: {too_few}; {why}"))
                }
            },
        )
    }

    /// Refuses, before anything is measured, a baseline that a run of
    /// `mode` and `metric` could not be compared with: the run would be
    /// measured for nothing.
    pub fn suits(&self, mode: Mode, metric: Metric) -> Result<(), Error> {
        if self.run.mode != mode {
            return Err(Error::input(format!(
                "{}: {} is no baseline for {}",
                self.name,
                self.run.mode.a_run_of(self.run.metric),
                mode.a_run_of(metric)
            )));
        }
        if mode == Mode::Micro && !judge::comparable(self.run.metric, metric) {
            return Err(Error::input(format!(
                "{}: a run of {} is no baseline for a run of {}",
                self.name,
                self.run.metric.said(),
                metric.said()
            )));
        }
        Ok(())
    }

    /// The last run a bench kept, as a baseline.
    fn last(last: Last) -> Result<Baseline, Error> {
        match last {
            Last::File(path) => Baseline::load(&path),
            Last::Kept(name, run) => Ok(Baseline {
                name,
                run: *run,
                basis: None,
                informational: false,
            }),
        }
    }

    /// Reads the baseline at `path`; refuses a timed micro run without
    /// calibration, which nothing could be compared with.
    pub fn load(path: &Path) -> Result<Baseline, Error> {
        // Shown relative to the working directory when it is inside it, as
        // the user would have typed it.
        let shown = std::env::current_dir()
            .ok()
            .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
            .unwrap_or_else(|| path.to_path_buf());
        let run = store::load(&shown)?;
        let name = shown.display().to_string();
        if judge::method(&run) == crate::document::comparison::Method::Normalized {
            judge::calibration(&run, &name)?;
        }
        Ok(Baseline {
            name,
            run,
            basis: None,
            informational: false,
        })
    }

    /// Attaches the comparison of `run` with this baseline under `rules`.
    pub fn judge(&self, mut run: Run, rules: &Rules) -> Result<Run, Error> {
        let mut c = judge::compare(&self.run, &self.name, &run, rules)?;
        c.basis = self.basis.clone();
        c.informational |= self.informational;
        let unjudged = c.too_slow_to_judge();
        if !unjudged.is_empty() {
            run.warnings.push(format!(
                "inconclusive: {} over the threshold, but the machine ran too slow to judge \
                 (see the comparison)",
                unjudged.join(", ")
            ));
        }
        run.comparison = Some(c);
        Ok(run)
    }
}
