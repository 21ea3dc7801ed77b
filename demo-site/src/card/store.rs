//! The card's file: the last good measurement, and the failure of any
//! measurement since, so that a failed or stopped measurement never takes
//! the last good figures away. It is replaced whole (a temporary file and
//! a rename), never written in place, and read back checked: a damaged
//! file is said to be damaged, and shows no figures.

use super::model::Card;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// What the card's file holds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kept {
    /// The last measurement that finished.
    pub last_good: Option<Card>,
    /// Why the last measurement after it failed, if one did.
    pub failure: Option<Failure>,
}

/// A measurement that did not finish.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Failure {
    /// When it started (RFC 3339, UTC).
    pub at: String,
    /// What went wrong, in one line.
    pub message: String,
}

/// The largest card file read: a card of a few dozen pages is some KB.
const MAX_FILE: u64 = 4 << 20;

/// The file at `path`: none when there is none yet; an error, naming the
/// file, when it cannot be read or is not a card's.
pub fn read(path: &Path) -> Result<Option<Kept>, String> {
    let shown = path.display();
    let size = match std::fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{shown}: cannot read: {e}")),
    };
    if size > MAX_FILE {
        return Err(format!("{shown}: {size} bytes, more than a card holds"));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| format!("{shown}: damaged: {e}"))
}

/// Replaces the file at `path` with `kept`, whole.
pub fn write(path: &Path, kept: &Kept) -> Result<(), String> {
    let text = serde_json::to_string_pretty(kept).map_err(|e| e.to_string())?;
    yardstick::fs::replace_file(path, text.as_bytes(), yardstick::fs::Durability::Synced)
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_file_round_trips_and_a_damaged_one_is_said_to_be() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("card.json");
        assert_eq!(read(&file), Ok(None));
        let kept = Kept {
            last_good: None,
            failure: Some(Failure {
                at: "2026-12-04T00:00:00Z".into(),
                message: "b is down".into(),
            }),
        };
        write(&file, &kept).unwrap();
        assert_eq!(read(&file), Ok(Some(kept)));
        for damaged in ["", "{", "[]", "{\"last_good\": 3}", "{\"other\": null}"] {
            std::fs::write(&file, damaged).unwrap();
            let e = read(&file).unwrap_err();
            assert!(e.contains("card.json: damaged"), "{damaged}: {e}");
        }
    }
}
