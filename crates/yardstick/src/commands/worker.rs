//! `--bench --worker`: this binary as one side of `compare-builds`, serving
//! single samples over stdin and stdout (see `worker`).

use super::micro::options::MicroOptions;
use crate::error::Error;
use crate::measure::clock::Clock;
use crate::measure::inject::Injection;
use crate::probe;
use crate::worker::server;
use std::io::BufReader;

/// Serves the probes `options` select until stdin closes; returns the exit
/// code.
pub(crate) fn main(options: &MicroOptions) -> Result<i32, Error> {
    let registered = probe::registered().map_err(Error::Usage)?;
    let processes = probe::process::registered().map_err(Error::Usage)?;
    let (selected, process_selected) = options.select_all(&registered, &processes)?;
    // A process probe times a whole child process, which a worker's
    // samples cannot hold: asked by name, it is refused, not dropped.
    if let Some(p) = process_selected
        .iter()
        .find(|p| options.probes.iter().any(|n| n == p.name))
    {
        return Err(Error::usage(format!(
            "--probe: {} is a process probe; compare-builds and matrix time in-process probes \
             only (a process probe runs as children of a micro run)",
            p.name
        )));
    }
    let injection = Injection::from_env()?;
    let clock = Clock::from_env()?;
    // Unlocked handles: the probes, and so the serving, run on a thread of
    // their own, and a lock cannot move there.
    server::serve(
        &selected,
        &injection,
        &clock,
        options.min_batch,
        BufReader::new(std::io::stdin()),
        std::io::stdout(),
    )
}
