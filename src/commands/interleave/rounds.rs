//! The measuring itself: set after set of workers, each warmed up and then
//! taking its share of the rounds.
//!
//! In the first set, after warm-up, one untimed sample on each
//! configuration sizes each probe's rounds (see
//! `schedule::samples_per_round`). In a round every probe, in a shuffled
//! order, takes one block of samples on each configuration, the blocks
//! back to back in a random order; the round's figure for a configuration
//! is its block's median.

use super::OnLostWorker;
use super::Sampling;
use super::client::Worker;
use super::entry::{Entries, Entry};
use super::launch::{FirstSet, Launcher, Timed, random_order};
use super::schedule::{Schedule, samples_per_round};
use crate::error::Error;
use crate::judge::paired::{Round, Series};
use crate::measure::Observer;
use crate::stats::median;
use std::collections::BTreeMap;

/// A measurement under way: what it reads, and what it has gathered.
pub(crate) struct Measuring<'a> {
    /// Warm-up, repeat, round time, rounds.
    pub(crate) sampling: &'a Sampling,
    /// The rounds of each worker set.
    pub(crate) schedule: &'a Schedule,
    /// Starts each fresh set of workers.
    pub(crate) launcher: &'a Launcher<'a>,
    /// What a lost worker does to the measurement.
    pub(crate) on_lost: OnLostWorker,
    /// Every random choice: the start order of each fresh set, the order
    /// of the probes in each round, the order of the configurations for
    /// each probe.
    pub(crate) rng: fastrand::Rng,
    /// What has been gathered so far.
    pub(crate) measured: Measured,
}

/// What a measurement gathered.
pub(crate) struct Measured {
    /// The probes timed, each with its batch and its samples a round, in
    /// the order of the last round.
    pub(crate) timed: Vec<Timed>,
    /// Each configuration's entries, in the configurations' order: every
    /// probe its first worker offered.
    pub(crate) entries: Vec<Entries>,
    /// Why each configuration's worker was given up, when it was.
    pub(crate) lost: Vec<Option<String>>,
}

impl Measured {
    /// The measurement's start: the probes the first set's greetings
    /// agree on, every probe each offered, and the configurations already
    /// lost.
    pub(crate) fn new(first: &FirstSet, repeat: usize) -> Measured {
        Measured {
            timed: super::launch::negotiate(&first.greetings, repeat),
            entries: first.greetings.iter().map(super::entry::entries).collect(),
            lost: first.lost.clone(),
        }
    }

    /// What each configuration gave for each of its probes, as the judges
    /// take it.
    pub(crate) fn series(&self) -> Vec<BTreeMap<String, Series>> {
        self.entries
            .iter()
            .map(|entries| {
                let series = entries
                    .iter()
                    .map(|(name, e)| (name.clone(), e.series.clone()));
                series.collect()
            })
            .collect()
    }

    /// Gives up configuration `c`'s worker for `error`, as `on_lost` says:
    /// the error itself stops the measurement, or every probe of `c` not
    /// yet failed fails with it.
    fn lose(&mut self, c: usize, error: Error, on_lost: OnLostWorker) -> Result<(), Error> {
        match on_lost {
            OnLostWorker::Stop => Err(error),
            OnLostWorker::FailConfiguration => {
                let why = format!("worker lost: {error}");
                for entry in self.entries[c].values_mut().filter(|e| !e.failed()) {
                    entry.fail(why.clone());
                }
                self.lost[c] = Some(why);
                Ok(())
            }
        }
    }
}

/// One set of workers, one per configuration; none for one given up.
pub(crate) type Set = Vec<Option<Worker>>;

