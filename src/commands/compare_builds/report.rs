//! The saved run of a comparison: the new build's rows, the settings that
//! reproduce it, and the warnings that qualify its figures.

use super::options::PairedOptions;
use super::two_builds;
use crate::commands::interleave::entry::Entries;
use crate::commands::interleave::launch::Timed;
use crate::commands::interleave::rounds::Measured;
use crate::commands::interleave::schedule::Schedule;
use crate::commands::interleave::setup::Setup;
use crate::document::builder::{FigureKind, RunBuilder};
use crate::document::comparison::Comparison;
use crate::document::run::{Mode, Run};
use crate::document::settings::{PairedSettings, SamplingSettings, Settings};
use crate::error::Error;
use crate::judge::paired::Builds;
use std::collections::BTreeMap;

/// The run of a comparison: the new build's rows, the comparison with the
/// old one, and its settings.
pub(super) fn run(
    o: &PairedOptions,
    setup: Setup,
    schedule: &Schedule,
    measured: Measured,
    comparison: Comparison,
    threshold: f64,
) -> Result<Run, Error> {
    let Measured { timed, entries, .. } = measured;
    let entries = Builds::from_two(entries).ok_or_else(two_builds)?;
    let settings = paired_settings(o, &setup, schedule, &timed, threshold);
    let mut warnings = inconclusive(&comparison);
    warnings.extend(different_results(&entries));
    warnings.extend(setup.clock.warning());
    let rows = entries
        .new
        .into_iter()
        .map(|(name, entry)| {
            let batch = timed.iter().find(|t| t.name == name).map(|t| t.batch);
            entry.into_row(name, batch)
        })
        .collect();
    let mut run = RunBuilder::new(Mode::Micro, setup.started, Settings::Paired(settings))
        .warnings(warnings)
        .rows(rows)
        .build(setup.environment, FigureKind::Times);
    run.comparison = Some(comparison);
    Ok(run)
}

/// The settings of a comparison made with `o`.
fn paired_settings(
    o: &PairedOptions,
    setup: &Setup,
    schedule: &Schedule,
    timed: &[Timed],
    threshold: f64,
) -> PairedSettings {
    let env = |env: &[(String, String)]| env.iter().map(|(k, v)| format!("{k}={v}")).collect();
    PairedSettings {
        old: o.old.display().to_string(),
        new: o.new.display().to_string(),
        rounds: o.sampling.rounds,
        pairs: schedule.sets(),
        sampling: SamplingSettings {
            repeat: o.sampling.repeat,
            round_ms: o.sampling.round_ms,
            fake_clock: setup.clock.describe(),
            samples_per_round: timed
                .iter()
                .map(|t| (t.name.clone(), t.per_round))
                .collect(),
            warmup: o.sampling.warmup,
            min_batch: o.sampling.min_batch,
            probes: o.sampling.probes.clone(),
            seed: setup.seed,
            cpu: setup.cpu,
        },
        threshold,
        env_old: env(&o.env_old),
        env_new: env(&o.env_new),
        other: BTreeMap::new(),
    }
}

/// A warning for each probe whose result has another fingerprint on the
/// new build than on the old: its times compare work that is not the same
/// (a change of input, or of what the probe computes), so a speed-up may
/// be the work shrinking.
fn different_results(entries: &Builds<Entries>) -> Vec<String> {
    entries
        .new
        .iter()
        .filter_map(|(name, new)| {
            let old = entries.old.get(name)?.checksum?;
            let new = new.checksum?;
            (old != new).then(|| {
                format!(
                    "different results: {name} gives another result on the new build \
                     (checksum {old:016x} → {new:016x}), so its times compare different work"
                )
            })
        })
        .collect()
}

/// A warning for each probe above the threshold that the worker pairs do
/// not agree on.
fn inconclusive(comparison: &Comparison) -> Vec<String> {
    comparison
        .checks
        .iter()
        .filter(|c| c.inconclusive())
        .map(|c| {
            format!(
                "inconclusive: {} looks {:+.1} % slower, but the worker pairs disagree (p = {:.3})",
                c.key,
                c.change_pct,
                c.p_value.unwrap_or(1.0)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::interleave::entry::entries;
    use crate::worker::protocol::{Greeting, Offer};

    fn greeting(checksums: &[(&str, &str)]) -> Greeting {
        let offer = |name: &str| Offer {
            name: name.into(),
            ops: 1,
            note: String::new(),
            batch: Some(1),
            error: None,
        };
        Greeting {
            probes: ["a", "b", "c"].into_iter().map(offer).collect(),
            checksums: checksums
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn only_a_result_that_changed_between_the_builds_is_warned_of() {
        // a: same result; b: another result; c: only the new build says.
        let old = greeting(&[("a", "0000000000000001"), ("b", "0000000000000002")]);
        let new = greeting(&[
            ("a", "0000000000000001"),
            ("b", "0000000000000003"),
            ("c", "0000000000000004"),
        ]);
        let warnings = different_results(&Builds {
            old: entries(&old),
            new: entries(&new),
        });
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("b gives another result"),
            "{warnings:?}"
        );
        assert!(warnings[0].contains("0000000000000002 → 0000000000000003"));
    }
}
