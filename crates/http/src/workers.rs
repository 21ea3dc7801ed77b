//! The threads that send the built-in client's requests: each runs a
//! current-thread runtime of its own and owns a fixed share of every
//! server's slots, as wrk's threads own their connections. A connection
//! is read, written and timed on one thread from its opening to its end,
//! so no request waits for a hand-over between threads, and no thread
//! wakes another: a multi-thread scheduler's stealing and waking cost
//! more CPU per request than the request's own HTTP work.

use super::client::{Client, Outcome, Slot};
use super::failure::Failure;
use super::session::Fetched;
use super::tally::Tally;
use super::url::Url;
use crate::error::Error;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The pause before a slot that lost its connection opens another, while
/// the server answers other slots (it answered one within the last
/// [`BACKOFF_MAX`]): doubled with each loss in a row, from
/// [`BACKOFF_FIRST`] to [`BACKOFF_MAX`], and forgotten at the slot's next
/// answer. A server with no room for every connection then serves the
/// ones it holds, and the run measures what it sustains, not how fast the
/// client can be refused. Against a server that answers no one, or no
/// longer does, there is no pause: a dead server fails fast.
const BACKOFF_FIRST: Duration = Duration::from_millis(10);
/// The longest pause after a lost connection.
const BACKOFF_MAX: Duration = Duration::from_secs(1);

/// How a batch hands out requests.
pub(crate) enum Work {
    /// Each slot sends this many (warm-up), in slot order.
    Each(Vec<u64>),
    /// Slots take from one shared count (measured).
    Shared(u64),
    /// Every slot sends requests until this long has passed since the
    /// batch began (measured, `--duration`); a request begun in time runs
    /// to its end.
    For(Duration),
}

/// The worker threads of a session.
pub(crate) struct Workers {
    threads: Vec<Worker>,
    /// Per server (each thread has slots of every one), when it last
    /// answered.
    answered: Vec<Arc<Answered>>,
}

struct Worker {
    commands: mpsc::Sender<Batch>,
    replies: mpsc::Receiver<Reply>,
    handle: JoinHandle<Vec<u64>>,
    /// Its slots of each server.
    slots: usize,
}

/// One batch, as one thread runs it on its slots.
struct Batch {
    server: usize,
    url: Url,
    /// A request count per slot of this thread's, or the shared count.
    share: Share,
    /// The open model's schedule of this thread's slots, under `--rate`.
    pace: Option<Pace>,
    /// When the server last answered, on any thread.
    answered: Arc<Answered>,
}

/// When a server last answered any slot, shared by every thread: a slot
/// that lost its connection pauses only while the server answers others.
struct Answered {
    /// What `last` counts from.
    epoch: Instant,
    /// Milliseconds from `epoch` to the last answer, plus one; 0: none yet.
    last: AtomicU64,
}

impl Answered {
    fn new() -> Answered {
        Answered {
            epoch: Instant::now(),
            last: AtomicU64::new(0),
        }
    }

    /// Notes an answer that came at `at`. Written only when the
    /// millisecond changed: every thread notes every answer, and a store
    /// on each would pass the line between the cores on each request.
    fn note(&self, at: Instant) {
        let millis = u64::try_from(at.saturating_duration_since(self.epoch).as_millis())
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        if self.last.load(Ordering::Relaxed) != millis {
            self.last.store(millis, Ordering::Relaxed);
        }
    }

    /// Whether the server answered within the last [`BACKOFF_MAX`].
    fn lately(&self) -> bool {
        match self.last.load(Ordering::Relaxed) {
            0 => false,
            last => {
                let now = u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
                let window = u64::try_from(BACKOFF_MAX.as_millis()).unwrap_or(u64::MAX);
                now.saturating_add(1).saturating_sub(last) <= window
            }
        }
    }
}

