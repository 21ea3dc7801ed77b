//! Runs a schedule with the built-in client: per server, `concurrency`
//! slots, each owning its connection, shared out among the worker threads.
//! The warm-up gives every slot its share of requests (at least one, so
//! each connection is open and its handshake done before anything is
//! timed); measured batches let the slots take requests from a common
//! count, so exactly `concurrency` requests are in flight until the batch
//! ends, or (`--duration`) send requests until the batch's time is up;
//! with `--rate`, the slots start requests on a fixed schedule instead (an
//! open model), and the warm-up stays as it is.

use super::client::Client;
use super::schedule::Schedule;
use super::tally::Tally;
use super::workers::{Work, Workers};
use crate::error::Error;
use std::sync::Arc;
use std::time::Duration;

/// What measured requests gave: one visit's, or one batch's.
#[derive(Debug, Default)]
pub(crate) struct Fetched {
    /// What the requests came to.
    pub(crate) tally: Tally,
    /// Wall time of the batches together.
    pub(crate) wall: Duration,
}

impl Fetched {
    fn add(&mut self, batch: Fetched) {
        self.tally.merge(batch.tally);
        self.wall += batch.wall;
    }
}

/// What a whole session gave.
#[derive(Debug, Default)]
pub(crate) struct Session {
    /// One per visit, in the schedule's order.
    pub(crate) visits: Vec<Fetched>,
    /// Connections opened per server.
    pub(crate) opened: Vec<u64>,
}

/// Runs the whole schedule on `threads` worker threads; `progress` is
/// told of each step.
pub(crate) fn run(
    schedule: &Schedule,
    client: &Arc<Client>,
    (threads, rate): (usize, Option<f64>),
    progress: &mut dyn FnMut(&str),
) -> Result<Session, Error> {
    let slots_per_server = usize::try_from(schedule.concurrency).unwrap_or(usize::MAX);
    let workers = Workers::start(threads, schedule.servers.len(), slots_per_server, client)?;
    let mut visits: Vec<Fetched> = std::iter::repeat_with(Fetched::default)
        .take(schedule.visits.len())
        .collect();
    let warm_ups = if schedule.warmup == 0 {
        progress("no warm-up: the caches were cleared, and the first requests are measured");
        &[][..]
    } else {
        progress(&format!(
            "warm-up: {} requests per page and server",
            schedule.warmup
        ));
        &schedule.groups[..]
    };
    for &index in warm_ups.iter().flatten() {
        let visit = &schedule.visits[index];
        let work = Work::Each(split(schedule.warmup, slots_per_server));
        workers.batch(visit.server, &visit.url, &work, None);
    }
    let rounds = schedule.rounds();
    let n_rounds = rounds.len();
    for (i, round) in rounds.into_iter().enumerate() {
        progress(&format!("round {}/{n_rounds}", i + 1));
        for b in round {
            let visit = &schedule.visits[b.visit];
            let work = match b.time {
                Some(time) => Work::For(time),
                None => Work::Shared(b.count),
            };
            let fetched = workers.batch(visit.server, &visit.url, &work, rate);
            visits[b.visit].add(fetched);
        }
    }
    let opened = workers.finish();
    Ok(Session { visits, opened })
}

/// `n` split over `parts` as evenly as possible.
fn split(n: u64, parts: usize) -> Vec<u64> {
    let parts_u = parts.max(1) as u64;
    (0..parts_u)
        .map(|i| n / parts_u + u64::from(i < n % parts_u))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn warmup_shares_cover_every_slot() {
        assert_eq!(split(4, 4), [1, 1, 1, 1]);
        assert_eq!(split(6, 4), [2, 2, 1, 1]);
        assert_eq!(split(0, 2), [0, 0]);
        assert_eq!(split(5, 0), [5]);
    }
}
