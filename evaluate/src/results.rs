//! The results document (`results.json`): every trial as measured, and
//! the rates and spreads summarised from them per condition and method.

use crate::bench::{CountSampling, PairedSampling, Sampling};
use crate::machine::Machine;
use crate::method::Trial;
use crate::plan::{Condition, Method, Plan};
use crate::stats::{Rate, Spread};
use crate::verdict::ProbeOutcome;
use serde::{Deserialize, Serialize};

/// Everything one evaluation found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    /// The evaluate command as typed.
    pub command: String,
    pub started: String,
    /// Wall time of the whole evaluation, and what was expected at start.
    pub seconds: f64,
    pub estimate_seconds: f64,
    pub machine: Machine,
    pub setup: Setup,
    pub plan: Plan,
    /// The probes of the baseline, in its order.
    pub probes: Vec<String>,
    /// Each job's runs, expected and taken time.
    #[serde(default)]
    pub jobs: Vec<JobTime>,
    pub blocks: Vec<Block>,
    pub trials: Vec<Record>,
    /// The commit the workspace was at; `None` in results made before it
    /// was recorded, or outside a repository.
    #[serde(default)]
    pub commit: Option<String>,
    /// The evaluations `evaluate combine` made this one of; empty for one
    /// evaluation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
}

/// One evaluation of several combined (see `combine`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// Its results folder, as given.
    pub folder: String,
    pub command: String,
    pub started: String,
    pub commit: Option<String>,
    pub seed: u64,
    pub trials: usize,
    pub seconds: f64,
}

/// How the runs were made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    pub sampling: Sampling,
    /// The stored-baseline and confirmed threshold, percent.
    pub threshold: f64,
    /// Each probe was judged by its own threshold from the stored
    /// baseline instead (`--own-thresholds`).
    #[serde(default)]
    pub own_thresholds: bool,
    pub paired: PairedSampling,
    pub counts: CountSampling,
    /// One A/A trial of each method, as a reader would type it (power
    /// trials add the injection).
    pub commands: Vec<MethodCommand>,
    /// The stored baseline, saved beside the report.
    pub baseline: String,
    /// Seconds one baseline run took.
    pub baseline_seconds: f64,
    /// Quiet runs pooled into the baseline (each kept in `baseline-runs/`).
    #[serde(default = "one")]
    pub baseline_runs: usize,
    /// The instruction counts baseline, when that method ran.
    pub count_baseline: Option<String>,
    pub count_baseline_seconds: Option<f64>,
    /// Instruction-count trials run at once where no hog runs (counts do
    /// not depend on the load, so each runs on its own CPU).
    pub count_workers: usize,
    pub bench_cpu: usize,
    pub hog_cpu: usize,
    pub memory_mib: usize,
    pub burst_min: f64,
    pub burst_max: f64,
}

/// Results made before baselines were pooled had one baseline run.
fn one() -> usize {
    1
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MethodCommand {
    pub method: Method,
    pub command: String,
}

/// One job (runs shared by its methods) under one condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobTime {
    pub condition: Condition,
    /// `stored-baseline+confirmed` when shared.
    pub methods: String,
    pub runs: usize,
    pub estimate_seconds: f64,
    pub seconds: f64,
}

/// One trial with the condition and method it was made under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub condition: Condition,
    pub method: Method,
    #[serde(flatten)]
    pub trial: Trial,
}

/// The figures of one condition and method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub condition: Condition,
    pub method: Method,
    /// The threshold the verdicts were given with, percent.
    #[serde(default)]
    pub threshold: Option<f64>,
    pub aa: Aa,
    pub power: Vec<Power>,
    /// Mean wall time of one bench run, seconds.
    pub mean_run_seconds: Option<f64>,
    /// Mean and highest 1-minute load average before the trials: a
    /// "quiet" block measured on a busy machine is not quiet.
    pub mean_load: Option<f64>,
    pub max_load: Option<f64>,
}

