//! Without `waitid`: the child looked at every millisecond.

use super::{Event, Exit};
use std::process::Child;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub(super) fn start(child: Child, tx: Sender<Event>) -> Box<dyn Fn()> {
    let child = Arc::new(Mutex::new(child));
    let shared = Arc::clone(&child);
    std::thread::spawn(move || {
        loop {
            let status = match shared.lock() {
                Ok(mut c) => c.try_wait(),
                Err(_) => return,
            };
            let failure = match status {
                Ok(None) => {
                    std::thread::sleep(Duration::from_millis(1));
                    continue;
                }
                Ok(Some(s)) if s.success() => None,
                Ok(Some(s)) => Some(format!("exited with {s}")),
                Err(e) => Some(format!("cannot await it: {e}")),
            };
            let at = Instant::now();
            let _ = tx.send(Event::Exited(Exit { at, failure }));
            return;
        }
    });
    Box::new(move || {
        if let Ok(mut c) = child.lock() {
            let _ = c.kill();
        }
    })
}
