//! `evaluate rescore paired`: paired trials judged again at other
//! thresholds and significance levels.
//!
//! compare-builds flags a probe when the median paired ratio exceeds the
//! threshold T *and* the exact signed-rank test over the worker pairs gives
//! p < ALPHA. Each paired outcome keeps the judged change and (in results
//! made since the harness kept it) the p-value, so the rule can be applied
//! again at any T and ALPHA. An outcome without a p-value is still scored
//! exactly when its change is at most T (no level can flag it); above T it
//! is unknown.

use super::stored::{self, StoredTrial, distinct};
use super::{number, rules, short, usage, value};
use crate::Error;
use crate::method::Trial;
use crate::verdict::{ProbeOutcome, Verdict};
use lexopt::{Arg, Parser};
use std::fmt::Write;
use std::path::PathBuf;

pub const SUBCOMMAND: &str = "paired";

/// What `rescore paired` is asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub results: PathBuf,
    /// Percent, each.
    pub thresholds: Vec<f64>,
    pub alphas: Vec<f64>,
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options, Error> {
        let mut results = None;
        let mut thresholds = vec![yardstick::judge::paired::DEFAULT_THRESHOLD];
        let mut alphas = vec![yardstick::judge::paired::ALPHA];
        let mut p = Parser::from_args(args);
        while let Some(arg) = p.next().map_err(|e| usage(SUBCOMMAND, e))? {
            match arg {
                Arg::Long("threshold") => {
                    thresholds = list(&value(SUBCOMMAND, &mut p, "--threshold")?, "--threshold")?
                }
                Arg::Long("alpha") => {
                    alphas = list(&value(SUBCOMMAND, &mut p, "--alpha")?, "--alpha")?
                }
                Arg::Value(v) if results.is_none() => results = Some(PathBuf::from(v)),
                Arg::Value(v) => {
                    let also = format!("one results file only, not also {}", v.to_string_lossy());
                    return Err(usage(SUBCOMMAND, also));
                }
                other => return Err(usage(SUBCOMMAND, other.unexpected())),
            }
        }
        let results = results.ok_or_else(|| usage(SUBCOMMAND, "give RESULTS.json"))?;
        Ok(Options {
            results,
            thresholds,
            alphas,
        })
    }
}

/// Entry point: `args` follow `rescore paired`; returns what to print.
pub fn main(args: &[String]) -> Result<String, Error> {
    let o = Options::parse(args)?;
    let trials = stored::load(&o.results, "paired")?;
    rescore(&o, &trials).map_err(|e| Error(format!("{}: {e}", o.results.display())))
}

/// The report of `o` over the paired `trials`; an error says what is wrong
/// with them, without the file.
pub fn rescore(o: &Options, trials: &[StoredTrial]) -> Result<String, String> {
    if trials.is_empty() {
        return Err("no paired trials".to_string());
    }
    if trials.iter().any(|t| t.trial.threshold.is_none()) {
        return Err("a paired trial has no threshold".to_string());
    }
    let mut out = String::new();
    for condition in distinct(trials, |t| Some(t.condition.clone())) {
        let mine: Vec<&Trial> = trials
            .iter()
            .filter(|t| t.condition == condition)
            .map(|t| &t.trial)
            .collect();
        let aa: Vec<&Trial> = mine
            .iter()
            .copied()
            .filter(|t| t.slowdown.is_none())
            .collect();
        let mut slowdowns: Vec<f64> = mine.iter().filter_map(|t| t.slowdown).collect();
        slowdowns.sort_by(f64::total_cmp);
        slowdowns.dedup();
        let named: Vec<String> = slowdowns
            .iter()
            .map(|s| format!("{} %", short(*s)))
            .collect();
        let named = if named.is_empty() {
            "none".to_string()
        } else {
            named.join(", ")
        };
        let _ = writeln!(out, "{condition}: {} A/A runs; slowdowns {named}", aa.len());
        for threshold in &o.thresholds {
            for alpha in &o.alphas {
                let rule = Rule {
                    threshold: *threshold,
                    alpha: *alpha,
                };
                let _ = writeln!(out, "{}", rule.line(&aa, &mine, &slowdowns));
            }
        }
    }
    Ok(out)
}

/// What a re-scored outcome is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    Flagged,
    Clear,
    /// Above the threshold, but the trial kept no p-value to test.
    Unknown,
}

/// The paired rule at one threshold (percent) and significance level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    pub threshold: f64,
    pub alpha: f64,
}

