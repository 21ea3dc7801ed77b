//! Making one trial with a method: run what the method runs, let yardstick
//! judge it, and keep each probe's verdict and change.

use crate::Error;
use crate::bench::Bench;
use crate::plan::Method;
use crate::verdict::{self, ProbeOutcome};
use serde::{Deserialize, Serialize};
use yardstick::compare::{Rules, compare};
use yardstick::run::Run;

/// What every trial of an evaluation shares.
pub struct Context<'a> {
    pub bench: &'a Bench,
    /// The baseline saved under quiet conditions at the start.
    pub baseline: &'a Run,
    pub baseline_name: &'a str,
    /// Percent, handed to yardstick's comparison.
    pub threshold: f64,
}

/// One trial: the verdict on every probe, and how the run went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    pub slowdown: Option<f64>,
    /// Wall time of the bench process, seconds.
    pub seconds: f64,
    /// The calibration loop's drift during the run, percent.
    pub drift_pct: Option<f64>,
    /// The machine's 1-minute load average just before the trial.
    #[serde(default)]
    pub load_before: Option<f64>,
    pub outcomes: Vec<ProbeOutcome>,
}

impl Method {
    /// Makes one trial with `slowdown` percent injected into every probe.
    pub fn trial(self, ctx: &Context<'_>, slowdown: Option<f64>) -> Result<Trial, Error> {
        let load_before = crate::machine::load_average();
        let mut trial = match self {
            Method::StoredBaseline => {
                let (run, elapsed) = ctx.bench.run(slowdown)?;
                judge(ctx, &run, slowdown, elapsed.as_secs_f64())?
            }
        };
        trial.load_before = load_before;
        Ok(trial)
    }
}

/// Judges `run` against the context's baseline with yardstick's rules.
fn judge(
    ctx: &Context<'_>,
    run: &Run,
    slowdown: Option<f64>,
    seconds: f64,
) -> Result<Trial, Error> {
    let rules = Rules {
        threshold: Some(ctx.threshold),
        min_delta: None,
    };
    let comparison = compare(ctx.baseline, ctx.baseline_name, run, &rules)
        .map_err(|e| Error(format!("comparing a run with the baseline: {e}")))?;
    Ok(Trial {
        slowdown,
        seconds,
        drift_pct: run.calibration.as_ref().map(|c| c.drift_pct),
        load_before: None,
        outcomes: verdict::outcomes(ctx.baseline, run, &comparison),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::Sampling;
    use crate::verdict::Verdict;
    use crate::verdict::tests::micro_run;

    #[test]
    fn judging_uses_the_threshold_given() {
        let bench = Bench {
            binary: "/unused".into(),
            dir: ".".into(),
            sampling: Sampling {
                repeat: 1,
                warmup: 0,
                min_batch: 20,
            },
        };
        let baseline = micro_run(10.0, &[("a", 1.0)]);
        let run = micro_run(10.0, &[("a", 1.2)]);
        let at = |threshold| {
            let ctx = Context {
                bench: &bench,
                baseline: &baseline,
                baseline_name: "baseline.json",
                threshold,
            };
            judge(&ctx, &run, Some(20.0), 1.5).unwrap().outcomes[0].verdict
        };
        assert_eq!(at(15.0), Verdict::Regressed);
        assert_eq!(at(25.0), Verdict::Pass);
    }
}
