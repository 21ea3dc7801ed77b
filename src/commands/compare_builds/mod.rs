//! Paired comparison of two builds in one job (`yardstick compare-builds`):
//! running them. The rules that judge the rounds are in `compare::paired`.
//!
//! Stored baselines compare runs made at different times, often on different
//! machines, so their threshold must cover everything that moves between
//! runs. Running the old and the new build alternately on the same machine
//! cancels most of that, and the closer the two samples the more: both
//! builds run as workers (see `worker`), and in each round every probe is
//! timed on each build, back to back in a random order, probes in a
//! shuffled order. A probe whose sample is short is timed several times a
//! round on each build (`--round-time`), in one block per build, and the
//! round's figure is the block's median: one sample can meet an
//! interruption that makes it twice as slow, and a ratio of two single
//! samples carries that whole. The rounds are spread over several fresh pairs of
//! workers, because one process can sit a few percent off another of the
//! same build for its whole life; each pair's median ratio new/old is one
//! piece of evidence, and the pairs are tested for a shift (exact Wilcoxon
//! signed-rank on the log ratios, see `compare::paired`). A probe regresses
//! when the median exceeds the threshold *and* the shift is significant;
//! above the threshold but not significant, it is inconclusive: a warning,
//! never a failure.

pub(crate) mod options;

use crate::document::builder::{Figures, RunBuilder};
use crate::document::environment::{Environment, now, repository_dir};
use crate::document::run::{Mode, Row, RowKind};
use crate::error::Error;
use crate::judge::{self, paired::Side};
use crate::measure::clock::Clock;
use crate::output::deliver;
use crate::output::progress::Progress;
use crate::stats::median;
use crate::worker::client::{Spawn, Worker};
use crate::worker::protocol::{Greeting, Offer};
use options::PairedOptions;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::Path;

/// Which build a measurement belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Build {
    Old,
    New,
}

/// Per probe and build: what the paired rules judge (per-round figures and
/// failures), and every sample for the saved run.
#[derive(Default)]
struct Series {
    side: Side,
    samples: Vec<f64>,
    batch: Option<u64>,
    note: String,
    ops: Option<u64>,
    messages: BTreeMap<String, u64>,
    /// Set once the probe failed on this build: it is not asked again.
    failed: bool,
    /// Every sample this comparison asks of the probe on this build. It can
    /// grow after a failure (the first pair sizes the rounds), so failed
    /// samples are counted from it only when the comparison ends.
    per_side: u64,
}

impl Series {
    /// A probe as a worker offered it; one it cannot time has failed every
    /// one of its `samples`.
    fn offered(offer: &Offer, per_side: u64) -> Series {
        let mut s = Series {
            note: offer.note.clone(),
            ops: Some(offer.ops),
            per_side,
            ..Series::default()
        };
        if let Some(message) = &offer.error {
            s.fail(message.clone());
        }
        s
    }

    /// Fails the probe for every sample it has not taken; the failure names
    /// the row. A failed probe is not asked again, so there is one.
    fn fail(&mut self, message: String) {
        self.note = format!("failed: {message}");
        self.failed = true;
        self.messages.insert(message, 0);
    }

    /// Counts the failed samples once `per_side` is final: taken and failed
    /// samples add up to it.
    fn settle(&mut self) {
        let left = self.per_side.saturating_sub(self.samples.len() as u64);
        for count in self.messages.values_mut() {
            *count = left;
        }
        if self.failed {
            self.side.errors = left;
        }
    }
}

