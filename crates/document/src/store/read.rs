//! Reading saved runs, bounded: only a regular file of at most
//! [`MAX_RUN_BYTES`], so `show /dev/zero` stops at once. A file up to
//! [`IN_MEMORY_BYTES`] is read whole and parsed from memory, which serde_json
//! does several times faster than from a stream (50,000 rows compare in
//! 0.6 s rather than 2.4 s). A larger one is parsed as a stream where a
//! [`StreamParser`] is installed, as the `yardstick` command installs one,
//! so a 200 MB run costs about its own size in memory rather than the text
//! plus the document (`python3 scripts/big-runs.py`); else it is read whole
//! too. A second parser of the whole run is the largest part of this
//! crate's build (serde's code for every type, once per reader): a bench,
//! whose baselines are small, does not compile it.

use super::check;
use super::header::Header;
use crate::error::Error;
use crate::import::{criterion, exp_benchmark};
use crate::run::{FORMAT, Run, TOOL};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::OnceLock;

/// The largest saved run read, in bytes: a run of every sample of a
/// thousand probes is a few megabytes; past this, a file is no run.
pub const MAX_RUN_BYTES: u64 = 256 << 20;

/// The largest run read whole into memory before it is parsed.
pub const IN_MEMORY_BYTES: u64 = 64 << 20;

/// Parses a run from a stream: `|r| serde_json::from_reader(r)`, written
/// in the crate that installs it, so that only that crate compiles it.
pub type StreamParser = fn(&mut dyn Read) -> serde_json::Result<Run>;

static STREAM: OnceLock<StreamParser> = OnceLock::new();

/// Parses runs larger than [`IN_MEMORY_BYTES`] with `parser`, as a stream,
/// from now on in this process (the first parser installed stays).
pub fn parse_large_runs_with(parser: StreamParser) {
    let _ = STREAM.set(parser);
}

/// Reads a saved run, with a one-line error naming `path` when it is
/// missing, not a regular file, too large, unreadable, not JSON, not a run,
/// of another format version, holds a key twice, or holds figures no run
/// can have.
///
/// A folder of criterion results (`target/criterion`) is read as a run of
/// its benches' `new` results, and `FOLDER@NAME` as one of the baseline
/// `NAME` (`base`, or one saved with `--save-baseline`); a bench that
/// cannot be read is skipped, with a warning in the run.
pub fn load(path: &Path) -> Result<Run, Error> {
    if let Some((dir, baseline)) = criterion_results(path) {
        let (mut run, warnings) = criterion::read(&dir, &baseline)
            .map_err(|m| Error::input(format!("{}: {m}", path.display())))?;
        run.warnings.extend(warnings);
        return Ok(run);
    }
    load_with(path, IN_MEMORY_BYTES, STREAM.get().copied())
}

/// The folder and baseline of criterion results `path` names: a folder
/// holding them, or `FOLDER@NAME` where no such file exists.
fn criterion_results(path: &Path) -> Option<(std::path::PathBuf, String)> {
    if path.is_dir() {
        return Some((path.to_path_buf(), criterion::NEW.to_string()));
    }
    if path.exists() {
        return None;
    }
    let text = path.to_str()?;
    let (dir, baseline) = text.rsplit_once('@')?;
    let valid = !baseline.is_empty() && !baseline.contains(['/', '\\']) && baseline != "..";
    (valid && Path::new(dir).is_dir()).then(|| (dir.into(), baseline.to_string()))
}

