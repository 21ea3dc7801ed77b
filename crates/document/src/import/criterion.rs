//! criterion's results, as it leaves them under `target/criterion/`:
//! `<group>/<bench>/<baseline>/{benchmark,estimates,sample}.json`, where
//! `<baseline>` is `new` (the last run), `base` (the one before) or a name
//! given with `--save-baseline`. criterion calls these files unstable; the
//! layout read is the one criterion 0.5 to 0.8 write
//! ([`KNOWN_VERSIONS`]), checked field by field, and a bench whose files
//! are missing or of another layout is skipped with a warning naming the
//! file. Each bench becomes a row of its per-iteration samples, in
//! milliseconds; criterion's own estimates are kept as written.

use super::Imported;
use crate::environment::Environment;
use crate::row::{Row, RowKind};
use crate::run::{FORMAT, Mode, Run, TOOL};
use crate::settings::{MicroSettings, Settings};
use crate::store::check;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The tool name an imported criterion run records.
pub const TOOL_NAME: &str = "criterion";

/// The criterion versions whose layout is known to be the one read.
pub const KNOWN_VERSIONS: &str = "0.5 to 0.8";

/// The results of the last run.
pub const NEW: &str = "new";

/// How deep below the folder given benches are looked for: a group's
/// folder, then a bench's (and a parameter's, for a bench with inputs).
const MAX_DEPTH: usize = 6;

/// The most benches read from one folder.
const MAX_BENCHES: usize = 10_000;

/// The run of every bench under `dir` as saved in `baseline` (`new`,
/// `base` or a named one), and a warning for each bench skipped; an error
/// when none could be read.
pub fn read(dir: &Path, baseline: &str) -> Result<(Run, Vec<String>), String> {
    let folders = bench_folders(dir, baseline);
    let files: Vec<PathBuf> = folders.iter().map(|f| f.join("benchmark.json")).collect();
    let date = newest(&files);
    if folders.is_empty() {
        return Err(format!(
            "no criterion results for baseline `{baseline}` (no <bench>/{baseline}/ with \
             benchmark.json, estimates.json or sample.json below it)"
        ));
    }
    let mut rows = Vec::new();
    let mut estimates = BTreeMap::new();
    let mut warnings = Vec::new();
    let capped = folders.len() == MAX_BENCHES;
    for folder in &folders {
        let folder = folder.as_path();
        match bench(folder) {
            Ok((row, estimate)) => {
                if rows.iter().any(|r: &Row| r.key == row.key) {
                    warnings.push(format!(
                        "{}: `{}` read twice; kept once",
                        folder.display(),
                        row.key
                    ));
                    continue;
                }
                estimates.insert(row.key.clone(), estimate);
                rows.push(row);
            }
            Err(why) => warnings.push(format!("skipped {why}")),
        }
    }
    if rows.is_empty() {
        return Err(format!(
            "no bench could be read ({}); criterion {KNOWN_VERSIONS} write the layout read",
            warnings.join("; ")
        ));
    }
    rows.sort_by(|a, b| a.key.cmp(&b.key));
    if capped {
        warnings.push(format!(
            "read the first {MAX_BENCHES} benches found, and no more"
        ));
    }
    Ok((run_of(rows, estimates, date, baseline), warnings))
}

/// The run of `rows` read from `baseline`, with criterion's `estimates`
/// of each, dated `date`.
fn run_of(rows: Vec<Row>, estimates: BTreeMap<String, Value>, date: String, baseline: &str) -> Run {
    let mut setup = BTreeMap::new();
    setup.insert("baseline".to_string(), Value::from(baseline));
    setup.insert(
        "estimates".to_string(),
        Value::Object(estimates.into_iter().collect()),
    );
    Run {
        tool: TOOL.to_string(),
        format: FORMAT,
        mode: Mode::Micro,
        started: date.clone(),
        machine: String::new(),
        settings: Settings::Micro(MicroSettings::default()),
        environment: Environment {
            date,
            imported: Some(Imported {
                tool: TOOL_NAME.to_string(),
                format: 0,
                setup,
                ..Imported::default()
            }),
            ..Environment::default()
        },
        warnings: Vec::new(),
        rows,
        calibration: None,
        comparison: None,
        server_pairs: None,
        metric: Default::default(),
        ranking: None,
        matrix: None,
        thresholds: None,
        outcome: None,
        explanation: None,
    }
}

/// The files of a bench saved in a baseline folder: a folder holding any
/// of them is a bench, so that one missing the others is reported, never
/// passed over.
const BENCH_FILES: [&str; 3] = ["benchmark.json", "estimates.json", "sample.json"];

