//! What callgrind counted, and the estimated cycles made from it.
//!
//! Instructions alone are blind to memory: a probe that walks its data in a
//! shuffled order runs the same instructions as one that walks it in order,
//! yet waits on RAM for most of them. Callgrind's cache simulation counts
//! the misses of a fixed cache (see `CACHE`), deterministically, and the
//! estimated cycles weigh each access by where it was served:
//!
//! ```text
//! estimated cycles = L1 hits + 5 × last-level hits + 35 × RAM accesses
//! ```
//!
//! These are the weights of iai-callgrind (now gungraun), the tool of the
//! field for counted benchmarks, which took them from Itamar
//! Turner-Trauring's "consistent benchmarking in CI": a rough, fixed model
//! of a modern CPU, where a last-level hit costs a few L1 hits and a trip
//! to RAM tens of them. They are not any machine's cycles; what matters is
//! that they are the same model on every machine and in every run, so a
//! change in them is a change in the work or its memory behaviour.

/// The simulated caches, as callgrind's options: a 32 KiB 8-way L1 for
/// instructions and for data, and an 8 MiB 16-way last level, all with
/// 64-byte lines, the shape of a current x86 or Arm server core. Fixed, not
/// taken from the machine: by default callgrind asks CPUID, and a virtual
/// machine may claim a 256 MB direct-mapped last level, behind which
/// nothing would ever reach RAM.
pub(crate) const CACHE: [&str; 3] = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"];

/// The cache geometry as a run records it.
pub fn cache_geometry() -> String {
    CACHE
        .iter()
        .map(|o| o.trim_start_matches("--"))
        .collect::<Vec<_>>()
        .join(" ")
}

use crate::document::row::Counted;

/// Weight of an access served by the last-level cache.
pub const LL_HIT_WEIGHT: u64 = 5;
/// Weight of an access served by RAM.
pub const RAM_WEIGHT: u64 = 35;

/// Totals of one callgrind output, over every counted iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Costs {
    pub instructions: u64,
    /// Present only when the cache was simulated.
    pub cache: Option<CacheCosts>,
}

/// Cache events of a simulated run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct CacheCosts {
    /// Instruction fetches and data reads and writes: every access.
    pub accesses: u64,
    /// Accesses that missed L1 (instruction and data).
    pub l1_misses: u64,
    /// Accesses that missed the last level too: RAM accesses.
    pub ll_misses: u64,
}

impl CacheCosts {
    /// L1 hits + 5 × last-level hits + 35 × RAM accesses.
    pub fn estimated_cycles(&self) -> u64 {
        let l1_hits = self.accesses.saturating_sub(self.l1_misses);
        let ll_hits = self.l1_misses.saturating_sub(self.ll_misses);
        l1_hits
            .saturating_add(ll_hits.saturating_mul(LL_HIT_WEIGHT))
            .saturating_add(self.ll_misses.saturating_mul(RAM_WEIGHT))
    }
}

impl Costs {
    /// The totals of a callgrind output file: the `events:` line names the
    /// columns of the `totals:` line (or `summary:`, which older versions
    /// write instead). `None` when either is missing or unreadable.
    pub fn parse(text: &str) -> Option<Costs> {
        let events: Vec<&str> = text
            .lines()
            .find_map(|l| l.strip_prefix("events:"))?
            .split_whitespace()
            .collect();
        let totals = text
            .lines()
            .find_map(|l| l.strip_prefix("totals:"))
            .or_else(|| text.lines().find_map(|l| l.strip_prefix("summary:")))?;
        let values: Vec<u64> = totals
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        Costs::of_events(&events, &values)
    }

