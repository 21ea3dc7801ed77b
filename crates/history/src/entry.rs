//! What the history stores of one run: its text as saved, whole, and the
//! columns its queries select by, read from the typed run once, here.

use crate::document::run::{Mode, Run};
use crate::document::setup::Setup;
use sha2::{Digest, Sha256};

/// One run, ready to store.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The run's id: the SHA-256 of its text, in hex. The same file added
    /// twice, or by two jobs at once, is one run.
    pub id: String,
    /// The run as saved, byte for byte: what `history show` gives back.
    pub text: String,
    /// The columns.
    pub columns: Columns,
    /// One line per row of the run.
    pub rows: Vec<RowFigures>,
}

/// The columns a run is selected by.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Columns {
    /// The tool that made the run: `yardstick`, or an imported run's own
    /// (`exp:benchmark`, `criterion`).
    pub tool: String,
    /// `micro`, `kernel` or `http`.
    pub mode: String,
    /// `time`, `instructions` or `estimated-cycles`.
    pub metric: String,
    /// The machine class; empty when unknown.
    pub machine_class: String,
    /// The count set-up's key ([`Setup::key`]); empty for wall time.
    pub count_setup: String,
    /// The commit measured; empty when unrecorded.
    pub git_commit: String,
    /// The branch, as the recorder gave it; empty when not given.
    pub branch: String,
    /// When the run started, RFC 3339 in UTC (sorts as text).
    pub started: String,
    /// The bench parameters given (`{"node":"57"}`), as JSON with sorted
    /// keys; `{}` for none.
    pub params: String,
    /// The bench that made the run (`micro`), when a bench recorded it;
    /// empty for runs added from files.
    pub bench: String,
    /// The slowdown the run was made with (`YARDSTICK_INJECT`), if any.
    pub injected: String,
}

/// The figures of one row that a trend can follow; each absent when the
/// run has none.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RowFigures {
    /// The row's key (a probe's name; a page's server and path).
    pub key: String,
    /// Failed samples or requests.
    pub errors: u64,
    /// The median time, milliseconds.
    pub median: Option<f64>,
    /// The median time per calibration loop (timed micro runs).
    pub x_calib: Option<f64>,
    /// The 95th percentile, milliseconds.
    pub p95: Option<f64>,
    /// The 99th percentile, milliseconds.
    pub p99: Option<f64>,
    /// Instructions counted per iteration.
    pub instructions: Option<f64>,
    /// Estimated cycles counted per iteration.
    pub estimated_cycles: Option<f64>,
    /// Requests per second (HTTP rows).
    pub rps: Option<f64>,
}

impl Entry {
    /// The entry of `run`, whose saved text is `text`, recorded on
    /// `branch` (empty when unknown).
    pub fn new(text: String, run: &Run, branch: &str) -> Entry {
        let id = id_of(&text);
        let params = run
            .settings
            .micro()
            .map(|s| serde_json::to_string(&s.params).unwrap_or_default())
            .unwrap_or_else(|| "{}".to_string());
        let count_setup = if run.metric.is_count() {
            Setup::of(run, run.metric).key()
        } else {
            String::new()
        };
        let columns = Columns {
            tool: run
                .environment
                .imported
                .as_ref()
                .map_or(&run.tool, |i| &i.tool)
                .clone(),
            mode: run.mode.as_str().to_string(),
            metric: run.metric.as_str().to_string(),
            machine_class: run.environment.machine_class.clone().unwrap_or_default(),
            count_setup,
            git_commit: run.environment.git_commit.clone(),
            branch: branch.to_string(),
            started: run.started.clone(),
            params,
            bench: String::new(),
            injected: run.settings.injected().unwrap_or_default().to_string(),
        };
        let rows = run.rows.iter().map(|row| RowFigures {
            key: row.key.clone(),
            errors: row.errors,
            median: row.figures.median,
            x_calib: (run.mode == Mode::Micro)
                .then(|| run.x_calib(row))
                .flatten(),
            p95: row.figures.p95,
            p99: row.figures.p99,
            instructions: row.counted.instructions,
            estimated_cycles: row.counted.estimated_cycles,
            rps: row.rps,
        });
        Entry {
            id,
            text,
            columns,
            rows: rows.collect(),
        }
    }
}

impl Entry {
    /// The id as shown: its first [`SHOWN`] digits.
    pub fn short_id(&self) -> &str {
        self.id.get(..SHOWN).unwrap_or(&self.id)
    }
}

/// A run's id: the SHA-256 of its text, in lower-case hex.
pub fn id_of(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How many hex digits of an id are shown; any unique prefix of at
/// least [`MIN_PREFIX`] finds a run.
pub const SHOWN: usize = 12;
/// The shortest prefix of an id that finds a run.
pub const MIN_PREFIX: usize = 6;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::run::{Row, RowKind, test_micro_run};
    use crate::document::store;

    #[test]
    fn the_id_is_the_texts_and_the_columns_the_runs() {
        let row = Row::with_samples("parse".into(), RowKind::Probe, "parse".into(), vec![2.0]);
        let run = test_micro_run(vec![row], None);
        let text = store::to_json(&run);
        let entry = Entry::new(text.clone(), &run, "main");
        assert_eq!(entry.id, id_of(&text));
        assert_eq!(entry.id.len(), 64);
        assert_ne!(entry.id, id_of(&format!("{text}\n")));
        assert_eq!(entry.columns.mode, "micro");
        assert_eq!(entry.columns.metric, "time");
        assert_eq!(entry.columns.branch, "main");
        assert_eq!(entry.columns.params, "{}");
        assert!(entry.columns.count_setup.is_empty());
        assert_eq!(entry.rows.len(), 1);
        assert_eq!(entry.rows[0].key, "parse");
        assert_eq!(entry.rows[0].median, run.rows[0].figures.median);
    }
}
