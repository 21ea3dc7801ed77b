//! The statements that add a run, and the values they bind: written once,
//! for every back end, so that a column and its value never drift apart.

use super::entry::{Entry, RowFigures};
use super::query::{Placeholder, Statement, Value};

/// The columns of `yardstick_runs` a run is added with, in binding order.
const RUN_COLUMNS: [&str; 13] = [
    "id",
    "tool",
    "mode",
    "metric",
    "machine_class",
    "count_setup",
    "git_commit",
    "branch",
    "started",
    "params",
    "recorded",
    "text",
    "bench",
];

/// The columns of `yardstick_figures` a row is added with, in binding
/// order.
const FIGURE_COLUMNS: [&str; 10] = [
    "run_id",
    "key",
    "errors",
    "median",
    "x_calib",
    "p95",
    "p99",
    "instructions",
    "estimated_cycles",
    "rps",
];

/// The statement that adds `entry`'s run, recorded at `recorded`. A run
/// already there is left alone: the back end learns so from the count of
/// rows it changed (0) and adds no figures.
pub(crate) fn run(entry: &Entry, recorded: &str, placeholder: Placeholder) -> Statement {
    let c = &entry.columns;
    let text = |s: &str| Value::Text(s.to_string());
    let values = vec![
        text(&entry.id),
        text(&c.tool),
        text(&c.mode),
        text(&c.metric),
        text(&c.machine_class),
        text(&c.count_setup),
        text(&c.git_commit),
        text(&c.branch),
        text(&c.started),
        text(&c.params),
        text(recorded),
        text(&entry.text),
        text(&c.bench),
    ];
    Statement {
        sql: format!(
            "INSERT INTO yardstick_runs ({}) VALUES ({}) ON CONFLICT (id) DO NOTHING",
            RUN_COLUMNS.join(", "),
            placeholders(RUN_COLUMNS.len(), placeholder)
        ),
        values,
    }
}

/// The statement that adds one row's figures, prepared once per run;
/// [`figure_values`] gives each row's values.
pub(crate) fn figures(placeholder: Placeholder) -> String {
    format!(
        "INSERT INTO yardstick_figures ({}) VALUES ({})",
        FIGURE_COLUMNS.join(", "),
        placeholders(FIGURE_COLUMNS.len(), placeholder)
    )
}

/// The values [`figures`] binds for `row` of the run `id`.
pub(crate) fn figure_values(id: &str, row: &RowFigures) -> Vec<Value> {
    vec![
        Value::Text(id.to_string()),
        Value::Text(row.key.clone()),
        Value::Int(i64::try_from(row.errors).unwrap_or(i64::MAX)),
        Value::Real(row.median),
        Value::Real(row.x_calib),
        Value::Real(row.p95),
        Value::Real(row.p99),
        Value::Real(row.instructions),
        Value::Real(row.estimated_cycles),
        Value::Real(row.rps),
    ]
}

/// For a run a bench recorded that is there already without a bench (it
/// was added from its file first): the statement that names the bench, so
/// that the bench's own loop finds it. A run of another bench keeps its
/// name.
pub(crate) fn name_bench(entry: &Entry, placeholder: Placeholder) -> Option<Statement> {
    let bench = &entry.columns.bench;
    (!bench.is_empty()).then(|| Statement {
        sql: format!(
            "UPDATE yardstick_runs SET bench = {} WHERE id = {} AND bench = ''",
            placeholder(1),
            placeholder(2)
        ),
        values: vec![Value::Text(bench.clone()), Value::Text(entry.id.clone())],
    })
}

/// When a run is recorded: to the nanosecond, so that runs that started
/// in the same second keep the order they were recorded in (RFC 3339 with
/// nine digits always, so that it sorts as text).
pub(crate) fn recorded_now() -> String {
    humantime::format_rfc3339_nanos(std::time::SystemTime::now()).to_string()
}

fn placeholders(n: usize, placeholder: Placeholder) -> String {
    (1..=n).map(placeholder).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(n: usize) -> String {
        format!("?{n}")
    }

    #[test]
    fn each_column_has_its_value() {
        let entry = Entry {
            id: "ab".into(),
            text: "{}".into(),
            columns: Default::default(),
            rows: vec![RowFigures::default()],
        };
        let run = run(&entry, "now", question);
        assert_eq!(run.values.len(), RUN_COLUMNS.len());
        assert!(
            run.sql.ends_with("?13) ON CONFLICT (id) DO NOTHING"),
            "{}",
            run.sql
        );
        let values = figure_values(&entry.id, &entry.rows[0]);
        assert_eq!(values.len(), FIGURE_COLUMNS.len());
        assert!(figures(question).ends_with("?10)"));
    }

    #[test]
    fn only_a_bench_names_a_run_and_only_one_without_a_name() {
        let mut entry = Entry {
            id: "ab".into(),
            text: "{}".into(),
            columns: Default::default(),
            rows: Vec::new(),
        };
        assert!(name_bench(&entry, question).is_none());
        entry.columns.bench = "micro".into();
        let s = name_bench(&entry, question).unwrap();
        assert!(s.sql.contains("bench = ''"), "{}", s.sql);
    }

    #[test]
    fn recording_times_have_a_fixed_width_so_that_they_sort_as_text() {
        let at = recorded_now();
        let fraction = at.rsplit('.').next().unwrap_or_default();
        assert_eq!(fraction.len(), "123456789Z".len(), "{at}");
        assert_eq!(at.len(), "2026-12-03T08:42:07.123456789Z".len(), "{at}");
    }
}
