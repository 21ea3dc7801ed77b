//! A successful catalogue lookup allocates nothing: proved by counting the
//! allocations of this thread while lookups run.

use probes::i18n::{Catalogue, load_bytes};

// yardstick's counting allocator counts per thread, so other tests running
// at the same time don't count.
#[global_allocator]
static ALLOC: yardstick::alloc::Counting = yardstick::alloc::Counting;

/// Allocations and reallocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    match yardstick::alloc::measure(f) {
        ((), Some(a)) => a.allocs + a.reallocs,
        ((), None) => panic!("the counting allocator is not counting"),
    }
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
