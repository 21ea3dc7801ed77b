//! Reading and writing saved runs. Reading refuses anything that is not a
//! yardstick run of format 1; writing goes through a temporary file and a
//! rename, so a failed save never leaves half a document behind.

use crate::error::Error;
use crate::run::{FORMAT, Run, TOOL};
use serde_json::Value;
use std::io::Write;
use std::path::Path;

/// Reads a saved run, with a one-line error naming `path` when it is
/// missing, unreadable, not JSON, not a run, or of another format version.
pub fn load(path: &Path) -> Result<Run, Error> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::input(format!("{shown}: cannot read: {e}")))?;
    parse(&text).map_err(|m| Error::input(format!("{shown}: {m}")))
}

/// Parses a run document; the error says what is wrong, without the file.
pub fn parse(text: &str) -> Result<Run, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let object = value
        .as_object()
        .ok_or("not a yardstick run: not a JSON object")?;
    if object.get("tool").and_then(Value::as_str) != Some(TOOL) {
        return Err("not a yardstick run: no \"tool\": \"yardstick\"".to_string());
    }
    match object.get("format").and_then(Value::as_u64) {
        Some(f) if f == u64::from(FORMAT) => {}
        Some(f) => {
            return Err(format!(
                "unsupported format {f} (this yardstick reads format {FORMAT})"
            ));
        }
        None => return Err("not a yardstick run: no format version".to_string()),
    }
    serde_json::from_value(value).map_err(|e| format!("not a valid run of format {FORMAT}: {e}"))
}

/// The JSON text of a run, as saved and as printed by `--format=json`.
pub fn to_json(run: &Run) -> String {
    // Serialising plain data with string keys cannot fail.
    serde_json::to_string_pretty(run).unwrap_or_default()
}

/// Writes `contents` to `path` atomically, creating its directory: a
/// temporary file in the same directory, then a rename.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), Error> {
    let shown = path.display();
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::input(format!("{shown}: cannot create directory: {e}")))?;
    }
    replace_file(path, contents.as_bytes())
        .map_err(|e| Error::input(format!("{shown}: cannot save: {e}")))
}

/// Replaces `path` whole with `bytes`: written to a temporary file beside it
/// and renamed over it, so a reader (or a crash) never sees half a file. For
/// anything the project saves, runs and caches alike.
pub fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.flush()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
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
    }

    #[test]
    fn load_names_the_file() {
        let t = tempfile::tempdir().unwrap();
        let missing = t.path().join("nope.json");
        let e = load(&missing).unwrap_err().to_string();
        assert!(e.contains("nope.json") && e.contains("cannot read"), "{e}");
    }

    #[test]
    fn atomic_write_creates_directories_and_replaces() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("a/b/run.json");
        write_atomic(&p, "one").unwrap();
        write_atomic(&p, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(std::fs::read_dir(p.parent().unwrap()).unwrap().count(), 1);
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
