//! `evaluate rescore thresholds`: stored trials judged again at other
//! thresholds, by the plain rule (a probe regresses when its change
//! exceeds T), optionally with per-probe fences, against one pooled
//! baseline run alone, or with yardstick's machine-slowdown guard.
//!
//! Confirmation re-measures, so it cannot be re-scored this way: a
//! confirmed trial is re-scored by the change it found before confirming.
//! Without `--max-machine-slowdown` the plain rule applies, whatever limit
//! the trials were judged with.

use super::fences::Fences;
use super::stored::{self, StoredTrial, distinct};
use super::{number, rebase, rules, short, usage, value};
use crate::Error;
use crate::method::Trial;
use crate::verdict::ProbeOutcome;
use lexopt::{Arg, Parser};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;

pub const SUBCOMMAND: &str = "thresholds";

/// What `rescore thresholds` is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub method: String,
    /// Learn each probe's fence from the first K quiet A/A trials.
    pub fences: Option<usize>,
    /// Judge against the K-th pooled baseline run alone.
    pub baseline_run: Option<usize>,
    /// The machine-slowdown limit, percent.
    pub max_machine_slowdown: Option<f64>,
    pub estimate_slowdown: bool,
    pub results: PathBuf,
    pub thresholds: Vec<f64>,
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options, Error> {
        let mut o = Options {
            method: "stored-baseline".to_string(),
            fences: None,
            baseline_run: None,
            max_machine_slowdown: None,
            estimate_slowdown: false,
            results: PathBuf::new(),
            thresholds: Vec::new(),
        };
        let mut positional = Vec::new();
        let mut p = Parser::from_args(args);
        while let Some(arg) = p.next().map_err(|e| usage(SUBCOMMAND, e))? {
            match arg {
                Arg::Long("method") => o.method = value(SUBCOMMAND, &mut p, "--method")?,
                Arg::Long("fences") => o.fences = Some(whole(&mut p, "--fences")?),
                Arg::Long("baseline-run") => {
                    o.baseline_run = Some(whole(&mut p, "--baseline-run")?)
                }
                Arg::Long("max-machine-slowdown") => {
                    let text = value(SUBCOMMAND, &mut p, "--max-machine-slowdown")?;
                    o.max_machine_slowdown = Some(number(&text, "--max-machine-slowdown")?)
                }
                Arg::Long("estimate-slowdown") => o.estimate_slowdown = true,
                Arg::Value(v) => positional.push(PathBuf::from(v)),
                other => return Err(usage(SUBCOMMAND, other.unexpected())),
            }
        }
        let [results, thresholds @ ..] = positional.as_slice() else {
            return Err(usage(SUBCOMMAND, "give RESULTS.json and a THRESHOLD"));
        };
        if thresholds.is_empty() {
            return Err(usage(SUBCOMMAND, "give at least one THRESHOLD"));
        }
        o.results = results.clone();
        o.thresholds = thresholds
            .iter()
            .map(|t| number(&t.to_string_lossy(), "THRESHOLD"))
            .collect::<Result<_, _>>()?;
        if o.max_machine_slowdown.is_some() && o.baseline_run.is_some() {
            // The kept slowdown is the loop's against the pooled baseline's.
            return Err(Error(
                "--max-machine-slowdown and --baseline-run cannot be combined".to_string(),
            ));
        }
        Ok(o)
    }
}

/// Entry point: `args` follow `rescore thresholds`; returns what to print.
pub fn main(args: &[String]) -> Result<String, Error> {
    let o = Options::parse(args)?;
    let trials = stored::load(&o.results, &o.method)?;
    rescore(&o, trials)
}

/// The report of `o` over `trials` (those of `o.method`).
pub fn rescore(o: &Options, mut trials: Vec<StoredTrial>) -> Result<String, Error> {
    let mut out = String::new();
    if o.estimate_slowdown {
        rebase::estimate_slowdowns(&mut trials);
    }
    if let Some(limit) = o.max_machine_slowdown {
        if trials
            .iter()
            .any(|t| t.trial.machine_slowdown_pct.is_none())
        {
            return Err(Error(format!(
                "--max-machine-slowdown: {}: a {} trial has no machine_slowdown_pct",
                o.results.display(),
                o.method
            )));
        }
        let _ = writeln!(
            out,
            "trials whose loop ran more than {} % slower than the baseline's judge nothing",
            short(limit)
        );
    }
    if let Some(k) = o.baseline_run {
        let run = rebase::against_one_run(&mut trials, &o.results, k)?;
        let _ = writeln!(out, "judged against {} alone", run.display());
    }
    let conditions = distinct(&trials, |t| Some(t.condition.clone()));
    for c in &conditions {
        let _ = writeln!(out, "{}", median_changes(&trials, c));
    }
    let slowdowns = distinct(&trials, |t| t.trial.slowdown);
    let fences = match o.fences {
        Some(k) => {
            let fences = Fences::learn(&mut trials, k)?;
            let _ = writeln!(out, "{}", fences.describe(k));
            fences
        }
        None => Fences::default(),
    };
    let judge = Judge {
        fences: &fences,
        limit: o.max_machine_slowdown,
    };
    for threshold in &o.thresholds {
        let parts: Vec<String> = conditions
            .iter()
            .map(|c| (c.as_str(), vec![c.as_str()]))
            .chain([("all", conditions.iter().map(String::as_str).collect())])
            .map(|(name, chosen)| judge.part(name, &chosen, &trials, &slowdowns, *threshold))
            .collect();
        let _ = writeln!(
            out,
            "threshold {} %  {}",
            short(*threshold),
            parts.join(" | ")
        );
    }
    Ok(out)
}