/// When each of a thread's slots starts its requests under `--rate`: the
/// first at its own moment (the batch's slots staggered over one period),
/// then one every `every`, whatever the server's pace. A request is timed
/// from its planned start, so a server that stalls is charged for every
/// request it held back, not only the one it stalled on.
#[derive(Clone)]
struct Pace {
    first: Vec<Instant>,
    every: Duration,
}

enum Share {
    Each(Vec<u64>),
    Shared(Arc<AtomicU64>),
    Until(Instant),
}

struct Reply {
    tally: Tally,
    start: Instant,
    end: Instant,
}

impl Workers {
    /// `threads` threads (at least one) sharing `slots` slots of each of
    /// `servers` servers: slot `i` belongs to thread `i % threads`.
    pub(crate) fn start(
        threads: usize,
        servers: usize,
        slots: usize,
        client: &Arc<Client>,
    ) -> Result<Workers, Error> {
        let threads = threads.clamp(1, slots.max(1));
        let mut started = Vec::with_capacity(threads);
        for t in 0..threads {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| Error::Refused(format!("cannot start the HTTP client: {e}")))?;
            let mine = (t..slots).step_by(threads).count();
            let (commands, batches) = mpsc::channel::<Batch>();
            let (answer, replies) = mpsc::channel::<Reply>();
            let client = Arc::clone(client);
            let handle = std::thread::Builder::new()
                .name(format!("yardstick-http-{t}"))
                .spawn(move || serve(&runtime, &client, servers, mine, &batches, &answer))
                .map_err(|e| Error::Refused(format!("cannot start the HTTP client: {e}")))?;
            started.push(Worker {
                commands,
                replies,
                handle,
                slots: mine,
            });
        }
        Ok(Workers {
            threads: started,
            answered: (0..servers).map(|_| Arc::new(Answered::new())).collect(),
        })
    }

    /// Runs one batch on `server`'s slots, every thread at once; its
    /// outcomes in the order they finished, its wall time from the first
    /// thread's start to the last one's end. With `rate` (`--rate`), the
    /// slots start `rate` requests a second between them, an open model;
    /// else each sends its next request when its last one ended.
    pub(crate) fn batch(
        &self,
        server: usize,
        url: &Url,
        work: &Work,
        rate: Option<f64>,
    ) -> Fetched {
        let shared = Arc::new(AtomicU64::new(match work {
            Work::Shared(n) => *n,
            Work::Each(_) | Work::For(_) => 0,
        }));
        // One moment for the batch's end and its schedule's start, so the
        // plan's last requests fall within the time as planned.
        let start = Instant::now();
        let until = match work {
            Work::For(time) => Some(start + *time),
            Work::Each(_) | Work::Shared(_) => None,
        };
        let answered = match self.answered.get(server) {
            Some(a) => Arc::clone(a),
            None => Arc::new(Answered::new()),
        };
        let n = self.threads.len();
        let slots: usize = self.threads.iter().map(|w| w.slots).sum();
        let paces = rate.map(|rate| paces(rate, slots, n, start));
        for (t, worker) in self.threads.iter().enumerate() {
            let share = match (work, until) {
                (Work::For(_), Some(until)) => Share::Until(until),
                (Work::Shared(_) | Work::For(_), _) => Share::Shared(Arc::clone(&shared)),
                (Work::Each(quotas), _) => {
                    Share::Each(quotas.iter().skip(t).step_by(n).copied().collect())
                }
            };
            let batch = Batch {
                server,
                url: url.clone(),
                share,
                pace: paces.as_ref().and_then(|p| p.get(t).cloned()),
                answered: Arc::clone(&answered),
            };
            // A thread that has stopped is found out below, when its
            // reply does not come.
            let _ = worker.commands.send(batch);
        }
        let mut tally = Tally::default();
        let mut span: Option<(Instant, Instant)> = None;
        for worker in &self.threads {
            match worker.replies.recv() {
                Ok(reply) => {
                    tally.merge(reply.tally);
                    span = Some(match span {
                        Some((s, e)) => (s.min(reply.start), e.max(reply.end)),
                        None => (reply.start, reply.end),
                    });
                }
                Err(_) => {
                    let lost = Outcome::Failed(Failure::new("client thread stopped"));
                    (0..worker.slots).for_each(|_| tally.add(&lost));
                }
            }
        }
        Fetched {
            tally,
            wall: span.map_or_else(Default::default, |(s, e)| e.duration_since(s)),
        }
    }

    /// Stops the threads; the connections each server's slots opened.
    pub(crate) fn finish(self) -> Vec<u64> {
        let mut opened = vec![0; self.answered.len()];
        for worker in self.threads {
            drop(worker.commands);
            if let Ok(counts) = worker.handle.join() {
                for (total, n) in opened.iter_mut().zip(counts) {
                    *total += n;
                }
            }
        }
        opened
    }
}