pub(crate) fn main(o: &PairedOptions) -> Result<i32, Error> {
    for path in [&o.old, &o.new] {
        if !path.is_file() {
            return Err(Error::input(format!(
                "{}: no such bench binary",
                path.display()
            )));
        }
    }
    // The workers inherit it; a release build refuses it here first.
    let clock = Clock::from_env()?;
    o.common.delivery().check()?;
    let seed = o.seed.unwrap_or_else(|| fastrand::u64(..));
    let mut rng = fastrand::Rng::with_seed(seed);
    let started = now();
    // Before pinning: the machine's CPUs, not the one the workers get.
    let environment = Environment::current(&repository_dir(), started.clone());
    let cpu = pin(o.cpu)?;
    let spawn = |path: &Path, env: &[(String, String)]| {
        Worker::spawn(&Spawn {
            path,
            env,
            probes: &o.probes,
            min_batch: o.min_batch,
            timeout: o.probe_timeout,
        })
    };
    let (first_old, old_offers) = spawn(&o.old, &o.env_old)?;
    let (first_new, new_offers) = spawn(&o.new, &o.env_new)?;
    // Until the first pair has sized the probes: the fewest samples a round.
    let per_side = (o.rounds * o.repeat) as u64;
    let series = |offers: &[Offer]| -> BTreeMap<String, Series> {
        offers
            .iter()
            .map(|offer| (offer.name.clone(), Series::offered(offer, per_side)))
            .collect()
    };
    let mut old = series(&old_offers.probes);
    let mut new = series(&new_offers.probes);
    // Both builds time the same work per sample: the larger of their batches.
    let batch = |offers: &Greeting, name: &str| {
        offers
            .probes
            .iter()
            .find(|offer| offer.name == name)
            .and_then(|offer| offer.batch)
    };
    // Per probe both builds time: its batch and its samples a round (sized
    // in the first pair).
    let mut live: Vec<(String, u64, usize)> = old
        .keys()
        .filter_map(|name| {
            let b = batch(&old_offers, name)?.max(batch(&new_offers, name)?);
            Some((name.clone(), b, o.repeat))
        })
        .collect();
    for (name, b, _) in &live {
        for s in [old.get_mut(name), new.get_mut(name)].into_iter().flatten() {
            s.batch = Some(*b);
        }
    }

    let shares = rounds_per_pair(o.rounds, o.pairs);
    let mut progress = Progress::new(shares.len() * live.len() + o.rounds, o.common.quiet);
    let mut first = Some((first_old, first_new));
    let mut round = 0;
    for (pair, share) in shares.iter().enumerate() {
        let (mut old_worker, mut new_worker) = match first.take() {
            Some(workers) => workers,
            None => {
                // A fresh pair, started in a random order: neither build
                // keeps the layout, pages or neighbours its last processes
                // happened to get. A worker that cannot start stops the
                // comparison (exit 2), as it would have at the first pair.
                let old_first = rng.bool();
                let mut start = |build: Build| -> Result<Worker, Error> {
                    let (path, env, into) = match build {
                        Build::Old => (&o.old, &o.env_old, &mut old),
                        Build::New => (&o.new, &o.env_new, &mut new),
                    };
                    let (worker, offers) = spawn(path, env)?;
                    fail_unoffered(into, &offers);
                    Ok(worker)
                };
                if old_first {
                    let old_worker = start(Build::Old)?;
                    (old_worker, start(Build::New)?)
                } else {
                    let new_worker = start(Build::New)?;
                    (start(Build::Old)?, new_worker)
                }
            }
        };
        for (name, batch, per_round) in &mut live {
            progress.start(&format!(
                "pair {} of {}: warm-up: {name}",
                pair + 1,
                shares.len()
            ));
            let mut sizes = Vec::new();
            for (worker, into) in [(&mut old_worker, &mut old), (&mut new_worker, &mut new)] {
                let Some(s) = into.get_mut(name).filter(|s| !s.failed) else {
                    continue;
                };
                if let Err(message) = worker.warm(name, *batch, o.warmup)? {
                    s.fail(message);
                    continue;
                }
                // One more untimed sample in the first pair sizes the rounds.
                if pair == 0 {
                    match worker.time(name, *batch)? {
                        // The worker answers per iteration; a sample is a batch.
                        Ok(ms) => sizes.push(ms * *batch as f64),
                        Err(message) => s.fail(message),
                    }
                }
            }
            if pair == 0 {
                let shortest = sizes.into_iter().reduce(f64::min);
                *per_round = samples_per_round(o.repeat, o.round_ms, shortest);
                for s in [old.get_mut(name.as_str()), new.get_mut(name.as_str())]
                    .into_iter()
                    .flatten()
                {
                    s.per_side = (o.rounds * *per_round) as u64;
                }
            }
            progress.advance();
        }
        for _ in 0..*share {
            round += 1;
            progress.start(&format!("round {round} of {}", o.rounds));
            rng.shuffle(&mut live);
            for (name, batch, per_round) in &live {
                let order = if rng.bool() {
                    [Build::Old, Build::New]
                } else {
                    [Build::New, Build::Old]
                };
                let mut figures = [Vec::new(), Vec::new()];
                // One block per build: every switch to the other worker
                // starts a sample on cold caches, and that cost, the same
                // on both builds, would dilute the ratio if each sample
                // paid it; in a block only the first does, and the median
                // passes it over.
                for side in order {
                    for _ in 0..*per_round {
                        let (worker, into) = match side {
                            Build::Old => (&mut old_worker, &mut old),
                            Build::New => (&mut new_worker, &mut new),
                        };
                        let Some(s) = into.get_mut(name).filter(|s| !s.failed) else {
                            continue;
                        };
                        match worker.time(name, *batch)? {
                            Ok(ms) => {
                                s.samples.push(ms);
                                figures[side as usize].push(ms);
                            }
                            Err(message) => s.fail(message),
                        }
                    }
                }
                for (side, into) in [(Build::Old, &mut old), (Build::New, &mut new)] {
                    if let (Some(m), Some(s)) =
                        (median(&figures[side as usize]), into.get_mut(name))
                    {
                        s.side.rounds.insert((pair, round), m);
                    }
                }
            }
            progress.advance();
        }
    }
    progress.finish();
    for s in old.values_mut().chain(new.values_mut()) {
        s.settle();
    }

    let threshold = o
        .common
        .threshold
        .unwrap_or(judge::paired::DEFAULT_THRESHOLD);
    let sides = |series: &BTreeMap<String, Series>| -> BTreeMap<String, Side> {
        series
            .iter()
            .map(|(k, s)| (k.clone(), s.side.clone()))
            .collect()
    };
    let comparison = judge::paired::compare(
        &sides(&old),
        &sides(&new),
        threshold,
        &o.old.display().to_string(),
    );
    let mut warnings: Vec<String> = comparison
        .checks
        .iter()
        .filter(|c| c.inconclusive())
        .map(|c| {
            format!(
                "inconclusive: {} looks {:+.1} % slower, but the worker pairs disagree (p = {:.3})",
                c.key,
                c.change_pct,
                c.p_value.unwrap_or(1.0)
            )
        })
        .collect();
    warnings.extend(clock.warning());
    let rows = new
        .into_iter()
        .map(|(key, s)| {
            let mut row = Row::with_samples(key.clone(), RowKind::Probe, key, s.samples);
            row.batch = s.batch;
            row.requests = row.n as u64 + s.side.errors;
            row.errors = s.side.errors;
            row.error_messages = s.messages;
            row.ops = s.ops;
            row.rps = row.ops_per_second();
            row.note = s.note;
            row
        })
        .collect();
    let mut settings: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    settings.insert("old".into(), json!(o.old.display().to_string()));
    settings.insert("new".into(), json!(o.new.display().to_string()));
    settings.insert("rounds".into(), json!(o.rounds));
    settings.insert("pairs".into(), json!(shares.len()));
    settings.insert("repeat".into(), json!(o.repeat));
    settings.insert("round_ms".into(), json!(o.round_ms));
    if let Some(script) = clock.describe() {
        settings.insert("fake_clock".into(), json!(script));
    }
    let per_round: BTreeMap<&str, usize> = live.iter().map(|(n, _, k)| (n.as_str(), *k)).collect();
    settings.insert("samples_per_round".into(), json!(per_round));
    settings.insert("warmup".into(), json!(o.warmup));
    settings.insert("min_batch".into(), json!(o.min_batch));
    settings.insert("probes".into(), json!(o.probes));
    settings.insert("seed".into(), json!(seed));
    settings.insert("cpu".into(), json!(cpu));
    settings.insert("threshold".into(), json!(threshold));
    let env_names = |env: &[(String, String)]| {
        env.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
    };
    settings.insert("env_old".into(), json!(env_names(&o.env_old)));
    settings.insert("env_new".into(), json!(env_names(&o.env_new)));
    let mut run = RunBuilder::new(Mode::Micro, started)
        .settings(&settings)
        .warnings(warnings)
        .rows(rows)
        .build(environment, Figures::Times);
    run.comparison = Some(comparison);
    deliver::deliver(run, &o.common.delivery())
}