/// A/A: identical code, so every flag is a false alarm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Aa {
    pub runs: usize,
    /// Runs in which any probe was flagged.
    pub suite: Rate,
    /// |change| of the median in ms, percent, over every probe and run.
    pub raw: Option<Spread>,
    /// |change| of the figure the verdict judged (normalised median,
    /// paired ratio or instruction count), percent.
    pub judged: Option<Spread>,
    pub probes: Vec<ProbeAa>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeAa {
    pub probe: String,
    pub alarms: Rate,
    pub raw: Option<Spread>,
    pub judged: Option<Spread>,
    /// |change| of the median in milliseconds.
    pub raw_ms: Option<Spread>,
}

/// Runs with a known slowdown injected into every probe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Power {
    pub slowdown: f64,
    pub runs: usize,
    /// Share of (probe, run) pairs flagged.
    pub pooled: Rate,
    /// The probe detected least often.
    pub weakest: Option<String>,
    pub probes: Vec<ProbePower>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbePower {
    pub probe: String,
    pub detected: Rate,
}

/// Summarises the trials of one condition and method.
pub fn summarise(
    condition: Condition,
    method: Method,
    trials: &[Trial],
    probes: &[String],
    slowdowns: &[f64],
) -> Block {
    let aa: Vec<&Trial> = trials.iter().filter(|t| t.slowdown.is_none()).collect();
    let seconds: Vec<f64> = trials.iter().map(|t| t.seconds).collect();
    let loads: Vec<f64> = trials.iter().filter_map(|t| t.load_before).collect();
    Block {
        condition,
        method,
        threshold: trials.iter().find_map(|t| t.threshold),
        aa: aa_summary(&aa, probes),
        power: slowdowns
            .iter()
            .map(|&pct| power_at(pct, trials, probes))
            .collect(),
        mean_run_seconds: mean(&seconds),
        mean_load: mean(&loads),
        max_load: loads.iter().copied().reduce(f64::max),
    }
}

/// The A/A figures: every flag there is a false alarm, and the spread of
/// the changes is the noise a threshold has to clear.
fn aa_summary(aa: &[&Trial], probes: &[String]) -> Aa {
    Aa {
        runs: aa.len(),
        suite: Rate::of(
            aa.iter()
                .map(|t| t.outcomes.iter().any(|o| o.verdict.flagged())),
        ),
        raw: Spread::of_abs(&changes(aa, None, |o| o.raw_pct)),
        judged: Spread::of_abs(&changes(aa, None, |o| o.judged_pct)),
        probes: probes
            .iter()
            .map(|p| ProbeAa {
                probe: p.clone(),
                alarms: Rate::of(aa.iter().map(|t| flagged(t, p))),
                raw: Spread::of_abs(&changes(aa, Some(p), |o| o.raw_pct)),
                judged: Spread::of_abs(&changes(aa, Some(p), |o| o.judged_pct)),
                raw_ms: Spread::of_abs(&changes(aa, Some(p), |o| o.raw_ms)),
            })
            .collect(),
    }
}

/// The power at one injected slowdown: each (probe, run) pair is one
/// chance to catch it.
fn power_at(pct: f64, trials: &[Trial], probes: &[String]) -> Power {
    let runs: Vec<&Trial> = trials.iter().filter(|t| t.slowdown == Some(pct)).collect();
    let per_probe: Vec<ProbePower> = probes
        .iter()
        .map(|p| ProbePower {
            probe: p.clone(),
            detected: Rate::of(runs.iter().map(|t| flagged(t, p))),
        })
        .collect();
    Power {
        slowdown: pct,
        runs: runs.len(),
        pooled: Rate::of(
            runs.iter()
                .flat_map(|t| probes.iter().map(move |p| flagged(t, p))),
        ),
        weakest: weakest(&per_probe),
        probes: per_probe,
    }
}

