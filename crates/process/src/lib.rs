//! Running an external program (a load tool, valgrind) under a wall-clock
//! limit and a stop request. A tool that never finishes (an h2load against a server
//! that never answers, despite its own timeout) must not hang the run, and
//! a run asked to end (a signal) must not leave it loading a server: in
//! both cases the program and every process it started are killed and
//! reaped, and the caller gets a [`Stopped`] saying why.
//!
//! Every wait is bounded by the limit: the program's own end, and the end
//! of its output, which a process it left behind could hold open.

#![warn(missing_docs)]

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How often a running program is looked at.
const POLL: Duration = Duration::from_millis(10);

/// How much of a pipe is read at a time.
const CHUNK: usize = 64 * 1024;

/// Why a program did not run to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stopped {
    /// It could not be run, or waited for: the system's reason.
    Failed(String),
    /// It (or its output) was still going at its limit: killed.
    Limit(Duration),
    /// The run was asked to end while it ran, or before it could start:
    /// killed, or never started.
    Asked,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::Failed(e) => write!(f, "cannot run: {e}"),
            Stopped::Limit(limit) => write!(
                f,
                "still running after its limit of {} s, killed",
                limit.as_secs_f64()
            ),
            Stopped::Asked => f.write_str("stopped: the run was asked to end"),
        }
    }
}

/// Where a program's standard output goes as it is read: all of it (a
/// `Vec<u8>`), or a reader that keeps only what it needs of an output
/// whose size grows with the requests made.
pub trait Sink: Send + 'static {
    /// The next bytes of the output, in order.
    fn take(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn take(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// An output kept whole up to `max` bytes, and only counted past them: a
/// program that prints without end cannot make this process hold it all.
pub struct Capped {
    /// The first `max` bytes printed.
    pub bytes: Vec<u8>,
    max: usize,
    /// Whether bytes past `max` were printed and left out.
    pub cut: bool,
}

impl Capped {
    /// Keeps up to `max` bytes.
    pub fn new(max: usize) -> Capped {
        Capped {
            bytes: Vec::new(),
            max,
            cut: false,
        }
    }
}

impl Sink for Capped {
    fn take(&mut self, bytes: &[u8]) {
        let room = self.max.saturating_sub(self.bytes.len());
        self.bytes
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
        self.cut |= bytes.len() > room;
    }
}

/// The most of a program's standard error kept: enough for any message.
const MAX_STDERR: usize = 1 << 20;

/// A program that ran to its end: its exit status, what its output sink
/// kept, and its standard error.
pub struct Finished<S> {
    /// How the program ended.
    pub status: ExitStatus,
    /// What its standard output's sink kept.
    pub stdout: S,
    /// Its standard error, up to 1 MiB.
    pub stderr: Vec<u8>,
}

/// Runs `command` to its end, its output whole, with nothing to stop it
/// but its limit; see [`run_within`]. The error is a sentence for the
/// caller to prefix.
pub fn output_within(command: &mut Command, limit: Duration) -> Result<Output, String> {
    output_until(command, limit, &|| false)
}

/// [`output_within`], also killed as soon as `stop` says so (looked at
/// every few milliseconds): for a server that ends while its child runs.
pub fn output_until(
    command: &mut Command,
    limit: Duration,
    stop: &dyn Fn() -> bool,
) -> Result<Output, String> {
    let done = run_within(command, limit, stop, Vec::new()).map_err(|e| e.to_string())?;
    Ok(Output {
        status: done.status,
        stdout: done.stdout,
        stderr: done.stderr,
    })
}

/// Runs `command` in a process group of its own, its standard output given
/// to `stdout` as it comes, to its end; or kills the group once `limit` has
/// passed or as soon as `stop` says so (looked at before it starts and
/// every few milliseconds while it runs). The group is killed when the
/// program ends too, so that nothing it left behind goes on, or holds its
/// output open past the limit.
pub fn run_within<S: Sink>(
    command: &mut Command,
    limit: Duration,
    stop: &dyn Fn() -> bool,
    stdout: S,
) -> Result<Finished<S>, Stopped> {
    if stop() {
        return Err(Stopped::Asked);
    }
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Its own group: killing the group reaches its children, and a
        // Ctrl-C to the terminal's group reaches this process alone, which
        // then kills the group.
        command.process_group(0);
        #[cfg(target_os = "linux")]
        die_with_this_process(command);
    }
    let started = Instant::now();
    let mut child = command
        .spawn()
        .map_err(|e| Stopped::Failed(e.to_string()))?;
    let out = drain(child.stdout.take(), stdout);
    let err = drain(child.stderr.take(), Capped::new(MAX_STDERR));
    let ended = wait_for_end(&mut child, started, limit, stop);
    // Whatever it left in its group ends with it; then it is reaped.
    kill_group(child.id());
    let _ = child.kill();
    let status = child.wait();
    ended?;
    let status = status.map_err(|e| Stopped::Failed(e.to_string()))?;
    let deadline = started + limit;
    let stdout = collect(&out, deadline, limit)?;
    let stderr = collect(&err, deadline, limit)?.bytes;
    Ok(Finished {
        status,
        stdout,
        stderr,
    })
}

/// Makes the program die when this process does, however it ends: a
/// SIGKILL of yardstick leaves no load tool running (the kill of the group
/// above needs yardstick alive). The signal is sent when the thread that
/// started the program ends; [`run_within`] waits on that thread for the
/// program's end, so the thread outlives it.
#[cfg(target_os = "linux")]
fn die_with_this_process(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = std::process::id();
    // SAFETY: the hook runs in the child between fork and exec, and calls
    // only prctl(2), getppid(2) and nothing that allocates or locks.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent may have died before the line above took hold.
            if u32::try_from(libc::getppid()).ok() != Some(parent) {
                return Err(std::io::Error::other("yardstick ended while it started"));
            }
            Ok(())
        });
    }
}

