//! A per-request cache against a shared concurrent cache (moka), across
//! workloads that each change one thing from a base: the hit rate, the
//! entry size, the entry count, or the mix of reads and writes.
//!
//! One iteration is one request of [`OPS`] operations on keys drawn for
//! that request. A read of a key the shared cache was warmed with is a hit
//! there; a read of a fresh key (new to the request, never asked for
//! again) is a miss, which loads the entry: it makes the entry's bytes, a
//! cost that grows with its size, as reading it from a store would. The
//! shared cache does not admit what it will never be asked for, so it
//! holds the same keys in every request and a request allocates the same
//! each time. A write stores a warm key's entry anew. The per-request
//! cache starts empty in every request, keeps what it loads until the
//! request ends, and so hits only on keys the request has already seen. Both variants return, for every
//! read, the entry the key stands for: their fingerprints agree exactly
//! when both read every entry right.
//!
//! The requests' keys are drawn untimed (`setup_each`) from a seeded
//! generator, the same for both variants, so the request that each one's
//! check sees is the same.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Operations per request.
pub const OPS: usize = 1_000;

/// One workload.
#[derive(Debug, Clone, Copy)]
pub struct Workload {
    /// Percent of reads on a key the shared cache holds.
    pub hit_pct: u64,
    /// Bytes per entry.
    pub entry_bytes: usize,
    /// Entries the shared cache is warmed with.
    pub entries: u64,
    /// Percent of operations that write.
    pub write_pct: u64,
}

impl Workload {
    fn describe(&self) -> String {
        format!(
            "{OPS} operations per request, {} % of reads on warm keys, {} B entries, {} entries, {} % writes",
            self.hit_pct, self.entry_bytes, self.entries, self.write_pct
        )
    }
}

/// One operation of a request.
#[derive(Debug, Clone, Copy)]
pub enum Op {
    Read(u64),
    Write(u64),
}

/// A key's entry: `bytes` bytes made from the key, the work a miss does.
fn load(key: u64, bytes: usize) -> Arc<[u8]> {
    let mut state = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..bytes)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect()
}

/// What a request read: per read, its key, its entry's length and first
/// and last bytes, folded. Equal for every cache that reads right.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct Read {
    reads: u64,
    folded: u64,
}

