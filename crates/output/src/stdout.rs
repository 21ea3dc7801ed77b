//! Stdout that a closed pipe ends quietly, as other command-line tools end.
//!
//! Rust ignores SIGPIPE, so `println!` into a pipe whose reader has gone
//! (`yardstick --help | head -1`) panics with a backtrace. Every line a
//! command prints goes through here instead: the first write that finds the
//! pipe closed is remembered, later ones are dropped, and the command still
//! saves and records its run. Its exit code then says that its output was
//! cut off, as a shell reports a process that SIGPIPE ended ([`CUT_OFF`]);
//! help, which is nothing but output, exits 0. Any other failed write (a
//! full disk) is an error: exit 2, with one line on stderr.

use std::io::{ErrorKind, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code of a command whose stdout was closed before it finished
/// writing: 128 + SIGPIPE (13), what a shell shows for `seq 1e9 | head`.
pub const CUT_OFF: i32 = 141;

static CLOSED: AtomicBool = AtomicBool::new(false);

/// The first write that failed otherwise (a full disk behind a redirect,
/// `> /dev/full`): a truncated document must not look like a success.
static FAILED: Mutex<Option<String>> = Mutex::new(None);

/// Writes `text` as it is; nothing once stdout has been found closed or
/// failed. The run is still saved and recorded: printing it was not its
/// only copy.
pub fn print(text: &str) {
    if CLOSED.load(Ordering::Relaxed) || failed().is_some() {
        return;
    }
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::BrokenPipe => CLOSED.store(true, Ordering::Relaxed),
        Err(e) => {
            if let Ok(mut first) = FAILED.lock() {
                first.get_or_insert_with(|| e.to_string());
            }
        }
    }
}

/// Why a write to stdout failed, other than its reader going away.
pub fn failed() -> Option<String> {
    FAILED.lock().ok().and_then(|f| f.clone())
}

/// Writes `line` and a newline.
pub fn line(line: &str) {
    print(&format!("{line}\n"));
}

/// Whether a write found stdout's reader gone.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}
