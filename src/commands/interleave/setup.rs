//! What a measurement of configurations checks and fixes before its first
//! worker starts, and its run records: the clock the workers inherit, the
//! seed of every random order, the machine, and the CPU they share.

use super::launch;
use crate::commands::common::Common;
use crate::document::environment::{Environment, now, repository_dir};
use crate::error::Error;
use crate::measure::clock::Clock;

/// The fixed points of one measurement.
pub(crate) struct Setup {
    /// The clock the workers inherit (scripted in tests).
    pub(crate) clock: Clock,
    /// The seed of every random order.
    pub(crate) seed: u64,
    /// When the measurement started (RFC 3339).
    pub(crate) started: String,
    /// The machine, as it was before this process was pinned.
    pub(crate) environment: Environment,
    /// The CPU every worker runs on, where the system allows pinning (and
    /// the measurement is timed).
    pub(crate) cpu: Option<usize>,
}

impl Setup {
    /// Refuses what would fail later (a scripted clock in a release build,
    /// an output that cannot be delivered), draws the seed unless `seed`
    /// gives it, and, when `pin` (a timed measurement), puts this process
    /// and so every worker on one CPU, `cpu` or the last one allowed.
    pub(crate) fn new(
        common: &Common,
        seed: Option<u64>,
        cpu: Option<usize>,
        pin: bool,
    ) -> Result<Setup, Error> {
        // The workers inherit it; a release build refuses it here first.
        let clock = Clock::from_env()?;
        common.delivery().check()?;
        let seed = seed.unwrap_or_else(|| fastrand::u64(..));
        let started = now();
        // Before pinning: the machine's CPUs, not the one the workers get.
        let environment = Environment::current(&repository_dir(), started.clone());
        let cpu = if pin { launch::pin(cpu)? } else { None };
        Ok(Setup {
            clock,
            seed,
            started,
            environment,
            cpu,
        })
    }
}
