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
/// nothing regressed.
pub(super) fn explain(
    run: &Run,
    options: &MicroOptions,
    bench: Option<&Bench>,
    injection: &Injection,
    selected: &[&'static Probe],
    invocation: &[&str],
) -> Result<Option<Explanation>, Error> {
    let Some(comparison) = run.comparison.as_ref() else {
        return Ok(None);
    };
    let regressed: Vec<&'static Probe> = selected
        .iter()
        .copied()
        .filter(|p| {
            comparison
                .checks
                .iter()
                .any(|k| k.key == p.name && k.regressed())
        })
        .collect();
    if regressed.is_empty() {
        return Ok(None);
    }
    let uncounted = |why: String| Ok(Some(Explanation::Uncounted { why }));
    let Some(bench) = bench else {
        return uncounted(
            "--explain judges counts by a bench's committed count baselines: run it through \
             cargo bench"
                .to_string(),
        );
    };
    let baseline = match counts::usable(bench, None)? {
        Found::Baseline(b) => b,
        Found::NoneCommitted => {
            return uncounted(format!(
                "no count baseline is committed in {}",
                counts::dir(bench).display()
            ));
        }
        Found::NoMatch(why) => return uncounted(why),
    };
    let metric = baseline.run.metric;
    if let Err(e) = callgrind::valgrind_version(metric) {
        return uncounted(e.to_string().trim_start_matches("error: ").to_string());
    }
    let counted = super::count(
        options,
        Some(&baseline),
        injection,
        metric,
        &regressed,
        invocation,
    )?;
    let judged = baseline.judge(counted, &Rules::default())?;
    Ok(judged.comparison.map(|c| Explanation::Counts {
        comparison: Box::new(c),
    }))
}

/// Whether `--explain` can be asked of a run measuring `metric`: it
/// explains wall time by counts.
pub(super) fn suits(options: &MicroOptions, metric: Metric) -> Result<(), Error> {
    if options.explain && (metric != Metric::Time || options.count_check) {
        return Err(Error::usage(
            "--explain explains a timed run's regressions by counts; this run is counted already",
        ));
    }
    Ok(())
}
