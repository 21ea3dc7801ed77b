//! Waiting for a child's end on a thread of its own, so that its exit is
//! timed when it happens, with `wait4`, which also gives its peak resident
//! set; and killing it.

use super::{Event, Exit};
use std::process::Child;
use std::sync::mpsc::Sender;
use std::time::Instant;

/// Awaits the child with `wait4`, which also gives its peak resident
/// set; returns what kills it.
pub(super) fn start(child: Child, tx: Sender<Event>) -> Box<dyn Fn()> {
    let Ok(pid) = libc::pid_t::try_from(child.id()) else {
        return Box::new(|| {});
    };
    std::thread::spawn(move || {
        let exit = wait(pid);
        let _ = tx.send(Event::Exited(exit));
        // `wait4` reaped it: the handle must never wait or kill.
        drop(child);
    });
    Box::new(move || {
        // SAFETY: kill(2) only sends a signal; the pid is this child's,
        // still unreaped (a zombie at most) until the waiter reports.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    })
}

fn wait(pid: libc::pid_t) -> Exit {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain integers, for which zero is a value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = loop {
        // SAFETY: wait4 writes only to the two locals it is given.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
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
    Exit {
        at,
        failure,
        peak_rss: rss(reaped, &usage),
    }
}

/// Linux gives `ru_maxrss` in KiB; other systems in other units, so
/// they give none here.
fn rss(reaped: bool, usage: &libc::rusage) -> Option<u64> {
    let kib = u64::try_from(usage.ru_maxrss).ok();
    (reaped && cfg!(target_os = "linux")).then_some(kib?.saturating_mul(1024))
}