/// The `<bench>/<baseline>/` folder of every bench below `dir` saved in
/// `baseline`, in path order, at most [`MAX_BENCHES`].
fn bench_folders(dir: &Path, baseline: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![(dir.to_path_buf(), 0)];
    while let Some((folder, depth)) = folders.pop() {
        let candidate = folder.join(baseline);
        if BENCH_FILES.iter().any(|f| candidate.join(f).exists()) {
            found.push(candidate);
            if found.len() == MAX_BENCHES {
                break;
            }
        }
        if depth == MAX_DEPTH {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && entry.file_name() != "report" {
                folders.push((entry.path(), depth + 1));
            }
        }
    }
    found.sort();
    found
}

#[derive(Deserialize)]
struct Benchmark {
    group_id: String,
    #[serde(default)]
    function_id: Option<String>,
    full_id: String,
}

#[derive(Deserialize)]
struct Sample {
    sampling_mode: String,
    iters: Vec<f64>,
    times: Vec<f64>,
}

/// The estimates every bench has in the layout read; they are kept as
/// written.
const ESTIMATES: [&str; 4] = ["mean", "median", "std_dev", "median_abs_dev"];

/// The row of the bench saved in `folder` (`<bench>/<baseline>/`), and
/// criterion's estimates of it; the error names the file.
fn bench(folder: &Path) -> Result<(Row, Value), String> {
    let benchmark: Benchmark = file(folder, "benchmark.json")?;
    let sample: Sample = file(folder, "sample.json")?;
    let estimates: Value = file(folder, "estimates.json")?;
    if let Some(missing) = ESTIMATES.iter().find(|e| estimates.get(**e).is_none()) {
        return Err(format!(
            "{}: no `{missing}` estimate, as criterion {KNOWN_VERSIONS} write",
            folder.join("estimates.json").display()
        ));
    }
    let shown = folder.join("sample.json").display().to_string();
    if sample.iters.len() != sample.times.len() || sample.iters.is_empty() {
        return Err(format!(
            "{shown}: {} iteration counts for {} times",
            sample.iters.len(),
            sample.times.len()
        ));
    }
    // Each sample is the time of `iters` iterations, in nanoseconds.
    let mut per_iteration = Vec::with_capacity(sample.times.len());
    for (iters, time) in sample.iters.iter().zip(&sample.times) {
        let ms = time / iters / 1e6;
        // The times a saved run may hold: a zero would make every change
        // from it infinite.
        if !(*iters >= 1.0 && (check::MIN_MS..=check::MAX_MS).contains(&ms)) {
            return Err(format!(
                "{shown}: a sample of {time} ns over {iters} iterations, which no run can hold"
            ));
        }
        per_iteration.push(ms);
    }
    let mut row = Row::with_samples(
        benchmark.full_id.clone(),
        RowKind::Probe,
        benchmark.full_id,
        per_iteration,
    );
    row.requests = row.samples.len() as u64;
    row.note = format!(
        "criterion, group {}{}, {} sampling",
        benchmark.group_id,
        benchmark
            .function_id
            .map(|f| format!(", function {f}"))
            .unwrap_or_default(),
        sample.sampling_mode.to_lowercase()
    );
    Ok((row, estimates))
}

/// The largest file of a bench read: criterion's are a few kilobytes.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// A JSON file of `folder`, read as `T` when it is a regular file of at
/// most [`MAX_FILE_BYTES`]; the error names it.
fn file<T: serde::de::DeserializeOwned>(folder: &Path, name: &str) -> Result<T, String> {
    let path = folder.join(name);
    let meta =
        std::fs::metadata(&path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{}: not a regular file of at most {} MB",
            path.display(),
            MAX_FILE_BYTES >> 20
        ));
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: not the layout of criterion {KNOWN_VERSIONS} ({e})",
            path.display()
        )
    })
}

