//! A successful catalogue lookup allocates nothing: proved by counting the
//! allocations of this thread while lookups run.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use probes::i18n::{Catalogue, load_bytes};

/// The system allocator, counting this thread's allocations while enabled.
/// Per thread, so that other tests running at the same time don't count.
struct Counting;

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

fn note_allocation() {
    // `try_with` is fine during thread teardown, when the slots are gone.
    let _ = ENABLED.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|n| n.set(n.get() + 1));
        }
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    COUNT.with(|n| n.set(0));
    ENABLED.with(|on| on.set(true));
    f();
    ENABLED.with(|on| on.set(false));
    COUNT.with(|n| n.get())
}

fn catalogue() -> Catalogue {
    let path = probes::fixtures::path(probes::i18n::fixture::FIXTURE);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    load_bytes("kernel_de.ts", &bytes).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_counter_sees_allocations() {
    let n = allocations(|| {
        let s = std::hint::black_box(String::from("counted"));
        drop(s);
    });
    assert_eq!(n, 1);
}

#[test]
fn successful_lookups_allocate_nothing() {
    let catalogue = catalogue();
    // Keys owned outside the catalogue, built before counting.
    let keys: Vec<(String, String, String, bool)> = catalogue
        .messages()
        .filter(|m| !m.is_shadowed())
        .map(|m| {
            (
                m.context().to_string(),
                m.source().to_string(),
                m.comment().to_string(),
                m.is_numerus(),
            )
        })
        .collect();
    let mut found = 0usize;
    let n = allocations(|| {
        for (context, source, comment, numerus) in &keys {
            if *numerus {
                found += usize::from(
                    catalogue
                        .translate_count(context, source, comment, 3)
                        .is_some(),
                );
            } else {
                found += usize::from(catalogue.translate(context, source, comment).is_some());
            }
            // The fallback to the message without comment, too.
            if comment.is_empty() {
                found += usize::from(
                    catalogue
                        .translate(context, source, "no such comment")
                        .is_some(),
                );
            }
        }
    });
    assert_eq!(n, 0, "{n} allocations in {} lookups", keys.len());
    assert!(found > keys.len(), "only {found} lookups succeeded");
}

#[test]
fn misses_allocate_nothing_either() {
    let catalogue = catalogue();
    let n = allocations(|| {
        for i in 0..100 {
            let hit =
                catalogue.translate("no/such/context", "Edit", if i % 2 == 0 { "" } else { "x" });
            assert!(hit.is_none());
        }
    });
    assert_eq!(n, 0);
    assert_eq!(catalogue.misses(), 100);
}
