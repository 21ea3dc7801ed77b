//! Runs a schedule with the built-in client: per server, `concurrency`
//! slots, each a task owning its connection for the length of a batch. The
//! warm-up gives every slot its share of requests (at least one, so each
//! connection is open and its handshake done before anything is timed);
//! measured batches let the slots take requests from a common count, so
//! exactly `concurrency` requests are in flight until the batch ends.

use super::client::{Client, Outcome, Slot};
use super::failure::Failure;
use super::schedule::Schedule;
use super::url::Url;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What measured requests gave: one visit's, or one batch's.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Fetched {
    /// In the order they finished.
    pub(crate) outcomes: Vec<Outcome>,
    /// Wall time of the batches together.
    pub(crate) wall: Duration,
}

impl Fetched {
    fn add(&mut self, batch: Fetched) {
        self.outcomes.extend(batch.outcomes);
        self.wall += batch.wall;
    }
}

/// What a whole session gave.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Session {
    /// One per visit, in the schedule's order.
    pub(crate) visits: Vec<Fetched>,
    /// Connections opened per server.
    pub(crate) opened: Vec<u64>,
}

/// How a batch hands out requests.
#[derive(Clone)]
enum Work {
    /// Each slot sends this many (warm-up).
    Each(Vec<u64>),
    /// Slots take from one shared count (measured).
    Shared(u64),
}

/// Runs the whole schedule; `progress` is told of each step.
pub(crate) async fn run(
    schedule: &Schedule,
    client: Arc<Client>,
    progress: &mut dyn FnMut(&str),
) -> Session {
    let slots_per_server = usize::try_from(schedule.concurrency).unwrap_or(usize::MAX);
    let mut pools: Vec<Vec<Slot>> = schedule
        .servers
        .iter()
        .map(|_| (0..slots_per_server).map(|_| Slot::default()).collect())
        .collect();
    let mut visits = vec![Fetched::default(); schedule.visits.len()];
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
        batch(&client, &mut pools[visit.server], &visit.url, work).await;
    }
    let rounds = schedule.rounds();
    let n_rounds = rounds.len();
    for (i, round) in rounds.into_iter().enumerate() {
        progress(&format!("round {}/{n_rounds}", i + 1));
        for b in round {
            let visit = &schedule.visits[b.visit];
            let pool = &mut pools[visit.server];
            let fetched = batch(&client, pool, &visit.url, Work::Shared(b.count)).await;
            visits[b.visit].add(fetched);
        }
    }
    let opened = pools
        .iter()
        .map(|pool| pool.iter().map(|s| s.opened).sum())
        .collect();
    Session { visits, opened }
}

/// `n` split over `parts` as evenly as possible.
fn split(n: u64, parts: usize) -> Vec<u64> {
    let parts_u = parts.max(1) as u64;
    (0..parts_u)
        .map(|i| n / parts_u + u64::from(i < n % parts_u))
        .collect()
}

/// One batch on one server's slots: a task per slot, all started together.
async fn batch(client: &Arc<Client>, pool: &mut Vec<Slot>, url: &Url, work: Work) -> Fetched {
    let shared = Arc::new(AtomicU64::new(match work {
        Work::Shared(n) => n,
        Work::Each(_) => 0,
    }));
    let start = Instant::now();
    let mut tasks = Vec::with_capacity(pool.len());
    for (i, slot) in std::mem::take(pool).into_iter().enumerate() {
        let quota = match &work {
            Work::Each(quotas) => Some(quotas.get(i).copied().unwrap_or(0)),
            Work::Shared(_) => None,
        };
        let client = Arc::clone(client);
        let shared = Arc::clone(&shared);
        let url = url.clone();
        tasks.push(tokio::spawn(async move {
            slot_task(client, slot, url, quota, shared).await
        }));
    }
    let mut finished: Vec<(Instant, Outcome)> = Vec::new();
    for task in tasks {
        match task.await {
            Ok((slot, outcomes)) => {
                pool.push(slot);
                finished.extend(outcomes);
            }
            // A task that panicked loses its slot and what it measured; it
            // counts as a failed request so the row shows it, and the next
            // batch starts the slot afresh.
            Err(_) => {
                pool.push(Slot::default());
                finished.push((
                    Instant::now(),
                    Outcome::Failed(Failure::new("client task panicked")),
                ));
            }
        }
    }
    let wall = start.elapsed();
    finished.sort_by_key(|(at, _)| *at);
    Fetched {
        outcomes: finished.into_iter().map(|(_, o)| o).collect(),
        wall,
    }
}

async fn slot_task(
    client: Arc<Client>,
    mut slot: Slot,
    url: Url,
    quota: Option<u64>,
    shared: Arc<AtomicU64>,
) -> (Slot, Vec<(Instant, Outcome)>) {
    let mut outcomes = Vec::new();
    let mut left = quota.unwrap_or(0);
    loop {
        let take = match quota {
            Some(_) => {
                let go = left > 0;
                left = left.saturating_sub(1);
                go
            }
            None => shared
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
                .is_ok(),
        };
        if !take {
            break;
        }
        let outcome = client.fetch(&mut slot, &url).await;
        outcomes.push((Instant::now(), outcome));
    }
    (slot, outcomes)
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
