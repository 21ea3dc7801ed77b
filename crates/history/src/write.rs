//! Adding a run, written once for every back end: each column beside its
//! value, and the steps of an add (the run, then its rows, or for a run
//! there already at most its bench's name), which each back end runs in
//! its own transaction.

use super::Added;
use super::entry::{Entry, RowFigures};
use super::query::{Placeholder, Statement, Value};

/// What a back end's transaction does for [`add`].
pub(crate) trait Writer {
    type Error;
    /// Runs `statement`, giving the count of rows it changed.
    fn execute(&mut self, statement: &Statement) -> Result<u64, Self::Error>;
    /// Runs `sql` once for each list of values, prepared once.
    fn execute_each(&mut self, sql: &str, each: &[Vec<Value>]) -> Result<(), Self::Error>;
}

/// Adds `entry`: its run, then its rows when the run is new. A run there
/// already (the same text) is left alone, but for the name of the bench
/// that recorded it when it had none (it was added from its file first).
pub(crate) fn add<W: Writer>(
    w: &mut W,
    entry: &Entry,
    placeholder: Placeholder,
) -> Result<Added, W::Error> {
    if w.execute(&run(entry, &recorded_now(), placeholder))? == 0 {
        if let Some(name) = name_bench(entry, placeholder) {
            w.execute(&name)?;
        }
        return Ok(Added::Already);
    }
    let (sql, each) = figures(entry, placeholder);
    w.execute_each(&sql, &each)?;
    Ok(Added::New)
}

/// A statement that inserts `pairs` (column, value) into `table`.
fn insert(table: &str, pairs: &[(&str, Value)], placeholder: Placeholder) -> String {
    let columns: Vec<&str> = pairs.iter().map(|(c, _)| *c).collect();
    let places: Vec<String> = (1..=pairs.len()).map(placeholder).collect();
    format!(
        "INSERT INTO {table} ({}) VALUES ({})",
        columns.join(", "),
        places.join(", ")
    )
}

/// The statement that adds `entry`'s run, recorded at `recorded`; a run
/// already there changes nothing (0 rows).
fn run(entry: &Entry, recorded: &str, placeholder: Placeholder) -> Statement {
    let c = &entry.columns;
    let text = |s: &str| Value::Text(s.to_string());
    let pairs = [
        ("id", text(&entry.id)),
        ("tool", text(&c.tool)),
        ("mode", text(&c.mode)),
        ("metric", text(&c.metric)),
        ("machine_class", text(&c.machine_class)),
        ("count_setup", text(&c.count_setup)),
        ("git_commit", text(&c.git_commit)),
        ("branch", text(&c.branch)),
        ("started", text(&c.started)),
        ("params", text(&c.params)),
        ("recorded", text(recorded)),
        ("text", text(&entry.text)),
        ("bench", text(&c.bench)),
        ("injected", text(&c.injected)),
    ];
    Statement {
        sql: format!(
            "{} ON CONFLICT (id) DO NOTHING",
            insert("yardstick_runs", &pairs, placeholder)
        ),
        values: pairs.into_iter().map(|(_, v)| v).collect(),
    }
}

/// A row's figures, column beside value.
fn figure_pairs(id: &str, row: &RowFigures) -> [(&'static str, Value); 10] {
    [
        ("run_id", Value::Text(id.to_string())),
        ("key", Value::Text(row.key.clone())),
        (
            "errors",
            Value::Int(i64::try_from(row.errors).unwrap_or(i64::MAX)),
        ),
        ("median", Value::Real(row.median)),
        ("x_calib", Value::Real(row.x_calib)),
        ("p95", Value::Real(row.p95)),
        ("p99", Value::Real(row.p99)),
        ("instructions", Value::Real(row.instructions)),
        ("estimated_cycles", Value::Real(row.estimated_cycles)),
        ("rps", Value::Real(row.rps)),
    ]
}

/// The statement that adds one row's figures, and each row's values.
fn figures(entry: &Entry, placeholder: Placeholder) -> (String, Vec<Vec<Value>>) {
    let sql = insert(
        "yardstick_figures",
        &figure_pairs(&entry.id, &RowFigures::default()),
        placeholder,
    );
    let each = entry
        .rows
        .iter()
        .map(|r| {
            figure_pairs(&entry.id, r)
                .into_iter()
                .map(|(_, v)| v)
                .collect()
        })
        .collect();
    (sql, each)
}

/// For a run a bench recorded that is there already without a bench: the
/// statement that names the bench, so that the bench's own loop finds it.
/// A run of another bench keeps its name.
fn name_bench(entry: &Entry, placeholder: Placeholder) -> Option<Statement> {
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
/// nine digits always, so that it sorts as text). Runs recorded by a
/// yardstick before this one carry whole seconds (`…:05Z`), which sort
/// after this one's of the same second (`…:05.1…Z`): that decides only
/// the order among runs that started in one second.
fn recorded_now() -> String {
    humantime::format_rfc3339_nanos(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(n: usize) -> String {
        format!("?{n}")
    }

    fn entry() -> Entry {
        Entry {
            id: "ab".into(),
            text: "{}".into(),
            columns: Default::default(),
            rows: vec![RowFigures::default(), RowFigures::default()],
        }
    }

    #[test]
    fn each_column_has_its_value() {
        let run = run(&entry(), "now", question);
        assert_eq!(run.values.len(), 14);
        assert!(
            run.sql.ends_with("?14) ON CONFLICT (id) DO NOTHING"),
            "{}",
            run.sql
        );
        let (sql, each) = figures(&entry(), question);
        assert!(sql.ends_with("?10)"), "{sql}");
        assert_eq!((each.len(), each[0].len()), (2, 10));
    }

    #[test]
    fn only_a_bench_names_a_run_and_only_one_without_a_name() {
        let mut entry = entry();
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
