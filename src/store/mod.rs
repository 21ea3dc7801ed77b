//! Reading and writing saved runs. Reading refuses anything that is not a
//! yardstick run of format 1; writing goes through a temporary file and a
//! rename, so a failed save never leaves half a document behind.

mod check;
mod write;

use crate::error::Error;
use crate::run::{FORMAT, Run, TOOL};
use serde_json::Value;
use std::io::Read;
use std::path::Path;

pub use check::{MAX_MS, MIN_MS};
pub use write::{check_writable, replace_file, write_atomic};

/// The largest saved run read, in bytes: a run of every sample of a
/// thousand probes is a few megabytes; past this, a file is no run.
pub const MAX_RUN_BYTES: u64 = 256 << 20;

/// Reads a saved run, with a one-line error naming `path` when it is
/// missing, not a regular file, too large, unreadable, not JSON, not a run,
/// of another format version, or holds figures no run can have.
pub fn load(path: &Path) -> Result<Run, Error> {
    let shown = path.display();
    let text = read_bounded(path).map_err(|m| Error::input(format!("{shown}: {m}")))?;
    parse(&text).map_err(|m| Error::input(format!("{shown}: {m}")))
}

/// The text of a regular file of at most [`MAX_RUN_BYTES`]; a FIFO, a
/// device or `/proc` stream is never read to its end.
fn read_bounded(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file".to_string());
    }
    if meta.len() > MAX_RUN_BYTES {
        return Err(too_large());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_RUN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_RUN_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not JSON: invalid UTF-8 at byte {}",
            e.utf8_error().valid_up_to()
        )
    })
}

fn too_large() -> String {
    format!(
        "larger than {} MB, which no saved run is",
        MAX_RUN_BYTES >> 20
    )
}

/// The two fields that say a document is a run of a version, read without
/// building the rest of the document in memory.
#[derive(serde::Deserialize)]
struct Header {
    tool: Option<Value>,
    format: Option<Value>,
}

/// Parses a run document; the error says what is wrong, without the file.
pub fn parse(text: &str) -> Result<Run, String> {
    let header: Header = serde_json::from_str(text).map_err(|e| {
        if e.is_data() {
            "not a yardstick run: not a JSON object".to_string()
        } else {
            format!("not JSON: {e}")
        }
    })?;
    if header.tool.as_ref().and_then(Value::as_str) != Some(TOOL) {
        return Err("not a yardstick run: no \"tool\": \"yardstick\"".to_string());
    }
    match header.format {
        None => return Err("not a yardstick run: no format version".to_string()),
        Some(Value::Number(f)) if f.as_u64() == Some(u64::from(FORMAT)) => {}
        Some(Value::Number(f)) if f.is_u64() => {
            return Err(format!(
                "unsupported format {f} (this yardstick reads format {FORMAT})"
            ));
        }
        Some(other) => {
            return Err(format!(
                "the format version is {other}, not a version number (this yardstick reads format {FORMAT})"
            ));
        }
    }
    let run: Run = serde_json::from_str(text)
        .map_err(|e| format!("not a valid run of format {FORMAT}: {e}"))?;
    match check::problem(&run) {
        Some(why) => Err(format!("not a valid run of format {FORMAT}: {why}")),
        None => Ok(run),
    }
}

/// The JSON text of a run, as saved and as printed by `--format=json`.
pub fn to_json(run: &Run) -> String {
    // Serialising plain data with string keys cannot fail.
    serde_json::to_string_pretty(run).unwrap_or_default()
}

/// Saves a run as JSON at `path`.
pub fn save(path: &Path, run: &Run) -> Result<(), Error> {
    let mut text = to_json(run);
    text.push('\n');
    write_atomic(path, &text)
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
        let e = load(t.path()).unwrap_err().to_string();
        assert!(e.ends_with(": not a regular file"), "{e}");
        let big = t.path().join("big.json");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(MAX_RUN_BYTES + 1).unwrap();
        let e = load(&big).unwrap_err().to_string();
        assert!(e.contains("big.json: larger than 256 MB"), "{e}");
        let bad = t.path().join("bad.json");
        std::fs::write(&bad, b"{\"a\": \"\xff\"}").unwrap();
        let e = load(&bad).unwrap_err().to_string();
        assert!(
            e.contains("bad.json: not JSON: invalid UTF-8 at byte 7"),
            "{e}"
        );
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
