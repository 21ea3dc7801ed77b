//! The questions a history answers, and the SQL that asks them: written
//! once, for every back end, with the placeholders each one spells.

use super::entry::{MIN_PREFIX, SHOWN};
use super::row::{LISTING_COLUMNS, POINT_COLUMNS, STORED_COLUMNS};

/// Which runs: each field given narrows the list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// Runs with a row of this key (a probe's name, a page's key).
    pub probe: Option<String>,
    /// `micro`, `kernel` or `http`.
    pub mode: Option<String>,
    /// `time`, `instructions` or `estimated-cycles`.
    pub metric: Option<String>,
    /// The machine class, whole.
    pub machine_class: Option<String>,
    /// The branch recorded with the run.
    pub branch: Option<String>,
    /// The count set-up's key (counted runs).
    pub count_setup: Option<String>,
    /// The bench that recorded the run.
    pub bench: Option<String>,
    /// Runs of these commits (a range, read from git by the command).
    pub commits: Option<Vec<String>>,
    /// Runs started at or after this RFC 3339 date (or a prefix of one).
    pub since: Option<String>,
    /// Runs started before this one.
    pub until: Option<String>,
    /// At most this many, the newest.
    pub limit: Option<u64>,
}

/// A run as `history list` shows it.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Listing {
    /// The whole id.
    pub id: String,
    /// When the run started.
    pub started: String,
    /// The tool that made it.
    pub tool: String,
    /// Its mode.
    pub mode: String,
    /// Its metric.
    pub metric: String,
    /// Its machine class; empty when unknown.
    pub machine_class: String,
    /// The commit measured; empty when unrecorded.
    pub git_commit: String,
    /// The branch recorded; empty when none was.
    pub branch: String,
    /// The count set-up's key; empty for wall time.
    pub count_setup: String,
    /// The bench that recorded it; empty for a run added from its file.
    pub bench: String,
    /// How many rows the run has.
    pub rows: u64,
}

impl Listing {
    /// The id as shown: its first [`SHOWN`] digits.
    pub fn short_id(&self) -> &str {
        self.id.get(..SHOWN).unwrap_or(&self.id)
    }
}

/// A figure a trend follows: one column of a kept row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// The median time, milliseconds.
    Median,
    /// The median time per calibration loop (timed micro runs).
    XCalib,
    /// The 95th percentile, milliseconds.
    P95,
    /// The 99th percentile, milliseconds.
    P99,
    /// Instructions per iteration.
    Instructions,
    /// Estimated cycles per iteration.
    EstimatedCycles,
    /// Requests per second.
    Rps,
}

impl Figure {
    /// Every figure, by the name options and output use.
    pub const ALL: [(&'static str, Figure); 7] = [
        ("median", Figure::Median),
        ("x-calib", Figure::XCalib),
        ("p95", Figure::P95),
        ("p99", Figure::P99),
        ("instructions", Figure::Instructions),
        ("estimated-cycles", Figure::EstimatedCycles),
        ("rps", Figure::Rps),
    ];

    /// The figure a run of `mode` and `metric` is judged by: counts for
    /// counted runs, x calib for timed micro runs, the median otherwise.
    pub fn judged(mode: &str, metric: &str) -> Figure {
        match (mode, metric) {
            (_, "instructions") => Figure::Instructions,
            (_, "estimated-cycles") => Figure::EstimatedCycles,
            ("micro", _) => Figure::XCalib,
            _ => Figure::Median,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        Figure::ALL
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("median", |(n, _)| n)
    }

    /// Its column in the figures table: written here, never from input.
    fn column(self) -> &'static str {
        match self {
            Figure::Median => "median",
            Figure::XCalib => "x_calib",
            Figure::P95 => "p95",
            Figure::P99 => "p99",
            Figure::Instructions => "instructions",
            Figure::EstimatedCycles => "estimated_cycles",
            Figure::Rps => "rps",
        }
    }
}

/// One run's figure in a trend.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Point {
    /// The run's whole id.
    pub id: String,
    /// When it started.
    pub started: String,
    /// The commit measured.
    pub git_commit: String,
    /// The branch recorded.
    pub branch: String,
    /// The machine class.
    pub machine_class: String,
    /// The count set-up's key; empty for wall time.
    pub count_setup: String,
    /// The slowdown the run was made with (`YARDSTICK_INJECT`); empty for
    /// a run measured as it is.
    pub injected: String,
    /// The figure.
    pub value: f64,
}

