//! What happens to a finished run: compared with its baseline, printed,
//! saved, announced to GitHub Actions, and turned into an exit code. Every
//! measuring mode ends here, so they all behave alike.

use crate::cli::common::{Common, Format};
use crate::compare::{self, Rules};
use crate::error::Error;
use crate::report::{self, github, markdown, verdict};
use crate::run::{Metric, Mode, Run};
use crate::store;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A baseline run and the name it is shown under.
pub struct Baseline {
    pub name: String,
    pub run: Run,
}

impl Baseline {
    /// The baseline to compare with: `--baseline`, else `default` when that
    /// file exists and `--no-baseline` was not given. Read before measuring,
    /// so a bad file costs no run.
    pub fn resolve(common: &Common, default: Option<PathBuf>) -> Result<Option<Baseline>, Error> {
        if common.baseline.is_some() && common.no_baseline {
            return Err(Error::usage(
                "--baseline and --no-baseline contradict each other",
            ));
        }
        let path = match (&common.baseline, default) {
            (Some(p), _) => p.clone(),
            (None, Some(p)) if !common.no_baseline && p.exists() => p,
            _ => return Ok(None),
        };
        Baseline::load(&path).map(Some)
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
        Ok(Baseline { name, run })
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
        let c = compare::compare(&b.run, &b.name, &run, &Rules::from(common))?;
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
    if let Some(path) = &common.save {
        store::save(path, &run)?;
    }
    let document = common.format != Format::Table;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(
        report::renderer(common.format, common.all_checks)
            .run(&run)
            .as_bytes(),
    );
    let _ = stdout.flush();
    drop(stdout);
    announce(&run, document);
    Ok(verdict::exit_code(&run))
}

/// Verdict lines, GitHub annotations and the job summary. With a JSON or CSV
/// document on stdout they go to stderr, so the document stays valid.
pub fn announce(run: &Run, document: bool) {
    let mut lines = verdict::lines(run);
    if let Some(c) = run.comparison.as_ref().filter(|_| github::is_actions()) {
        lines.extend(github::annotations(c));
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
