//! Where a run was made: every field of its environment and settings, as
//! the saved run holds them, so that a page never drifts from the file.

use super::Page;
use crate::document::run::Run;
use serde_json::Value;

/// The environment and the settings of `run`, one line a field.
pub fn draw(page: &mut Page, run: &Run) {
    page.subheading("Where and how it was measured");
    let mut rows = vec![
        vec!["mode".to_string(), run.mode.as_str().to_string()],
        vec!["metric".to_string(), run.metric.as_str().to_string()],
        vec!["started".to_string(), run.started.clone()],
    ];
    for (prefix, value) in [
        ("", serde_json::to_value(&run.environment)),
        ("settings.", serde_json::to_value(&run.settings)),
    ] {
        if let Ok(value) = value {
            flatten(prefix, &value, &mut rows);
        }
    }
    page.table(&["field", "value"], &rows, &[]);
    for warning in &run.warnings {
        page.paragraph(&format!("warning: {warning}"), true);
    }
}

/// `value`'s leaves as `a.b.c` and their text.
fn flatten(prefix: &str, value: &Value, out: &mut Vec<Vec<String>>) {
    match value {
        Value::Object(fields) => {
            for (k, v) in fields {
                flatten(&format!("{prefix}{k}."), v, out);
            }
        }
        Value::Null => {}
        Value::String(s) => out.push(vec![prefix.trim_end_matches('.').to_string(), s.clone()]),
        other => out.push(vec![
            prefix.trim_end_matches('.').to_string(),
            other.to_string(),
        ]),
    }
}
