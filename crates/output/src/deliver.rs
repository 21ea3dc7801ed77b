//! What happens to a finished run: printed, saved, announced to GitHub
//! Actions, and turned into an exit code. Every command ends here, so they
//! all behave alike.

use crate::document::comparison::Comparison;
use crate::document::outcome::RunOutcome;
use crate::document::run::Run;
use crate::document::store;
use crate::error::Error;
use crate::fs::Durability;
use crate::record::Record;
use crate::text::clean;
use crate::{self as output, Format, colour, github, markdown, stdout, verdict, width};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where and how a finished run goes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Delivery {
    /// The format on stdout.
    pub format: Format,
    /// Whether the table's verdicts are coloured (`--color`).
    pub paint: bool,
    /// The table lists every check, not only the regressions.
    pub all_checks: bool,
    /// Where to save the run.
    pub save: Option<PathBuf>,
    /// Where to write it as Markdown (`--export-markdown`).
    pub markdown: Option<PathBuf>,
    /// Whether and where to record it in the history.
    pub record: Record,
}

impl Delivery {
    /// Checks what a run will write before it is measured: a `--save` that
    /// cannot be written would otherwise lose the run.
    pub fn check(&self) -> Result<(), Error> {
        self.record.check()?;
        for path in self.save.iter().chain(&self.markdown) {
            store::check_writable(path)?;
        }
        Ok(())
    }
}

/// Saves, prints and annotates a finished run; returns its exit code
/// ([`verdict::exit_code`]).
pub fn deliver(run: Run, delivery: &Delivery) -> Result<i32, Error> {
    let outcome = verdict::outcome(&run);
    deliver_as(run, outcome, delivery)
}

/// [`deliver`] with the verdict the command decided (micro mode's knows
/// more than the rows say: a stale count baseline). The verdict goes into
/// the run, replacing any it held, so what is saved, recorded and
/// summarised says the exit code it was delivered with, and why.
pub fn deliver_as(mut run: Run, outcome: RunOutcome, delivery: &Delivery) -> Result<i32, Error> {
    let code = outcome.exit_code;
    run.outcome = Some(outcome);
    // A save that fails after all still prints the run, and writes it
    // where it can be found.
    let saved = match &delivery.save {
        Some(path) => store::save(path, &run).map_err(|e| rescue(&run, e)),
        None => Ok(()),
    };
    show(&run, delivery);
    announce(&run, delivery);
    saved?;
    if let Some(path) = &delivery.markdown {
        crate::fs::replace_file(path, markdown::summary(&run).as_bytes(), Durability::Synced)
            .map_err(|e| Error::input(format!("{}: cannot write: {e}", path.display())))?;
    }
    delivery.record.record(&run)?;
    Ok(code)
}

/// Prints a comparison of two saved runs (`yardstick compare`) with its
/// verdict lines and annotations; returns the exit code: 1 on a regression
/// or a probe that failed in `run`, 3 when the machine ran too slow to
/// judge, else 0.
pub fn comparison(c: &Comparison, run: &Run, delivery: &Delivery) -> i32 {
    let table = delivery.format == Format::Table;
    let renderer = output::renderer(delivery.format, delivery.all_checks);
    let text = fitted(delivery.format, || renderer.comparison(c));
    stdout::print(&shielded(delivery.format, painted(delivery, text)));
    // A probe that failed in the run fails the comparison too, whatever the
    // baseline says: a broken probe never passes.
    let failed = verdict::failed_probes(run);
    let mut lines: Vec<String> = failed.iter().map(|row| verdict::failed_line(row)).collect();
    // The table already explains a run too slow to judge; a document on
    // stdout cannot, so stderr does.
    if !table {
        lines.extend(c.too_slow_note().map(|n| format!("warning: {}", clean(&n))));
        lines.extend(c.tool_note().map(|n| format!("note: {}", clean(&n))));
        lines.extend(c.machine_note().map(|n| format!("note: {}", clean(&n))));
    }
    lines.extend(verdict::closing_after(c, !failed.is_empty()));
    for line in lines {
        if table {
            stdout::line(&painted(delivery, line));
        } else {
            eprintln!("{line}");
        }
    }
    if github::is_actions() {
        for a in github::annotations(c, run.environment.class_name(), run.explanation.as_ref()) {
            eprintln!("{a}");
        }
    }
    // The summary is of this comparison, not of any the run was saved with.
    let judged = Run {
        comparison: Some(c.clone()),
        ..run.clone()
    };
    append_summary(&judged);
    verdict::code(Some(c), !failed.is_empty())
}

/// Prints a run in the chosen format (`yardstick show`, and every run).
pub fn show(run: &Run, delivery: &Delivery) {
    let renderer = output::renderer(delivery.format, delivery.all_checks);
    let text = fitted(delivery.format, || renderer.run(run));
    stdout::print(&shielded(delivery.format, painted(delivery, text)));
}

/// `text` with its verdicts coloured, when the delivery paints.
fn painted(delivery: &Delivery, text: String) -> String {
    if delivery.paint {
        colour::paint(&text)
    } else {
        text
    }
}

