//! The trials of a `results.json`, read loosely: by method and condition
//! names rather than the harness's own lists, so that trials of a method
//! it no longer has (the learned baseline; docs/evaluation.md, "Tried and
//! not kept") can still be re-scored.

use crate::Error;
use crate::method::Trial;
use serde::Deserialize;
use std::path::Path;

/// One trial as the results keep it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct StoredTrial {
    pub method: String,
    pub condition: String,
    #[serde(flatten)]
    pub trial: Trial,
}

#[derive(Deserialize)]
struct Document {
    trials: Vec<StoredTrial>,
}

/// The trials of `method` in the results file `path`, in its order.
pub fn load(path: &Path, method: &str) -> Result<Vec<StoredTrial>, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error(format!("{}: cannot read: {e}", path.display())))?;
    parse(&text, method).map_err(|e| Error(format!("{}: {e}", path.display())))
}

/// The trials of `method` in a results document.
pub fn parse(text: &str, method: &str) -> Result<Vec<StoredTrial>, String> {
    let document: Document =
        serde_json::from_str(text).map_err(|e| format!("not an evaluation's results: {e}"))?;
    Ok(document
        .trials
        .into_iter()
        .filter(|t| t.method == method)
        .collect())
}

/// Each distinct value of `key` over `trials`, sorted.
pub fn distinct<T: PartialOrd + Clone>(
    trials: &[StoredTrial],
    key: impl Fn(&StoredTrial) -> Option<T>,
) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for value in trials.iter().filter_map(key) {
        if !out.contains(&value) {
            out.push(value);
        }
    }
    out.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A results document of `trials`.
    pub fn document(trials: &[serde_json::Value]) -> String {
        serde_json::json!({ "command": "evaluate", "trials": trials }).to_string()
    }

    /// A trial as the harness writes it; `machine` is the machine slowdown
    /// it kept, if any.
    pub fn trial(
        method: &str,
        condition: &str,
        slowdown: Option<f64>,
        machine: Option<f64>,
        outcomes: &[serde_json::Value],
    ) -> serde_json::Value {
        serde_json::json!({
            "condition": condition,
            "method": method,
            "slowdown": slowdown,
            "seconds": 1.0,
            "drift_pct": null,
            "threshold": if method == "paired" { 3.0 } else { 15.0 },
            "machine_slowdown_pct": machine,
            "outcomes": outcomes,
        })
    }

    /// One probe's outcome; its raw change is twice the judged one.
    pub fn outcome(
        probe: &str,
        verdict: &str,
        judged: Option<f64>,
        p_value: Option<f64>,
    ) -> serde_json::Value {
        serde_json::json!({
            "probe": probe,
            "verdict": verdict,
            "raw_pct": judged.map(|j| j * 2.0),
            "raw_ms": null,
            "judged_pct": judged,
            "p_value": p_value,
        })
    }

    #[test]
    fn trials_of_one_method_are_read_in_order() {
        let text = document(&[
            trial(
                "stored-baseline",
                "quiet",
                None,
                None,
                &[outcome("a", "pass", Some(1.0), None)],
            ),
            trial("learned-baseline", "quiet", None, None, &[]),
            trial("stored-baseline", "cpu", Some(5.0), Some(2.0), &[]),
        ]);
        let trials = parse(&text, "stored-baseline").unwrap();
        assert_eq!(trials.len(), 2);
        assert_eq!(trials[1].trial.machine_slowdown_pct, Some(2.0));
        assert_eq!(parse(&text, "learned-baseline").unwrap().len(), 1);
        assert_eq!(
            distinct(&trials, |t| Some(t.condition.clone())),
            ["cpu", "quiet"]
        );
    }

    #[test]
    fn a_file_that_is_not_results_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.json");
        std::fs::write(&path, "{\"trials\": 3}").unwrap();
        let e = load(&path, "paired").unwrap_err().0;
        assert!(
            e.contains("results.json: not an evaluation's results"),
            "{e}"
        );
        let e = load(&dir.path().join("gone.json"), "paired").unwrap_err().0;
        assert!(e.contains("gone.json: cannot read"), "{e}");
    }
}
