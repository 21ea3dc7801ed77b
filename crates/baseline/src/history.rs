//! Which baseline `cargo bench` judges by, and the runs it keeps.
//!
//! Wall time is judged only against a baseline of this machine class (see
//! `judge/machine.rs`), so plain `cargo bench` on unchanged code must
//! never fail because of the machine. It judges by, in this order:
//!
//! 1. a committed baseline of this class, `baselines/<bench>/<class>.json`:
//!    a verdict;
//! 2. otherwise the committed count baseline of this set-up, in
//!    `baselines/<bench>/counts/`, where valgrind is installed: the run is counted
//!    instead of timed, and the counts give the verdict (see
//!    `baseline::counts::usable`);
//! 3. otherwise the last run of this class that `cargo bench` kept (as
//!    criterion keeps its last run): under
//!    `<target>/yardstick/<class>/<bench>/`, or in the local history where
//!    the bench links yardstick-history (`keeper.rs`); the same table and verdict
//!    words, with confirmation, but as information (exit 0);
//! 4. otherwise nothing, and it says so.
//!
//! Every timed run of `cargo bench` is kept there: all of them in the
//! history, or the newest `KEPT` of each class and bench as files;
//! `YARDSTICK_HOME` moves the folder.

use super::keeper::keeper;
use crate::document::environment::repository_dir;
use crate::document::run::{Metric, Run};
use crate::document::store;
use crate::error::Error;
use std::path::{Path, PathBuf};

/// Overrides where kept runs go (default `<target>/yardstick`).
pub(crate) const HOME_VARIABLE: &str = "YARDSTICK_HOME";
/// Runs kept per machine class and bench.
pub(crate) const KEPT: usize = 5;

/// A bench target's places: its committed baselines and its kept runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Bench {
    /// The bench's name (`micro` for `benches/micro.rs`).
    pub name: String,
    /// The package's directory, which holds `baselines/`.
    pub repository: PathBuf,
    /// Where kept runs go.
    pub home: PathBuf,
}

/// The baseline `cargo bench` chose, and why.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// A committed baseline of this machine class: a verdict.
    Committed(PathBuf),
    /// The last run kept on this machine class: information.
    LastRun(Last),
    /// Nothing to compare with; the reason, in a line.
    Nothing(String),
}

/// The last run a bench kept.
#[derive(Debug, Clone, PartialEq)]
pub enum Last {
    /// A file under the folder of kept runs.
    File(PathBuf),
    /// A run of the local history, and its name in messages.
    Kept(String, Box<Run>),
}