/// When the newest of `files` was written, RFC 3339 in UTC: criterion
/// records no date of its own.
fn newest(files: &[PathBuf]) -> String {
    let newest = files
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok()?.modified().ok())
        .max();
    newest.map_or_else(String::new, crate::timestamp::rfc3339_seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixtures of every criterion version whose layout is read.
    fn fixtures() -> Vec<PathBuf> {
        let root = crate::repository().join("tests/fixtures/criterion");
        let mut found: Vec<PathBuf> = std::fs::read_dir(root)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        found.sort();
        assert!(found.len() >= 2, "{found:?}");
        found
    }

    fn json(path: &Path) -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn every_bench_reads_as_a_row_of_its_per_iteration_samples() {
        for dir in fixtures() {
            let (run, warnings) = read(&dir, NEW).unwrap();
            assert!(warnings.is_empty(), "{warnings:?}");
            let keys: Vec<&str> = run.rows.iter().map(|r| r.key.as_str()).collect();
            assert_eq!(
                keys,
                ["tiny/sort", "tiny/sum", "tiny/xor"],
                "{}",
                dir.display()
            );
            for row in &run.rows {
                let sample = json(&dir.join(&row.key).join("new/sample.json"));
                let (iters, times) = (&sample["iters"], &sample["times"]);
                let n = iters.as_array().unwrap().len();
                assert_eq!((row.figures.n, row.samples.len()), (n, n));
                let first = times[0].as_f64().unwrap() / iters[0].as_f64().unwrap() / 1e6;
                assert_eq!(row.samples[0], first);
            }
            let imported = run.environment.imported.as_ref().unwrap();
            assert_eq!(imported.tool, TOOL_NAME);
            assert!(imported.setup["estimates"]["tiny/xor"]["median"].is_object());
            assert_eq!(run.environment.machine_class, None);
        }
    }

    /// A copy of the first fixture in a temporary folder.
    fn copy() -> tempfile::TempDir {
        let from = &fixtures()[0];
        let to = tempfile::tempdir().unwrap();
        for entry in walk(from) {
            let target = to.path().join(entry.strip_prefix(from).unwrap());
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(&entry, target).unwrap();
        }
        to
    }

    fn walk(dir: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files.extend(walk(&path));
            } else {
                files.push(path);
            }
        }
        files
    }

    #[test]
    fn a_bench_with_a_missing_or_odd_file_is_skipped_with_a_warning_naming_it() {
        let dir = copy();
        std::fs::remove_file(dir.path().join("tiny/sum/new/sample.json")).unwrap();
        std::fs::write(
            dir.path().join("tiny/sort/new/benchmark.json"),
            "{\"group_id\": 1}",
        )
        .unwrap();
        let (run, warnings) = read(dir.path(), NEW).unwrap();
        assert_eq!(run.rows.len(), 1);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[0].contains("tiny/sort/new/benchmark.json")
                && warnings[0].contains("0.5 to 0.8"),
            "{warnings:?}"
        );
        assert!(
            warnings[1].contains("tiny/sum/new/sample.json: cannot read"),
            "{warnings:?}"
        );
        // No bench readable: one line, naming the layout read.
        std::fs::remove_file(dir.path().join("tiny/xor/new/estimates.json")).unwrap();
        let e = read(dir.path(), NEW).unwrap_err();
        assert!(
            e.contains("no bench could be read") && e.lines().count() == 1,
            "{e}"
        );
        let e = read(dir.path(), "nonesuch").unwrap_err();
        assert!(e.contains("baseline `nonesuch`"), "{e}");
        let empty = tempfile::tempdir().unwrap();
        let e = read(empty.path(), NEW).unwrap_err();
        assert!(e.contains("no criterion results"), "{e}");
    }

    #[test]
    fn a_bench_without_its_benchmark_file_or_with_garbage_is_named() {
        let dir = copy();
        std::fs::remove_file(dir.path().join("tiny/sum/new/benchmark.json")).unwrap();
        std::fs::write(dir.path().join("tiny/sort/new/estimates.json"), "garbage").unwrap();
        let (run, warnings) = read(dir.path(), NEW).unwrap();
        assert_eq!(run.rows.len(), 1);
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("tiny/sum/new/benchmark.json: cannot read"))
                && warnings
                    .iter()
                    .any(|w| w.contains("tiny/sort/new/estimates.json: not the layout")),
            "{warnings:?}"
        );
        // Zero and negative times are refused, naming the file.
        let dir = copy();
        let sample = dir.path().join("tiny/xor/new/sample.json");
        let mut doc = json(&sample);
        doc["times"][0] = 0.0.into();
        std::fs::write(&sample, doc.to_string()).unwrap();
        let sample2 = dir.path().join("tiny/sum/new/sample.json");
        let mut doc = json(&sample2);
        doc["times"][0] = (-5.0).into();
        std::fs::write(&sample2, doc.to_string()).unwrap();
        let (_, warnings) = read(dir.path(), NEW).unwrap();
        for file in ["tiny/xor/new/sample.json", "tiny/sum/new/sample.json"] {
            assert!(
                warnings
                    .iter()
                    .any(|w| w.contains(file) && w.contains("which no run can hold")),
                "{file}: {warnings:?}"
            );
        }
    }
}
