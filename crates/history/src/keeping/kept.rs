//! The developer's loop on the history: in a bench that links this crate,
//! the runs `cargo bench` keeps go into the local history beside them
//! (`<target>/yardstick/history.sqlite`), under the bench's name, and the
//! last run of this bench and class is read back from it. Runs kept as
//! files by a build without the history are added to it (once: a run
//! already there is left as it is), and the files are left where they
//! are, for such a build to go on with.

use crate::document::environment;
use crate::document::run::{Metric, Run};
use crate::document::store;
use crate::error::Error;
use crate::{Entry, Filter, Location, Store};
use yardstick_baseline::history::{Bench, Last, keepable, runs_in};

/// The newest runs looked at for one that can be a baseline.
const LOOKED_AT: u64 = 20;

/// The local history of `bench`'s loop.
pub(crate) fn location(bench: &Bench) -> Location {
    Location::default_in(&bench.home)
}

/// The last run of `bench` on machine class `class` (`None`: unknown,
/// which runs record as no class) that a timed run can be compared with;
/// `None` when there is none.
pub(crate) fn last(bench: &Bench, class: Option<&str>) -> Result<Option<Last>, Error> {
    let location = location(bench);
    if !crate::exists(&location) && !has_files(bench) {
        return Ok(None);
    }
    let mut store = crate::open(&location)?;
    import_files(bench, store.as_mut())?;
    let filter = Filter {
        bench: Some(bench.name.clone()),
        machine_class: Some(class.unwrap_or_default().to_string()),
        metric: Some(Metric::Time.as_str().to_string()),
        limit: Some(LOOKED_AT),
        ..Filter::default()
    };
    for listed in store.list(&filter)? {
        let stored = store.find(&listed.id)?;
        let Ok(run) = store::parse(&stored.text) else {
            continue;
        };
        // A loop median that is no time (an edited run) cannot divide.
        if keepable(&run) && run.calibration_median().is_some() {
            let name = format!("{} run {}", location.shown(), listed.short_id());
            return Ok(Some(Last::Kept(name, Box::new(run))));
        }
    }
    Ok(None)
}

/// Keeps `run` in the local history under `bench`'s name.
pub(crate) fn keep(bench: &Bench, run: &Run) -> Result<(), Error> {
    let mut store = crate::open(&location(bench))?;
    import_files(bench, store.as_mut())?;
    store.add(&entry_of(bench, run)).map(drop)
}

fn entry_of(bench: &Bench, run: &Run) -> Entry {
    let text = store::saved_text(run);
    let branch = environment::branch_of(&bench.repository).unwrap_or_default();
    let mut entry = Entry::new(text, run, &branch);
    entry.columns.bench = bench.name.clone();
    entry
}

/// Whether runs kept as files (`<home>/<class>/<bench>/*.json`) wait to be
/// added.
fn has_files(bench: &Bench) -> bool {
    !kept_files(bench).is_empty()
}

/// The files a build without the history kept for `bench`: named as
/// `Bench::keep_file` names them (`<start>-<10 digits>.json`), in
/// `<home>/<class>/<bench>/`, and nothing else, so that a home shared with
/// other files (the package itself) gives up none of them.
fn kept_files(bench: &Bench) -> Vec<std::path::PathBuf> {
    let Ok(classes) = std::fs::read_dir(&bench.home) else {
        return Vec::new();
    };
    classes
        .filter_map(Result::ok)
        .map(|class| class.path().join(&bench.name))
        .filter(|dir| dir.is_dir())
        .flat_map(|dir| runs_in(&dir))
        .filter(|path| named_as_kept(path))
        .collect()
}

/// `2026-12-01T10-00-00Z-0000012345.json`.
fn named_as_kept(path: &std::path::Path) -> bool {
    let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
        return false;
    };
    let Some((stamp, pid)) = stem.rsplit_once('-') else {
        return false;
    };
    pid.len() == 10
        && pid.bytes().all(|b| b.is_ascii_digit())
        && stamp.len() >= 20
        && stamp.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && stamp.ends_with('Z')
}

