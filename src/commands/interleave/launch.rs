//! The worker processes of a measurement: the CPU they share, starting a
//! set of them, one per configuration, and agreeing with the first set on
//! what each probe's sample is.

use super::client::{Spawn, Worker};
use super::entry::{self, Entries};
use super::{Configuration, OnLostWorker, Sampling};
use crate::error::Error;
use crate::worker::protocol::Greeting;
use std::collections::BTreeMap;

/// Starts workers of any configuration, each with its binary, environment
/// and arguments.
pub(crate) struct Launcher<'a> {
    /// The configurations, in the order the run names them.
    pub(crate) configurations: &'a [Configuration],
    /// What every worker is started with.
    pub(crate) sampling: &'a Sampling,
}

impl Launcher<'_> {
    /// Starts one worker of configuration `c` and reads what it offers.
    pub(crate) fn start(&self, c: usize) -> Result<(Worker, Greeting), Error> {
        let configuration = &self.configurations[c];
        Worker::spawn(&Spawn {
            path: &configuration.path,
            env: &configuration.env,
            args: &configuration.args,
            probes: &self.sampling.probes,
            min_batch: self.sampling.min_batch,
            timeout: self.sampling.probe_timeout,
        })
    }

    /// The first set, in the configurations' order: their greetings say
    /// which probes the measurement has and how large their batches are.
    /// A worker that cannot start stops the measurement (exit 2) when it
    /// is the first configuration's, against which the others are
    /// measured, or when `on_lost` says so; else its configuration is lost
    /// from the start, with nothing offered.
    pub(crate) fn first_set(&self, on_lost: OnLostWorker) -> Result<FirstSet, Error> {
        let mut first = FirstSet::default();
        for c in 0..self.configurations.len() {
            let (worker, greeting, lost) = match self.start(c) {
                Ok((worker, greeting)) => (Some(worker), greeting, None),
                Err(e) if c == 0 || on_lost == OnLostWorker::Stop => return Err(e),
                Err(e) => (None, Greeting::default(), Some(format!("worker lost: {e}"))),
            };
            first.workers.push(worker);
            first.greetings.push(greeting);
            first.lost.push(lost);
        }
        Ok(first)
    }

    /// A fresh set, started in a random order: no configuration keeps the
    /// layout, pages or neighbours its last processes happened to get. A
    /// probe a fresh worker cannot time fails on its configuration. Each
    /// configuration's worker, or the error that kept it from starting;
    /// none for a configuration `lost` marks as given up. Under
    /// [`OnLostWorker::Stop`] the first error stops it.
    pub(crate) fn fresh_set(
        &self,
        rng: &mut fastrand::Rng,
        entries: &mut [Entries],
        lost: &[Option<String>],
        on_lost: OnLostWorker,
    ) -> Result<Vec<Option<Result<Worker, Error>>>, Error> {
        let order = random_order(rng, self.configurations.len());
        let mut started: Vec<Option<Result<Worker, Error>>> =
            (0..order.len()).map(|_| None).collect();
        for c in order.into_iter().filter(|c| lost[*c].is_none()) {
            let worker = match self.start(c) {
                Ok((worker, greeting)) => {
                    entry::fail_unoffered(&mut entries[c], &greeting);
                    Ok(worker)
                }
                Err(e) if on_lost == OnLostWorker::Stop => return Err(e),
                Err(e) => Err(e),
            };
            started[c] = Some(worker);
        }
        Ok(started)
    }
}

/// What the first set of workers gave: one slot per configuration.
#[derive(Default)]
pub(crate) struct FirstSet {
    /// Each configuration's worker; none for one that could not start.
    pub(crate) workers: Vec<Option<Worker>>,
    /// What each offered (nothing, for one that could not start).
    pub(crate) greetings: Vec<Greeting>,
    /// Why each configuration was lost from the start, if it was.
    pub(crate) lost: Vec<Option<String>>,
}

/// The configurations `0..n` in a random order. Two are ordered by one
/// coin, as `compare-builds` always drew them, so that a saved seed still
/// gives the order it gave.
pub(crate) fn random_order(rng: &mut fastrand::Rng, n: usize) -> Vec<usize> {
    if n == 2 {
        return if rng.bool() { vec![0, 1] } else { vec![1, 0] };
    }
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    order
}