/// The schedules of `threads` threads' slots for `rate` requests a second
/// over `slots` slots from `start`: slot `g` (of thread `g % threads`)
/// starts at `start + g / rate`, then once every `slots / rate`.
fn paces(rate: f64, slots: usize, threads: usize, start: Instant) -> Vec<Pace> {
    // `--rate` is at least `Job::MIN_RATE`; a moment past the clock's end
    // would be never.
    let gap = Duration::try_from_secs_f64(1.0 / rate).unwrap_or(Duration::MAX);
    let every = Duration::try_from_secs_f64(slots as f64 / rate).unwrap_or(Duration::MAX);
    let never = start + Duration::from_secs(u64::from(u32::MAX));
    (0..threads)
        .map(|t| Pace {
            first: (t..slots)
                .step_by(threads.max(1))
                .map(|g| {
                    let offset = gap.saturating_mul(u32::try_from(g).unwrap_or(u32::MAX));
                    start.checked_add(offset).unwrap_or(never)
                })
                .collect(),
            every,
        })
        .collect()
}

/// A thread's life: its slots of every server, and the batches it is
/// sent, until the session drops its sender; then the connections its
/// slots opened, per server.
fn serve(
    runtime: &tokio::runtime::Runtime,
    client: &Arc<Client>,
    servers: usize,
    slots: usize,
    batches: &mpsc::Receiver<Batch>,
    replies: &mpsc::Sender<Reply>,
) -> Vec<u64> {
    let mut pools: Vec<Pool> = (0..servers)
        .map(|_| (0..slots).map(|_| Box::default()).collect())
        .collect();
    while let Ok(batch) = batches.recv() {
        // A server the thread has no slots for sends nothing; the reply
        // still comes, so the session never waits for it.
        let mut none = Vec::new();
        let pool = pools.get_mut(batch.server).unwrap_or(&mut none);
        let reply = runtime.block_on(run(client, pool, batch));
        if replies.send(reply).is_err() {
            break;
        }
    }
    pools
        .iter()
        .map(|pool| pool.iter().map(|s| s.opened).sum())
        .collect()
}