/// How many of `rounds` each of `pairs` worker pairs runs: as even as can
/// be, the first pairs taking one more.
fn rounds_per_pair(rounds: usize, pairs: usize) -> Vec<usize> {
    let pairs = pairs.clamp(1, rounds.max(1));
    (0..pairs)
        .map(|k| rounds / pairs + usize::from(k < rounds % pairs))
        .collect()
}

/// The most samples a round takes of one probe on one build, however short
/// its sample: beyond this the median no longer gets steadier.
const MAX_PER_ROUND: usize = 100;

/// Samples per probe per build in each round: at least `repeat`, and as
/// many as fill `round_ms` at the length of the sizing sample (the shorter
/// of the two builds'), up to [`MAX_PER_ROUND`]. Without a sizing sample
/// (the probe failed), `repeat`.
fn samples_per_round(repeat: usize, round_ms: u64, sample_ms: Option<f64>) -> usize {
    let Some(ms) = sample_ms else { return repeat };
    let fill = if ms > 0.0 {
        (round_ms as f64 / ms).ceil().min(MAX_PER_ROUND as f64) as usize
    } else {
        MAX_PER_ROUND
    };
    fill.max(repeat)
}

/// A fresh worker that cannot time a probe fails it for the samples left.
fn fail_unoffered(series: &mut BTreeMap<String, Series>, offers: &Greeting) {
    for (name, s) in series.iter_mut().filter(|(_, s)| !s.failed) {
        match offers.probes.iter().find(|offer| &offer.name == name) {
            Some(Offer {
                error: Some(message),
                ..
            }) => s.fail(message.clone()),
            Some(_) => {}
            None => s.fail("not offered by a later worker".to_string()),
        }
    }
}