    /// The costs of `values`, one per event of `events` (callgrind leaves
    /// out trailing zero columns); `None` without instructions (`Ir`).
    pub fn of_events(events: &[&str], values: &[u64]) -> Option<Costs> {
        let event = |name: &str| -> Option<u64> {
            let i = events.iter().position(|e| *e == name)?;
            Some(values.get(i).copied().unwrap_or(0))
        };
        let instructions = event("Ir")?;
        let cache = match (event("Dr"), event("Dw")) {
            (Some(dr), Some(dw)) => {
                let sum = |names: [&str; 3]| -> Option<u64> {
                    names.iter().map(|n| event(n)).sum::<Option<u64>>()
                };
                Some(CacheCosts {
                    accesses: instructions.checked_add(dr)?.checked_add(dw)?,
                    l1_misses: sum(["I1mr", "D1mr", "D1mw"])?,
                    ll_misses: sum(["ILmr", "DLmr", "DLmw"])?,
                })
            }
            _ => None,
        };
        Some(Costs {
            instructions,
            cache,
        })
    }

    /// These costs as a row's counts, per iteration of `batch`.
    pub fn per_iteration(&self, batch: u64) -> Counted {
        let per = |total: u64| total as f64 / batch.max(1) as f64;
        let cache = self.cache.map(|c| {
            [
                per(c.l1_misses),
                per(c.ll_misses),
                per(c.estimated_cycles()),
            ]
        });
        Counted {
            instructions: Some(per(self.instructions)),
            l1_misses: cache.map(|c| c[0]),
            ll_misses: cache.map(|c| c[1]),
            estimated_cycles: cache.map(|c| c[2]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimated_cycles_weigh_each_access_by_where_it_was_served() {
        // 1,000 accesses: 900 L1 hits, 80 last-level hits, 20 from RAM.
        let c = CacheCosts {
            accesses: 1_000,
            l1_misses: 100,
            ll_misses: 20,
        };
        assert_eq!(c.estimated_cycles(), 900 + 5 * 80 + 35 * 20);
        assert_eq!(CacheCosts::default().estimated_cycles(), 0);
        // Nothing missed: one cycle an access.
        let hits = CacheCosts {
            accesses: 7,
            ..CacheCosts::default()
        };
        assert_eq!(hits.estimated_cycles(), 7);
    }

    #[test]
    fn a_cache_simulation_is_read_by_event_name() {
        let text = "version: 1\ncreator: callgrind-3.19.0\n\
                    events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n\
                    summary: 700 200 100 10 30 20 5 8 7\n\nfn=(1) main\n\
                    totals: 700 200 100 10 30 20 5 8 7\n";
        let c = Costs::parse(text).unwrap();
        assert_eq!(c.instructions, 700);
        let cache = c.cache.unwrap();
        assert_eq!(
            cache,
            CacheCosts {
                accesses: 1_000,
                l1_misses: 60,
                ll_misses: 20,
            }
        );
        assert_eq!(cache.estimated_cycles(), 940 + 5 * 40 + 35 * 20);
    }

    #[test]
    fn instructions_alone_and_bad_outputs() {
        let plain = "events: Ir\nsummary: 1234\n\nfn=(1) main\n3 10\ntotals: 1234\n";
        assert_eq!(
            Costs::parse(plain),
            Some(Costs {
                instructions: 1234,
                cache: None
            })
        );
        assert_eq!(
            Costs::parse("events: Ir\nsummary: 77\n")
                .unwrap()
                .instructions,
            77
        );
        // Trailing zero columns may be left out.
        let short = Costs::parse("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\ntotals: 9 1\n");
        assert_eq!(short.and_then(|c| c.cache).map(|c| c.accesses), Some(10));
        for bad in [
            "events: Ir\n",
            "totals: 12\n",
            "events: Ir\ntotals: many\n",
            "events: Dr\ntotals: 3\n",
        ] {
            assert_eq!(Costs::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_cache_geometry_is_recorded_as_given_to_callgrind() {
        assert_eq!(
            cache_geometry(),
            "I1=32768,8,64 D1=32768,8,64 LL=8388608,16,64"
        );
    }
}