/// Newest first: by start, then (for runs that started in the same
/// second) by when they were recorded, then by id, so that the order is
/// the same every time.
const NEWEST: &str = "runs.started DESC, runs.recorded DESC, runs.id DESC";

/// The statement that follows `figure` of the row `key` over the runs
/// `filter` selects, oldest first: [`POINT_COLUMNS`], then the value.
pub(crate) fn trend(
    key: &str,
    figure: Figure,
    filter: &Filter,
    placeholder: Placeholder,
) -> Statement {
    let mut where_ = Where::new(placeholder);
    let scoped = Filter {
        probe: None,
        limit: None,
        ..filter.clone()
    };
    where_.push_filter(&scoped);
    let p = where_.bind(Value::Text(key.to_string()));
    let column = figure.column();
    where_.conditions.push(format!("figures.key = {p}"));
    where_
        .conditions
        .push(format!("figures.{column} IS NOT NULL"));
    let select = format!(
        "SELECT {POINT_COLUMNS}, figures.{column}, runs.recorded FROM yardstick_figures figures \
         JOIN yardstick_runs runs ON runs.id = figures.run_id{}",
        where_.clause()
    );
    // Oldest first; with a limit, the newest N, still oldest first.
    let sql = match filter.limit {
        Some(n) => {
            let p = where_.bind(Value::Int(i64::try_from(n).unwrap_or(i64::MAX)));
            format!(
                "SELECT * FROM ({select} ORDER BY {NEWEST} LIMIT {p}) newest \
                 ORDER BY newest.started, newest.recorded, newest.id"
            )
        }
        None => format!("{select} ORDER BY runs.started, runs.recorded, runs.id"),
    };
    Statement {
        sql,
        values: where_.values,
    }
}

/// A value bound to a placeholder.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Text(String),
    Int(i64),
    /// A figure, or NULL when the row has none.
    Real(Option<f64>),
}

/// A statement and its values; `placeholder(n)` spells the nth (from 1).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Statement {
    pub sql: String,
    pub values: Vec<Value>,
}

/// How a back end spells the nth placeholder: `?1` (SQLite), `$1`
/// (PostgreSQL).
pub(crate) type Placeholder = fn(usize) -> String;

impl Filter {
    /// The statement that lists the runs this filter selects, newest first,
    /// as [`Listing::read`] reads them.
    pub(crate) fn list(&self, placeholder: Placeholder) -> Statement {
        let mut where_ = Where::new(placeholder);
        where_.push_filter(self);
        let mut sql = format!(
            "SELECT {LISTING_COLUMNS} FROM yardstick_runs runs{} ORDER BY {NEWEST}",
            where_.clause()
        );
        if let Some(limit) = self.limit {
            let p = where_.bind(Value::Int(i64::try_from(limit).unwrap_or(i64::MAX)));
            sql.push_str(&format!(" LIMIT {p}"));
        }
        Statement {
            sql,
            values: where_.values,
        }
    }
}

/// The statement that finds the runs whose id starts with `prefix`
/// (lower-case hex), at most two, as `id, text`.
pub(crate) fn find(prefix: &str, placeholder: Placeholder) -> Result<Statement, String> {
    let valid = prefix.len() >= MIN_PREFIX
        && prefix.len() <= 64
        && prefix.bytes().all(|b| b.is_ascii_hexdigit());
    if !valid {
        return Err(format!(
            "`{prefix}` is no run id: {MIN_PREFIX} to 64 hex digits, as `history list` shows"
        ));
    }
    Ok(Statement {
        // The prefix is hex, checked above: nothing in it is a pattern.
        sql: format!(
            "SELECT {STORED_COLUMNS} FROM yardstick_runs WHERE id LIKE {} ORDER BY id LIMIT 2",
            placeholder(1)
        ),
        values: vec![Value::Text(format!("{}%", prefix.to_ascii_lowercase()))],
    })
}