impl Bench {
    /// The bench a cargo-built binary at `program` belongs to: cargo names
    /// it `<bench>-<16 hex digits>` and runs it from its package.
    pub fn for_program(program: &Path) -> Bench {
        let stem = program
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("micro");
        let name = match stem.rsplit_once('-') {
            Some((name, hash))
                if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) =>
            {
                name
            }
            _ => stem,
        };
        let repository = repository_dir();
        Bench {
            name: name.to_string(),
            home: home(program, &repository),
            repository,
        }
    }

    /// The bench this process is, when cargo built it as one (its binary
    /// lies in `<target>/<profile>/deps/`); `None` for any other binary,
    /// the `yardstick` command among them.
    pub fn cargo_built(program: &Path) -> Option<Bench> {
        let in_deps = program
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|d| d == "deps");
        in_deps.then(|| Bench::for_program(program))
    }

    /// The bench this running program would be, and so where its runs are
    /// kept; the default history is there too.
    pub fn this_program() -> Bench {
        Bench::for_program(&std::env::current_exe().unwrap_or_default())
    }

    /// `baselines/<bench>/<class>.json`.
    pub fn committed(&self, class: &str) -> PathBuf {
        self.repository
            .join("baselines")
            .join(&self.name)
            .join(format!("{class}.json"))
    }

    /// Where runs of `class` are kept.
    pub fn kept(&self, class: &str) -> PathBuf {
        self.home.join(class).join(&self.name)
    }

    /// The baseline to judge by on machine class `class` (`None`: unknown).
    pub fn choose(&self, class: Option<&str>) -> Choice {
        let shown = class.unwrap_or("unknown");
        if let Some(path) = class.map(|c| self.committed(c)).filter(|p| p.is_file()) {
            return Choice::Committed(path);
        }
        match self.last(class) {
            Ok(Some(last)) => return Choice::LastRun(last),
            Ok(None) => {}
            Err(e) => {
                return Choice::Nothing(format!(
                    "no committed baseline for machine class {shown}, and its kept runs are \
                     unreadable ({})",
                    e.to_string().trim_start_matches("error: ")
                ));
            }
        }
        let committed = match class {
            Some(c) => format!(
                "no committed baseline for it ({})",
                self.committed(c).display()
            ),
            None => "a machine of unknown class has no committed baseline".to_string(),
        };
        Choice::Nothing(format!(
            "no baseline for machine class {shown}: {committed}, and no earlier run of it in {}{}",
            self.kept_place(shown),
            self.legacy_note()
        ))
    }

    /// A word on `baselines/<bench>.json`, the single baseline of yardstick
    /// before machine classes: it is of unknown class and no longer read.
    pub(crate) fn legacy_note(&self) -> String {
        let old = self
            .repository
            .join("baselines")
            .join(format!("{}.json", self.name));
        if old.is_file() {
            format!(
                " ({} is of no machine class and no longer read: make baselines/{}/<class>.json)",
                old.display(),
                self.name
            )
        } else {
            String::new()
        }
    }

    /// The newest run kept on class `class` that still reads (a damaged
    /// file is skipped), where this bench's [`Keeper`](super::keeper::Keeper)
    /// keeps them.
    fn last(&self, class: Option<&str>) -> Result<Option<Last>, Error> {
        keeper().last(self, class)
    }

    /// The newest run of `class` kept as a file that still reads.
    pub(super) fn last_file(&self, class: Option<&str>) -> Option<Last> {
        let mut kept = runs_in(&self.kept(class.unwrap_or("unknown")));
        kept.sort();
        kept.into_iter()
            .rev()
            .find(|p| store::load(p).is_ok())
            .map(Last::File)
    }

    /// Where this bench keeps runs of `class`, as messages name it.
    fn kept_place(&self, class: &str) -> String {
        keeper().location(self, class)
    }

    /// Where `run` will be kept (`as FILE`, `in the history H`), said
    /// before it is kept so that the run kept is the run delivered, word
    /// for word; `None` for a run that is not kept: runs of counts and
    /// runs made with an injected slowdown are no baseline for wall time.
    pub fn place(&self, run: &Run) -> Option<String> {
        if !keepable(run) {
            return None;
        }
        Some(keeper().place(self, run))
    }

    /// Keeps `run` for the next run of its class to compare with, where
    /// [`Bench::place`] said; a run that is not kept is passed over.
    pub fn keep(&self, run: &Run) -> Result<(), Error> {
        if !keepable(run) {
            return Ok(());
        }
        keeper().keep(self, run)
    }

    /// The file `run` is kept in: RFC 3339 to the second sorts by time;
    /// the process id, padded so that names sort as numbers, keeps two
    /// runs of one second apart.
    pub(super) fn file_for(&self, run: &Run) -> PathBuf {
        let stamp = run.started.replace(':', "-");
        self.kept(run.environment.class_name())
            .join(format!("{stamp}-{:010}.json", std::process::id()))
    }

    /// Keeps `run` as a file among the runs of its class, and drops all
    /// but the newest `KEPT`.
    pub(super) fn keep_file(&self, run: &Run) -> Result<(), Error> {
        let path = self.file_for(run);
        store::save(&path, run)?;
        let dir = self.kept(run.environment.class_name());
        let mut all = runs_in(&dir);
        all.sort();
        let excess = all.len().saturating_sub(KEPT);
        for old in &all[..excess] {
            let _ = std::fs::remove_file(old);
        }
        Ok(())
    }
}

