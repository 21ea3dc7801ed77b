//! What an evaluation measures: which methods under which conditions, how
//! many runs of each, in which order, and which runs several methods share.

use crate::hog::HogKind;
use serde::{Deserialize, Serialize};

/// The load the machine is under while the benchmark runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
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

/// How a verdict is reached. Every method's trials are judged by
/// yardstick itself (its library or its own command's comparison) and
/// summarised with the same rates, so methods compare directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// One run compared with a baseline saved earlier under quiet
    /// conditions, as a committed baseline is in CI.
    StoredBaseline,
    /// The same, but the bench compares itself and re-measures what it
    /// flags before the verdict.
    Confirmed,
    /// The same binary as old and new build of `yardstick compare-builds`.
    Paired,
    /// Instruction counts under callgrind against a saved counts baseline.
    Instructions,
}

impl Method {
    pub const ALL: [Method; 4] = [
        Method::StoredBaseline,
        Method::Confirmed,
        Method::Paired,
        Method::Instructions,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Method::StoredBaseline => "stored-baseline",
            Method::Confirmed => "confirmed",
            Method::Paired => "paired",
            Method::Instructions => "instructions",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Method::StoredBaseline => {
                "one run compared with a baseline saved under quiet conditions \
                 (normalised figures, judged by yardstick's `compare`)"
            }
            Method::Confirmed => {
                "the bench run given the saved baseline (`--baseline`), so that it compares \
                 itself and re-measures each flagged probe interleaved with the calibration \
                 loop; its own JSON comparison is the verdict (a probe not confirmed is \
                 inconclusive)"
            }
            Method::Paired => {
                "`yardstick compare-builds BIN BIN`: the same bench binary as old and new build \
                 (power: `--env-new=YARDSTICK_INJECT=*:X`), rounds in random order, exact \
                 signed-rank test, yardstick's default paired threshold"
            }
            Method::Instructions => {
                "`--metric=instructions` runs (callgrind counts of the measured iterations) \
                 against a counts baseline saved at the start, yardstick's default instruction \
                 threshold"
            }
        }
    }

    /// One cell of this method.
    fn cell(
        self,
        condition: Condition,
        aa_runs: usize,
        power_runs: usize,
        slowdowns: &[f64],
    ) -> Cell {
        Cell {
            condition,
            method: self,
            aa_runs,
            power_runs,
            slowdowns: slowdowns.to_vec(),
        }
    }

    /// The runs a full evaluation makes with this method, chosen so that
    /// every method together fits in about 90 minutes on a 2-core machine
    /// while the figures the project's targets name get 300 A/A runs: the
    /// stored baseline (with and without confirmation) quiet and under a
    /// CPU hog, and the paired comparison quiet. The rest is smaller or
    /// left to an explicit `--conditions`.
    pub fn default_cells(self) -> Vec<Cell> {
        const TIME: [f64; 5] = [5.0, 10.0, 15.0, 25.0, 40.0];
        match self {
            Method::StoredBaseline | Method::Confirmed => vec![
                self.cell(Condition::Quiet, 300, 10, &TIME),
                self.cell(Condition::Cpu, 300, 10, &TIME),
            ],
            Method::Paired => vec![
                self.cell(Condition::Quiet, 300, 12, &[5.0, 10.0]),
                self.cell(Condition::Cpu, 20, 12, &[5.0, 10.0]),
            ],
            // Counts do not move with the load, so neither a hog nor many
            // runs add evidence: the A/A runs show that they are the same
            // every time, the power runs that 2 % more work is seen.
            Method::Instructions => vec![self.cell(Condition::Quiet, 20, 10, &[2.0])],
        }
    }

    /// The runs `--quick` makes: a few of each, enough to go through every
    /// code path (the confirmation runs at 40 %, the one at 10 % mostly
    /// not), not enough to mean anything.
    pub fn quick_cells(self) -> Vec<Cell> {
        match self {
            Method::StoredBaseline | Method::Confirmed => Condition::ALL
                .iter()
                .map(|c| self.cell(*c, 3, 1, &[10.0, 40.0]))
                .collect(),
            Method::Paired => vec![self.cell(Condition::Quiet, 2, 1, &[10.0])],
            Method::Instructions => vec![self.cell(Condition::Quiet, 2, 1, &[2.0])],
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

/// The runs of one method under one condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    pub condition: Condition,
    pub method: Method,
    pub aa_runs: usize,
    /// Runs per slowdown.
    pub power_runs: usize,
    /// Injected slowdowns, percent, ascending.
    pub slowdowns: Vec<f64>,
}

impl Cell {
    pub fn runs(&self) -> usize {
        self.aa_runs + self.power_runs * self.slowdowns.len()
    }

    fn same_runs(&self, other: &Cell) -> bool {
        self.condition == other.condition
            && self.aa_runs == other.aa_runs
            && self.power_runs == other.power_runs
            && self.slowdowns == other.slowdowns
    }
}

/// The counts of an evaluation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// Ordered by condition, then method.
    pub cells: Vec<Cell>,
    /// Seed of the run order, of the paired rounds and of the bursty hog.
    pub seed: u64,
}