/// A probe every configuration times, and how: the batch all take a sample
/// of, and how many samples each takes a round.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Timed {
    /// The probe's name.
    pub(crate) name: String,
    /// Iterations per sample, the same on every configuration.
    pub(crate) batch: u64,
    /// Samples per configuration in each round: `--repeat` until the first
    /// set sizes it (see `schedule::samples_per_round`).
    pub(crate) per_round: usize,
}

/// The probes the first configuration's worker and at least one other
/// offered ready, by name, each with the largest of the batches they
/// picked: every configuration times the same work per sample, and the
/// largest batch keeps each sample at least as long as the one its worker
/// picked. The first configuration is the one the others are measured
/// against: without it a probe has nothing to compare.
pub(crate) fn negotiate(greetings: &[Greeting], repeat: usize) -> Vec<Timed> {
    let batches = |greeting: &Greeting| -> BTreeMap<String, Option<u64>> {
        greeting
            .probes
            .iter()
            // Reversed: the first offer of a name is the one kept.
            .rev()
            .map(|offer| (offer.name.clone(), offer.batch))
            .collect()
    };
    let offered: Vec<_> = greetings.iter().map(batches).collect();
    let Some((first, others)) = offered.split_first() else {
        return Vec::new();
    };
    first
        .iter()
        .filter_map(|(name, batch)| {
            let ready: Vec<u64> = others.iter().filter_map(|o| *o.get(name)?).collect();
            let batch = ready.iter().copied().fold((*batch)?, u64::max);
            (!ready.is_empty()).then(|| Timed {
                name: name.clone(),
                batch,
                per_round: repeat,
            })
        })
        .collect()
}

/// Puts this process, and so every worker it starts, on one CPU. Two CPUs
/// of a shared machine are not equally fast from one second to the next;
/// two configurations on different CPUs would differ by that, not by what
/// they are.
/// Returns the CPU, or `None` where the system does not allow pinning.
pub(crate) fn pin(wanted: Option<usize>) -> Result<Option<usize>, Error> {
    let available = core_affinity::get_core_ids().unwrap_or_default();
    let chosen = match wanted {
        Some(n) => match available.iter().find(|c| c.id == n) {
            Some(core) => Some(*core),
            None => {
                let list: Vec<String> = available.iter().map(|c| c.id.to_string()).collect();
                return Err(Error::usage(format!(
                    "--cpu: CPU {n} is not available to this process (available: {})",
                    list.join(", ")
                )));
            }
        },
        None => available.last().copied(),
    };
    Ok(chosen
        .filter(|core| core_affinity::set_for_current(*core))
        .map(|core| core.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::protocol::Offer;

    fn greeting(batches: &[(&str, Option<u64>)]) -> Greeting {
        let probes = batches
            .iter()
            .map(|(name, batch)| Offer {
                name: name.to_string(),
                ops: 1,
                note: String::new(),
                batch: *batch,
                error: batch.is_none().then(|| "failed".to_string()),
            })
            .collect();
        Greeting {
            probes,
            ..Greeting::default()
        }
    }

    #[test]
    fn all_time_the_largest_batch_of_probes_the_first_and_another_offer_ready() {
        let greetings = [
            greeting(&[
                ("b", Some(10)),
                ("a", Some(300)),
                ("c", None),
                ("d", Some(1)),
            ]),
            greeting(&[
                ("a", Some(200)),
                ("b", Some(40)),
                ("c", Some(5)),
                ("e", Some(1)),
            ]),
        ];
        let timed = negotiate(&greetings, 3);
        let got: Vec<(&str, u64, usize)> = timed
            .iter()
            .map(|t| (t.name.as_str(), t.batch, t.per_round))
            .collect();
        assert_eq!(got, [("a", 300, 3), ("b", 40, 3)]);
        // A third that fails `a` and offers `d` larger: `d` is timed now,
        // and `a` still on the two that can.
        let third = greeting(&[("a", None), ("d", Some(7))]);
        let timed = negotiate(&[greetings[0].clone(), greetings[1].clone(), third], 3);
        let got: Vec<(&str, u64)> = timed.iter().map(|t| (t.name.as_str(), t.batch)).collect();
        assert_eq!(got, [("a", 300), ("b", 40), ("d", 7)]);
        assert!(negotiate(&greetings[..1], 3).is_empty());
    }
}
