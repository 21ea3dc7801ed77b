//! What happens to a finished run: compared with its baseline, printed,
//! saved, announced to GitHub Actions, and turned into an exit code. Every
//! measuring mode ends here, so they all behave alike.

use crate::baseline::history::{Bench, Choice};
use crate::commands::common::{Common, Format};
use crate::document::run::{Metric, Mode, Run};
use crate::document::store;
use crate::error::Error;
use crate::judge::{self, Rules};
use crate::output::{self, github, markdown, verdict};
use std::io::Write;
use std::path::Path;

/// A baseline run and the name it is shown under.
pub struct Baseline {
    pub name: String,
    pub run: Run,
    /// Why it was chosen, when yardstick chose it.
    pub basis: Option<String>,
    /// Compared as information: its regressions do not fail the run.
    pub informational: bool,
}

/// The baseline a run is compared with, or why there is none.
pub enum Resolved {
    Baseline(Box<Baseline>),
    /// None asked for (`--no-baseline`, or no default to look for).
    NotAsked,
    /// A bench found nothing to judge by; the reason, in a line.
    Nothing(String),
}

impl Baseline {
    /// The baseline to compare with: `--baseline`, else (for a bench, unless
    /// `--no-baseline`) the one `bench` chooses for machine class `class`.
    /// Read before measuring, so a bad file costs no run.
    pub fn resolve(
        common: &Common,
        bench: Option<&Bench>,
        class: Option<&str>,
    ) -> Result<Resolved, Error> {
        if common.baseline.is_some() && common.no_baseline {
            return Err(Error::usage(
                "--baseline and --no-baseline contradict each other",
            ));
        }
        if let Some(path) = &common.baseline {
            return Baseline::load(path).map(|b| Resolved::Baseline(Box::new(b)));
        }
        let Some(bench) = bench.filter(|_| !common.no_baseline) else {
            return Ok(Resolved::NotAsked);
        };
        let shown = class.unwrap_or("unknown");
        Ok(match bench.choose(class) {
            Choice::Committed(path) => Resolved::Baseline(Box::new(Baseline {
                basis: Some(format!("committed for machine class {shown}")),
                ..Baseline::load(&path)?
            })),
            Choice::LastRun(path) => match Baseline::load(&path) {
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

    /// Refuses, before anything is measured, a baseline that a run of
    /// `mode` and `metric` could not be compared with: the run would be
    /// measured for nothing.
    pub fn suits(&self, mode: Mode, metric: Metric) -> Result<(), Error> {
        if self.run.mode != mode {
            return Err(Error::input(format!(
                "{}: a {} run is no baseline for a {} run",
                self.name,
                self.run.mode.as_str(),
                mode.as_str()
            )));
        }
        if mode == Mode::Micro && !judge::comparable(self.run.metric, metric) {
            return Err(Error::input(format!(
                "{}: a run of {} is no baseline for a run of {}",
                self.name,
                self.run.metric.as_str(),
                metric.as_str()
            )));
        }
        Ok(())
    }

    pub fn load(path: &Path) -> Result<Baseline, Error> {
        // Shown relative to the working directory when it is inside it, as
        // the user would have typed it.
        let shown = std::env::current_dir()
            .ok()
            .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
            .unwrap_or_else(|| path.to_path_buf());
        let run = store::load(&shown)?;
        let name = shown.display().to_string();
        if run.mode == Mode::Micro && run.metric == Metric::Time && run.calibration.is_none() {
            return Err(Error::input(format!(
                "{name}: a micro run without calibration cannot be compared"
            )));
        }
        Ok(Baseline {
            name,
            run,
            basis: None,
            informational: false,
        })
    }
}

/// Checks what a run will write before it is measured: a `--save` that
/// cannot be written would otherwise lose the run.
pub fn check_outputs(common: &Common) -> Result<(), Error> {
    match &common.save {
        Some(path) => store::check_writable(path),
        None => Ok(()),
    }
}

/// Compares (when there is a baseline), saves, prints and annotates `run`;
/// returns the exit code: 1 on a regression or a failed probe, else 0.
pub fn finish(run: Run, common: &Common, baseline: Option<Baseline>) -> Result<i32, Error> {
    let run = compare_with(run, common, baseline.as_ref())?;
    deliver(run, common)
}

/// Attaches the comparison with `baseline`, when there is one.
pub fn compare_with(
    mut run: Run,
    common: &Common,
    baseline: Option<&Baseline>,
) -> Result<Run, Error> {
    if let Some(b) = baseline {
        if b.run.mode != run.mode {
            return Err(Error::input(format!(
                "{}: runs of different modes cannot be compared (baseline {}, run {})",
                b.name,
                b.run.mode.as_str(),
                run.mode.as_str()
            )));
        }
        let mut c = judge::compare(&b.run, &b.name, &run, &Rules::from(common))?;
        c.basis = b.basis.clone();
        c.informational |= b.informational;
        let unjudged = c.too_slow_to_judge();
        if !unjudged.is_empty() {
            run.warnings.push(format!(
                "inconclusive: {} over the threshold, but the machine ran too slow to judge \
                 (see the comparison)",
                unjudged.join(", ")
            ));
        }
        run.comparison = Some(c);
    }
    Ok(run)
}

/// Saves, prints and annotates a finished run; returns the exit code: 1 on a
/// regression or a failed probe, else 0.
pub fn deliver(run: Run, common: &Common) -> Result<i32, Error> {
    // A save that fails after all still prints the run, and writes it
    // where it can be found.
    let saved = match &common.save {
        Some(path) => store::save(path, &run).map_err(|e| rescue(&run, e)),
        None => Ok(()),
    };
    let document = common.format != Format::Table;
    let text = output::renderer(common.format, common.all_checks).run(&run);
    // A JSON or CSV document must stay one; neither can start a line with
    // a field's text (JSON escapes, CSV quotes), so only the table needs
    // the shield.
    let text = if document {
        text
    } else {
        github::shielded(&text)
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    drop(stdout);
    announce(&run, document);
    saved?;
    Ok(verdict::exit_code(&run))
}

/// Writes a run its `--save` could not take to a temporary file, and says
/// where in the error.
fn rescue(run: &Run, error: Error) -> Error {
    let kept = tempfile::Builder::new()
        .prefix("yardstick-run-")
        .suffix(".json")
        .tempfile()
        .map_err(|e| e.to_string())
        .and_then(|file| file.keep().map_err(|e| e.to_string()))
        .and_then(|(_, path)| {
            store::save(&path, run)
                .map(|()| path)
                .map_err(|e| e.to_string())
        });
    match kept {
        Ok(path) => Error::input(format!(
            "{}; the run was saved to {} instead",
            error.to_string().trim_start_matches("error: "),
            path.display()
        )),
        Err(_) => error,
    }
}

/// Verdict lines, GitHub annotations and the job summary. With a JSON or CSV
/// document on stdout they go to stderr, so the document stays valid.
pub fn announce(run: &Run, document: bool) {
    let mut lines = verdict::lines(run);
    if let Some(c) = run.comparison.as_ref().filter(|_| github::is_actions()) {
        lines.extend(github::annotations(c, run.environment.class_name()));
    }
    for line in lines {
        if document {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }
    if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) {
        let appended = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(markdown::summary(run).as_bytes()));
        if let Err(e) = appended {
            eprintln!(
                "warning: {}: cannot append the job summary: {e}",
                Path::new(&path).display()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::run::{CalibrationSummary, Row, RowKind, test_micro_run};

    #[test]
    fn a_run_its_save_cannot_take_is_saved_elsewhere_and_said_where() {
        let row = Row::with_samples("a".into(), RowKind::Probe, "a".into(), vec![1.0]);
        let run = test_micro_run(vec![row], CalibrationSummary::of(&[1.0], &[1.0], 1));
        let common = Common {
            save: Some("/dev/null".into()),
            format: crate::commands::common::Format::Json,
            ..Common::default()
        };
        let e = deliver(run.clone(), &common).unwrap_err().to_string();
        assert!(e.starts_with("error: /dev/null: not a regular file"), "{e}");
        let kept = e.rsplit("the run was saved to ").next().unwrap_or("");
        let kept = Path::new(kept.trim_end_matches(" instead"));
        assert_eq!(store::load(kept).unwrap().rows, run.rows);
        std::fs::remove_file(kept).unwrap();
    }
}
