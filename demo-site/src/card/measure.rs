//! Measure again: yardstick's own HTTP measurement of the card's pages
//! through its two servers, run as a child (`yardstick http
//! --compare=A,B`), warm and then `--cold`, and the card made from the two
//! runs it saved. One measurement at a time, at most one start per
//! [`SPACING`], stopped (its child killed) past [`LIMIT`]; a measurement
//! that fails or is stopped keeps the last good card and adds why. When
//! the site stops, a measurement running is stopped with it: its child
//! killed, its folder removed, and the card left as it was.

use super::model::Card;
use super::store::{self, Failure, Kept};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// The fewest seconds between two starts.
pub const SPACING: Duration = Duration::from_secs(60);
/// The longest a measurement may take.
pub const LIMIT: Duration = Duration::from_secs(120);
/// Requests per page and server: warm (cached), then rendered (`--cold`).
pub const WARM_REQUESTS: u32 = 20;
pub const COLD_REQUESTS: u32 = 8;

/// What a measurement needs.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The `yardstick` program.
    pub yardstick: PathBuf,
    /// Server A's and server B's base URLs.
    pub servers: [String; 2],
    /// The pages, one a line (`yardstick http --urls-file`).
    pub pages: PathBuf,
    /// The card's file.
    pub file: PathBuf,
}

/// Whether a press started a measurement, and if not, why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Press {
    Started,
    /// One is running, started this long ago.
    Running(Duration),
    /// The last started this recently: the next may start after the wait.
    TooSoon(Duration),
    /// The site was started without servers to measure.
    NotSet,
    /// The site is stopping.
    Stopping,
}

/// The measurements of one server process.
pub struct Measurer {
    setup: Option<Setup>,
    state: Mutex<State>,
    /// Told when a measurement ends.
    ended: Condvar,
    /// The site is stopping: a measurement running ends now.
    stopping: AtomicBool,
}

#[derive(Default)]
struct State {
    running: bool,
    last_start: Option<Instant>,
}

impl Measurer {
    pub fn new(setup: Option<Setup>) -> Measurer {
        Measurer {
            setup,
            state: Mutex::new(State::default()),
            ended: Condvar::new(),
            stopping: AtomicBool::new(false),
        }
    }

    /// Stops a measurement running, as the site stops, and waits for it
    /// to end, at most `wait`: its child is killed within milliseconds,
    /// and its folder removed as it ends.
    pub fn stop(&self, wait: Duration) {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        self.stopping.store(true, Ordering::SeqCst);
        let _ = self.ended.wait_timeout_while(state, wait, |s| s.running);
    }

    /// A press of Measure again at `now`: starts a measurement on a thread
    /// of its own unless one runs or the last started too recently.
    pub fn press(self: &Arc<Self>, now: Instant) -> Press {
        let Some(setup) = self.setup.clone() else {
            return Press::NotSet;
        };
        let press = self.claim(now);
        if press == Press::Started {
            let me = Arc::clone(self);
            let spawned = std::thread::Builder::new()
                .name("measure again".into())
                .spawn(move || {
                    let _over = Over(&me);
                    me.finish(&setup, now);
                });
            if let Err(e) = spawned {
                eprintln!("speed card: cannot start a measurement: {e}");
                self.over();
            }
        }
        press
    }

    /// Decides a press at `now`, and marks a measurement running when it
    /// starts one: checked and marked under one lock, so ten presses at
    /// once start one.
    fn claim(&self, now: Instant) -> Press {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // Read under the lock that `stop` waits with: a measurement is
        // either started before `stop` waits for it, or not at all.
        if self.stopping.load(Ordering::SeqCst) {
            return Press::Stopping;
        }
        if let Some(last) = state.last_start {
            let since = now.saturating_duration_since(last);
            if state.running {
                return Press::Running(since);
            }
            if since < SPACING {
                return Press::TooSoon(SPACING - since);
            }
        }
        state.running = true;
        state.last_start = Some(now);
        Press::Started
    }

