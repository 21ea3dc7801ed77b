//! What an evaluation measures: which conditions, which methods, how many
//! runs of each, in which order, and how long that should take.

use crate::hog::HogKind;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The load the machine is under while the benchmark runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Condition {
    Quiet,
    Cpu,
    Memory,
    Bursty,
}

impl Condition {
    pub const ALL: [Condition; 4] = [
        Condition::Quiet,
        Condition::Cpu,
        Condition::Memory,
        Condition::Bursty,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Condition::Quiet => "quiet",
            Condition::Cpu => "cpu",
            Condition::Memory => "memory",
            Condition::Bursty => "bursty",
        }
    }

    /// The hog that makes the condition, if any.
    pub fn hog(self) -> Option<HogKind> {
        match self {
            Condition::Quiet => None,
            Condition::Cpu => Some(HogKind::Cpu),
            Condition::Memory => Some(HogKind::Memory),
            Condition::Bursty => Some(HogKind::Bursty),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Condition::Quiet => "nothing else started by the harness",
            Condition::Cpu => "integer busy loop on the other CPU",
            Condition::Memory => "read-modify-write stream over a large buffer on the other CPU",
            Condition::Bursty => "busy loop switched on and off at random on the other CPU",
        }
    }
}

/// How a verdict is reached. Each method is evaluated under every
/// condition with the same runs and rates, so methods compare directly;
/// a new way of judging (paired builds, instruction counts, ...) is a new
/// variant here and in `method.rs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// One run compared with a baseline saved earlier under quiet
    /// conditions, as a committed baseline is in CI.
    StoredBaseline,
}

impl Method {
    pub const ALL: [Method; 1] = [Method::StoredBaseline];

    pub fn as_str(self) -> &'static str {
        match self {
            Method::StoredBaseline => "stored-baseline",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Method::StoredBaseline => {
                "one run compared with a baseline saved under quiet conditions \
                 (normalised medians, yardstick's micro rules)"
            }
        }
    }
}

/// Parses a comma-separated list of names, refusing unknown and repeated
/// ones; `what` names the option in messages.
pub fn parse_list<T: Copy + PartialEq>(
    text: &str,
    all: &[T],
    name: fn(T) -> &'static str,
    what: &str,
) -> Result<Vec<T>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let item = all
            .iter()
            .copied()
            .find(|x| name(*x) == part)
            .ok_or_else(|| {
                let known: Vec<_> = all.iter().map(|x| name(*x)).collect();
                format!("{what}: unknown `{part}` (known: {})", known.join(", "))
            })?;
        if out.contains(&item) {
            return Err(format!("{what}: `{part}` given twice"));
        }
        out.push(item);
    }
    if out.is_empty() {
        return Err(format!("{what}: nothing selected"));
    }
    Ok(out)
}

/// The counts of an evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub conditions: Vec<Condition>,
    pub methods: Vec<Method>,
    /// A/A runs per condition and method.
    pub aa_runs: usize,
    /// Runs per slowdown, condition and method.
    pub power_runs: usize,
    /// Injected slowdowns, percent.
    pub slowdowns: Vec<f64>,
    /// Seed of the run order and of the bursty hog.
    pub seed: u64,
}

/// One run to make: no slowdown for A/A.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    pub slowdown: Option<f64>,
}

impl Plan {
    /// The runs of one condition and method, A/A and every slowdown mixed
    /// in a seeded random order: a drift of the machine over the block then
    /// spreads over all rates instead of biasing whichever came last.
    pub fn slots(&self, block: usize) -> Vec<Slot> {
        let mut slots: Vec<Slot> = std::iter::repeat_n(Slot { slowdown: None }, self.aa_runs)
            .chain(self.slowdowns.iter().flat_map(|&pct| {
                std::iter::repeat_n(
                    Slot {
                        slowdown: Some(pct),
                    },
                    self.power_runs,
                )
            }))
            .collect();
        fastrand::Rng::with_seed(self.seed ^ (block as u64).wrapping_mul(0x9e37_79b9))
            .shuffle(&mut slots);
        slots
    }

    /// Bench runs the evaluation makes after the baseline.
    pub fn runs(&self) -> usize {
        self.conditions.len()
            * self.methods.len()
            * (self.aa_runs + self.power_runs * self.slowdowns.len())
    }

    /// Expected wall time: every run at `per_run`, plus `per_hog` for each
    /// hog started.
    pub fn estimate(&self, per_run: Duration, per_hog: Duration) -> Duration {
        let hogs = self.conditions.iter().filter(|c| c.hog().is_some()).count();
        per_run * self.runs() as u32 + per_hog * hogs as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        Plan {
            conditions: vec![Condition::Quiet, Condition::Cpu],
            methods: vec![Method::StoredBaseline],
            aa_runs: 10,
            power_runs: 3,
            slowdowns: vec![5.0, 40.0],
            seed: 1,
        }
    }

    #[test]
    fn slots_hold_every_run_in_a_seeded_order() {
        let p = plan();
        let s = p.slots(0);
        assert_eq!(s.len(), 16);
        assert_eq!(s.iter().filter(|x| x.slowdown.is_none()).count(), 10);
        assert_eq!(s.iter().filter(|x| x.slowdown == Some(40.0)).count(), 3);
        assert_eq!(s, p.slots(0));
        assert_ne!(s, p.slots(1));
        assert_eq!(p.runs(), 32);
    }

    #[test]
    fn estimate_counts_runs_and_hogs() {
        let e = plan().estimate(Duration::from_secs(2), Duration::from_secs(1));
        assert_eq!(e, Duration::from_secs(32 * 2 + 1));
    }

    #[test]
    fn lists_parse_and_refuse() {
        let all = Condition::ALL;
        assert_eq!(
            parse_list("quiet, cpu", &all, Condition::as_str, "--conditions").unwrap(),
            [Condition::Quiet, Condition::Cpu]
        );
        for bad in ["", "quiet,quiet", "gpu"] {
            let e = parse_list(bad, &all, Condition::as_str, "--conditions").unwrap_err();
            assert!(e.starts_with("--conditions"), "{e}");
        }
        assert_eq!(
            parse_list("stored-baseline", &Method::ALL, Method::as_str, "--methods").unwrap(),
            [Method::StoredBaseline]
        );
    }
}
