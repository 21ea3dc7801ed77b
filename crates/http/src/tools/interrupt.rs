//! The signals that end a run (SIGTERM, SIGINT, SIGHUP), caught while a
//! load tool runs. A tool runs in a process group of its own, which a
//! Ctrl-C at the terminal does not reach, and it would go on loading the
//! server after yardstick died: so yardstick catches the signal, kills and
//! reaps the tool's group (`crate::process`), saves nothing, and exits
//! with 128 + the signal's number, as a shell reports a process the signal
//! killed.
//!
//! Only runs with a tool catch them (the built-in client has no process to
//! leave behind), and once caught they stay caught for the life of the
//! process: signal-hook cannot give a signal back to the system's default.
//! So a second signal ends the process at once, with the same status:
//! what follows the tool (judging, printing, a save through a temporary
//! file) can then still be stopped, and leaves no file half-written.

use crate::error::Error;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// The signals caught, with their names for messages.
const SIGNALS: [(i32, &str); 3] = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")];

/// The number of the last signal caught (0 for none), once the handlers
/// are in place; or why they could not be put in place.
static CAUGHT: OnceLock<Result<Arc<AtomicUsize>, String>> = OnceLock::new();

/// Catches the signals from now on (the first call puts the handlers in
/// place; later ones do nothing). Refused when the system will not.
pub(crate) fn catch() -> Result<(), Error> {
    let flag = CAUGHT.get_or_init(|| {
        let flag = Arc::new(AtomicUsize::new(0));
        // Set by the first signal; a signal that finds it set exits. The
        // actions run in the order they were registered.
        let armed = Arc::new(AtomicBool::new(false));
        for (signal, name) in SIGNALS {
            let number = usize::try_from(signal).map_err(|e| format!("{name}: {e}"))?;
            let cannot = |e: std::io::Error| format!("cannot catch {name}: {e}");
            signal_hook::flag::register_conditional_shutdown(
                signal,
                128 + signal,
                Arc::clone(&armed),
            )
            .map_err(cannot)?;
            signal_hook::flag::register(signal, Arc::clone(&armed)).map_err(cannot)?;
            signal_hook::flag::register_usize(signal, Arc::clone(&flag), number).map_err(cannot)?;
        }
        Ok(flag)
    });
    match flag {
        Ok(_) => Ok(()),
        Err(e) => Err(Error::Refused(format!("--tool: {e}"))),
    }
}

/// The signal caught since [`catch`], if any.
pub fn caught() -> Option<i32> {
    let flag = CAUGHT.get()?.as_ref().ok()?;
    let number = flag.load(Ordering::SeqCst);
    (number != 0).then(|| i32::try_from(number).ok()).flatten()
}

/// The name of `signal` (`SIGTERM`), or its number.
pub fn name(signal: i32) -> String {
    SIGNALS
        .iter()
        .find(|(s, _)| *s == signal)
        .map_or_else(|| format!("signal {signal}"), |(_, n)| (*n).to_string())
}