    /// Measures, keeps the outcome in the card's file, and marks the
    /// measurement over.
    fn finish(&self, setup: &Setup, started: Instant) {
        let at = yardstick::document::timestamp::rfc3339_seconds(SystemTime::now());
        let stop = || self.stopping.load(Ordering::SeqCst);
        let outcome = measure(setup, started + LIMIT, at.clone(), &stop);
        if outcome.is_err() && stop() {
            // Stopped with the site: no outcome to keep. One that ended
            // well is kept, since its runs already replaced the last ones.
            return;
        }
        let (last_good, damaged) = previous(&setup.file);
        let kept = match outcome {
            Ok(card) => Kept {
                last_good: Some(card),
                failure: None,
            },
            Err(message) => Kept {
                last_good,
                failure: Some(Failure {
                    at,
                    message: match damaged {
                        Some(d) => format!("{message}; the card's file was damaged: {d}"),
                        None => message,
                    },
                }),
            },
        };
        if let Err(e) = store::write(&setup.file, &kept) {
            eprintln!("speed card: {e}");
        }
    }

    /// Marks the measurement over.
    fn over(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).running = false;
        self.ended.notify_all();
    }
}

/// Marks the measurement over when dropped: when it ends, and when it
/// panics, so a panic never leaves every later press "still running".
struct Over<'a>(&'a Measurer);

impl Drop for Over<'_> {
    fn drop(&mut self) {
        self.0.over();
    }
}

/// The card's last good measurement, before this one's outcome replaces
/// the file; a damaged file is moved aside (`.damaged`), and said.
fn previous(file: &Path) -> (Option<Card>, Option<String>) {
    match store::read(file) {
        Ok(kept) => (kept.and_then(|k| k.last_good), None),
        Err(e) => {
            let aside = file.with_extension("json.damaged");
            let moved = std::fs::rename(file, &aside).map_or_else(
                |_| String::new(),
                |()| format!(", kept as {}", aside.display()),
            );
            (None, Some(format!("{e}{moved}")))
        }
    }
}

/// One measurement: the warm run, the cold run, the card; an error in one
/// line. `stop` ends it early.
pub fn measure(
    setup: &Setup,
    deadline: Instant,
    at: String,
    stop: &dyn Fn() -> bool,
) -> Result<Card, String> {
    let began = Instant::now();
    let folder = setup.file.parent().unwrap_or(Path::new("."));
    let dir = tempfile::Builder::new()
        .prefix(".measuring")
        .tempdir_in(folder)
        .map_err(|e| format!("cannot make a folder in {}: {e}", folder.display()))?;
    let warm = dir.path().join("cached.json");
    let cold = dir.path().join("rendered.json");
    run(setup, &warm, WARM_REQUESTS, false, deadline, stop)?;
    run(setup, &cold, COLD_REQUESTS, true, deadline, stop)?;
    let load = |p: &Path| yardstick::document::store::load(p).map_err(|e| e.to_string());
    let seconds = began.elapsed().as_secs_f64();
    let card = Card::of_runs(&load(&warm)?, &load(&cold)?, at, seconds)?;
    // The runs stay beside the card, for `yardstick show`.
    for (run, name) in [(&warm, CACHED_RUN), (&cold, RENDERED_RUN)] {
        let kept = setup.file.with_file_name(name);
        std::fs::rename(run, &kept).map_err(|e| format!("cannot keep {}: {e}", kept.display()))?;
    }
    Ok(card)
}

/// The runs of the last good measurement, beside the card's file.
pub const CACHED_RUN: &str = "card-cached.json";
pub const RENDERED_RUN: &str = "card-rendered.json";

/// `yardstick http` of the card's pages through both servers, saved to
/// `save`, killed at `deadline` or when `stop` says so.
fn run(
    setup: &Setup,
    save: &Path,
    requests: u32,
    cold: bool,
    deadline: Instant,
    stop: &dyn Fn() -> bool,
) -> Result<(), String> {
    let mut command = Command::new(&setup.yardstick);
    command
        .args(["http", "-q", "--rounds=1", "--concurrency=1", "--warmup=2"])
        .arg(format!(
            "--compare={},{}",
            setup.servers[0], setup.servers[1]
        ))
        .arg(format!("--urls-file={}", setup.pages.display()))
        .arg(format!("--requests={requests}"))
        .arg(format!("--save={}", save.display()));
    if cold {
        command.arg("--cold");
    }
    let limit = deadline.saturating_duration_since(Instant::now());
    match within(&mut command, limit, stop) {
        // Failed requests fail the run (exit 1) and it is saved all the
        // same: the card reads which server failed from its rows.
        Err(Exited(Some(1), _)) if save.is_file() => Ok(()),
        Err(e) => Err(e.to_string()),
        Ok(()) => Ok(()),
    }
}