/// One batch on this thread's slots of a server: a task per slot, all
/// started together. Its span ends at its last request's end, not when the
/// last slot stops: a slot pausing after a lost connection, that finds no
/// request left when it wakes, added no work.
async fn run(client: &Arc<Client>, pool: &mut Pool, batch: Batch) -> Reply {
    let start = Instant::now();
    // One tally for the thread's slots: the lock is never contended, as
    // the slots share one thread.
    let done: Done = Arc::default();
    let mut tasks = Vec::with_capacity(pool.len());
    for (i, slot) in std::mem::take(pool).into_iter().enumerate() {
        let quota = match &batch.share {
            Share::Each(quotas) => Quota::Own(quotas.get(i).copied().unwrap_or(0)),
            Share::Shared(count) => Quota::Shared(Arc::clone(count)),
            Share::Until(until) => Quota::Until(*until),
        };
        let client = Arc::clone(client);
        let url = batch.url.clone();
        let answered = Arc::clone(&batch.answered);
        let pace = batch
            .pace
            .as_ref()
            .and_then(|p| Some((*p.first.get(i)?, p.every)));
        // The task is `slot_task`'s future itself, not a block around it
        // that would hold each argument twice: at 5,000 slots, every byte of
        // it is 5 KB.
        let task = slot_task(
            client,
            slot,
            url,
            (quota, pace),
            (answered, Arc::clone(&done)),
        );
        tasks.push(tokio::spawn(task));
    }
    for task in tasks {
        match task.await {
            Ok(slot) => pool.push(slot),
            // A task that panicked loses its slot and what it measured; it
            // counts as a failed request so the row shows it, and the next
            // batch starts the slot afresh.
            Err(_) => {
                pool.push(Box::default());
                lock(&done).add(
                    Instant::now(),
                    &Outcome::Failed(Failure::new("client task panicked")),
                );
            }
        }
    }
    let Ended { tally, last } = std::mem::take(&mut *lock(&done));
    Reply {
        tally,
        start,
        end: last.unwrap_or(start),
    }
}

/// A thread's slots of one server. Each is boxed, though the list is on
/// the heap already: a slot moves into its task at every batch, and a task
/// holds inline all it is given (at 5,000 slots, tokio's cell of each task
/// fell from 4 KB to 2.3 KB with the slot behind a pointer).
#[allow(clippy::vec_box)]
type Pool = Vec<Box<Slot>>;

/// What a thread's slots' requests in a batch came to, and when the last
/// one ended.
#[derive(Default)]
struct Ended {
    tally: Tally,
    last: Option<Instant>,
}

impl Ended {
    fn add(&mut self, at: Instant, outcome: &Outcome) {
        self.tally.add(outcome);
        self.last = Some(self.last.map_or(at, |last| last.max(at)));
    }
}

type Done = Arc<Mutex<Ended>>;

/// The tally, even if a task panicked while it held it: at worst, the one
/// outcome it was counting is half counted.
fn lock(done: &Done) -> std::sync::MutexGuard<'_, Ended> {
    done.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How many requests a slot sends.
enum Quota {
    Own(u64),
    Shared(Arc<AtomicU64>),
    /// Until this moment.
    Until(Instant),
}

impl Quota {
    /// Takes one request, if any is left.
    fn take(&mut self) -> bool {
        match self {
            Quota::Own(left) => left.checked_sub(1).map(|rest| *left = rest).is_some(),
            Quota::Shared(count) => count
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
                .is_ok(),
            Quota::Until(until) => Instant::now() < *until,
        }
    }

    /// How long a slot may pause before its next request: not past the
    /// batch's end, and not at all once no request is left to take.
    fn pause(&self, wanted: Duration) -> Duration {
        match self {
            Quota::Own(0) => Duration::ZERO,
            Quota::Own(_) => wanted,
            Quota::Shared(count) if count.load(Ordering::Acquire) == 0 => Duration::ZERO,
            Quota::Shared(_) => wanted,
            Quota::Until(until) => wanted.min(until.saturating_duration_since(Instant::now())),
        }
    }
}

/// The pause after `losses` connections lost in a row: see
/// [`BACKOFF_FIRST`].
fn backoff(losses: u32) -> Duration {
    match losses {
        0 => Duration::ZERO,
        n => BACKOFF_FIRST
            .saturating_mul(1 << (n - 1).min(16))
            .min(BACKOFF_MAX),
    }
}

