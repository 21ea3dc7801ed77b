//! Stops the whole run when a probe runs past `--probe-timeout`.
//!
//! A probe stuck in a loop cannot be interrupted from outside its thread, so
//! the watchdog ends the process: exit code 2, a message naming the probe,
//! and nothing saved (saving happens only after every probe finished).

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Armed {
    /// The probe being watched and its deadline.
    current: Option<(String, Instant)>,
    stopped: bool,
}

/// A watchdog thread; [`Watchdog::watch`] arms it for one probe.
pub(crate) struct Watchdog {
    state: Arc<(Mutex<Armed>, Condvar)>,
    timeout: Duration,
}

impl Watchdog {
    /// Starts the watchdog thread. `on_timeout` gets the message; it runs on
    /// the watchdog thread and is expected to end the process.
    pub fn start(timeout: Duration, on_timeout: fn(&str)) -> Watchdog {
        let state = Arc::new((Mutex::new(Armed::default()), Condvar::new()));
        let shared = Arc::clone(&state);
        let seconds = timeout.as_secs_f64();
        std::thread::spawn(move || {
            let (lock, cvar) = &*shared;
            let Ok(mut armed) = lock.lock() else { return };
            loop {
                if armed.stopped {
                    return;
                }
                let wait = match &armed.current {
                    Some((name, deadline)) => {
                        let now = Instant::now();
                        if now >= *deadline {
                            on_timeout(&format!(
                                "probe `{name}` ran past --probe-timeout ({seconds} s); nothing was saved"
                            ));
                            return;
                        }
                        *deadline - now
                    }
                    None => Duration::from_secs(3600),
                };
                armed = match cvar.wait_timeout(armed, wait) {
                    Ok((guard, _)) => guard,
                    Err(_) => return,
                };
            }
        });
        Watchdog { state, timeout }
    }

    /// Watches `name` from now until the returned guard is dropped.
    pub(crate) fn watch(&self, name: &str) -> Guard<'_> {
        self.set(Some((name.to_string(), Instant::now() + self.timeout)));
        Guard { watchdog: self }
    }

    fn set(&self, current: Option<(String, Instant)>) {
        let (lock, cvar) = &*self.state;
        if let Ok(mut armed) = lock.lock() {
            armed.current = current;
            cvar.notify_one();
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let (lock, cvar) = &*self.state;
        if let Ok(mut armed) = lock.lock() {
            armed.stopped = true;
            cvar.notify_one();
        }
    }
}

/// Disarms the watchdog when dropped.
pub(crate) struct Guard<'a> {
    watchdog: &'a Watchdog,
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        self.watchdog.set(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static FIRED_FAST: AtomicUsize = AtomicUsize::new(0);
    static FIRED_SLOW: AtomicUsize = AtomicUsize::new(0);

    #[test]
    fn a_guard_dropped_in_time_never_fires() {
        // A deadline a second away: no load stalls a thread that long
        // between two statements.
        let dog = Watchdog::start(Duration::from_secs(1), |_| {
            FIRED_FAST.fetch_add(1, Ordering::SeqCst);
        });
        {
            let _g = dog.watch("fast");
        }
        std::thread::sleep(Duration::from_millis(1200));
        assert_eq!(FIRED_FAST.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn fires_past_the_deadline_naming_the_probe() {
        let dog = Watchdog::start(Duration::from_millis(50), |m| {
            if m.contains("`slow`") && m.contains("--probe-timeout") {
                FIRED_SLOW.fetch_add(1, Ordering::SeqCst);
            }
        });
        let _g = dog.watch("slow");
        let start = Instant::now();
        while FIRED_SLOW.load(Ordering::SeqCst) == 0 && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(FIRED_SLOW.load(Ordering::SeqCst), 1);
    }
}
