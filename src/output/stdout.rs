//! Stdout that a closed pipe ends quietly, as other command-line tools end.
//!
//! Rust ignores SIGPIPE, so `println!` into a pipe whose reader has gone
//! (`yardstick --help | head -1`) panics with a backtrace. Every line a
//! command prints goes through here instead: the first write that finds the
//! pipe closed is remembered, later ones are dropped, and the command still
//! saves and records its run. Its exit code then says that its output was
//! cut off, as a shell reports a process that SIGPIPE ended ([`CUT_OFF`]);
//! help, which is nothing but output, exits 0.

use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code of a command whose stdout was closed before it finished
/// writing: 128 + SIGPIPE (13), what a shell shows for `seq 1e9 | head`.
pub const CUT_OFF: i32 = 141;

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `text` as it is; nothing once stdout has been found closed.
pub fn print(text: &str) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    // Any other failure (a full disk behind a redirect) leaves the run to
    // be saved and judged: printing it was not the only copy.
    if let Err(e) = written
        && e.kind() == ErrorKind::BrokenPipe
    {
        CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Writes `line` and a newline.
pub fn line(line: &str) {
    print(&format!("{line}\n"));
}

/// Whether a write found stdout's reader gone.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}
