//! Reading and writing saved runs: `read` refuses anything that is not a
//! yardstick run of format 1 with each key once (`header`) and figures a
//! run can have (`check`); `write`
//! goes through a temporary file and a rename, so a failed save never leaves
//! half a document behind.

pub mod check;
mod header;
mod read;
mod write;

use crate::error::Error;
use crate::run::Run;
use std::path::Path;

pub use read::{StreamParser, load, load_with_text, parse, parse_large_runs_with};
pub use write::check_distinct;
pub use write::check_writable;
pub use write::write_atomic;

/// The JSON text of a run, as saved and as printed by `--format=json`.
pub fn to_json(run: &Run) -> String {
    // Serialising plain data with string keys cannot fail.
    serde_json::to_string_pretty(run).unwrap_or_default()
}

/// The text of a run as a file holds it: its JSON and a newline. What a
/// history keeps of a run it is given rather than read.
pub fn saved_text(run: &Run) -> String {
    let mut text = to_json(run);
    text.push('\n');
    text
}

/// Saves a run as JSON at `path`; a run that could not be read back (a
/// figure no measurement gives, a tool's impossible count) is refused,
/// naming the field, and nothing is written.
pub fn save(path: &Path, run: &Run) -> Result<(), Error> {
    if let Some(why) = check::problem(run) {
        return Err(Error::input(format!(
            "{}: not saved, since it could not be read back: {why}",
            path.display()
        )));
    }
    write_atomic(path, &saved_text(run))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_say_what_is_wrong() {
        assert!(parse("{").unwrap_err().starts_with("not JSON"));
        assert!(parse("[1]").unwrap_err().contains("not a yardstick run"));
        assert!(
            parse(r#"{"tool":"other","format":1}"#)
                .unwrap_err()
                .contains("not a yardstick run")
        );
        let e = parse(r#"{"tool":"yardstick","format":2}"#).unwrap_err();
        assert!(e.contains("format 2"), "{e}");
        assert!(
            parse(r#"{"tool":"yardstick"}"#)
                .unwrap_err()
                .contains("format")
        );
        assert!(
            parse(r#"{"tool":"yardstick","format":1}"#)
                .unwrap_err()
                .contains("not a valid run")
        );
        for odd in [r#""1""#, "1.0", "-1"] {
            let e = parse(&format!(r#"{{"tool":"yardstick","format":{odd}}}"#)).unwrap_err();
            assert!(
                e.contains(&format!(
                    "the format version is {odd}, not a version number"
                )),
                "{e}"
            );
        }
    }

    #[test]
    fn only_a_bounded_regular_file_is_read() {
        let e = load(Path::new("/dev/zero")).unwrap_err().to_string();
        assert_eq!(e, "error: /dev/zero: not a regular file");
        let t = tempfile::tempdir().unwrap();
        // A folder is read as criterion's results, and holds none here.
        let e = load(t.path()).unwrap_err().to_string();
        assert!(e.contains(": no criterion results"), "{e}");
        let big = t.path().join("big.json");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(read::MAX_RUN_BYTES + 1).unwrap();
        let e = load(&big).unwrap_err().to_string();
        assert!(e.contains("big.json: larger than 256 MB"), "{e}");
        let bad = t.path().join("bad.json");
        std::fs::write(&bad, b"{\"tool\": \"\xff\"}").unwrap();
        let e = load(&bad).unwrap_err().to_string();
        assert!(
            e.contains("bad.json: not JSON: invalid unicode code point at line 1 column 11"),
            "{e}"
        );
    }

    #[test]
    fn a_saved_run_reads_back_to_the_same_figures() {
        // Found by fuzz/run_document: serde_json's default float parsing
        // read 0.118007771245565861613 one unit in the last place off, and
        // its own shortest output for that one more, so every save of a
        // read run moved the figure.
        let mut row = crate::run::Row::with_samples(
            "a".into(),
            crate::run::RowKind::Probe,
            "a".into(),
            vec![1.0],
        );
        (row.figures.p99, row.rps) = (Some(0.5), Some(0.25));
        let run = crate::run::test_micro_run(vec![row], None);
        let text = to_json(&run)
            .replace("\"p99\": 0.5", "\"p99\": 0.118007771245565861613")
            .replace("\"rps\": 0.25", "\"rps\": 0.11800777124556587");
        let read = parse(&text).unwrap();
        let p99 = read.rows[0].figures.p99;
        assert_eq!(p99, Some("0.118007771245565861613".parse().unwrap()));
        assert_eq!(read.rows[0].rps, Some(0.118_007_771_245_565_87));
        assert_eq!(parse(&to_json(&read)), Ok(read));
    }

    #[test]
    fn every_committed_run_reads_back_and_saves_byte_for_byte() {
        // Format 1 is a contract: what a build wrote, this build reads and
        // saves again unchanged, settings and all.
        let root = crate::repository();
        let mut runs = Vec::new();
        for dir in ["baselines", "evaluate/results", "tests/fixtures"] {
            json_files(&root.join(dir), &mut runs);
        }
        let mut seen = 0;
        for path in runs {
            let text = std::fs::read_to_string(&path).unwrap();
            // The learned baselines were written by a build whose rows held
            // `kernel_samples`, a field since removed; a row keeps no key it
            // does not know.
            let earlier = path.to_string_lossy().contains("2026-11-30-learned");
            if earlier || !text.starts_with("{\n  \"tool\": \"yardstick\"") {
                continue;
            }
            let run = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                format!("{}\n", to_json(&run)) == text,
                "{} changes when saved again",
                path.display()
            );
            seen += 1;
        }
        assert!(seen >= 3, "only {seen} committed runs found");
    }

    fn json_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                json_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }

    #[test]
    fn load_names_the_file() {
        let t = tempfile::tempdir().unwrap();
        let missing = t.path().join("nope.json");
        let e = load(&missing).unwrap_err().to_string();
        assert!(e.contains("nope.json") && e.contains("cannot read"), "{e}");
    }
}

#[cfg(test)]
mod properties {
    use super::parse;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn parse_never_panics_on_any_text(text in ".{0,400}") {
            let _ = parse(&text);
        }

        #[test]
        fn parse_never_panics_on_run_like_json(
            format in 0u64..4,
            mode in "(micro|http|other)",
            median in proptest::num::f64::ANY,
            n in 0usize..5,
        ) {
            let text = format!(
                r#"{{"tool":"yardstick","format":{format},"mode":"{mode}","started":"","machine":"","settings":{{}},
                "environment":{{}},"rows":[{{"key":"a","kind":"probe","name":"a","n":{n},"median":{median}}}]}}"#
            );
            let _ = parse(&text);
        }
    }
}
