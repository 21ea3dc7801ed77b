//! Memory per probe: allocation counts, judged on any machine.
//!
//! What one iteration allocates is a count the code decides, not the
//! machine or its load: the same build allocates the same on a laptop and
//! on a loaded runner. So allocations are judged tightly, against any
//! baseline that has them, whatever its machine class, and never held back
//! with wall time (`machine.rs` holds back only time figures). Bytes and
//! the peak are shown, not judged: they follow the allocator's rounding
//! and the inputs' sizes, and a probe that allocates more shows it in its
//! count first.

use crate::document::comparison::{Check, Comparison, Figure, Verdict};
use crate::document::run::Run;

/// Percent more allocations per iteration that regress, at least.
pub const ALLOCS_THRESHOLD_PCT: f64 = 1.0;
/// More allocations per iteration that regress, at least: 1 % of a probe
/// that allocates 20 times is a fraction of one allocation.
pub const ALLOCS_MIN_DELTA: u64 = 1;

/// The rule in words, for reports.
pub fn rule() -> String {
    format!(
        "{ALLOCS_THRESHOLD_PCT} % and {ALLOCS_MIN_DELTA} more allocation per iteration, on any machine"
    )
}

/// One check per probe that has allocation counts in both runs.
pub(super) fn compare(baseline: &Run, run: &Run, out: &mut Comparison) {
    for (base, now) in super::common_rows(baseline, run) {
        let (Some(b), Some(n)) = (base.memory, now.memory) else {
            continue;
        };
        out.checks.push(check(&now.key, b.allocs, n.allocs));
    }
}

/// The rule: at least [`ALLOCS_THRESHOLD_PCT`] more and at least
/// [`ALLOCS_MIN_DELTA`] more allocations per iteration.
fn check(key: &str, baseline: u64, current: u64) -> Check {
    let (b, n) = (baseline as f64, current as f64);
    let change = super::change_pct(b, n);
    let worse =
        current >= baseline.saturating_add(ALLOCS_MIN_DELTA) && change >= ALLOCS_THRESHOLD_PCT;
    Check::new(key, Figure::Allocs, b, n, change, Verdict::of(worse))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regressed(baseline: u64, current: u64) -> bool {
        check("p", baseline, current).regressed()
    }

    #[test]
    fn one_more_allocation_and_one_percent_more_both_count() {
        // 1 % of 100 is one allocation: both conditions hold at once.
        assert!(regressed(100, 101));
        assert!(!regressed(100, 100));
        // One more of 1,000 is 0.1 %: not enough.
        assert!(!regressed(1000, 1001));
        assert!(!regressed(1000, 1009));
        assert!(regressed(1000, 1010));
        // From none, the first allocation regresses.
        assert!(regressed(0, 1));
        // Fewer is never worse.
        assert!(!regressed(10, 3));
    }
}
