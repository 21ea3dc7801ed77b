//! The wall-time meter: every probe timed in interleaved rounds beside the
//! calibration loop, on a fresh thread, under the watchdog; then one row
//! per probe and the loop's summary.

use crate::calibration::{self, Calibration};
use crate::clock::Clock;
use crate::document::row::{Memory, Row, RowKind};
use crate::document::run::CalibrationSummary;
use crate::error::Error;
use crate::inject::Injection;
use crate::interleaved::{self, Interleaved, Rounds};
use crate::probe::Probe;
use crate::sample::{Measurement, QuietPanics, Sampling};
use crate::watchdog::Watchdog;
use crate::{Measured, Meter, Observer};
use std::time::Duration;

/// Drift of the calibration loop (percent) above which the run warns that
/// the machine's load changed while it ran.
pub(crate) const DRIFT_WARNING_PCT: f64 = 10.0;

/// Times probes.
pub struct Timer<'a> {
    /// Warm-up, rounds and batch.
    pub sampling: Sampling,
    /// Slowdowns to inject.
    pub injection: &'a Injection,
    /// Where durations come from.
    pub clock: &'a Clock,
    /// Whether to time the calibration loop beside every sample.
    pub calibrate: bool,
    /// How long one probe's set-up or sample may take.
    pub probe_timeout: Duration,
    /// What to do when a probe runs past `probe_timeout`: a probe stuck in
    /// a loop cannot be interrupted, so this must end the process.
    pub on_timeout: fn(&str),
}

impl Timer<'_> {
    /// Times `probes` in rounds and returns what the rounds gave, before it
    /// becomes rows.
    fn rounds(&self, probes: &[&'static Probe], observer: &mut dyn Observer) -> Rounds {
        let calibration = Calibration::new();
        let watchdog = Watchdog::start(self.probe_timeout, self.on_timeout);
        let interleaved = Interleaved {
            sampling: &self.sampling,
            injection: self.injection,
            calibration: self.calibrate.then_some(&calibration),
            clock: self.clock,
            watchdog: &watchdog,
        };
        let _quiet = QuietPanics::install();
        interleaved::on_fresh_thread(|| interleaved.measure(probes, observer))
    }

    /// Warnings about the loop itself: its work changed, or its speed
    /// drifted during the run.
    fn loop_warnings(rounds: &Rounds, summary: Option<&CalibrationSummary>) -> Vec<String> {
        let mut warnings = Vec::new();
        let checksum = rounds.checksums.first().copied().unwrap_or_default();
        if rounds
            .checksums
            .iter()
            .any(|s| *s != calibration::EXPECTED_CHECKSUM)
        {
            warnings.push(format!(
                "the calibration loop's checksum {checksum} is not the expected {}: its work changed",
                calibration::EXPECTED_CHECKSUM
            ));
        }
        if let Some(c) = summary.filter(|c| c.drift_pct.abs() > DRIFT_WARNING_PCT) {
            warnings.push(format!(
                "the calibration loop's speed moved by {:+.1} % during the run: the machine's load changed",
                c.drift_pct
            ));
        }
        warnings
    }
}

impl Meter for Timer<'_> {
    fn steps(&self, probes: usize) -> usize {
        probes + self.sampling.repeat
    }

    fn measure(
        &self,
        probes: &[&'static Probe],
        observer: &mut dyn Observer,
    ) -> Result<Measured, Error> {
        let rounds = self.rounds(probes, observer);
        let summary = summarise(&rounds);
        let mut warnings = Timer::loop_warnings(&rounds, summary.as_ref());
        warnings.extend(self.injection.warning());
        warnings.extend(self.clock.warning());
        let median = summary.as_ref().map(|c| c.loops.median);
        let rows = probes
            .iter()
            .zip(rounds.probes)
            .map(|(p, m)| row(p, m, median))
            .collect();
        Ok(Measured {
            rows,
            calibration: summary,
            warnings,
        })
    }
}

/// The loop's figures: the loops of the first half of the rounds against
/// the second's (one loop is both) give its drift.
fn summarise(rounds: &Rounds) -> Option<CalibrationSummary> {
    let loops = &rounds.calibration;
    let (before, after) = match loops.len() {
        0 | 1 => (&loops[..], &loops[..]),
        n => loops.split_at(n / 2),
    };
    let checksum = rounds.checksums.first().copied().unwrap_or_default();
    CalibrationSummary::of(before, after, checksum)
}

/// A probe's row; `calibration` is the run's loop median (none without
/// calibration).
fn row(probe: &Probe, m: Measurement, calibration: Option<f64>) -> Row {
    let mut row = Row::with_samples(
        probe.name.to_string(),
        RowKind::Probe,
        probe.name.to_string(),
        m.samples,
    );
    row.batch = (m.batch > 0).then_some(m.batch);
    row.requests = row.figures.n as u64 + m.errors;
    row.errors = m.errors;
    row.error_messages = m.error_messages;
    row.ops = Some(probe.ops);
    row.rps = row.ops_per_second();
    row.calibration_samples = m.loops;
    row.normalized = calibration.and_then(|c| row.normalized_median(c));
    row.note = m.note;
    row.checksum = m.checksum;
    row.memory = m.memory.map(|a| Memory {
        allocs: a.allocs,
        reallocs: a.reallocs,
        bytes: a.bytes,
        peak: a.peak,
    });
    row
}