/// Adds the runs kept as files to the history under the bench's name; a
/// file that does not read, or is no run a bench keeps, is passed over.
/// The files stay: a run already there is not added again.
fn import_files(bench: &Bench, store: &mut dyn Store) -> Result<(), Error> {
    for path in kept_files(bench) {
        let Ok((run, text)) = store::load_with_text(&path) else {
            continue;
        };
        if !keepable(&run) {
            continue;
        }
        let mut entry = Entry::new(text, &run, "");
        entry.columns.bench = bench.name.clone();
        store.add(&entry)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::run::{CalibrationSummary, test_micro_run};
    use yardstick_baseline::history::Choice;

    fn bench(dir: &std::path::Path, name: &str) -> Bench {
        Bench {
            name: name.into(),
            repository: dir.join("repo"),
            home: dir.join("home"),
        }
    }

    fn timed(started: &str) -> Run {
        let mut run = test_micro_run(Vec::new(), None);
        run.calibration = CalibrationSummary::of(&[1.0], &[1.0], 1);
        run.started = started.into();
        run
    }

    /// How many runs `bench`'s local history holds.
    fn kept(bench: &Bench) -> usize {
        let mut store = crate::open(&location(bench)).unwrap();
        store.list(&Filter::default()).unwrap().len()
    }

    fn started(choice: Choice) -> String {
        match choice {
            Choice::LastRun(Last::Kept(_, run)) => run.started,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_last_run_is_this_bench_s_and_the_history_keeps_them_all() {
        let t = tempfile::tempdir().unwrap();
        let micro = bench(t.path(), "micro");
        let other = bench(t.path(), "other");
        for hour in 10..20 {
            let run = timed(&format!("2026-12-01T{hour}:00:00Z"));
            assert!(micro.place(&run).unwrap().starts_with("in the history "));
            micro.keep(&run).unwrap();
        }
        other.keep(&timed("2026-12-02T00:00:00Z")).unwrap();
        let class = "test-cpu-2cpu-00000000";
        assert_eq!(started(micro.choose(Some(class))), "2026-12-01T19:00:00Z");
        assert_eq!(started(other.choose(Some(class))), "2026-12-02T00:00:00Z");
        assert_eq!(kept(&micro), 11);
    }

    #[test]
    fn a_run_of_unknown_class_is_found_again() {
        let t = tempfile::tempdir().unwrap();
        let micro = bench(t.path(), "micro");
        let mut run = timed("2026-12-01T10:00:00Z");
        run.environment.machine_class = None;
        micro.keep(&run).unwrap();
        assert_eq!(started(micro.choose(None)), "2026-12-01T10:00:00Z");
    }

    #[test]
    fn only_files_a_bench_kept_are_added_and_none_is_removed() {
        let t = tempfile::tempdir().unwrap();
        let micro = bench(t.path(), "micro");
        // A committed baseline where a shared home would find it.
        let committed = micro
            .home
            .join("baselines/micro/test-cpu-2cpu-00000000.json");
        store::save(&committed, &timed("2026-11-01T10:00:00Z")).unwrap();
        let dir = micro.kept("test-cpu-2cpu-00000000");
        let file = dir.join("2026-12-01T10-00-00Z-0000000001.json");
        store::save(&file, &timed("2026-12-01T10:00:00Z")).unwrap();
        assert_eq!(
            started(micro.choose(Some("test-cpu-2cpu-00000000"))),
            "2026-12-01T10:00:00Z"
        );
        assert!(file.exists() && committed.exists());
        micro.choose(Some("test-cpu-2cpu-00000000"));
        assert_eq!(kept(&micro), 1, "added once, the baseline never");
        assert!(!named_as_kept(&committed) && named_as_kept(&file));
    }

    #[test]
    fn runs_kept_as_files_are_added_once() {
        let t = tempfile::tempdir().unwrap();
        let micro = bench(t.path(), "micro");
        let dir = micro.kept("test-cpu-2cpu-00000000");
        let file = dir.join("2026-12-01T10-00-00Z-0000000001.json");
        store::save(&file, &timed("2026-12-01T10:00:00Z")).unwrap();
        assert_eq!(
            started(micro.choose(Some("test-cpu-2cpu-00000000"))),
            "2026-12-01T10:00:00Z"
        );
        micro.keep(&timed("2026-12-01T11:00:00Z")).unwrap();
        assert_eq!(kept(&micro), 2);
    }

    #[test]
    fn a_broken_local_history_says_so_and_is_left_alone() {
        let t = tempfile::tempdir().unwrap();
        let micro = bench(t.path(), "micro");
        std::fs::create_dir_all(&micro.home).unwrap();
        let path = micro.home.join(crate::location::DEFAULT_FILE);
        std::fs::write(&path, "not a database").unwrap();
        match micro.choose(Some("test-cpu-2cpu-00000000")) {
            Choice::Nothing(why) => assert!(why.contains("unreadable"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(std::fs::read(&path).unwrap(), b"not a database");
    }
}