/// Waits until the program has ended (still unreaped), `limit` has passed
/// since `started`, or `stop` asks.
fn wait_for_end(
    child: &mut Child,
    started: Instant,
    limit: Duration,
    stop: &dyn Fn() -> bool,
) -> Result<(), Stopped> {
    loop {
        if stop() {
            return Err(Stopped::Asked);
        }
        match has_ended(child) {
            Ok(true) => return Ok(()),
            Ok(false) if started.elapsed() < limit => std::thread::sleep(POLL),
            Ok(false) => return Err(Stopped::Limit(limit)),
            Err(e) => return Err(Stopped::Failed(e.to_string())),
        }
    }
}

/// Reads a pipe to its end on a thread of its own, so that a program that
/// fills one pipe while the other is unread cannot stall; the sink comes
/// back on the channel once the pipe is closed.
fn drain<S: Sink>(pipe: Option<impl Read + Send + 'static>, mut sink: S) -> Receiver<S> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        if let Some(mut pipe) = pipe {
            let mut buffer = vec![0u8; CHUNK];
            loop {
                match pipe.read(&mut buffer) {
                    Ok(0) => break,
                    Ok(n) => sink.take(&buffer[..n]),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
        }
        let _ = send.send(sink);
    });
    receive
}

/// What a drained pipe's sink kept, once the pipe closed, by `deadline`,
/// or a few seconds after the program's end when that is later: its group
/// is dead by then, so the pipe closes as soon as its reader has read what
/// is left, which on a loaded machine can take longer than a poll.
fn collect<S>(pipe: &Receiver<S>, deadline: Instant, limit: Duration) -> Result<S, Stopped> {
    const GRACE: Duration = Duration::from_secs(5);
    let left = deadline.saturating_duration_since(Instant::now());
    pipe.recv_timeout(left.max(GRACE)).map_err(|e| match e {
        RecvTimeoutError::Timeout => Stopped::Limit(limit),
        RecvTimeoutError::Disconnected => Stopped::Failed("its output was lost".to_string()),
    })
}

/// True once the program has ended, without reaping it: until it is
/// reaped its id, which is also its group's, cannot be given to another
/// process, so killing the group afterwards reaches only what it started.
#[cfg(unix)]
fn has_ended(child: &mut Child) -> std::io::Result<bool> {
    let id = libc::id_t::from(child.id());
    // SAFETY: waitid(2) writes only into `info`, a zeroed siginfo_t owned
    // here; WNOWAIT leaves the child unreaped, so `Child::wait` still
    // reaps it later.
    let (rc, pid) = unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let rc = libc::waitid(
            libc::P_PID,
            id,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        (rc, info.si_pid())
    };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(pid != 0)
}

