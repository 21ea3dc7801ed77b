//! Memory per probe: a counting global allocator that a bench target
//! installs in one line (it names it `yardstick::alloc`, the same),
//!
//! ```
//! #[global_allocator]
//! static ALLOC: yardstick_probe::alloc::Counting = yardstick_probe::alloc::Counting;
//! # fn main() {}
//! ```
//!
//! and the harness reads around one iteration of each probe (the `allocs`,
//! `bytes` and `peak` columns).
//!
//! The counts are the calling thread's own: each thread keeps its tally in
//! a thread-local, so the progress bar's thread, a runtime's worker threads
//! and anything else that allocates meanwhile never enter a probe's figures,
//! and no two threads write one cache line. The price is that what a probe
//! hands to other threads is not counted either (see the tests).
//!
//! Counting stays on the hot path of every allocation, so it is kept to a
//! few additions in a thread-local; a process can turn it off at start
//! ([`set_counting`]) to leave one relaxed load per call.
//! `YARDSTICK_ALLOC=off` does that for a bench binary, which is how its
//! cost is measured: the same binary with and without, interleaved by
//! `compare-builds` (docs/evaluation.md, "Memory per probe").

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// A global allocator that forwards to the system's and counts, per
/// thread, the allocations, reallocations and bytes asked for, and the
/// bytes live at the peak.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counting;

/// What one thread allocated over a stretch of its work: what
/// [`measure`] returns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Allocations {
    /// Fresh allocations (`alloc` and `alloc_zeroed`).
    pub allocs: u64,
    /// Reallocations (a `Vec` or `String` that grew or shrank in place or
    /// moved).
    pub reallocs: u64,
    /// Bytes asked for: each allocation's size, plus what each
    /// reallocation grew by.
    pub bytes: u64,
    /// The most bytes live at once during the stretch, above the level at
    /// its start: what the work needed at its peak.
    pub peak: u64,
}

/// One thread's running tally. `live` is signed: memory freed on another
/// thread than the one that allocated it lowers this one's level.
#[derive(Clone, Copy)]
struct Tally {
    allocs: u64,
    reallocs: u64,
    bytes: u64,
    live: i64,
    peak: i64,
}

thread_local! {
    // `const` and without a destructor: reading it never allocates, which
    // an allocator's own state must not.
    static TALLY: Cell<Tally> = const {
        Cell::new(Tally { allocs: 0, reallocs: 0, bytes: 0, live: 0, peak: 0 })
    };
}

/// Whether allocations are counted; see [`set_counting`].
static COUNTING: AtomicBool = AtomicBool::new(true);

/// Turns counting on or off for every thread. Off, [`Counting`] is the
/// system allocator behind one relaxed load, and nothing is reported.
pub fn set_counting(on: bool) {
    COUNTING.store(on, Ordering::Relaxed);
}

/// Adds to the calling thread's tally. `try_with`: a thread being torn
/// down may allocate after its thread-locals are gone; that goes uncounted.
fn tally(change: impl FnOnce(&mut Tally)) {
    let _ = TALLY.try_with(|cell| {
        let mut t = cell.get();
        change(&mut t);
        t.peak = t.peak.max(t.live);
        cell.set(t);
    });
}

fn signed(bytes: usize) -> i64 {
    i64::try_from(bytes).unwrap_or(i64::MAX)
}

/// Counts a fresh allocation of `layout` at `ptr` (none when it failed),
/// and hands `ptr` back.
#[inline]
fn allocated(ptr: *mut u8, layout: Layout) -> *mut u8 {
    if !ptr.is_null() && COUNTING.load(Ordering::Relaxed) {
        tally(|t| {
            t.allocs += 1;
            t.bytes += layout.size() as u64;
            t.live += signed(layout.size());
        });
    }
    ptr
}

