//! Waiting for a child's end on a thread of its own, so that its exit is
//! timed when it happens; and killing it. (`wait4`'s `ru_maxrss` is not
//! the child's own peak: it keeps the parent's, from before the exec. The
//! child reports its peak itself.)

use super::{Event, Exit};
use std::process::Child;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// Awaits the child; returns what kills it.
///
/// The kill must never reach another process: once a child is reaped, the
/// system may give its pid to a new one. So the waiter first waits without
/// reaping (`waitid` with `WNOWAIT`: the child stays a zombie and keeps its
/// pid), then reaps it under a lock that the kill also takes, and the kill
/// sends its signal only while the child is not yet reaped.
pub(super) fn start(child: Child, tx: Sender<Event>) -> Box<dyn Fn()> {
    let Ok(pid) = libc::pid_t::try_from(child.id()) else {
        return Box::new(|| {});
    };
    let reaped = Arc::new(Mutex::new(false));
    let waiter = Arc::clone(&reaped);
    std::thread::spawn(move || {
        await_end(pid);
        let exit = {
            let mut done = waiter.lock().unwrap_or_else(PoisonError::into_inner);
            let exit = wait(pid);
            *done = true;
            exit
        };
        let _ = tx.send(Event::Exited(exit));
        // It is reaped: the handle must never wait or kill.
        drop(child);
    });
    Box::new(move || {
        let done = reaped.lock().unwrap_or_else(PoisonError::into_inner);
        if !*done {
            // SAFETY: kill(2) only sends a signal. The pid is this child's:
            // it is not reaped (the lock is held, and the waiter reaps only
            // under it), so no other process can have been given the pid.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    })
}

/// Returns once the child has ended, leaving it unreaped (`WNOWAIT`); on an
/// error other than an interruption it returns at once, and `wait` reports.
fn await_end(pid: libc::pid_t) {
    // SAFETY: siginfo_t is plain data, for which zero is a value.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waitid writes only to the local it is given; `pid` is
        // this process's child, which WNOWAIT leaves unreaped.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r != -1 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return;
        }
    }
}

fn wait(pid: libc::pid_t) -> Exit {
    let mut status: libc::c_int = 0;
    let reaped = loop {
        // SAFETY: waitpid writes only to the local it is given.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r != -1 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break r == pid;
        }
    };
    let at = Instant::now();
    let failure = if !reaped {
        Some(format!(
            "cannot await it: {}",
            std::io::Error::last_os_error()
        ))
    } else if libc::WIFEXITED(status) {
        match libc::WEXITSTATUS(status) {
            0 => None,
            code => Some(format!("exited with code {code}")),
        }
    } else if libc::WIFSIGNALED(status) {
        Some(format!("killed by signal {}", libc::WTERMSIG(status)))
    } else {
        Some(format!("ended with status {status}"))
    };
    Exit { at, failure }
}