impl Rule {
    /// `outcome` of a trial judged at the threshold `recorded`.
    pub fn score(&self, outcome: &ProbeOutcome, recorded: f64) -> Score {
        let change = outcome.judged_pct;
        // A probe that failed more often on the new build regresses
        // whatever its change: flagged although within the threshold.
        if outcome.verdict == Verdict::Regressed
            && change.is_none_or(|c| !rules::over_threshold(c, recorded))
        {
            return Score::Flagged;
        }
        // No paired figure: the verdict was inconclusive, never an alarm.
        let Some(change) = change else {
            return Score::Clear;
        };
        if !rules::over_threshold(change, self.threshold) {
            return Score::Clear;
        }
        match outcome.p_value {
            None => Score::Unknown,
            Some(p) if rules::significant(p, self.alpha) => Score::Flagged,
            Some(_) => Score::Clear,
        }
    }

    /// Every outcome of `trial`.
    fn scores(&self, trial: &Trial) -> Vec<Score> {
        let recorded = trial.threshold.unwrap_or(f64::NAN);
        trial
            .outcomes
            .iter()
            .map(|o| self.score(o, recorded))
            .collect()
    }

    /// The line of one threshold and level: A/A runs flagged (and with any
    /// unknown outcome), then each slowdown's probe runs caught.
    fn line(&self, aa: &[&Trial], mine: &[&Trial], slowdowns: &[f64]) -> String {
        let (mut flagged, mut unknown) = (0, 0);
        for t in aa {
            let scores = self.scores(t);
            if scores.contains(&Score::Flagged) {
                flagged += 1;
            } else if scores.contains(&Score::Unknown) {
                unknown += 1;
            }
        }
        let mut line = format!(
            "  T {} %, alpha {}: A/A flagged {flagged}/{}",
            short(self.threshold),
            short(self.alpha),
            aa.len()
        );
        if unknown > 0 {
            let _ = write!(line, " (+{unknown} unknown)");
        }
        for s in slowdowns {
            let scores: Vec<Score> = mine
                .iter()
                .filter(|t| t.slowdown == Some(*s))
                .flat_map(|t| self.scores(t))
                .collect();
            let hit = scores.iter().filter(|x| **x == Score::Flagged).count();
            let unknown = scores.iter().filter(|x| **x == Score::Unknown).count();
            let share = match scores.len() {
                0 => "-".to_string(),
                n => format!("{:.0} %", (100 * hit) as f64 / n as f64),
            };
            let _ = write!(
                line,
                "; at {} %: {hit}/{} ({share})",
                short(*s),
                scores.len()
            );
            if unknown > 0 {
                let _ = write!(line, " +{unknown} unknown");
            }
        }
        line
    }
}