/// What `render` gives, fitted to the terminal when the format is the
/// table: its columns left out as they allow, then long lines wrapped. A
/// document (JSON, CSV) is never changed.
fn fitted(format: Format, render: impl FnOnce() -> String) -> String {
    let width = (format == Format::Table).then(width::terminal).flatten();
    let text = width::within(width, render);
    match width {
        Some(w) => width::wrap(&text, w),
        None => text,
    }
}

/// A JSON or CSV document must stay one; neither can start a line with a
/// field's text (JSON escapes, CSV quotes), so only the table needs the
/// GitHub shield.
fn shielded(format: Format, text: String) -> String {
    match format {
        Format::Table => github::shielded(&text),
        _ => text,
    }
}

/// Writes a run its `--save` could not take to a temporary file, and says
/// where in the error.
fn rescue(run: &Run, error: Error) -> Error {
    let kept = crate::fs::kept_file(&std::env::temp_dir(), "yardstick-run-", ".json")
        .map_err(|e| e.to_string())
        .and_then(|path| {
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
pub(crate) fn announce(run: &Run, delivery: &Delivery) {
    let document = delivery.format != Format::Table;
    // Verdict lines fit the terminal and are coloured as the table is; the
    // annotations, which GitHub reads line by line, never change.
    let width = (!document).then(width::terminal).flatten();
    let fit = |line: String| match width {
        Some(w) => painted(delivery, width::wrap(&line, w)),
        None => painted(delivery, line),
    };
    let mut lines: Vec<String> = verdict::lines(run).into_iter().map(fit).collect();
    if let Some(c) = run.comparison.as_ref().filter(|_| github::is_actions()) {
        lines.extend(github::annotations(
            c,
            run.environment.class_name(),
            run.explanation.as_ref(),
        ));
    }
    for line in lines {
        if document {
            eprintln!("{line}");
        } else {
            stdout::line(&line);
        }
    }
    append_summary(run);
}

/// Appends the Markdown summary of `run` and its comparison to the file
/// `GITHUB_STEP_SUMMARY` names, when it names one; a file that cannot take
/// it is a warning, not a failed run.
fn append_summary(run: &Run) {
    if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) {
        let path = Path::new(&path);
        if let Err(e) = append_to(path, &markdown::summary(run)) {
            eprintln!(
                "warning: {}: cannot append the job summary: {e}",
                clean(&path.display().to_string())
            );
        }
    }
}

/// Appends `text` to the summary file `path`, which must be a regular
/// file (or none yet) holding no JSON document: a FIFO without a reader
/// would hang the run, and a summary appended to a saved run (the one
/// being compared, say) would break it.
fn append_to(path: &Path, text: &str) -> Result<(), String> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => return Err("not a regular file".to_string()),
        Ok(_) => {
            let mut first = [0u8; 1];
            let read = std::fs::File::open(path).and_then(|mut f| {
                use std::io::Read;
                f.read(&mut first)
            });
            if matches!(read, Ok(1)) && first[0] == b'{' {
                return Err("it holds a JSON document, not a job summary".to_string());
            }
        }
        Err(_) => {}
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::run::{CalibrationSummary, Row, RowKind, test_micro_run};

    #[test]
    fn a_summary_goes_only_into_a_regular_file_that_holds_no_run() {
        let dir = tempfile::tempdir().unwrap();
        let summary = dir.path().join("summary.md");
        append_to(&summary, "one\n").unwrap();
        append_to(&summary, "two\n").unwrap();
        assert_eq!(std::fs::read_to_string(&summary).unwrap(), "one\ntwo\n");
        let run = dir.path().join("run.json");
        std::fs::write(&run, "{\"tool\": \"yardstick\"}").unwrap();
        let e = append_to(&run, "x").unwrap_err();
        assert!(e.contains("JSON document"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&run).unwrap(),
            "{\"tool\": \"yardstick\"}"
        );
        assert_eq!(
            append_to(dir.path(), "x").unwrap_err(),
            "not a regular file"
        );
        #[cfg(unix)]
        {
            // A FIFO without a reader: refused before it is opened, which
            // would block.
            let fifo = dir.path().join("fifo");
            let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: mkfifo reads the NUL-terminated path it is given.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
            assert_eq!(append_to(&fifo, "x").unwrap_err(), "not a regular file");
        }
    }

    #[test]
    fn a_run_its_save_cannot_take_is_saved_elsewhere_and_said_where() {
        let row = Row::with_samples("a".into(), RowKind::Probe, "a".into(), vec![1.0]);
        let run = test_micro_run(vec![row], CalibrationSummary::of(&[1.0], &[1.0], 1));
        let delivery = Delivery {
            save: Some("/dev/null".into()),
            format: Format::Json,
            ..Delivery::default()
        };
        let e = deliver(run.clone(), &delivery).unwrap_err().to_string();
        assert!(e.starts_with("error: /dev/null: not a regular file"), "{e}");
        let kept = e.rsplit("the run was saved to ").next().unwrap_or("");
        let kept = Path::new(kept.trim_end_matches(" instead"));
        assert_eq!(store::load(kept).unwrap().rows, run.rows);
        std::fs::remove_file(kept).unwrap();
    }
}