/// A WHERE clause built one condition at a time.
struct Where {
    conditions: Vec<String>,
    values: Vec<Value>,
    placeholder: Placeholder,
}

impl Where {
    fn new(placeholder: Placeholder) -> Where {
        Where {
            conditions: Vec::new(),
            values: Vec::new(),
            placeholder,
        }
    }

    /// The next placeholder, bound to `value`.
    fn bind(&mut self, value: Value) -> String {
        self.values.push(value);
        (self.placeholder)(self.values.len())
    }

    fn equal(&mut self, column: &str, value: &Option<String>) {
        if let Some(v) = value {
            let p = self.bind(Value::Text(v.clone()));
            self.conditions.push(format!("{column} = {p}"));
        }
    }

    fn push_filter(&mut self, filter: &Filter) {
        self.equal("mode", &filter.mode);
        self.equal("metric", &filter.metric);
        self.equal("machine_class", &filter.machine_class);
        self.equal("branch", &filter.branch);
        self.equal("count_setup", &filter.count_setup);
        self.equal("bench", &filter.bench);
        if let Some(since) = &filter.since {
            let p = self.bind(Value::Text(since.clone()));
            self.conditions.push(format!("started >= {p}"));
        }
        if let Some(until) = &filter.until {
            let p = self.bind(Value::Text(until.clone()));
            self.conditions.push(format!("started < {p}"));
        }
        if let Some(probe) = &filter.probe {
            let p = self.bind(Value::Text(probe.clone()));
            self.conditions.push(format!(
                "EXISTS (SELECT 1 FROM yardstick_figures figures \
                 WHERE figures.run_id = runs.id AND figures.key = {p})"
            ));
        }
        if let Some(commits) = &filter.commits {
            // By their first 7 digits, so that a run recorded with an
            // abbreviated commit is found too; each prefix bound once.
            let prefixes: std::collections::BTreeSet<&str> =
                commits.iter().map(|c| c.get(..7).unwrap_or(c)).collect();
            let list: Vec<String> = prefixes
                .into_iter()
                .map(|c| self.bind(Value::Text(c.to_string())))
                .collect();
            self.conditions.push(if list.is_empty() {
                "1 = 0".to_string()
            } else {
                format!("substr(git_commit, 1, 7) IN ({})", list.join(", "))
            });
        }
    }

    fn clause(&self) -> String {
        if self.conditions.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", self.conditions.join(" AND "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(n: usize) -> String {
        format!("?{n}")
    }

    #[test]
    fn each_filter_binds_its_value_and_nothing_is_spliced() {
        let filter = Filter {
            probe: Some("x' OR 1=1 --".into()),
            mode: Some("micro".into()),
            since: Some("2026-11".into()),
            commits: Some(vec!["abc".into(), "def".into()]),
            limit: Some(5),
            ..Filter::default()
        };
        let s = filter.list(question);
        assert!(!s.sql.contains("OR 1=1"), "{}", s.sql);
        assert!(s.sql.contains("mode = ?1"), "{}", s.sql);
        assert!(
            s.sql.contains("substr(git_commit, 1, 7) IN (?4, ?5)"),
            "{}",
            s.sql
        );
        assert!(s.sql.ends_with("LIMIT ?6"), "{}", s.sql);
        assert_eq!(s.values.len(), 6);
        assert_eq!(s.values[5], Value::Int(5));
        let none = Filter::default().list(question);
        assert!(!none.sql.contains("runs WHERE") && none.values.is_empty());
        let empty = Filter {
            commits: Some(Vec::new()),
            ..Filter::default()
        };
        assert!(empty.list(question).sql.contains("1 = 0"));
    }

    #[test]
    fn an_id_prefix_is_hex_of_a_length_that_can_find_one_run() {
        let s = find("ABCDEF12", question).unwrap();
        assert_eq!(s.values, [Value::Text("abcdef12%".into())]);
        for bad in ["abc", "xyz123", "abcdef'--", &"a".repeat(65)] {
            let e = find(bad, question).unwrap_err();
            assert!(e.contains("no run id"), "{e}");
        }
    }
}