impl Read {
    fn add(&mut self, key: u64, entry: &[u8]) {
        let ends = u64::from(entry.first().copied().unwrap_or(0)) << 8
            | u64::from(entry.last().copied().unwrap_or(0));
        self.reads += 1;
        self.folded = (self.folded.rotate_left(5) ^ key ^ (entry.len() as u64) << 32 ^ ends)
            .wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// The state of one variant: its workload, the requests drawn so far, and
/// the shared cache (warmed) when it has one.
pub struct State {
    workload: Workload,
    drawn: AtomicU64,
    shared: Option<moka::sync::Cache<u64, Arc<[u8]>>>,
}

impl State {
    /// The next request's operations: the same draw for every request (the
    /// same reads and writes of the same warm keys), with fresh keys new to
    /// it, so every request does the same work and allocates the same.
    fn request(&self) -> Vec<Op> {
        let w = self.workload;
        let n = self.drawn.fetch_add(1, Ordering::Relaxed);
        let mut seed = 0xD1B5_4A32_D192_ED03_u64;
        let mut next = move || {
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        (0..OPS as u64)
            .map(|i| {
                let warm = next() % w.entries;
                if next() % 100 < w.write_pct {
                    // A write updates an entry the cache holds.
                    Op::Write(warm)
                } else if next() % 100 < w.hit_pct {
                    Op::Read(warm)
                } else {
                    // Fresh keys: never warmed, and new to every request.
                    Op::Read(w.entries + n * OPS as u64 + i)
                }
            })
            .collect()
    }
}

/// The per-request variant's state.
pub fn per_request(workload: Workload) -> State {
    State {
        workload,
        drawn: AtomicU64::new(0),
        shared: None,
    }
}

/// The shared variant's state, its cache warmed with every warm key, and
/// the bytes the warm cache holds per entry (counted when the bench
/// counts allocations).
pub fn shared(workload: Workload) -> (State, Option<u64>) {
    let (cache, counted) = yardstick_probe::alloc::measure(|| {
        let cache = moka::sync::Cache::new(workload.entries + OPS as u64);
        for key in 0..workload.entries {
            cache.insert(key, load(key, workload.entry_bytes));
        }
        cache.run_pending_tasks();
        cache
    });
    let per_entry = counted.map(|a| a.peak / workload.entries.max(1));
    let state = State {
        workload,
        drawn: AtomicU64::new(0),
        shared: Some(cache),
    };
    (state, per_entry)
}

/// One request through a cache of its own, empty at the start.
pub fn run_per_request(s: &State, ops: Vec<Op>) -> Read {
    let bytes = s.workload.entry_bytes;
    let mut cache: HashMap<u64, Arc<[u8]>> = HashMap::new();
    let mut read = Read::default();
    for op in ops {
        match op {
            Op::Read(key) => {
                let entry = cache.entry(key).or_insert_with(|| load(key, bytes));
                read.add(key, entry);
            }
            Op::Write(key) => {
                cache.insert(key, load(key, bytes));
            }
        }
    }
    read
}

/// One request through the shared cache.
pub fn run_shared(s: &State, ops: Vec<Op>) -> Read {
    let bytes = s.workload.entry_bytes;
    let mut read = Read::default();
    let Some(cache) = &s.shared else {
        return read;
    };
    for op in ops {
        match op {
            Op::Read(key) => match cache.get(&key) {
                Some(entry) => read.add(key, &entry),
                // Seen once and never again: loaded, not admitted, so the
                // cache holds the same keys in every request.
                None => read.add(key, &load(key, bytes)),
            },
            Op::Write(key) => cache.insert(key, load(key, bytes)),
        }
    }
    read
}

/// A request's reads, checked against the entries the keys stand for.
pub fn check(s: &State, read: &Read) -> Result<(), String> {
    // The first request, drawn again.
    let ops = per_request(s.workload).request();
    let mut expected = Read::default();
    for op in ops {
        if let Op::Read(key) = op {
            expected.add(key, &load(key, s.workload.entry_bytes));
        }
    }
    if *read == expected {
        Ok(())
    } else {
        Err(format!(
            "{} reads do not give the entries of their keys",
            read.reads
        ))
    }
}

/// Registers one workload's two variants: `name_per_request` (the
/// reference) and `name_moka`.
macro_rules! workload {
    ($group:ident, $per_request:ident, $moka:ident, $workload:expr) => {
        yardstick_probe::probe! {
            suite: kernel,
            name: $per_request,
            group: $group,
            variant: per_request,
            role: reference,
            ops: OPS as u64,
            note: |s: &State| format!("a HashMap per request: {}", s.workload.describe()),
            setup: || Ok::<_, String>(per_request($workload)),
            setup_each: State::request,
            run: run_per_request,
            check: check,
        }
        yardstick_probe::probe! {
            suite: kernel,
            name: $moka,
            group: $group,
            variant: moka,
            ops: OPS as u64,
            note: |s: &(State, Option<u64>)| format!(
                "one moka cache for every request, {} per entry warm: {}",
                s.1.map_or_else(|| "? B".to_string(), |b| format!("{b} B")),
                s.0.workload.describe()
            ),
            setup: || Ok::<_, String>(shared($workload)),
            setup_each: |s: &(State, Option<u64>)| s.0.request(),
            run: |s: &(State, Option<u64>), ops| run_shared(&s.0, ops),
            check: |s: &(State, Option<u64>), read| check(&s.0, read),
        }
    };
}

const BASE: Workload = Workload {
    hit_pct: 90,
    entry_bytes: 64,
    entries: 1_000,
    write_pct: 5,
};

workload!(cache_base, cache_base_per_request, cache_base_moka, BASE);
workload!(
    cache_misses,
    cache_misses_per_request,
    cache_misses_moka,
    Workload {
        hit_pct: 10,
        ..BASE
    }
);
workload!(
    cache_large,
    cache_large_per_request,
    cache_large_moka,
    Workload {
        entry_bytes: 16 * 1024,
        ..BASE
    }
);
workload!(
    cache_many,
    cache_many_per_request,
    cache_many_moka,
    Workload {
        entries: 100_000,
        ..BASE
    }
);
workload!(
    cache_writes,
    cache_writes_per_request,
    cache_writes_moka,
    Workload {
        write_pct: 50,
        ..BASE
    }
);