/// A comma-separated list of numbers, none of them empty.
fn list(text: &str, option: &str) -> Result<Vec<f64>, Error> {
    let values = text
        .split(',')
        .filter(|v| !v.is_empty())
        .map(|v| number(v, option))
        .collect::<Result<Vec<f64>, Error>>()?;
    if values.is_empty() {
        return Err(Error(format!("{option}: empty")));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rescore::stored::parse;
    use crate::rescore::stored::tests::{document, outcome, trial};

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    fn paired_outcome(verdict: Verdict, judged: Option<f64>, p: Option<f64>) -> ProbeOutcome {
        ProbeOutcome {
            probe: "a".into(),
            verdict,
            raw_pct: None,
            raw_ms: None,
            judged_pct: judged,
            p_value: p,
        }
    }

    #[test]
    fn each_outcome_is_scored_by_the_paired_rule() {
        use Score::*;
        use Verdict::*;
        let rule = Rule {
            threshold: 2.0,
            alpha: 0.05,
        };
        for (o, score) in [
            (paired_outcome(Pass, Some(2.0), Some(0.001)), Clear),
            (paired_outcome(Pass, Some(2.5), Some(0.01)), Flagged),
            (paired_outcome(Inconclusive, Some(2.5), Some(0.05)), Clear),
            (paired_outcome(Pass, Some(2.5), None), Unknown),
            (paired_outcome(Pass, Some(1.0), None), Clear),
            (paired_outcome(Inconclusive, None, None), Clear),
            // More failures on the new build: flagged whatever the change.
            (paired_outcome(Regressed, Some(0.5), Some(0.9)), Flagged),
            (paired_outcome(Regressed, None, None), Flagged),
            // Regressed above the recorded threshold: the rule decides.
            (paired_outcome(Regressed, Some(4.0), Some(0.2)), Clear),
        ] {
            assert_eq!(rule.score(&o, 3.0), score, "{o:?}");
        }
    }

    fn results() -> String {
        document(&[
            trial(
                "paired",
                "quiet",
                None,
                None,
                &[
                    outcome("a", "pass", Some(2.5), Some(0.02)),
                    outcome("b", "pass", Some(0.1), Some(0.4)),
                ],
            ),
            trial(
                "paired",
                "quiet",
                None,
                None,
                &[
                    outcome("a", "pass", Some(2.5), None),
                    outcome("b", "pass", Some(-1.0), None),
                ],
            ),
            trial(
                "paired",
                "quiet",
                Some(5.0),
                None,
                &[
                    outcome("a", "regressed", Some(5.0), Some(0.001)),
                    outcome("b", "inconclusive", Some(4.0), Some(0.03)),
                ],
            ),
            trial(
                "paired",
                "quiet",
                Some(5.0),
                None,
                &[
                    outcome("a", "pass", Some(4.0), None),
                    outcome("b", "pass", Some(1.0), Some(0.5)),
                ],
            ),
            trial(
                "paired",
                "cpu",
                None,
                None,
                &[outcome("a", "pass", Some(1.0), Some(0.5))],
            ),
            trial(
                "stored-baseline",
                "quiet",
                None,
                None,
                &[outcome("a", "regressed", Some(40.0), None)],
            ),
        ])
    }

    #[test]
    fn every_threshold_and_level_per_condition() {
        let o = Options::parse(&args(&[
            "r.json",
            "--threshold=3,2",
            "--alpha",
            "0.01,0.05",
        ]))
        .unwrap();
        let text = rescore(&o, &parse(&results(), "paired").unwrap()).unwrap();
        assert_eq!(
            text,
            "cpu: 1 A/A runs; slowdowns none\n\
             \x20 T 3 %, alpha 0.01: A/A flagged 0/1\n\
             \x20 T 3 %, alpha 0.05: A/A flagged 0/1\n\
             \x20 T 2 %, alpha 0.01: A/A flagged 0/1\n\
             \x20 T 2 %, alpha 0.05: A/A flagged 0/1\n\
             quiet: 2 A/A runs; slowdowns 5 %\n\
             \x20 T 3 %, alpha 0.01: A/A flagged 0/2; at 5 %: 1/4 (25 %) +1 unknown\n\
             \x20 T 3 %, alpha 0.05: A/A flagged 0/2; at 5 %: 2/4 (50 %) +1 unknown\n\
             \x20 T 2 %, alpha 0.01: A/A flagged 0/2 (+1 unknown); at 5 %: 1/4 (25 %) +1 unknown\n\
             \x20 T 2 %, alpha 0.05: A/A flagged 1/2 (+1 unknown); at 5 %: 2/4 (50 %) +1 unknown\n"
        );
        // yardstick's own threshold and level by default.
        let o = Options::parse(&args(&["r.json"])).unwrap();
        assert_eq!((o.thresholds, o.alphas), (vec![3.0], vec![0.01]));
    }

    #[test]
    fn what_cannot_be_rescored_is_refused_by_name() {
        let o = Options::parse(&args(&["r.json"])).unwrap();
        let stored = parse(&results(), "stored-baseline").unwrap();
        assert_eq!(rescore(&o, &[]).unwrap_err(), "no paired trials");
        let mut unjudged = stored.clone();
        unjudged[0].trial.threshold = None;
        assert_eq!(
            rescore(&o, &unjudged).unwrap_err(),
            "a paired trial has no threshold"
        );
        for (a, needle) in [
            (vec![], "give RESULTS.json"),
            (
                vec!["a.json", "b.json"],
                "one results file only, not also b.json",
            ),
            (
                vec!["a.json", "--threshold=3,x"],
                "--threshold: `x` is not a number",
            ),
            (vec!["a.json", "--alpha=,"], "--alpha: empty"),
            (vec!["a.json", "--seed=1"], "--seed"),
        ] {
            let e = Options::parse(&args(&a)).unwrap_err().0;
            assert!(e.contains(needle), "{a:?}: {e}");
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.json");
        std::fs::write(&path, document(&[])).unwrap();
        let e = main(&args(&[path.to_str().unwrap()])).unwrap_err().0;
        assert!(e.ends_with("results.json: no paired trials"), "{e}");
    }
}
