//! The counting meter: every probe counted under callgrind, one child
//! process each, and one row per probe.

use super::Counting;
use crate::document::row::{Row, RowKind};
use crate::error::Error;
use crate::inject::{self, Injection};
use crate::probe::Probe;
use crate::{Measured, Meter, Observer};
use std::time::Duration;

/// Counts probes.
pub struct Callgrind<'a> {
    /// How this binary is told to measure, for its child copies.
    pub invocation: Vec<String>,
    /// Iterations per count.
    pub batch: u64,
    /// Whether to simulate the cache (estimated cycles).
    pub cache: bool,
    /// How long one probe's count may take.
    pub limit: Duration,
    /// Slowdowns to inject, as extra iterations.
    pub injection: &'a Injection,
}

impl Meter for Callgrind<'_> {
    fn steps(&self, probes: usize) -> usize {
        probes
    }

    fn measure(
        &self,
        probes: &[&'static Probe],
        observer: &mut dyn Observer,
    ) -> Result<Measured, Error> {
        // An injection the batch cannot carry is refused before anything
        // runs.
        let iterations = probes
            .iter()
            .map(|p| inject::counted_iterations(p.name, self.batch, self.injection.percent(p.name)))
            .collect::<Result<Vec<u64>, Error>>()?;
        let workdir = crate::fs::TempDir::new("yardstick-count-")
            .map_err(|e| Error::Refused(format!("cannot create a temporary folder: {e}")))?;
        let here = super::pin::here();
        let counting = Counting {
            invocation: &self.invocation,
            batch: self.batch,
            cache: self.cache,
            workdir: workdir.path(),
            limit: self.limit,
            pinning: &here.pinning,
        };
        let mut rows = Vec::with_capacity(probes.len());
        for (p, iterations) in probes.iter().zip(iterations) {
            observer.start(&format!("{} (under callgrind)", p.name));
            rows.push(self.row(p, counting.count(p, iterations)?, observer));
            observer.advance();
        }
        Ok(Measured {
            rows,
            calibration: None,
            warnings: self
                .injection
                .warning()
                .into_iter()
                .chain(here.warnings.iter().cloned())
                .collect(),
        })
    }
}

impl Callgrind<'_> {
    fn row(&self, p: &Probe, count: super::Count, observer: &mut dyn Observer) -> Row {
        let mut row = Row::with_samples(
            p.name.to_string(),
            RowKind::Probe,
            p.name.to_string(),
            Vec::new(),
        );
        row.ops = Some(p.ops);
        row.batch = Some(self.batch);
        row.requests = 1;
        match count {
            Ok(counted) => {
                row.counted = counted.counts;
                row.functions = counted.functions;
                row.note = counted.note;
                row.checksum = counted.checksum;
            }
            Err(message) => {
                observer.say(&format!("probe {}: failed: {message}", p.name));
                row.errors = 1;
                row.error_messages.insert(message.clone(), 1);
                row.note = format!("failed: {message}");
            }
        }
        row
    }
}