/// A condition's median signed A/A change per probe: far from zero, it is
/// the baseline's own offset for that probe (every A/A run compares with
/// the same baseline).
fn median_changes(trials: &[StoredTrial], condition: &str) -> String {
    let mut changes: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let aa = trials
        .iter()
        .filter(|t| t.trial.slowdown.is_none() && t.condition == condition);
    for o in aa.flat_map(|t| &t.trial.outcomes) {
        if let Some(change) = o.judged_pct {
            changes.entry(&o.probe).or_default().push(change);
        }
    }
    let medians: Vec<String> = changes
        .iter()
        .filter_map(|(p, c)| yardstick::stats::median(c).map(|m| format!("{p} {m:+.1} %")))
        .collect();
    format!("{condition}: median A/A change: {}", medians.join(", "))
}

/// How one outcome is judged at a threshold: by the library's rules, with
/// a probe's fence where one was learned.
struct Judge<'a> {
    fences: &'a Fences,
    /// The machine-slowdown limit, percent, when the guard applies.
    limit: Option<f64>,
}

impl Judge<'_> {
    /// True when yardstick would judge nothing in `trial`.
    fn unjudged(&self, trial: &Trial) -> bool {
        match (self.limit, trial.machine_slowdown_pct) {
            (Some(limit), Some(slowdown)) => rules::too_slow(slowdown, limit),
            _ => false,
        }
    }

    /// True when `outcome` of `trial` is flagged at `threshold`.
    fn flagged(&self, trial: &Trial, outcome: &ProbeOutcome, threshold: f64) -> bool {
        if self.unjudged(trial) {
            return false;
        }
        let limit = self.fences.limit(&outcome.probe, threshold);
        outcome
            .judged_pct
            .is_some_and(|c| rules::over_threshold(c, limit))
    }

    fn any_flagged(&self, trial: &Trial, threshold: f64) -> bool {
        trial
            .outcomes
            .iter()
            .any(|o| self.flagged(trial, o, threshold))
    }

    /// One part of a threshold's line: the A/A runs flagged and the slowed
    /// probe runs caught under the conditions `chosen`, named `name`.
    fn part(
        &self,
        name: &str,
        chosen: &[&str],
        trials: &[StoredTrial],
        slowdowns: &[f64],
        threshold: f64,
    ) -> String {
        let aa: Vec<&Trial> = trials
            .iter()
            .filter(|t| t.trial.slowdown.is_none() && chosen.contains(&t.condition.as_str()))
            .map(|t| &t.trial)
            .collect();
        let alarms = aa.iter().filter(|t| self.any_flagged(t, threshold)).count();
        let unjudged = match self.limit {
            Some(_) => self.unjudged_note(&aa, threshold),
            None => String::new(),
        };
        let caught: Vec<String> = slowdowns
            .iter()
            .map(|x| {
                let flags: Vec<bool> = trials
                    .iter()
                    .filter(|t| {
                        t.trial.slowdown == Some(*x) && chosen.contains(&t.condition.as_str())
                    })
                    .flat_map(|t| {
                        let t = &t.trial;
                        t.outcomes
                            .iter()
                            .map(move |o| self.flagged(t, o, threshold))
                    })
                    .collect();
                let hit = flags.iter().filter(|f| **f).count();
                format!("{} %: {hit}/{}", short(*x), flags.len())
            })
            .collect();
        format!(
            "{name}: A/A {alarms}/{}{unjudged}, caught {}",
            aa.len(),
            caught.join(", ")
        )
    }

    /// How many A/A runs the guard left unjudged, and how many of them the
    /// plain rule would have flagged: what the guard takes away.
    fn unjudged_note(&self, aa: &[&Trial], threshold: f64) -> String {
        let slow: Vec<&&Trial> = aa.iter().filter(|t| self.unjudged(t)).collect();
        let plain = slow
            .iter()
            .filter(|t| {
                t.outcomes.iter().any(|o| {
                    o.judged_pct
                        .is_some_and(|c| rules::over_threshold(c, threshold))
                })
            })
            .count();
        format!(
            " ({} unjudged, {plain} of them past T by the plain rule)",
            slow.len()
        )
    }
}