/// One run to make: no slowdown for A/A.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    pub slowdown: Option<f64>,
}

/// Runs made once and judged by one or more methods: a stored-baseline
/// and a confirmed cell with the same counts share their bench runs (the
/// run measures first and confirms after, so its rows are exactly what a
/// run without a baseline would have measured).
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub condition: Condition,
    pub methods: Vec<Method>,
    pub aa_runs: usize,
    pub power_runs: usize,
    pub slowdowns: Vec<f64>,
}

impl Plan {
    /// Sorts the cells by condition and method, so each hog starts once.
    pub fn new(mut cells: Vec<Cell>, seed: u64) -> Plan {
        cells.sort_by_key(|c| (c.condition, c.method));
        Plan { cells, seed }
    }

    pub fn methods(&self) -> Vec<Method> {
        let mut m: Vec<Method> = self.cells.iter().map(|c| c.method).collect();
        m.sort();
        m.dedup();
        m
    }

    pub fn conditions(&self) -> Vec<Condition> {
        let mut c: Vec<Condition> = self.cells.iter().map(|c| c.condition).collect();
        c.dedup();
        c
    }

    /// The cells as jobs, in the cells' order.
    pub fn jobs(&self) -> Vec<Job> {
        let mut jobs: Vec<Job> = Vec::new();
        for cell in &self.cells {
            let shared = cell.method == Method::Confirmed
                && self
                    .cells
                    .iter()
                    .any(|other| other.method == Method::StoredBaseline && other.same_runs(cell));
            if shared
                && let Some(job) = jobs.iter_mut().find(|j| {
                    j.condition == cell.condition && j.methods == [Method::StoredBaseline]
                })
            {
                job.methods.push(Method::Confirmed);
                continue;
            }
            jobs.push(Job {
                condition: cell.condition,
                methods: vec![cell.method],
                aa_runs: cell.aa_runs,
                power_runs: cell.power_runs,
                slowdowns: cell.slowdowns.clone(),
            });
        }
        jobs
    }

    /// Refuses a slowdown the batch of counted runs (`counted`) cannot
    /// carry, by yardstick's own rule (`inject::counted_iterations`): the
    /// run would be refused after the baselines were made. Timed methods
    /// take any slowdown at any batch (the knob busy-waits).
    pub fn check_batches(&self, counted: u32) -> Result<(), String> {
        for cell in self
            .cells
            .iter()
            .filter(|c| c.method == Method::Instructions)
        {
            for pct in &cell.slowdowns {
                yardstick::measure::inject::counted_iterations("*", u64::from(counted), Some(*pct))
                    .map_err(|e| {
                        format!(
                            "the {} method at --count-batch={counted}: {}",
                            cell.method.as_str(),
                            e.to_string().trim_start_matches("error: ")
                        )
                    })?;
            }
        }
        Ok(())
    }

    /// Bench runs (paired: comparisons) the evaluation makes after its
    /// baselines, shared runs counted once.
    pub fn runs(&self) -> usize {
        self.jobs().iter().map(Job::runs).sum()
    }
}

impl Job {
    pub fn runs(&self) -> usize {
        self.aa_runs + self.power_runs * self.slowdowns.len()
    }

    /// The methods as one name, `stored-baseline+confirmed` when shared.
    pub fn name(&self) -> String {
        self.methods
            .iter()
            .map(|m| m.as_str())
            .collect::<Vec<_>>()
            .join("+")
    }