/// A saved run and its text, for a store that keeps runs whole (the
/// history): a file's text as it is (at most 64 MB), or, for criterion
/// results, which are no one file, the run as yardstick saves it.
pub fn load_with_text(path: &Path) -> Result<(Run, String), Error> {
    if criterion_results(path).is_some() {
        let run = load(path)?;
        let text = super::saved_text(&run);
        return Ok((run, text));
    }
    let shown = path.display();
    let fail = |m: String| Error::input(format!("{shown}: {m}"));
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    if !meta.is_file() {
        return Err(fail("not a regular file".to_string()));
    }
    if meta.len() > IN_MEMORY_BYTES {
        return Err(fail(format!(
            "larger than {} MB, which the history does not keep",
            IN_MEMORY_BYTES >> 20
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(IN_MEMORY_BYTES).read_to_end(&mut bytes))
        .map_err(|e| fail(format!("cannot read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| fail("not UTF-8 text".to_string()))?;
    let run = parse(&text).map_err(fail)?;
    Ok((run, text))
}

fn load_with(path: &Path, in_memory: u64, stream: Option<StreamParser>) -> Result<Run, Error> {
    let shown = path.display();
    let fail = |m: String| Error::input(format!("{shown}: {m}"));
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    if !meta.is_file() {
        return Err(fail("not a regular file".to_string()));
    }
    if meta.len() > MAX_RUN_BYTES {
        return Err(fail(too_large()));
    }
    if meta.len() <= in_memory {
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        std::fs::File::open(path)
            .and_then(|f| f.take(in_memory).read_to_end(&mut bytes))
            .map_err(|e| fail(format!("cannot read: {e}")))?;
        let header = from_json::<Header>(&bytes[..], true).map_err(fail)?;
        if is_exp_benchmark(&header) {
            return exp_benchmark::read(&bytes).and_then(checked).map_err(fail);
        }
        check_header(&header).map_err(fail)?;
        return from_json::<Run>(&bytes[..], false)
            .and_then(checked)
            .map_err(fail);
    }
    // Read twice as a stream: the header first, so that a file that is no
    // run is refused for what it is, then the run.
    let open = || {
        std::fs::File::open(path)
            .map(|f| BufReader::new(f).take(MAX_RUN_BYTES))
            .map_err(|e| format!("cannot read: {e}"))
    };
    let header = open()
        .and_then(|r| from_json::<Header>(r, true))
        .map_err(fail)?;
    if is_exp_benchmark(&header) {
        return Err(fail(format!(
            "an {} run larger than {} MB, which is not imported",
            exp_benchmark::TOOL_NAME,
            in_memory >> 20
        )));
    }
    check_header(&header).map_err(fail)?;
    let run = match stream {
        Some(parse) => open().and_then(|mut r| parse(&mut r).map_err(|e| explain(e, false))),
        None => open().and_then(|mut r| {
            let mut bytes = Vec::with_capacity(meta.len() as usize);
            r.read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read: {e}"))?;
            from_json::<Run>(&bytes[..], false)
        }),
    }
    .map_err(fail)?;
    checked(run).map_err(fail)
}

/// Parses a run document; the error says what is wrong, without the file.
pub fn parse(text: &str) -> Result<Run, String> {
    let header = from_json::<Header>(text.as_bytes(), true)?;
    if is_exp_benchmark(&header) {
        return exp_benchmark::read(text.as_bytes()).and_then(checked);
    }
    check_header(&header)?;
    checked(from_json::<Run>(text.as_bytes(), false)?)
}

fn from_json<T: DeserializeOwned>(source: impl Source, header: bool) -> Result<T, String> {
    source.parse().map_err(|e| explain(e, header))
}

/// What a parser's error says of the file: of its header, or of the run.
fn explain(e: serde_json::Error, header: bool) -> String {
    if e.is_io() {
        format!("cannot read: {e}")
    } else if e.is_eof() && !header {
        format!("not JSON: {e} (or larger than {} MB)", MAX_RUN_BYTES >> 20)
    } else if e.is_data() && header {
        format!("not a yardstick run: {e}")
    } else if e.is_data() {
        format!("not a valid run of format {FORMAT}: {e}")
    } else {
        format!("not JSON: {e}")
    }
}

/// Bytes in memory, parsed as a slice, or a stream.
trait Source {
    fn parse<T: DeserializeOwned>(self) -> serde_json::Result<T>;
}

impl Source for &[u8] {
    fn parse<T: DeserializeOwned>(self) -> serde_json::Result<T> {
        serde_json::from_slice(self)
    }
}

impl<R: Read> Source for std::io::Take<BufReader<R>> {
    fn parse<T: DeserializeOwned>(self) -> serde_json::Result<T> {
        serde_json::from_reader(self)
    }
}

/// Whether the header is exp:benchmark's, whose runs are imported.
fn is_exp_benchmark(header: &Header) -> bool {
    header.tool.as_ref().and_then(Value::as_str) == Some(exp_benchmark::TOOL_NAME)
}

fn check_header(header: &Header) -> Result<(), String> {
    if header.tool.as_ref().and_then(Value::as_str) != Some(TOOL) {
        return Err(format!(
            "not a yardstick run: no \"tool\": \"yardstick\" (nor \"{}\", whose runs are \
             imported)",
            exp_benchmark::TOOL_NAME
        ));
    }
    match &header.format {
        None => Err("not a yardstick run: no format version".to_string()),
        Some(Value::Number(f)) if f.as_u64() == Some(u64::from(FORMAT)) => Ok(()),
        Some(Value::Number(f)) if f.is_u64() => Err(format!(
            "unsupported format {f} (this yardstick reads format {FORMAT})"
        )),
        Some(other) => Err(format!(
            "the format version is {other}, not a version number (this yardstick reads format {FORMAT})"
        )),
    }
}

fn checked(run: Run) -> Result<Run, String> {
    match check::problem(&run) {
        Some(why) => Err(format!("not a valid run of format {FORMAT}: {why}")),
        None => Ok(run),
    }
}

fn too_large() -> String {
    format!(
        "larger than {} MB, which no saved run is",
        MAX_RUN_BYTES >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{CalibrationSummary, Row, RowKind, test_micro_run};

    /// A run of one probe row, and where the tests write it.
    fn one_row_run(t: &tempfile::TempDir) -> (std::path::PathBuf, crate::run::Run) {
        let row = Row::with_samples("a".into(), RowKind::Probe, "a".into(), vec![1.0, 2.0]);
        let run = test_micro_run(vec![row], CalibrationSummary::of(&[1.0], &[1.0], 1));
        (t.path().join("run.json"), run)
    }

    /// Each way a run is read: from memory, as a stream, and a large run
    /// read whole where no stream parser is installed.
    const WAYS: [(u64, Option<StreamParser>); 3] = [
        (u64::MAX, None),
        (0, Some(|r| serde_json::from_reader(r))),
        (0, None),
    ];

    #[test]
    fn a_stream_reads_what_memory_reads() {
        let t = tempfile::tempdir().unwrap();
        let (path, run) = one_row_run(&t);
        super::super::save(&path, &run).unwrap();
        for (limit, stream) in WAYS {
            assert_eq!(load_with(&path, limit, stream).unwrap(), run);
        }
        for (text, why) in [
            ("{ nope", "not JSON"),
            ("[1]", "not a yardstick run"),
            (r#"{"tool":"yardstick","format":1}"#, "not a valid run"),
        ] {
            std::fs::write(&path, text).unwrap();
            for (limit, stream) in WAYS {
                let e = load_with(&path, limit, stream).unwrap_err().to_string();
                assert!(e.contains(why), "{limit}: {e}");
            }
        }
    }

    /// A key twice in the document's object, or in a row's, is named, with
    /// the file and where it is.
    #[test]
    fn a_key_given_twice_is_refused_naming_it() {
        let t = tempfile::tempdir().unwrap();
        let (path, run) = one_row_run(&t);
        let text = super::super::to_json(&run);
        let twice = [
            (
                text.replacen(
                    r#""tool": "yardstick","#,
                    r#""tool": "yardstick", "tool": "other","#,
                    1,
                ),
                "not a yardstick run: duplicate key `tool` at line 2",
            ),
            (
                text.replacen(r#""median": "#, r#""median": 1.0, "median": "#, 1),
                "not a valid run of format 1: duplicate field `median` at line",
            ),
        ];
        for (text, why) in twice {
            std::fs::write(&path, &text).unwrap();
            for (limit, stream) in WAYS {
                let e = load_with(&path, limit, stream).unwrap_err().to_string();
                let named = format!("error: {}: {why}", path.display());
                assert!(e.starts_with(&named), "{limit}: {e}");
            }
        }
    }
}
