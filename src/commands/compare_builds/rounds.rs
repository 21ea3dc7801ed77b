//! The measuring itself: pair after pair of workers, each warmed up and
//! then taking its share of the rounds.
//!
//! In the first pair, after warm-up, one untimed sample on each build sizes
//! each probe's rounds (see `schedule::samples_per_round`). In a round
//! every probe, in a shuffled order, takes one block of samples on each
//! build, the two blocks back to back in a random order; the round's figure
//! for a build is its block's median.

use super::entry::{Entries, Entry};
use super::options::PairedOptions;
use super::schedule::{Schedule, samples_per_round};
use super::workers::{Launcher, Timed};
use crate::error::Error;
use crate::judge::paired::{Build, Builds, Round, Series};
use crate::measure::Observer;
use crate::stats::median;
use crate::worker::client::Worker;
use std::collections::BTreeMap;

/// A comparison being measured: what it reads, and what it has gathered.
pub(super) struct Measuring<'a> {
    /// Warm-up, repeat, round time, rounds.
    pub(super) options: &'a PairedOptions,
    /// The rounds of each worker pair.
    pub(super) schedule: &'a Schedule,
    /// Starts each fresh pair of workers.
    pub(super) launcher: &'a Launcher<'a>,
    /// Every random choice: the start order of each fresh pair, the order
    /// of the probes in each round, the order of the builds for each probe.
    pub(super) rng: fastrand::Rng,
    /// What has been gathered so far.
    pub(super) measured: Measured,
}

/// What a comparison measured.
pub(super) struct Measured {
    /// The probes both builds time, each with its batch and its samples a
    /// round, in the order of the last round.
    pub(super) timed: Vec<Timed>,
    /// Each build's entries: every probe its first worker offered.
    pub(super) entries: Builds<Entries>,
}

impl Measured {
    /// What each build gave for each of its probes, as the paired rule
    /// takes it.
    pub(super) fn series(&self) -> Builds<BTreeMap<String, Series>> {
        self.entries.as_ref().map(|entries| {
            let series = entries
                .iter()
                .map(|(name, e)| (name.clone(), e.series.clone()));
            series.collect()
        })
    }
}

impl Measuring<'_> {
    /// Runs every pair's warm-up and rounds, the first pair on `first`,
    /// reporting each step to `observer`. The error is a worker that
    /// failed (a probe that fails only fails its entry).
    pub(super) fn run(
        mut self,
        first: Builds<Worker>,
        observer: &mut dyn Observer,
    ) -> Result<Measured, Error> {
        let mut first = Some(first);
        for (pair, rounds) in self.schedule.rounds().into_iter().enumerate() {
            let mut workers = match first.take() {
                Some(workers) => workers,
                None => {
                    let entries = &mut self.measured.entries;
                    self.launcher.fresh_pair(&mut self.rng, entries)?
                }
            };
            for probe in 0..self.measured.timed.len() {
                self.warm_up(pair, probe, &mut workers, observer)?;
            }
            for round in rounds {
                self.round(round, &mut workers, observer)?;
            }
        }
        self.settle();
        Ok(self.measured)
    }

    /// One probe's warm-up on both workers of pair `pair`; in the first
    /// pair, also one untimed sample on each build, whose shorter length
    /// sizes the probe's rounds.
    fn warm_up(
        &mut self,
        pair: usize,
        probe: usize,
        workers: &mut Builds<Worker>,
        observer: &mut dyn Observer,
    ) -> Result<(), Error> {
        let Measured { timed, entries } = &mut self.measured;
        let Timed { name, batch, .. } = &timed[probe];
        let pairs = self.schedule.pairs();
        observer.start(&format!("pair {} of {pairs}: warm-up: {name}", pair + 1));
        let mut sizes = Vec::new();
        for build in Build::BOTH {
            let Some(entry) = entries[build].get_mut(name).filter(|e| !e.failed()) else {
                continue;
            };
            let worker = &mut workers[build];
            if let Err(message) = worker.warm(name, *batch, self.options.warmup)? {
                entry.fail(message);
                continue;
            }
            if pair == 0 {
                match worker.time(name, *batch)? {
                    // The worker answers per iteration; a sample is a batch.
                    Ok(ms) => sizes.push(ms * *batch as f64),
                    Err(message) => entry.fail(message),
                }
            }
        }
        if pair == 0 {
            let shortest = sizes.into_iter().reduce(f64::min);
            let o = self.options;
            timed[probe].per_round = samples_per_round(o.repeat, o.round_ms, shortest);
        }
        observer.advance();
        Ok(())
    }

    /// One round: every probe, in a fresh random order, takes a block of
    /// samples on each build, the builds in a random order.
    fn round(
        &mut self,
        round: Round,
        workers: &mut Builds<Worker>,
        observer: &mut dyn Observer,
    ) -> Result<(), Error> {
        observer.start(&format!(
            "round {} of {}",
            round.number, self.options.rounds
        ));
        let Measured { timed, entries } = &mut self.measured;
        self.rng.shuffle(timed);
        for probe in timed.iter() {
            let order = if self.rng.bool() {
                [Build::Old, Build::New]
            } else {
                [Build::New, Build::Old]
            };
            for build in order {
                if let Some(entry) = entries[build].get_mut(&probe.name) {
                    block(&mut workers[build], entry, probe, round)?;
                }
            }
        }
        observer.advance();
        Ok(())
    }

    /// Counts each entry's failed samples, now that the samples asked of
    /// each probe are known: its samples a round in every round
    /// (`--repeat` a round for a probe not both builds time).
    fn settle(&mut self) {
        let o = self.options;
        let Measured { timed, entries } = &mut self.measured;
        for build in Build::BOTH {
            for (name, entry) in &mut entries[build] {
                let per_round = timed
                    .iter()
                    .find(|t| &t.name == name)
                    .map_or(o.repeat, |t| t.per_round);
                entry.settle((o.rounds * per_round) as u64);
            }
        }
    }
}

/// One build's block of samples of `probe` in `round`, its round's figure
/// the block's median. One block per build, not samples alternating: every
/// switch to the other worker starts a sample on cold caches, and that
/// cost, the same on both builds, would dilute the ratio if each sample
/// paid it; in a block only the first does, and the median passes it over.
/// A probe that fails takes no more samples.
fn block(worker: &mut Worker, entry: &mut Entry, probe: &Timed, round: Round) -> Result<(), Error> {
    let mut taken = Vec::new();
    for _ in 0..probe.per_round {
        if entry.failed() {
            break;
        }
        match worker.time(&probe.name, probe.batch)? {
            Ok(ms) => {
                entry.series.samples.push(ms);
                taken.push(ms);
            }
            Err(message) => entry.fail(message),
        }
    }
    if let Some(figure) = median(&taken) {
        entry.series.rounds.insert(round, figure);
    }
    Ok(())
}