/// A slot's requests: as many as `quota` gives, each when the last ended,
/// or with `pace` (its first planned start, and the period) on its
/// schedule, each timed from its planned start.
async fn slot_task(
    client: Arc<Client>,
    mut slot: Box<Slot>,
    url: Url,
    (mut quota, pace): (Quota, Option<(Instant, Duration)>),
    (answered, done): (Arc<Answered>, Done),
) -> Box<Slot> {
    let mut sent: u32 = 0;
    loop {
        if slot.losses > 0 && answered.lately() {
            let pause = quota.pause(backoff(slot.losses));
            if !pause.is_zero() {
                tokio::time::sleep(pause).await;
            }
        }
        let planned = match pace {
            // A plan past the clock's end is never.
            Some((first, every)) => match first.checked_add(every.saturating_mul(sent)) {
                Some(at) => Some(at),
                None => break,
            },
            None => None,
        };
        // A timed batch sends what was planned within its time, and stops
        // at its end, as k6's arrival rate does: a request the server held
        // back past the end is not sent.
        if let (Some(at), Quota::Until(until)) = (planned, &quota)
            && at >= *until
        {
            break;
        }
        if !quota.take() {
            break;
        }
        // How late the slot is, taken before any sleep: a slot on time
        // sleeps to its plan, and the timer's own lateness (up to its
        // millisecond tick) is not the server's doing.
        let late = match planned {
            Some(at) => {
                let late = Instant::now().saturating_duration_since(at);
                if late.is_zero() {
                    tokio::time::sleep_until(at.into()).await;
                }
                late
            }
            None => Duration::ZERO,
        };
        sent = sent.saturating_add(1);
        let outcome = client.fetch(&mut slot, &url).await.late_by(late);
        let ended = Instant::now();
        match &outcome {
            Outcome::Answer(_) => {
                answered.note(ended);
                slot.losses = 0;
            }
            Outcome::Failed(f) if f.lost_the_connection() => {
                slot.losses = slot.losses.saturating_add(1);
            }
            Outcome::Failed(_) => {}
        }
        lock(&done).add(ended, &outcome);
    }
    slot
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_to_its_cap() {
        let pauses: Vec<u128> = (0..10).map(|n| backoff(n).as_millis()).collect();
        assert_eq!(pauses, [0, 10, 20, 40, 80, 160, 320, 640, 1000, 1000]);
        assert_eq!(backoff(u32::MAX), BACKOFF_MAX);
    }

    #[test]
    fn a_server_answered_lately_only_after_an_answer() {
        let a = Answered::new();
        assert!(!a.lately());
        a.note(Instant::now());
        assert!(a.lately());
        // An answer longer ago than the longest pause is not lately.
        if let Some(epoch) = Instant::now().checked_sub(BACKOFF_MAX * 3) {
            let long_ago = Answered {
                epoch,
                last: AtomicU64::new(1),
            };
            assert!(!long_ago.lately());
        }
    }

    #[test]
    fn no_pause_once_no_request_is_left() {
        let second = Duration::from_secs(1);
        assert_eq!(Quota::Own(0).pause(second), Duration::ZERO);
        assert_eq!(Quota::Own(2).pause(second), second);
        let count = Arc::new(AtomicU64::new(0));
        assert_eq!(
            Quota::Shared(Arc::clone(&count)).pause(second),
            Duration::ZERO
        );
        count.store(5, Ordering::Relaxed);
        assert_eq!(Quota::Shared(count).pause(second), second);
        let past = Quota::Until(Instant::now());
        assert_eq!(past.pause(second), Duration::ZERO);
    }

    #[test]
    fn a_pace_staggers_the_slots_over_one_period() {
        let start = Instant::now();
        // 1,000 requests a second over 4 slots on 2 threads: slot g starts
        // at g ms, then every 4 ms.
        let p = paces(1000.0, 4, 2, start);
        let ms =
            |p: &Pace| -> Vec<u128> { p.first.iter().map(|t| (*t - start).as_millis()).collect() };
        assert_eq!((ms(&p[0]), ms(&p[1])), (vec![0, 2], vec![1, 3]));
        assert_eq!(p[0].every, Duration::from_millis(4));
    }

    #[test]
    fn an_own_quota_gives_exactly_its_count() {
        let mut quota = Quota::Own(3);
        let taken = std::iter::from_fn(|| quota.take().then_some(())).count();
        assert_eq!(taken, 3);
        assert!(!quota.take());
    }
}