impl Measuring<'_> {
    /// Runs every set's warm-up and rounds, the first set on `first`,
    /// reporting each step to `observer`. The error is a worker lost under
    /// [`OnLostWorker::Stop`] (a probe that fails only fails its entry).
    pub(crate) fn run(
        mut self,
        first: Set,
        observer: &mut dyn Observer,
    ) -> Result<Measured, Error> {
        let mut first = Some(first);
        for (set, rounds) in self.schedule.rounds().into_iter().enumerate() {
            let mut workers = match first.take() {
                Some(workers) => workers,
                None => self.fresh_set()?,
            };
            for probe in 0..self.measured.timed.len() {
                self.warm_up(set, probe, &mut workers, observer)?;
            }
            for round in rounds {
                self.round(round, &mut workers, observer)?;
            }
        }
        self.settle();
        Ok(self.measured)
    }

    /// A fresh set of workers for every configuration not given up.
    fn fresh_set(&mut self) -> Result<Set, Error> {
        let Measured { entries, lost, .. } = &mut self.measured;
        let started = self
            .launcher
            .fresh_set(&mut self.rng, entries, lost, self.on_lost)?;
        let mut set = Vec::new();
        for (c, worker) in started.into_iter().enumerate() {
            set.push(match worker {
                Some(Ok(worker)) => Some(worker),
                Some(Err(e)) => {
                    self.measured.lose(c, e, self.on_lost)?;
                    None
                }
                None => None,
            });
        }
        Ok(set)
    }

    /// One probe's warm-up on every worker of set `set`; in the first set,
    /// also one untimed sample on each configuration, whose shortest
    /// length sizes the probe's rounds.
    fn warm_up(
        &mut self,
        set: usize,
        probe: usize,
        workers: &mut Set,
        observer: &mut dyn Observer,
    ) -> Result<(), Error> {
        let Timed { name, batch, .. } = self.measured.timed[probe].clone();
        let sets = self.schedule.sets();
        // Two configurations are a pair of builds, as compare-builds says.
        let noun = if workers.len() == 2 { "pair" } else { "set" };
        observer.start(&format!("{noun} {} of {sets}: warm-up: {name}", set + 1));
        let mut sizes = Vec::new();
        for (c, slot) in workers.iter_mut().enumerate() {
            let (Some(worker), Some(entry)) = (
                slot.as_mut(),
                self.measured.entries[c]
                    .get_mut(&name)
                    .filter(|e| !e.failed()),
            ) else {
                continue;
            };
            let answered = worker
                .warm(&name, batch, self.sampling.warmup)
                .and_then(|warmed| {
                    if let Err(message) = warmed {
                        entry.fail(message);
                        return Ok(());
                    }
                    if set == 0 {
                        match worker.time(&name, batch)? {
                            // The worker answers per iteration; a sample is a batch.
                            Ok(ms) => sizes.push(ms * batch as f64),
                            Err(message) => entry.fail(message),
                        }
                    }
                    Ok(())
                });
            if let Err(e) = answered {
                *slot = None;
                self.measured.lose(c, e, self.on_lost)?;
            }
        }
        if set == 0 {
            let shortest = sizes.into_iter().reduce(f64::min);
            let s = self.sampling;
            self.measured.timed[probe].per_round =
                samples_per_round(s.repeat, s.round_ms, shortest);
        }
        observer.advance();
        Ok(())
    }

    /// One round: every probe, in a fresh random order, takes a block of
    /// samples on each configuration, the configurations in a random
    /// order.
    fn round(
        &mut self,
        round: Round,
        workers: &mut Set,
        observer: &mut dyn Observer,
    ) -> Result<(), Error> {
        observer.start(&format!(
            "round {} of {}",
            round.number, self.sampling.rounds
        ));
        self.rng.shuffle(&mut self.measured.timed);
        for p in 0..self.measured.timed.len() {
            for c in random_order(&mut self.rng, workers.len()) {
                let probe = &self.measured.timed[p];
                let (Some(worker), Some(entry)) = (
                    workers[c].as_mut(),
                    self.measured.entries[c].get_mut(&probe.name),
                ) else {
                    continue;
                };
                if let Err(e) = block(worker, entry, probe, round) {
                    workers[c] = None;
                    self.measured.lose(c, e, self.on_lost)?;
                }
            }
        }
        observer.advance();
        Ok(())
    }

    /// Counts each entry's failed samples, now that the samples asked of
    /// each probe are known: its samples a round in every round
    /// (`--repeat` a round for a probe not timed).
    fn settle(&mut self) {
        let s = self.sampling;
        let Measured { timed, entries, .. } = &mut self.measured;
        for entries in entries.iter_mut() {
            for (name, entry) in entries.iter_mut() {
                let per_round = timed
                    .iter()
                    .find(|t| &t.name == name)
                    .map_or(s.repeat, |t| t.per_round);
                entry.settle((s.rounds * per_round) as u64);
            }
        }
    }
}

/// One configuration's block of samples of `probe` in `round`, its round's
/// figure the block's median. One block per configuration, not samples alternating: every
/// switch to another worker starts a sample on cold caches, and that
/// cost, the same on every configuration, would dilute the ratio if each sample
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
