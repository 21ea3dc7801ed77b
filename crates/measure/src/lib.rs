//! Measuring probes: one sample ([`sample`]), the interleaved rounds of a
//! timed run ([`interleaved`]) with the calibration loop ([`calibration`])
//! beside every sample, the clock they read ([`clock`]), the slowdown knob
//! ([`inject`]), the watchdog that stops a stuck probe ([`watchdog`]), and
//! the two `Meter`s a micro run chooses from: the `timer::Timer` and
//! counting under [`callgrind`].
//!
//! Measuring reports what it does through an `Observer` and never prints:
//! whether a run shows a bar, plain lines or nothing is the output's
//! business.

#![warn(missing_docs)]

pub mod calibration;
pub mod callgrind;
pub mod clock;
pub mod inject;
pub mod interleaved;
pub mod process;
pub mod sample;
pub mod timer;
pub mod watchdog;

// The crates below, by the names the rest of yardstick gives them.
use yardstick_document as document;
use yardstick_document::{error, text};
use yardstick_probe as probe;
use yardstick_probe::{alloc, fs};

use crate::document::run::{CalibrationSummary, Row};
use crate::error::Error;
use crate::probe::Probe;

/// Watches a measurement's lifecycle: each step started and finished, and
/// the lines (a probe that failed) that must stay visible.
pub trait Observer: Send {
    /// The next step begins (a probe's set-up, a round, a count).
    fn start(&mut self, what: &str);
    /// The current step is done.
    fn advance(&mut self);
    /// A line to show as it happens.
    fn say(&mut self, line: &str);
}

/// An observer that shows nothing.
pub struct Unobserved;

impl Observer for Unobserved {
    fn start(&mut self, _: &str) {}
    fn advance(&mut self) {}
    fn say(&mut self, _: &str) {}
}

/// What a meter gave for a run's probes.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// One row per probe, in the order given.
    pub rows: Vec<Row>,
    /// The calibration loop's figures, when the meter timed it.
    pub calibration: Option<CalibrationSummary>,
    /// What qualifies every figure (the loop drifted, its work changed).
    pub warnings: Vec<String>,
}

/// A way to measure every probe of a micro run: wall time beside the
/// calibration loop, or counts under callgrind. The command chooses one by
/// `--metric`, and what follows (judging, output) does not care which.
pub trait Meter {
    /// How many steps [`Meter::measure`] reports to its observer.
    fn steps(&self, probes: usize) -> usize;
    /// Measures `probes`. A probe that fails gets a failed row; the error
    /// is for what stops the whole run.
    fn measure(
        &self,
        probes: &[&'static Probe],
        observer: &mut dyn Observer,
    ) -> Result<Measured, Error>;
}