/// The probe detected least often: the one that limits the method's power.
/// Probes without runs have no rate and cannot be it.
fn weakest(per_probe: &[ProbePower]) -> Option<String> {
    per_probe
        .iter()
        .filter(|p| p.detected.rate.is_some())
        .min_by(|a, b| {
            a.detected
                .rate
                .partial_cmp(&b.detected.rate)
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map(|p| p.probe.clone())
}

/// One figure (`pick`) of every outcome of `trials`, of one probe or of all.
fn changes(
    trials: &[&Trial],
    probe: Option<&str>,
    pick: fn(&ProbeOutcome) -> Option<f64>,
) -> Vec<f64> {
    trials
        .iter()
        .flat_map(|t| &t.outcomes)
        .filter(|o| probe.is_none_or(|p| o.probe == p))
        .filter_map(pick)
        .collect()
}

fn flagged(trial: &Trial, probe: &str) -> bool {
    trial
        .outcomes
        .iter()
        .any(|o| o.probe == probe && o.verdict.flagged())
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::verdict::{ProbeOutcome, Verdict};

    pub fn trial(slowdown: Option<f64>, outcomes: &[(&str, Verdict, f64)]) -> Trial {
        Trial {
            slowdown,
            seconds: 2.0,
            drift_pct: Some(0.5),
            load_before: Some(if slowdown.is_some() { 3.0 } else { 1.0 }),
            threshold: Some(15.0),
            machine_slowdown_pct: Some(4.0),
            machine_slowdown_limit: Some(30.0),
            outcomes: outcomes
                .iter()
                .map(|(p, v, change)| ProbeOutcome {
                    probe: p.to_string(),
                    verdict: *v,
                    raw_pct: Some(change * 2.0),
                    raw_ms: Some(change / 100.0),
                    judged_pct: Some(*change),
                    p_value: None,
                })
                .collect(),
        }
    }

    #[test]
    fn rates_and_spreads_per_probe_and_suite() {
        use Verdict::*;
        let probes = vec!["a".to_string(), "b".to_string()];
        let trials = vec![
            trial(None, &[("a", Pass, 1.0), ("b", Pass, -3.0)]),
            trial(None, &[("a", Regressed, 20.0), ("b", Regressed, 16.0)]),
            trial(None, &[("a", Pass, -2.0), ("b", Inconclusive, 30.0)]),
            trial(None, &[("a", Pass, 4.0), ("b", Pass, 0.0)]),
            trial(Some(25.0), &[("a", Regressed, 24.0), ("b", Pass, 14.0)]),
            trial(
                Some(25.0),
                &[("a", Regressed, 26.0), ("b", Inconclusive, 25.0)],
            ),
        ];
        let b = summarise(
            Condition::Quiet,
            Method::StoredBaseline,
            &trials,
            &probes,
            &[25.0, 40.0],
        );
        assert_eq!(b.aa.runs, 4);
        // One run flagged both probes; an inconclusive verdict is no alarm.
        assert_eq!((b.aa.suite.events, b.aa.suite.trials), (1, 4));
        assert_eq!(b.aa.probes[1].alarms.events, 1);
        let judged = b.aa.judged.unwrap();
        assert_eq!((judged.n, judged.max), (8, 30.0));
        assert_eq!(b.aa.raw.unwrap().max, 60.0);
        assert_eq!(b.aa.probes[0].judged.unwrap().max, 20.0);
        assert!((b.aa.probes[0].raw_ms.unwrap().max - 0.2).abs() < 1e-12);
        // Power: an inconclusive verdict is a miss.
        let p = &b.power[0];
        assert_eq!((p.slowdown, p.runs), (25.0, 2));
        assert_eq!(
            (p.probes[0].detected.events, p.probes[1].detected.events),
            (2, 0)
        );
        assert_eq!((p.pooled.events, p.pooled.trials), (2, 4));
        assert_eq!(p.weakest.as_deref(), Some("b"));
        // A slowdown without runs has no rate rather than a rate of zero.
        assert_eq!(b.power[1].runs, 0);
        assert_eq!(b.power[1].pooled.rate, None);
        assert_eq!(b.power[1].weakest, None);
        assert_eq!(b.mean_run_seconds, Some(2.0));
        assert_eq!(b.threshold, Some(15.0));
        assert_eq!((b.mean_load, b.max_load), (Some(10.0 / 6.0), Some(3.0)));
    }
}
