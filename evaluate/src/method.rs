//! Making one trial with a method: start what the method starts, let
//! yardstick judge it, and keep each probe's verdict and change.
//!
//! The harness judges nothing itself. The stored baseline is judged by
//! yardstick's `compare` (the library function the command uses); every
//! other method by the comparison the started process printed: the bench
//! given `--baseline` (confirmed, instruction counts) or `yardstick
//! compare-builds` (paired).

use crate::Error;
use crate::bench::{Bench, CountSampling, Invocation, PairedSampling};
use crate::plan::Method;
use crate::verdict::{self, ProbeOutcome};
use serde::{Deserialize, Serialize};
use std::path::Path;
use yardstick::document::comparison::Comparison;
use yardstick::document::run::Run;
use yardstick::judge::{Rules, compare};

/// A saved baseline: the run and the file it was saved to.
#[derive(Clone, Copy)]
pub struct Saved<'a> {
    pub run: &'a Run,
    pub path: &'a Path,
}

/// What every trial of an evaluation shares.
pub struct Context<'a> {
    pub bench: &'a Bench,
    /// The timed baseline saved under quiet conditions at the start.
    pub baseline: Saved<'a>,
    /// Percent, for the stored-baseline and confirmed verdicts; none for
    /// each probe's own from the baseline (`--own-thresholds`).
    pub threshold: Option<f64>,
    /// The `yardstick` command, for the paired method.
    pub yardstick: Option<&'a Path>,
    pub paired: PairedSampling,
    pub counts: &'a CountSampling,
    /// The instruction counts saved at the start, for that method.
    pub count_baseline: Option<Saved<'a>>,
}

/// One trial: the verdict on every probe, and how the run went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    pub slowdown: Option<f64>,
    /// Wall time of the process, seconds (shared runs: of the whole run,
    /// confirmation included).
    pub seconds: f64,
    /// The calibration loop's drift during the run, percent.
    pub drift_pct: Option<f64>,
    /// The machine's 1-minute load average just before the trial.
    #[serde(default)]
    pub load_before: Option<f64>,
    /// The threshold the verdict was given with, percent.
    #[serde(default)]
    pub threshold: Option<f64>,
    /// How much slower the calibration loop ran than in the baseline,
    /// percent: past yardstick's limit, a flagged probe is inconclusive,
    /// and this lets a script re-judge the trial under another limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_slowdown_pct: Option<f64>,
    /// The limit on that slowdown the verdict was given with, percent (none
    /// for trials judged before there was one, and for other methods).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_slowdown_limit: Option<f64>,
    pub outcomes: Vec<ProbeOutcome>,
}

/// How the runs of a job are made and judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Procedure {
    Stored,
    /// `also_stored`: the same run gives the stored-baseline verdict too.
    Confirmed {
        also_stored: bool,
    },
    Paired,
    Instructions,
}

impl Procedure {
    /// The procedure that makes the trials of `methods` (one method, or
    /// the stored baseline and confirmed sharing runs).
    pub fn of(methods: &[Method]) -> Result<Procedure, Error> {
        match methods {
            [Method::StoredBaseline] => Ok(Procedure::Stored),
            [Method::Confirmed] => Ok(Procedure::Confirmed { also_stored: false }),
            [Method::StoredBaseline, Method::Confirmed] => {
                Ok(Procedure::Confirmed { also_stored: true })
            }
            [Method::Paired] => Ok(Procedure::Paired),
            [Method::Instructions] => Ok(Procedure::Instructions),
            other => Err(Error(format!("no procedure runs {other:?} together"))),
        }
    }

    /// The process one trial starts; `seed` orders a paired trial's rounds.
    pub fn invocation(
        self,
        ctx: &Context<'_>,
        slowdown: Option<f64>,
        seed: u64,
    ) -> Result<Invocation, Error> {
        Ok(match self {
            Procedure::Stored => ctx.bench.stored(slowdown),
            Procedure::Confirmed { .. } => {
                ctx.bench
                    .confirmed(ctx.baseline.path, ctx.threshold, slowdown)
            }
            Procedure::Paired => {
                let yardstick = ctx.yardstick.ok_or_else(|| {
                    Error(
                        "the paired method needs the `yardstick` command, and the build named none \
                         (give --yardstick-bin)"
                            .to_string(),
                    )
                })?;
                ctx.bench.paired(yardstick, ctx.paired, seed, slowdown)
            }
            Procedure::Instructions => {
                let saved = count_baseline(ctx)?;
                ctx.bench
                    .instructions(ctx.counts, Some(saved.path), slowdown)
            }
        })
    }