/// A whole number given to `name`.
fn whole(p: &mut Parser, name: &str) -> Result<usize, Error> {
    let text = value(SUBCOMMAND, p, name)?;
    text.trim()
        .parse()
        .map_err(|_| Error(format!("{name}: `{text}` is not a whole number")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rescore::stored::parse;
    use crate::rescore::stored::tests::{document, outcome, trial};

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    fn options(a: &[&str]) -> Options {
        Options::parse(&args(a)).unwrap()
    }

    /// Two A/A trials and one slowed trial per condition; the CPU trials'
    /// loop ran 40 % slow.
    fn results() -> String {
        document(&[
            trial(
                "stored-baseline",
                "quiet",
                None,
                Some(1.0),
                &[
                    outcome("a", "pass", Some(2.0), None),
                    outcome("b", "pass", Some(-4.0), None),
                ],
            ),
            trial(
                "stored-baseline",
                "quiet",
                None,
                Some(1.0),
                &[
                    outcome("a", "regressed", Some(18.0), None),
                    outcome("b", "pass", Some(1.0), None),
                ],
            ),
            trial(
                "stored-baseline",
                "quiet",
                Some(25.0),
                Some(1.0),
                &[
                    outcome("a", "regressed", Some(27.0), None),
                    outcome("b", "pass", Some(12.0), None),
                ],
            ),
            trial(
                "stored-baseline",
                "cpu",
                None,
                Some(40.0),
                &[
                    outcome("a", "pass", Some(16.0), None),
                    outcome("b", "inconclusive", None, None),
                ],
            ),
            trial(
                "stored-baseline",
                "cpu",
                Some(25.0),
                Some(40.0),
                &[
                    outcome("a", "pass", Some(30.0), None),
                    outcome("b", "pass", Some(26.0), None),
                ],
            ),
            trial(
                "confirmed",
                "quiet",
                None,
                Some(1.0),
                &[outcome("a", "pass", Some(99.0), None)],
            ),
        ])
    }

    fn rescored(a: &[&str]) -> String {
        let o = options(a);
        rescore(&o, parse(&results(), &o.method).unwrap()).unwrap()
    }

    #[test]
    fn the_plain_rule_at_each_threshold() {
        assert_eq!(
            rescored(&["r.json", "15", "20"]),
            "cpu: median A/A change: a +16.0 %\n\
             quiet: median A/A change: a +10.0 %, b -1.5 %\n\
             threshold 15 %  cpu: A/A 1/1, caught 25 %: 2/2 | quiet: A/A 1/2, caught 25 %: 1/2 | all: A/A 2/3, caught 25 %: 3/4\n\
             threshold 20 %  cpu: A/A 0/1, caught 25 %: 2/2 | quiet: A/A 0/2, caught 25 %: 1/2 | all: A/A 0/3, caught 25 %: 3/4\n"
        );
        // Another method's trials.
        let text = rescored(&["--method=confirmed", "r.json", "50"]);
        assert!(
            text.ends_with("threshold 50 %  quiet: A/A 1/1, caught  | all: A/A 1/1, caught \n"),
            "{text}"
        );
    }

    #[test]
    fn the_guard_judges_nothing_in_a_slow_trial() {
        let text = rescored(&["--max-machine-slowdown=30", "r.json", "15"]);
        assert!(
            text.starts_with(
                "trials whose loop ran more than 30 % slower than the baseline's judge nothing\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("threshold 15 %  cpu: A/A 0/1 (1 unjudged, 1 of them past T by the plain rule), caught 25 %: 0/2 | quiet: A/A 1/2 (0 unjudged, 0 of them past T by the plain rule), caught 25 %: 1/2 | all: A/A 1/3 (1 unjudged, 1 of them past T by the plain rule), caught 25 %: 1/4\n"),
            "{text}"
        );
        // At exactly the limit the loop is judged, as yardstick judges it.
        let text = rescored(&["--max-machine-slowdown=40", "r.json", "15"]);
        assert!(text.contains("cpu: A/A 1/1 (0 unjudged"), "{text}");
    }

    #[test]
    fn a_slowdown_not_kept_is_estimated_or_refused() {
        let text = document(&[trial(
            "stored-baseline",
            "quiet",
            None,
            None,
            &[outcome("a", "pass", Some(10.0), None)],
        )]);
        let o = options(&["--max-machine-slowdown=30", "r.json", "15"]);
        let e = rescore(&o, parse(&text, "stored-baseline").unwrap())
            .unwrap_err()
            .0;
        assert_eq!(
            e,
            "--max-machine-slowdown: r.json: a stored-baseline trial has no machine_slowdown_pct"
        );
        // The raw change is twice the judged one: (1.2 / 1.1 - 1) = 9.1 %.
        let mut trials = parse(&text, "stored-baseline").unwrap();
        rebase::estimate_slowdowns(&mut trials);
        let estimated = trials[0].trial.machine_slowdown_pct.unwrap();
        assert!(
            (estimated - (1.2 / 1.1 - 1.0) * 100.0).abs() < 1e-9,
            "{estimated}"
        );
        let o = options(&[
            "--estimate-slowdown",
            "--max-machine-slowdown=9",
            "r.json",
            "5",
        ]);
        let text = rescore(&o, parse(&text, "stored-baseline").unwrap()).unwrap();
        assert!(
            text.contains("A/A 0/1 (1 unjudged, 1 of them past T"),
            "{text}"
        );
    }

    #[test]
    fn fences_are_learned_from_the_first_quiet_trials_and_leave_them_out() {
        let text = rescored(&["--fences=2", "r.json", "15"]);
        // a: changes 2 and 18, Q1 6, Q3 14: fence 14 + 3 x 8 = 38, held at
        // 15; b: -4 and 1, Q1 -2.75, Q3 -0.25: fence 7.25.
        assert!(
            text.contains("fences from the first 2 quiet A/A trials: a 38.0 %, b 7.2 %\n"),
            "{text}"
        );
        // The quiet A/A trials were the history; b's slowed 12 % and the CPU
        // trials' 26 % pass its fence.
        assert!(text.contains("threshold 15 %  cpu: A/A 1/1, caught 25 %: 2/2 | quiet: A/A 0/0, caught 25 %: 2/2 | all: A/A 1/1, caught 25 %: 4/4"), "{text}");
        let o = options(&["--fences=3", "r.json", "15"]);
        let e = rescore(&o, parse(&results(), &o.method).unwrap())
            .unwrap_err()
            .0;
        assert_eq!(e, "--fences: 3 is not from 2 to the 2 quiet A/A trials");
    }

    #[test]
    fn a_pooled_baseline_run_converts_every_change() {
        use crate::verdict::tests::micro_run;
        let dir = tempfile::tempdir().unwrap();
        let save = |name: &str, run| {
            yardstick::document::store::save(&dir.path().join(name), &run).unwrap()
        };
        save("baseline.json", micro_run(10.0, &[("a", 1.0), ("b", 2.0)]));
        // Run 1 was 10 % slower at a: against it, every change of a is
        // (1 + c) / 1.1 - 1.
        save(
            "baseline-runs/run-1.json",
            micro_run(10.0, &[("a", 1.1), ("b", 2.0)]),
        );
        let path = dir.path().join("results.json");
        std::fs::write(&path, results()).unwrap();
        let text = main(&args(&["--baseline-run=1", path.to_str().unwrap(), "15"])).unwrap();
        let shown = dir.path().join("baseline-runs/run-1.json");
        assert!(
            text.starts_with(&format!("judged against {} alone\n", shown.display())),
            "{text}"
        );
        // a's quiet A/A changes 2 and 18 become -7.3 and 7.3: median 0,
        // a rounding below it.
        assert!(
            text.contains("quiet: median A/A change: a -0.0 %, b -1.5 %\n"),
            "{text}"
        );
        assert!(text.contains("quiet: A/A 0/2, caught 25 %: 1/2"), "{text}");
        let e = main(&args(&["--baseline-run=2", path.to_str().unwrap(), "15"]))
            .unwrap_err()
            .0;
        assert!(
            e.starts_with("--baseline-run: ") && e.contains("run-2.json: cannot read"),
            "{e}"
        );
    }

    #[test]
    fn bad_arguments_name_themselves() {
        for (a, needle) in [
            (vec!["r.json"], "give at least one THRESHOLD"),
            (vec![], "give RESULTS.json"),
            (vec!["r.json", "x"], "THRESHOLD: `x` is not a number"),
            (vec!["--fences=two", "r.json", "15"], "--fences: `two`"),
            (
                vec!["--max-machine-slowdown=nan", "r.json", "15"],
                "--max-machine-slowdown",
            ),
            (
                vec![
                    "--baseline-run=1",
                    "--max-machine-slowdown=30",
                    "r.json",
                    "15",
                ],
                "cannot be combined",
            ),
            (vec!["--frobnicate", "r.json", "15"], "--frobnicate"),
        ] {
            let e = Options::parse(&args(&a)).unwrap_err().0;
            assert!(e.contains(needle), "{a:?}: {e}");
        }
    }
}
