//! What the purge token and the administrators' password have in common:
//! a secret the owner puts in a small file, read with errors that name
//! the option and the file, and compared in time that does not depend on
//! where a guess first differs.

use std::path::Path;

/// The longest secret file read: a secret is one line.
const MAX_FILE: u64 = 4096;

/// The text of the secret file `path`, given with `option`; an error names
/// both.
pub fn read_file(path: &Path, option: &str) -> Result<String, String> {
    let shown = path.display();
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{option}: {shown}: cannot read: {e}"))?
        .len();
    if size > MAX_FILE {
        return Err(format!(
            "{option}: {shown}: {size} bytes; a secret file holds one line"
        ));
    }
    std::fs::read_to_string(path).map_err(|e| format!("{option}: {shown}: cannot read: {e}"))
}

/// Whether `a` and `b` are equal, in time that does not depend on where
/// they first differ.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
