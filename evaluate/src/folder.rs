//! The results folder: where an evaluation writes, and what it writes
//! there.

use crate::results::Results;
use crate::{Error, plots, report};
use std::path::{Path, PathBuf};

/// Writes `results.json`, the plots and `report.md` into `out`.
pub fn write(out: &Path, results: &Results) -> Result<(), Error> {
    let save = |name: &str, text: &str| {
        yardstick::document::store::write_atomic(&out.join(name), text)
            .map_err(|e| Error(e.to_string()))
    };
    let json = serde_json::to_string_pretty(results)
        .map_err(|e| Error(format!("results.json: cannot serialise: {e}")))?;
    save("results.json", &(json + "\n"))?;
    let mut names = Vec::new();
    for (name, svg) in plots::all(results)? {
        save(&name, &svg)?;
        names.push(name);
    }
    save("report.md", &report::render(results, &names))
}

/// `dir`, created when missing.
pub fn create(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error(format!("{}: cannot create: {e}", dir.display())))
}

/// The workspace this crate belongs to.
pub fn default_workspace() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir.parent().unwrap_or(crate_dir).to_path_buf()
}

/// Where evaluations write by default, relative to the workspace: beside
/// the harness that makes them, not at the top of the repository.
pub const RESULTS_DIR: &str = "evaluate/results";

/// `evaluate/results/<date>/` in the workspace (`<date>-2`, ... when
/// taken). The folder ignores what it holds in git (a `.gitignore` of `*`),
/// so only a report added on purpose (`git add -f`) is ever committed.
pub fn default_out(workspace: &Path, started: &str) -> Result<PathBuf, Error> {
    let root = workspace.join(RESULTS_DIR);
    create(&root)?;
    let ignore = root.join(".gitignore");
    if !ignore.exists() {
        std::fs::write(&ignore, "*\n")
            .map_err(|e| Error(format!("{}: cannot write: {e}", ignore.display())))?;
    }
    Ok(free_name(&root, started.get(..10).unwrap_or(started)))
}

/// `root/name`, or `root/name-2`, `root/name-3`, ... whichever is free.
fn free_name(root: &Path, name: &str) -> PathBuf {
    let mut candidate = root.join(name);
    let mut n = 2;
    while candidate.exists() {
        candidate = root.join(format!("{name}-{n}"));
        n += 1;
    }
    candidate
}