/// A timed, calibrated run made without an injected slowdown: what a
/// bench keeps, and compares with.
pub fn keepable(run: &Run) -> bool {
    run.metric == Metric::Time && run.calibration.is_some() && run.settings.injected().is_none()
}

/// Where `--save-baseline=NAME` saves a run and `--baseline=NAME` reads
/// it, as criterion keeps its named baselines: `baselines/NAME.json` in
/// the folder of the kept runs (see [`home`]).
pub fn named(name: &str) -> PathBuf {
    let program = std::env::current_exe().unwrap_or_default();
    home(&program, &repository_dir())
        .join("baselines")
        .join(format!("{name}.json"))
}

/// Whether `name` can name a baseline: 1 to 64 letters, digits, `.`, `_`
/// and `-`, not starting with a dot nor ending in `.json`: a file name in
/// every file system, never a path, and never what a user meant as a file.
pub fn is_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && !name.starts_with('.')
        && !name.ends_with(".json")
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// `YARDSTICK_HOME`, else the target folder of a cargo-built binary
/// (`<target>/<profile>/deps/<bench>-<hash>`), else `target/yardstick` in
/// the package.
fn home(program: &Path, repository: &Path) -> PathBuf {
    if let Some(dir) = std::env::var_os(HOME_VARIABLE).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let deps = program.parent();
    match deps.filter(|d| d.file_name().is_some_and(|n| n == "deps")) {
        Some(deps) => deps
            .parent()
            .and_then(Path::parent)
            .map_or_else(|| repository.join("target"), Path::to_path_buf)
            .join("yardstick"),
        None => repository.join("target").join("yardstick"),
    }
}

