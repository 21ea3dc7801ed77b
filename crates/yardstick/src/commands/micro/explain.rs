//! `--explain`: a timed run's regressions explained by counts. The probes
//! that regressed are counted under callgrind, in this build, and judged
//! by the committed count baseline of this set-up, which names the
//! functions whose counts moved (`judge::attribution`). A count that did
//! not move is said too: the slowdown is then not in the work done.
//!
//! It is asked for, not a default: counting takes a few seconds a probe
//! under valgrind, where a timed run that passes takes none of it, and
//! the committed count baseline describes the code it was made from,
//! which is this build's only when the two were refreshed together.

use super::options::MicroOptions;
use crate::baseline::counts::{self, Found};
use crate::baseline::history::Bench;
use crate::document::explanation::Explanation;
use crate::document::run::{Metric, Run};
use crate::error::Error;
use crate::judge::Rules;
use crate::measure::callgrind;
use crate::measure::inject::Injection;
use crate::probe::Probe;

/// What `--explain` finds for `run`, a judged timed run: `None` when
/// nothing regressed. Never an error: what keeps it from counting is said
/// in the explanation, and the timed verdict stands.
pub(super) fn explain(
    run: &Run,
    options: &MicroOptions,
    bench: Option<&Bench>,
    injection: &Injection,
    selected: &[&'static Probe],
    invocation: &[&str],
) -> Option<Explanation> {
    let regressed = regressed(run, selected);
    if regressed.is_empty() {
        return None;
    }
    let counted = counted(&regressed, options, bench, injection, invocation);
    Some(counted.unwrap_or_else(|e| uncounted(e.to_string().trim_start_matches("error: "))))
}

/// The probes of `selected` whose timed check regressed.
fn regressed(run: &Run, selected: &[&'static Probe]) -> Vec<&'static Probe> {
    let Some(comparison) = run.comparison.as_ref() else {
        return Vec::new();
    };
    selected
        .iter()
        .copied()
        .filter(|p| {
            comparison
                .checks
                .iter()
                .any(|k| k.key == p.name && k.regressed())
        })
        .collect()
}

fn uncounted(why: &str) -> Explanation {
    Explanation::Uncounted {
        why: why.to_string(),
    }
}

/// `probes` counted and judged by the count baseline of this set-up, or
/// why they were not.
fn counted(
    probes: &[&'static Probe],
    options: &MicroOptions,
    bench: Option<&Bench>,
    injection: &Injection,
    invocation: &[&str],
) -> Result<Explanation, Error> {
    let Some(bench) = bench else {
        return Ok(uncounted(
            "--explain judges counts by a bench's committed count baselines: run it through \
             cargo bench",
        ));
    };
    let baseline = match counts::usable(bench, None)? {
        Found::Baseline(b) => b,
        Found::NoneCommitted => {
            return Ok(uncounted(&format!(
                "no count baseline is committed in {}",
                counts::dir(bench).display()
            )));
        }
        Found::NoMatch(why) => return Ok(uncounted(&why)),
    };
    let metric = baseline.run.metric;
    callgrind::valgrind_version(metric)?;
    // The baseline's batch, whatever the timed run's --min-batch: a count
    // of another batch is of another set-up, and would not be judged.
    let batch = counts::batch(&baseline);
    let counted = super::count(options, batch, injection, metric, probes, invocation)?;
    let judged = baseline.judge(counted, &Rules::default())?;
    Ok(match judged.comparison {
        Some(c) => Explanation::Counts {
            comparison: Box::new(c),
        },
        None => uncounted("the counts could not be judged"),
    })
}

/// Refuses `--explain` where there is nothing to explain by counts: a run
/// that is counted already, and judged by counts, says where itself.
pub(super) fn suits(options: &MicroOptions, metric: Metric) -> Result<(), Error> {
    if options.explain && (metric != Metric::Time || options.count_check) {
        return Err(Error::usage(
            "--explain explains a timed run's regressions by counts; this run is counted already",
        ));
    }
    Ok(())
}
