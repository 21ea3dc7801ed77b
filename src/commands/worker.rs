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
    let selected = options.select(&registered)?;
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