/// Puts this process, and so both workers it starts, on one CPU. Two CPUs of
/// a shared machine are not equally fast from one second to the next; two
/// builds on different CPUs would differ by that, not by their code.
/// Returns the CPU, or `None` where the system does not allow pinning.
fn pin(wanted: Option<usize>) -> Result<Option<usize>, Error> {
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

    #[test]
    fn rounds_spread_as_evenly_as_can_be() {
        assert_eq!(rounds_per_pair(30, 10), [3; 10]);
        assert_eq!(rounds_per_pair(15, 10), [2, 2, 2, 2, 2, 1, 1, 1, 1, 1]);
        // Never more pairs than rounds, never none.
        assert_eq!(rounds_per_pair(7, 10), [1; 7]);
        assert_eq!(rounds_per_pair(5, 0), [5]);
    }

    #[test]
    fn short_samples_fill_the_round_time() {
        // A 1 ms sample: twenty fill 20 ms; a long one keeps the floor.
        assert_eq!(samples_per_round(1, 20, Some(1.0)), 20);
        assert_eq!(samples_per_round(1, 20, Some(0.3)), 67);
        assert_eq!(samples_per_round(3, 20, Some(214.0)), 3);
        assert_eq!(samples_per_round(1, 20, Some(16.8)), 2);
        // Too short to see, or shorter than the cap allows: the cap.
        assert_eq!(samples_per_round(1, 20, Some(0.0)), MAX_PER_ROUND);
        assert_eq!(samples_per_round(1, 20, Some(0.001)), MAX_PER_ROUND);
        // --round-time=0 turns it off; no sizing sample keeps the floor.
        assert_eq!(samples_per_round(2, 0, Some(1.0)), 2);
        assert_eq!(samples_per_round(4, 20, None), 4);
    }

    #[test]
    fn failed_samples_follow_the_sized_rounds() {
        // A probe that fails on one build in the first pair's warm-up, before
        // the other build's sizing sample grew every side's samples.
        let offer = Offer {
            name: "a".into(),
            ops: 1,
            note: String::new(),
            batch: Some(1),
            error: None,
        };
        let mut s = Series::offered(&offer, 30);
        s.samples = vec![1.0; 2];
        s.fail("timed out".into());
        s.per_side = 300;
        s.settle();
        assert_eq!(s.side.errors, 298);
        assert_eq!(s.messages["timed out"], 298);
    }

    #[test]
    fn a_probe_a_later_worker_cannot_time_fails_for_the_samples_left() {
        let offer = |name: &str, error: Option<&str>| Offer {
            name: name.into(),
            ops: 1,
            note: String::new(),
            batch: error.is_none().then_some(1),
            error: error.map(str::to_string),
        };
        let mut series: BTreeMap<String, Series> = ["a", "b", "c"]
            .iter()
            .map(|n| (n.to_string(), Series::offered(&offer(n, None), 10)))
            .collect();
        for s in series.values_mut() {
            s.samples = vec![1.0; 4];
        }
        let later = Greeting {
            probes: vec![offer("a", None), offer("b", Some("set-up failed"))],
        };
        fail_unoffered(&mut series, &later);
        assert!(!series["a"].failed);
        for name in ["b", "c"] {
            let s = series.get_mut(name).unwrap();
            s.settle();
            assert!(s.failed, "{name}");
            // Taken and failed samples add up to every sample asked for.
            assert_eq!(s.samples.len() as u64 + s.side.errors, 10, "{name}");
        }
        assert!(series["b"].note.contains("set-up failed"));
        assert!(series["c"].note.contains("not offered"));
    }
}
