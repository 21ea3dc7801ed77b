//! Runs of other tools, read as yardstick's own so that `show` and
//! `compare` take them: one file per foreign format, each mapping its
//! fields onto a [`Run`](crate::run::Run) and keeping the tool's
//! set-up and settings in an [`Imported`] record, so that an imported run
//! is never mistaken for one yardstick measured (docs/cli.md, "Imported
//! runs", names what has no counterpart).

pub mod criterion;
pub mod exp_benchmark;

use crate::run::TOOL;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Where an imported run came from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Imported {
    /// The tool that made the run (`exp:benchmark`): runs of two tools
    /// time different code, and are compared only when asked
    /// (`--cross-tool`). Required: an import always knows its tool.
    pub tool: String,
    /// The tool's format version of the file read.
    #[serde(default)]
    pub format: u64,
    /// When the tool says the run started, as it wrote it (a local time
    /// with its offset); the run's own `started` is the same moment in UTC.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub started: String,
    /// The tool's set-up fields that yardstick has no field for (the PHP
    /// version, OPcache, the one-minute load, ...), as it wrote them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub setup: BTreeMap<String, Value>,
    /// The tool's settings, whole, as it wrote them.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub settings: Map<String, Value>,
}

/// The set-up fields of an imported run that move its numbers, compared
/// between two runs of one tool.
const SETUP_FIELDS: [&str; 6] = ["php", "sapi", "opcache", "jit", "xdebug", "exponential"];

impl Imported {
    /// The set-up fields whose values differ between `self` (the baseline)
    /// and `other`: (field, baseline, current), an absent one `-`.
    pub fn setup_differences(&self, other: &Imported) -> Vec<(String, String, String)> {
        let shown = |i: &Imported, field: &str| match i.setup.get(field) {
            None => "-".to_string(),
            Some(Value::String(text)) => text.clone(),
            Some(value) => value.to_string(),
        };
        SETUP_FIELDS
            .iter()
            .map(|f| (f.to_string(), shown(self, f), shown(other, f)))
            .filter(|(_, a, b)| a != b)
            .collect()
    }

    /// The run's origin in a few words, for a run's header: `imported
    /// from exp:benchmark format 1 (php 8.5.11, opcache false)`.
    pub fn describe(&self) -> String {
        let shown: Vec<String> = ["php", "sapi", "opcache", "jit", "xdebug"]
            .iter()
            .filter_map(|name| {
                let value = self.setup.get(*name)?;
                let text = value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_string);
                Some(format!("{name} {text}"))
            })
            .collect();
        let mut text = format!("imported from {}", self.tool);
        if self.format > 0 {
            text.push_str(&format!(" format {}", self.format));
        }
        if let Some(Value::String(baseline)) = self.setup.get("baseline") {
            text.push_str(&format!(" (baseline {baseline})"));
        }
        if !shown.is_empty() {
            text.push_str(&format!(" ({})", shown.join(", ")));
        }
        text
    }

    /// The tool that made a run of `environment`'s: yardstick, or the one
    /// its run was imported from.
    pub fn tool_of(imported: Option<&Imported>) -> &str {
        imported.map_or(TOOL, |i| i.tool.as_str())
    }
}
