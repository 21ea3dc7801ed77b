//! The worker processes of a comparison: the CPU they share, starting a
//! pair of them, and agreeing with the first pair on what each probe's
//! sample is.

use super::entry::{self, Entries};
use super::options::PairedOptions;
use crate::error::Error;
use crate::judge::paired::{Build, Builds};
use crate::worker::client::{Spawn, Worker};
use crate::worker::protocol::Greeting;
use std::collections::BTreeMap;

/// Starts workers of either build, each with its build's binary and
/// environment.
pub(super) struct Launcher<'a> {
    /// What both builds' workers are started with.
    pub(super) options: &'a PairedOptions,
}

impl Launcher<'_> {
    /// Starts one worker of `build` and reads what it offers. A worker that
    /// cannot start stops the comparison (exit 2).
    fn start(&self, build: Build) -> Result<(Worker, Greeting), Error> {
        let o = self.options;
        let (path, env) = match build {
            Build::Old => (&o.old, &o.env_old),
            Build::New => (&o.new, &o.env_new),
        };
        Worker::spawn(&Spawn {
            path,
            env,
            probes: &o.probes,
            min_batch: o.min_batch,
            timeout: o.probe_timeout,
        })
    }

    /// The first pair, the old build's worker first: their greetings say
    /// which probes the comparison has and how large their batches are.
    pub(super) fn first_pair(&self) -> Result<(Builds<Worker>, Builds<Greeting>), Error> {
        let (old, old_greeting) = self.start(Build::Old)?;
        let (new, new_greeting) = self.start(Build::New)?;
        let greetings = Builds {
            old: old_greeting,
            new: new_greeting,
        };
        Ok((Builds { old, new }, greetings))
    }

    /// A fresh pair, started in a random order: neither build keeps the
    /// layout, pages or neighbours its last processes happened to get. A
    /// probe a fresh worker cannot time fails on its build.
    pub(super) fn fresh_pair(
        &self,
        rng: &mut fastrand::Rng,
        entries: &mut Builds<Entries>,
    ) -> Result<Builds<Worker>, Error> {
        let old_first = rng.bool();
        let mut start = |build: Build| -> Result<Worker, Error> {
            let (worker, greeting) = self.start(build)?;
            entry::fail_unoffered(&mut entries[build], &greeting);
            Ok(worker)
        };
        let (old, new) = if old_first {
            let old = start(Build::Old)?;
            (old, start(Build::New)?)
        } else {
            let new = start(Build::New)?;
            (start(Build::Old)?, new)
        };
        Ok(Builds { old, new })
    }
}

/// A probe both builds can time, and how: the batch both take a sample of,
/// and how many samples each takes a round.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Timed {
    /// The probe's name.
    pub(super) name: String,
    /// Iterations per sample, the same on both builds.
    pub(super) batch: u64,
    /// Samples per build in each round: `--repeat` until the first pair
    /// sizes it (see `schedule::samples_per_round`).
    pub(super) per_round: usize,
}

/// The probes both builds' first workers offered ready, by name, each with
/// the larger of the two batches they picked: both builds time the same
/// work per sample, and the larger batch keeps both samples at least as
/// long as the sample each picked.
pub(super) fn negotiate(greetings: &Builds<Greeting>, repeat: usize) -> Vec<Timed> {
    let batches = |greeting: &Greeting| -> BTreeMap<String, Option<u64>> {
        greeting
            .probes
            .iter()
            // Reversed: the first offer of a name is the one kept.
            .rev()
            .map(|offer| (offer.name.clone(), offer.batch))
            .collect()
    };
    let Builds { old, new } = greetings.as_ref().map(batches);
    old.into_iter()
        .filter_map(|(name, batch)| {
            let batch = batch?.max((*new.get(&name)?)?);
            Some(Timed {
                name,
                batch,
                per_round: repeat,
            })
        })
        .collect()
}

/// Puts this process, and so both workers it starts, on one CPU. Two CPUs of
/// a shared machine are not equally fast from one second to the next; two
/// builds on different CPUs would differ by that, not by their code.
/// Returns the CPU, or `None` where the system does not allow pinning.
pub(super) fn pin(wanted: Option<usize>) -> Result<Option<usize>, Error> {
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
    fn both_builds_time_the_larger_batch_of_probes_both_offer_ready() {
        let greetings = Builds {
            old: greeting(&[
                ("b", Some(10)),
                ("a", Some(300)),
                ("c", None),
                ("d", Some(1)),
            ]),
            new: greeting(&[
                ("a", Some(200)),
                ("b", Some(40)),
                ("c", Some(5)),
                ("e", Some(1)),
            ]),
        };
        let timed = negotiate(&greetings, 3);
        let got: Vec<(&str, u64, usize)> = timed
            .iter()
            .map(|t| (t.name.as_str(), t.batch, t.per_round))
            .collect();
        assert_eq!(got, [("a", 300, 3), ("b", 40, 3)]);
    }
}