    /// The job's runs, A/A and every slowdown mixed in a seeded random
    /// order: a drift of the machine over the block then spreads over all
    /// rates instead of biasing whichever came last.
    pub fn slots(&self, seed: u64, index: usize) -> Vec<Slot> {
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
        fastrand::Rng::with_seed(seed ^ (index as u64).wrapping_mul(0x9e37_79b9))
            .shuffle(&mut slots);
        slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(condition: Condition, method: Method, aa_runs: usize) -> Cell {
        Cell {
            condition,
            method,
            aa_runs,
            power_runs: 3,
            slowdowns: vec![5.0, 40.0],
        }
    }

    #[test]
    fn slots_hold_every_run_in_a_seeded_order() {
        let plan = Plan::new(vec![cell(Condition::Quiet, Method::Paired, 10)], 1);
        let job = &plan.jobs()[0];
        let s = job.slots(1, 0);
        assert_eq!(s.len(), 16);
        assert_eq!(s.iter().filter(|x| x.slowdown.is_none()).count(), 10);
        assert_eq!(s.iter().filter(|x| x.slowdown == Some(40.0)).count(), 3);
        assert_eq!(s, job.slots(1, 0));
        assert_ne!(s, job.slots(1, 1));
        assert_eq!(plan.runs(), 16);
    }

    #[test]
    fn stored_and_confirmed_share_runs_only_when_their_counts_agree() {
        let plan = Plan::new(
            vec![
                cell(Condition::Cpu, Method::Confirmed, 10),
                cell(Condition::Quiet, Method::Confirmed, 10),
                cell(Condition::Cpu, Method::StoredBaseline, 10),
                cell(Condition::Quiet, Method::StoredBaseline, 5),
                cell(Condition::Quiet, Method::Paired, 5),
            ],
            1,
        );
        let jobs: Vec<(Condition, String)> = plan
            .jobs()
            .iter()
            .map(|j| (j.condition, j.name()))
            .collect();
        assert_eq!(
            jobs,
            [
                (Condition::Quiet, "stored-baseline".to_string()),
                (Condition::Quiet, "confirmed".to_string()),
                (Condition::Quiet, "paired".to_string()),
                (Condition::Cpu, "stored-baseline+confirmed".to_string()),
            ]
        );
        // Shared runs are made once.
        assert_eq!(plan.runs(), 11 + 16 + 11 + 16);
        assert_eq!(plan.conditions(), [Condition::Quiet, Condition::Cpu]);
        assert_eq!(plan.methods(), Method::ALL[..3]);
    }

    #[test]
    fn the_default_gives_the_headline_cells_300_aa_runs() {
        let cells: Vec<Cell> = Method::ALL.iter().flat_map(|m| m.default_cells()).collect();
        let aa = |m, c| {
            cells
                .iter()
                .find(|x| x.method == m && x.condition == c)
                .map(|x| x.aa_runs)
        };
        for m in [Method::StoredBaseline, Method::Confirmed] {
            assert_eq!(aa(m, Condition::Quiet), Some(300));
            assert_eq!(aa(m, Condition::Cpu), Some(300));
        }
        assert_eq!(aa(Method::Paired, Condition::Quiet), Some(300));
        let plan = Plan::new(cells, 1);
        // Stored and confirmed runs are shared in both conditions.
        assert_eq!(plan.jobs().len(), 5);
        let quick: Vec<Cell> = Method::ALL.iter().flat_map(|m| m.quick_cells()).collect();
        assert!(
            Method::ALL
                .iter()
                .all(|m| quick.iter().any(|c| c.method == *m))
        );
    }

    #[test]
    fn counted_slowdowns_must_fit_their_batch() {
        let mut counted = cell(Condition::Quiet, Method::Instructions, 1);
        counted.slowdowns = vec![2.0];
        let plan = Plan::new(vec![cell(Condition::Quiet, Method::Paired, 1), counted], 1);
        assert_eq!(plan.check_batches(50), Ok(()));
        let e = plan.check_batches(20).unwrap_err();
        assert!(
            e.contains("--count-batch=20")
                && e.contains("instructions")
                && e.contains("--min-batch=250"),
            "{e}"
        );
        // Timed methods take any slowdown at any batch.
        let timed = Plan::new(vec![cell(Condition::Quiet, Method::Paired, 1)], 1);
        assert_eq!(timed.check_batches(1), Ok(()));
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
            parse_list(
                "paired,confirmed",
                &Method::ALL,
                Method::as_str,
                "--methods"
            )
            .unwrap(),
            [Method::Paired, Method::Confirmed]
        );
    }
}