    /// Judges what one trial's process printed: one trial per method.
    pub fn judge(
        self,
        ctx: &Context<'_>,
        run: &Run,
        slowdown: Option<f64>,
        seconds: f64,
    ) -> Result<Vec<(Method, Trial)>, Error> {
        let printed = Printed {
            run,
            slowdown,
            seconds,
        };
        Ok(match self {
            Procedure::Stored => vec![(Method::StoredBaseline, printed.stored(ctx)?)],
            Procedure::Confirmed { also_stored } => printed.confirmed(ctx, also_stored)?,
            Procedure::Paired => vec![(Method::Paired, printed.paired(ctx)?)],
            Procedure::Instructions => vec![(Method::Instructions, printed.counted(ctx)?)],
        })
    }

    /// Makes one trial: starts the process and judges it.
    pub fn trial(
        self,
        ctx: &Context<'_>,
        slowdown: Option<f64>,
        seed: u64,
    ) -> Result<Vec<(Method, Trial)>, Error> {
        let load_before = crate::machine::load_average();
        let invocation = self.invocation(ctx, slowdown, seed)?;
        let made = ctx.bench.run(&invocation)?;
        let mut trials = self.judge(ctx, &made.run, slowdown, made.took.as_secs_f64())?;
        for (_, t) in &mut trials {
            t.load_before = load_before;
        }
        Ok(trials)
    }
}

fn count_baseline<'a>(ctx: &Context<'a>) -> Result<Saved<'a>, Error> {
    ctx.count_baseline.ok_or_else(|| {
        Error("the instructions method has no counts baseline to compare with".to_string())
    })
}

/// What one trial's process printed, with what the harness knows about
/// it: each method's verdict is read from it, never decided here.
struct Printed<'r> {
    run: &'r Run,
    slowdown: Option<f64>,
    seconds: f64,
}

impl Printed<'_> {
    /// The trial `comparison` gave: its threshold and machine-slowdown
    /// limit are kept beside the outcomes, so a trial can be re-scored.
    fn trial(&self, outcomes: Vec<ProbeOutcome>, comparison: &Comparison) -> Trial {
        Trial {
            slowdown: self.slowdown,
            seconds: self.seconds,
            drift_pct: self.run.calibration.as_ref().map(|c| c.drift_pct),
            load_before: None,
            threshold: Some(comparison.threshold),
            machine_slowdown_pct: comparison.calibration.as_ref().map(|k| k.slowdown_pct()),
            machine_slowdown_limit: comparison.calibration.as_ref().and_then(|k| k.max_slowdown),
            outcomes,
        }
    }

    /// The comparison the process made itself; a process given a baseline
    /// that printed none failed, and its trial must not count as a pass.
    fn own(&self, what: &str) -> Result<&Comparison, Error> {
        self.run.comparison.as_ref().ok_or_else(|| {
            Error(format!(
                "the {what} run printed no comparison, though it was given a baseline"
            ))
        })
    }

    fn stored(&self, ctx: &Context<'_>) -> Result<Trial, Error> {
        let c = stored(ctx, self.run)?;
        Ok(self.trial(verdict::outcomes(ctx.baseline.run, self.run, &c), &c))
    }

    /// The confirmed verdict, and first the stored-baseline one when the
    /// two methods share the run.
    fn confirmed(
        &self,
        ctx: &Context<'_>,
        also_stored: bool,
    ) -> Result<Vec<(Method, Trial)>, Error> {
        let mine = self.own("confirmed")?;
        let mut out = Vec::new();
        if also_stored {
            out.push((Method::StoredBaseline, self.stored(ctx)?));
        }
        let outcomes = verdict::outcomes(ctx.baseline.run, self.run, mine);
        out.push((Method::Confirmed, self.trial(outcomes, mine)));
        Ok(out)
    }

    fn paired(&self, ctx: &Context<'_>) -> Result<Trial, Error> {
        let mine = self.own("paired")?;
        let probes: Vec<String> = ctx
            .baseline
            .run
            .rows
            .iter()
            .map(|r| r.key.clone())
            .collect();
        Ok(self.trial(verdict::paired_outcomes(&probes, self.run), mine))
    }

    fn counted(&self, ctx: &Context<'_>) -> Result<Trial, Error> {
        let mine = self.own("instruction-count")?;
        let saved = count_baseline(ctx)?;
        Ok(self.trial(verdict::outcomes(saved.run, self.run, mine), mine))
    }
}

