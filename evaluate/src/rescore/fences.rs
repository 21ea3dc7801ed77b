//! Per-probe thresholds learned from the evaluation's own quiet A/A
//! trials (`--fences=K`): each probe's Tukey fence, Q3 + 3 x IQR of its
//! judged changes, 2 % at least and the threshold at most. The learned
//! baseline tried at commit 1bc9655 fenced each probe so, from
//! back-to-back runs; learned here from the first K quiet A/A trials
//! instead, the fences show whether any history of A/A changes bounds the
//! next ones (docs/design.md: they do not, the changes are heavy-tailed).

use super::stored::StoredTrial;
use crate::Error;
use std::collections::BTreeMap;

/// The lowest fence: below it, a probe's own noise would flag it.
const FLOOR_PCT: f64 = 2.0;

/// Each probe's fence, percent (probes with fewer than two changes have
/// none, and are judged at the threshold).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fences {
    by_probe: BTreeMap<String, f64>,
}

impl Fences {
    /// Learns the fences from the first `k` quiet A/A trials and removes
    /// those trials: only the A/A trials after them can be false alarms.
    pub fn learn(trials: &mut Vec<StoredTrial>, k: usize) -> Result<Fences, Error> {
        let quiet: Vec<usize> = trials
            .iter()
            .enumerate()
            .filter(|(_, t)| t.trial.slowdown.is_none() && t.condition == "quiet")
            .map(|(i, _)| i)
            .collect();
        if k < 2 || quiet.len() < k {
            return Err(Error(format!(
                "--fences: {k} is not from 2 to the {} quiet A/A trials",
                quiet.len()
            )));
        }
        let history: Vec<&StoredTrial> = quiet[..k].iter().map(|i| &trials[*i]).collect();
        let mut changes: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        for o in history.iter().flat_map(|t| &t.trial.outcomes) {
            let probe = changes.entry(o.probe.clone()).or_default();
            probe.extend(o.judged_pct);
        }
        let by_probe = changes
            .into_iter()
            .filter(|(_, c)| c.len() >= 2)
            .filter_map(|(probe, c)| Some((probe, tukey_fence(&c)?)))
            .collect();
        let mut index = 0;
        trials.retain(|_| {
            index += 1;
            !quiet[..k].contains(&(index - 1))
        });
        Ok(Fences { by_probe })
    }

    /// The threshold `probe` is judged at: its fence, held between the
    /// floor and `threshold`.
    pub fn limit(&self, probe: &str, threshold: f64) -> f64 {
        match self.by_probe.get(probe) {
            Some(fence) => fence.max(FLOOR_PCT).min(threshold),
            None => threshold,
        }
    }

    /// The line that states the fences learned from `k` trials.
    pub fn describe(&self, k: usize) -> String {
        let fences: Vec<String> = self
            .by_probe
            .iter()
            .map(|(p, f)| format!("{p} {f:.1} %"))
            .collect();
        format!(
            "fences from the first {k} quiet A/A trials: {}",
            fences.join(", ")
        )
    }
}

/// Q3 + 3 x IQR, with yardstick's (type-7) quartiles.
fn tukey_fence(changes: &[f64]) -> Option<f64> {
    let q1 = yardstick::stats::percentile(changes, 25.0)?;
    let q3 = yardstick::stats::percentile(changes, 75.0)?;
    Some(q3 + 3.0 * (q3 - q1))
}