#[cfg(not(unix))]
fn has_ended(child: &mut Child) -> std::io::Result<bool> {
    // Elsewhere there is no group to keep: reaping at once is harmless.
    Ok(child.try_wait()?.is_some())
}

#[cfg(unix)]
fn kill_group(id: u32) {
    if let Ok(group) = libc::pid_t::try_from(id) {
        // SAFETY: kill(2) with a negated group id only sends a signal; it
        // touches no memory of this process. The group's leader is our
        // child, not yet reaped (only `run_within` reaps it, after this
        // call), so its id cannot have been given to another group.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_id: u32) {}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// The pid a shell wrote into `file`, once it has.
    fn pid_in(file: &std::path::Path) -> Option<u32> {
        std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok())
    }

    /// Waits (at most a minute) for `pid` to be gone, or a zombie at most
    /// (killed, then reaped by whoever adopted it); true when it is.
    fn gone(pid: u32) -> bool {
        let deadline = Instant::now() + Duration::from_secs(60);
        let alive = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
        };
        while alive() && Instant::now() < deadline {
            std::thread::sleep(POLL);
        }
        !alive()
    }

    #[test]
    fn a_program_that_ends_gives_its_output() {
        let out = output_within(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Duration::from_secs(60),
        )
        .unwrap();
        assert_eq!(out.stdout, b"out\n");
        assert_eq!(out.stderr, b"err\n");
        assert_eq!(out.status.code(), Some(3));
    }

    #[test]
    fn one_that_does_not_is_killed_with_its_children() {
        let t = tempfile::tempdir().unwrap();
        let pid_file = t.path().join("child");
        let script = format!("sleep 600 & echo $! > {}; wait", pid_file.display());
        let e = output_within(
            Command::new("sh").args(["-c", &script]),
            Duration::from_secs(1),
        )
        .unwrap_err();
        assert_eq!(e, "still running after its limit of 1 s, killed");
        // A shell that did not get as far as starting its child in a second
        // leaves nothing else to check.
        if let Some(child) = pid_in(&pid_file) {
            assert!(gone(child), "the tool's own child outlived it");
        }
    }

    #[test]
    fn a_stop_request_kills_the_group_at_once() {
        let t = tempfile::tempdir().unwrap();
        let pid_file = t.path().join("child");
        let script = format!("sleep 600 & echo $! > {}; wait", pid_file.display());
        // Asked to stop once the child is there: well before the day's limit.
        let stop = || pid_in(&pid_file).is_some();
        let e = run_within(
            Command::new("sh").args(["-c", &script]),
            Duration::from_secs(86_400),
            &stop,
            Vec::new(),
        )
        .err();
        assert_eq!(e, Some(Stopped::Asked));
        assert!(
            gone(pid_in(&pid_file).unwrap()),
            "the tool's child outlived the stop"
        );
        // Asked before it starts: it never does.
        let marker = t.path().join("ran");
        let touch = format!("touch {}", marker.display());
        let e = run_within(
            Command::new("sh").args(["-c", &touch]),
            Duration::from_secs(60),
            &|| true,
            Vec::new(),
        )
        .err();
        assert_eq!(e, Some(Stopped::Asked));
        assert!(!marker.exists());
    }

    #[test]
    fn what_a_program_leaves_behind_ends_with_it() {
        // The child holds the output open: without the group killed, the
        // output would not end for ten minutes.
        let t = tempfile::tempdir().unwrap();
        let pid_file = t.path().join("child");
        let script = format!("sleep 600 & echo $! > {}; echo done", pid_file.display());
        let out = output_within(
            Command::new("sh").args(["-c", &script]),
            Duration::from_secs(300),
        )
        .unwrap();
        assert_eq!(out.stdout, b"done\n");
        assert!(gone(pid_in(&pid_file).unwrap()));
    }

    #[test]
    fn a_missing_program_is_named_as_such() {
        let e = output_within(
            &mut Command::new("/nonexistent/yardstick-tool"),
            Duration::from_secs(60),
        )
        .unwrap_err();
        assert!(e.starts_with("cannot run: "), "{e}");
    }
}