/// The runs kept in `dir`: its `.json` files, in no order.
pub fn runs_in(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::run::test_micro_run;

    fn bench(dir: &Path) -> Bench {
        Bench {
            name: "micro".into(),
            repository: dir.join("repo"),
            home: dir.join("home"),
        }
    }

    /// When the run a choice names started.
    fn started(choice: Choice) -> String {
        match choice {
            Choice::LastRun(Last::File(path)) => store::load(&path).unwrap().started,
            Choice::LastRun(Last::Kept(_, run)) => run.started,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn only_a_binary_cargo_built_as_a_bench_is_one() {
        let deps = Path::new("/t/release/deps/micro-0123456789abcdef");
        assert_eq!(
            Bench::cargo_built(deps).map(|b| b.name).as_deref(),
            Some("micro")
        );
        assert!(Bench::cargo_built(Path::new("/t/release/yardstick")).is_none());
    }

    #[test]
    fn the_name_drops_cargo_s_hash() {
        let b = Bench::for_program(Path::new("/t/release/deps/micro-0123456789abcdef"));
        assert_eq!(b.name, "micro");
        let b = Bench::for_program(Path::new("/bin/my-bench"));
        assert_eq!(b.name, "my-bench");
    }

    #[test]
    fn a_committed_baseline_of_the_class_comes_first() {
        let t = tempfile::tempdir().unwrap();
        let b = bench(t.path());
        let mut run = test_micro_run(Vec::new(), None);
        run.environment.machine_class = Some("cpu-2cpu-00000001".into());
        let committed = b.committed("cpu-2cpu-00000001");
        std::fs::create_dir_all(committed.parent().unwrap()).unwrap();
        store::save(&committed, &run).unwrap();
        assert_eq!(
            b.choose(Some("cpu-2cpu-00000001")),
            Choice::Committed(committed)
        );
    }

    #[test]
    fn otherwise_the_last_run_of_the_class() {
        let t = tempfile::tempdir().unwrap();
        let b = bench(t.path());
        let mut run = test_micro_run(Vec::new(), None);
        run.calibration = crate::document::run::CalibrationSummary::of(&[1.0], &[1.0], 1);
        run.environment.machine_class = Some("cpu-2cpu-00000001".into());
        run.started = "2026-12-01T10:00:00Z".into();
        b.keep(&run).unwrap();
        run.started = "2026-12-01T11:00:00Z".into();
        b.keep(&run).unwrap();
        assert_eq!(
            started(b.choose(Some("cpu-2cpu-00000001"))),
            "2026-12-01T11:00:00Z"
        );
        // Another class's committed baseline and runs do not count.
        match b.choose(Some("other-2cpu-00000002")) {
            Choice::Nothing(why) => assert!(why.contains("other-2cpu-00000002"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    // The file functions directly, as a bench that links no history
    // keeps its runs.
    #[test]
    fn a_damaged_last_run_is_skipped_for_the_one_before() {
        let t = tempfile::tempdir().unwrap();
        let b = bench(t.path());
        let mut run = test_micro_run(Vec::new(), None);
        run.calibration = crate::document::run::CalibrationSummary::of(&[1.0], &[1.0], 1);
        run.started = "2026-12-01T10:00:00Z".into();
        b.keep_file(&run).unwrap();
        run.started = "2026-12-01T11:00:00Z".into();
        b.keep_file(&run).unwrap();
        let dir = b.kept("test-cpu-2cpu-00000000");
        let newer = runs_in(&dir).into_iter().max().unwrap();
        assert_eq!(newer, b.file_for(&run));
        std::fs::write(&newer, "{ broken").unwrap();
        let last = b.last_file(Some("test-cpu-2cpu-00000000")).unwrap();
        assert_eq!(started(Choice::LastRun(last)), "2026-12-01T10:00:00Z");
        assert!(b.last_file(Some("other-2cpu-00000001")).is_none());
    }

    #[test]
    fn the_old_single_baseline_is_named_not_read() {
        let t = tempfile::tempdir().unwrap();
        let b = bench(t.path());
        std::fs::create_dir_all(b.repository.join("baselines")).unwrap();
        std::fs::write(b.repository.join("baselines/micro.json"), "{}").unwrap();
        match b.choose(Some("x-2cpu-00000001")) {
            Choice::Nothing(why) => {
                assert!(why.contains("micro.json is of no machine class"), "{why}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn otherwise_nothing_and_why() {
        let t = tempfile::tempdir().unwrap();
        match bench(t.path()).choose(None) {
            Choice::Nothing(why) => assert!(why.contains("unknown class"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn runs_without_calibration_or_with_an_injected_slowdown_are_never_kept() {
        let t = tempfile::tempdir().unwrap();
        let b = bench(t.path());
        let mut run = test_micro_run(Vec::new(), None);
        assert_eq!(b.place(&run), None, "no calibration, not kept");
        run.calibration = crate::document::run::CalibrationSummary::of(&[1.0], &[1.0], 1);
        run.settings.micro_mut().unwrap().inject = Some("*:5".into());
        assert_eq!(b.place(&run), None);
        b.keep(&run).unwrap();
        assert!(matches!(
            b.choose(Some("test-cpu-2cpu-00000000")),
            Choice::Nothing(_)
        ));
        run.settings.micro_mut().unwrap().inject = None;
        assert!(b.place(&run).is_some());
    }

    #[test]
    fn only_the_newest_runs_are_kept_as_files() {
        let t = tempfile::tempdir().unwrap();
        let b = bench(t.path());
        let mut run = test_micro_run(Vec::new(), None);
        run.calibration = crate::document::run::CalibrationSummary::of(&[1.0], &[1.0], 1);
        for hour in 10..10 + KEPT + 3 {
            run.started = format!("2026-12-01T{hour:02}:00:00Z");
            b.keep_file(&run).unwrap();
        }
        let dir = b.kept("test-cpu-2cpu-00000000");
        assert_eq!(runs_in(&dir).len(), KEPT);
        assert!(
            runs_in(&dir)
                .into_iter()
                .max()
                .unwrap()
                .to_string_lossy()
                .contains(&format!("T{:02}-00-00Z", 10 + KEPT + 2))
        );
    }
}