/// How `yardstick http` ended when it did not succeed: its exit code (none
/// when a signal or the time limit ended it), and why in one line.
#[derive(Debug)]
struct Exited(Option<i32>, String);

impl std::fmt::Display for Exited {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.1)
    }
}

/// Runs `command` within `limit` as yardstick runs its load tools (killed,
/// with whatever it started, at the limit; its output read as it comes, so
/// no full pipe stops it); a failure says the last line of its errors.
fn within(command: &mut Command, limit: Duration, stop: &dyn Fn() -> bool) -> Result<(), Exited> {
    let out = yardstick::process::output_until(command, limit, stop).map_err(|e| {
        Exited(
            None,
            format!(
                "yardstick http: {e} (a measurement may take {} s at most)",
                LIMIT.as_secs()
            ),
        )
    })?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let why = err
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or("no message");
    Err(Exited(
        out.status.code(),
        format!("yardstick http exited with {}: {}", out.status, why.trim()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presses_start_one_measurement_at_a_time_and_one_a_minute() {
        let m = Measurer::new(None);
        let t0 = Instant::now();
        assert_eq!(m.claim(t0), Press::Started);
        assert_eq!(
            m.claim(t0 + Duration::from_secs(5)),
            Press::Running(Duration::from_secs(5))
        );
        m.state.lock().unwrap().running = false;
        assert_eq!(
            m.claim(t0 + Duration::from_secs(20)),
            Press::TooSoon(Duration::from_secs(40))
        );
        assert_eq!(m.claim(t0 + SPACING), Press::Started);
        m.over();
        m.stop(Duration::ZERO);
        assert_eq!(m.claim(t0 + SPACING * 2), Press::Stopping);
    }

    #[test]
    fn a_damaged_file_is_moved_aside_and_said() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("card.json");
        std::fs::write(&file, "{").unwrap();
        let (last_good, damaged) = previous(&file);
        assert_eq!(last_good, None);
        assert!(damaged.unwrap().contains("card.json.damaged"));
        assert!(dir.path().join("card.json.damaged").is_file() && !file.exists());
        assert_eq!(previous(&file), (None, None));
    }

    #[test]
    fn a_child_past_the_deadline_is_killed() {
        let e = within(Command::new("sleep").arg("600"), Duration::ZERO, &|| false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("killed") && e.contains("120 s at most"), "{e}");
    }

    #[test]
    fn a_failed_measurement_keeps_the_last_good_card_and_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("card.json");
        let good = Card {
            measured_at: "2026-12-04T00:00:00Z".into(),
            seconds: 3.0,
            servers: ["http://a".into(), "http://b".into()],
            pages: Vec::new(),
        };
        store::write(
            &file,
            &Kept {
                last_good: Some(good.clone()),
                failure: None,
            },
        )
        .unwrap();
        let setup = Setup {
            // A program that fails and that no test writes (one just
            // written may be busy while another test's child is forked).
            yardstick: PathBuf::from("/bin/false"),
            servers: ["http://a".into(), "http://b".into()],
            pages: dir.path().join("pages.txt"),
            file: file.clone(),
        };
        let m = Measurer::new(Some(setup.clone()));
        assert_eq!(m.claim(Instant::now()), Press::Started);
        {
            let _over = Over(&m);
            m.finish(&setup, Instant::now());
        }
        let kept = store::read(&file).unwrap().unwrap();
        assert_eq!(kept.last_good, Some(good));
        let failure = kept.failure.unwrap();
        assert!(
            failure.message.contains("yardstick http exited with"),
            "{failure:?}"
        );
        // Over: the next press (a minute on) starts one.
        assert_eq!(m.claim(Instant::now() + SPACING), Press::Started);
    }

    #[test]
    fn ten_presses_at_once_start_one() {
        let m = Arc::new(Measurer::new(None));
        let t0 = Instant::now();
        let started: usize = std::thread::scope(|s| {
            let handles: Vec<_> = (0..10).map(|_| s.spawn(|| m.claim(t0))).collect();
            handles
                .into_iter()
                .map(|h| usize::from(h.join().unwrap() == Press::Started))
                .sum()
        });
        assert_eq!(started, 1);
        assert_eq!(Arc::new(Measurer::new(None)).press(t0), Press::NotSet);
    }
}