/// The stored-baseline verdict: the run's rows against the timed baseline
/// with yardstick's rules. A comparison the bench made itself is ignored:
/// its rows were measured before it confirmed anything.
fn stored(ctx: &Context<'_>, run: &Run) -> Result<Comparison, Error> {
    let rules = Rules {
        threshold: ctx.threshold,
        ..Rules::default()
    };
    let name = ctx.baseline.path.display().to_string();
    compare(ctx.baseline.run, &name, run, &rules)
        .map_err(|e| Error(format!("comparing a run with the baseline: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::Sampling;
    use crate::verdict::Verdict;
    use crate::verdict::tests::micro_run;

    fn bench() -> Bench {
        Bench {
            binary: "/b/micro".into(),
            dir: ".".into(),
            sampling: Sampling {
                repeat: 1,
                warmup: 0,
                min_batch: 20,
            },
        }
    }

    const PAIRED: PairedSampling = PairedSampling {
        rounds: 8,
        pairs: 8,
        repeat: 1,
        warmup: 0,
    };

    fn with<T>(baseline: &Run, threshold: f64, f: impl FnOnce(&Context<'_>) -> T) -> T {
        let bench = bench();
        let counts = CountSampling {
            batch: 50,
            probes: Vec::new(),
        };
        let ctx = Context {
            bench: &bench,
            baseline: Saved {
                run: baseline,
                path: Path::new("/r/baseline.json"),
            },
            threshold: Some(threshold),
            yardstick: None,
            paired: PAIRED,
            counts: &counts,
            count_baseline: None,
        };
        f(&ctx)
    }

    #[test]
    fn methods_map_to_procedures() {
        use Method::*;
        assert_eq!(Procedure::of(&[StoredBaseline]).unwrap(), Procedure::Stored);
        assert_eq!(
            Procedure::of(&[StoredBaseline, Confirmed]).unwrap(),
            Procedure::Confirmed { also_stored: true }
        );
        assert_eq!(Procedure::of(&[Paired]).unwrap(), Procedure::Paired);
        assert!(Procedure::of(&[Paired, Instructions]).is_err());
        assert!(Procedure::of(&[]).is_err());
    }

    #[test]
    fn the_stored_verdict_uses_the_threshold_given() {
        let baseline = micro_run(10.0, &[("a", 1.0)]);
        let run = micro_run(10.0, &[("a", 1.2)]);
        let at = |threshold| {
            with(&baseline, threshold, |ctx| {
                let t = Procedure::Stored.judge(ctx, &run, Some(20.0), 1.5).unwrap();
                assert_eq!(t[0].1.threshold, Some(threshold));
                assert_eq!(t[0].1.machine_slowdown_pct, Some(0.0));
                assert_eq!(
                    t[0].1.machine_slowdown_limit,
                    Some(yardstick::judge::DEFAULT_MAX_MACHINE_SLOWDOWN)
                );
                t[0].1.outcomes[0].verdict
            })
        };
        assert_eq!(at(15.0), Verdict::Regressed);
        assert_eq!(at(25.0), Verdict::Pass);
    }

    #[test]
    fn a_shared_run_gives_both_verdicts_from_their_own_judges() {
        let baseline = micro_run(10.0, &[("a", 1.0), ("b", 1.0)]);
        let mut run = micro_run(10.0, &[("a", 1.3), ("b", 1.3)]);
        // The bench flagged both, then did not confirm b.
        let mut own = compare(&baseline, "b.json", &run, &Rules::default()).unwrap();
        own.threshold = 15.0;
        for c in &mut own.checks {
            c.verdict = if c.key == "a" {
                yardstick::document::check::Verdict::Regressed
            } else {
                yardstick::document::check::Verdict::Inconclusive(
                    yardstick::document::check::Reason::Unconfirmed,
                )
            };
        }
        run.comparison = Some(own);
        with(&baseline, 15.0, |ctx| {
            let proc = Procedure::Confirmed { also_stored: true };
            let trials = proc.judge(ctx, &run, Some(25.0), 3.0).unwrap();
            let verdicts: Vec<(Method, Vec<Verdict>)> = trials
                .iter()
                .map(|(m, t)| (*m, t.outcomes.iter().map(|o| o.verdict).collect()))
                .collect();
            assert_eq!(
                verdicts,
                [
                    (
                        Method::StoredBaseline,
                        vec![Verdict::Regressed, Verdict::Regressed]
                    ),
                    (
                        Method::Confirmed,
                        vec![Verdict::Regressed, Verdict::Inconclusive]
                    ),
                ]
            );
            // A confirmed run that compared nothing is an error, not a pass.
            let mut bare = run.clone();
            bare.comparison = None;
            let e = proc.judge(ctx, &bare, None, 1.0).unwrap_err().to_string();
            assert!(e.contains("no comparison"), "{e}");
        });
    }

    #[test]
    fn methods_that_need_more_say_so() {
        let baseline = micro_run(10.0, &[("a", 1.0)]);
        with(&baseline, 15.0, |ctx| {
            let e = Procedure::Paired
                .invocation(ctx, None, 1)
                .unwrap_err()
                .to_string();
            assert!(e.contains("--yardstick-bin"), "{e}");
            let e = Procedure::Instructions
                .invocation(ctx, None, 1)
                .unwrap_err()
                .to_string();
            assert!(e.contains("counts baseline"), "{e}");
            let inv = Procedure::Confirmed { also_stored: false }
                .invocation(ctx, Some(40.0), 1)
                .unwrap();
            assert!(
                inv.args
                    .contains(&"--baseline=/r/baseline.json".to_string())
            );
            assert!(inv.args.contains(&"--threshold=15".to_string()));
            assert_eq!(inv.inject, Some(40.0));
        });
    }
}