// SAFETY: every call forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees are `Counting`'s. The counting only
// touches a thread-local `Cell` and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is (see the impl).
        let ptr = unsafe { System.alloc(layout) };
        allocated(ptr, layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is (see the impl).
        let ptr = unsafe { System.alloc_zeroed(layout) };
        allocated(ptr, layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is (see the impl).
        unsafe { System.dealloc(ptr, layout) };
        if COUNTING.load(Ordering::Relaxed) {
            tally(|t| t.live -= signed(layout.size()));
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is (see the impl).
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if !moved.is_null() && COUNTING.load(Ordering::Relaxed) {
            tally(|t| {
                t.reallocs += 1;
                t.bytes += new_size.saturating_sub(layout.size()) as u64;
                t.live += signed(new_size) - signed(layout.size());
            });
        }
        moved
    }
}

/// Runs `work` and returns its result with what it allocated on this
/// thread, or `None` for the allocations when [`Counting`] is not the
/// global allocator (or counting is off).
pub fn measure<T>(work: impl FnOnce() -> T) -> (T, Option<Allocations>) {
    if !counting_here() {
        return (work(), None);
    }
    let start = TALLY.with(|cell| {
        let mut t = cell.get();
        t.peak = t.live;
        cell.set(t);
        t
    });
    let result = work();
    let end = TALLY.with(Cell::get);
    let allocations = Allocations {
        allocs: end.allocs - start.allocs,
        reallocs: end.reallocs - start.reallocs,
        bytes: end.bytes - start.bytes,
        peak: u64::try_from(end.peak - start.live).unwrap_or(0),
    };
    (result, Some(allocations))
}

/// Whether this thread's allocations are being counted: a box made and
/// dropped moves the tally only when [`Counting`] is installed and on.
pub fn counting_here() -> bool {
    let before = TALLY.with(Cell::get).allocs;
    drop(std::hint::black_box(Box::new(0u64)));
    TALLY.with(Cell::get).allocs != before
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hint::black_box;

    // The library's unit tests run under this allocator, so what they
    // measure is real counting.
    #[global_allocator]
    static ALLOC: Counting = Counting;

    #[test]
    fn a_thousand_boxes_of_sixteen_bytes_read_exactly() {
        let (kept, a) = measure(|| {
            let boxes: Vec<Box<[u8; 16]>> = (0..1000).map(|_| Box::new([1; 16])).collect();
            black_box(boxes.len())
        });
        assert_eq!(kept, 1000);
        let a = a.unwrap();
        // The thousand boxes, and the vector that held them (sized once:
        // a range's `collect` knows its length).
        assert_eq!((a.allocs, a.reallocs), (1001, 0));
        assert_eq!(a.bytes, 16_000 + 1000 * 8);
        assert_eq!(a.peak, 16_000 + 1000 * 8);
    }

    #[test]
    fn growth_counts_reallocations_and_what_they_added() {
        let (_, a) = measure(|| {
            let mut v: Vec<u8> = Vec::with_capacity(10);
            v.reserve_exact(30);
            v.shrink_to(5);
            black_box(v)
        });
        let a = a.unwrap();
        assert_eq!((a.allocs, a.reallocs), (1, 2));
        // 10 bytes, then 20 more; the shrink adds none.
        assert_eq!(a.bytes, 30);
        assert_eq!(a.peak, 30);
    }

    #[test]
    fn the_peak_is_above_the_level_at_the_start() {
        let held = black_box(vec![0u8; 4096]);
        let (_, a) = measure(|| {
            drop(black_box(vec![0u8; 100]));
            drop(black_box(vec![0u8; 50]));
        });
        drop(held);
        assert_eq!(a.unwrap().peak, 100);
    }

    #[test]
    fn another_threads_allocations_are_not_counted() {
        // The thread's own allocations (its stack, its handle) happen in
        // the spawning call on this thread; the megabyte the new thread
        // allocates does not enter this thread's figures.
        let (_, a) = measure(|| {
            std::thread::spawn(|| drop(black_box(vec![0u8; 1 << 20])))
                .join()
                .unwrap();
        });
        let a = a.unwrap();
        assert!(a.bytes < 1 << 20, "{a:?}");
        assert!(a.peak < 1 << 20, "{a:?}");
    }
}
