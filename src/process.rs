//! Running an external program (a load tool, valgrind) under a wall-clock
//! limit. A tool that never finishes (an h2load against a server that never
//! answers, despite its own timeout) must not hang the run: past the limit
//! the program and every process it started are killed, and the caller gets
//! an error naming the limit.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often a running program is looked at.
const POLL: Duration = Duration::from_millis(10);

/// Runs `command` to its end, or kills it and its process group once
/// `limit` has passed. The error is a sentence for the caller to prefix.
pub(crate) fn output_within(command: &mut Command, limit: Duration) -> Result<Output, String> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // Its own group, so that killing the group reaches its children.
        command.process_group(0);
    }
    let mut child = command.spawn().map_err(|e| format!("cannot run: {e}"))?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < limit => std::thread::sleep(POLL),
            Ok(None) | Err(_) => {
                kill_group(child.id());
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "still running after its limit of {} s, killed",
                    limit.as_secs_f64()
                ));
            }
        }
    };
    Ok(Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// Reads a pipe to its end on a thread of its own, so that a program that
/// fills one pipe while the other is unread cannot stall.
fn drain(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

#[cfg(unix)]
fn kill_group(id: u32) {
    if let Ok(group) = libc::pid_t::try_from(id) {
        // SAFETY: kill(2) with a negated group id only sends a signal; it
        // touches no memory of this process. The group's leader is our
        // child, not yet reaped (only `output_within` waits for it, after
        // this call), so its id cannot have been given to another group.
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
        let Some(child) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok())
        else {
            return;
        };
        // Killed, then reaped by init: gone, or a zombie at most.
        let deadline = Instant::now() + Duration::from_secs(10);
        let alive = || {
            std::fs::read_to_string(format!("/proc/{child}/stat"))
                .is_ok_and(|s| !s.contains(") Z "))
        };
        while alive() && Instant::now() < deadline {
            std::thread::sleep(POLL);
        }
        assert!(!alive(), "the tool's own child outlived it");
    }
}
