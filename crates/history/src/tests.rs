//! The SQLite history end to end: what goes in comes out byte for byte,
//! once, whatever else writes at the same time; what is not a history of
//! ours is refused and left as it was.

use super::*;
use crate::document::run::{Row, RowKind, Run, test_micro_run};
use crate::document::store;
use std::path::Path;

fn run(probe: &str, median: f64, commit: &str) -> Run {
    let row = Row::with_samples(probe.into(), RowKind::Probe, probe.into(), vec![median]);
    let mut run = test_micro_run(vec![row], None);
    run.environment.git_commit = commit.to_string();
    run.started = format!("2026-12-01T10:00:{:02}Z", (median as u64) % 60);
    run
}

fn entry(run: &Run) -> Entry {
    Entry::new(store::saved_text(run), run, "main")
}

fn open_at(path: &Path) -> Box<dyn Store> {
    open(&Location::Sqlite(path.to_path_buf())).unwrap()
}

#[test]
fn a_run_reads_back_byte_equal_and_is_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep/er/history.sqlite");
    let mut history = open_at(&path);
    let first = entry(&run("parse", 2.0, "abc1234"));
    assert_eq!(history.add(&first).unwrap(), Added::New);
    assert_eq!(history.add(&first).unwrap(), Added::Already);
    let found = history.find(&first.id[..8]).unwrap();
    assert_eq!(found.text, first.text);
    assert_eq!(found.id, first.id);
    drop(history);
    // Opened again, by another connection: still one, still equal.
    let mut history = open_at(&path);
    assert_eq!(history.add(&first).unwrap(), Added::Already);
    let all = history.list(&Filter::default()).unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!((all[0].rows, all[0].git_commit.as_str()), (1, "abc1234"));
    let e = history.find("0000000").unwrap_err().to_string();
    assert!(e.contains("no run has the id 0000000"), "{e}");
}

#[test]
fn filters_select_and_the_newest_come_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open_at(&dir.path().join("h.sqlite"));
    for (i, probe) in ["parse", "render", "parse"].iter().enumerate() {
        let mut r = run(probe, 10.0 + i as f64, &format!("c{i}"));
        r.metric = crate::document::run::Metric::Time;
        history.add(&entry(&r)).unwrap();
    }
    let parse = Filter {
        probe: Some("parse".into()),
        ..Filter::default()
    };
    let listed = history.list(&parse).unwrap();
    let commits: Vec<&str> = listed.iter().map(|l| l.git_commit.as_str()).collect();
    assert_eq!(commits, ["c2", "c0"]);
    let newest = Filter {
        limit: Some(1),
        ..Filter::default()
    };
    assert_eq!(history.list(&newest).unwrap()[0].git_commit, "c2");
    let since = Filter {
        since: Some("2026-12-01T10:00:11".into()),
        ..Filter::default()
    };
    assert_eq!(history.list(&since).unwrap().len(), 2);
    let range = Filter {
        commits: Some(vec!["c0".into(), "c1".into()]),
        ..Filter::default()
    };
    assert_eq!(history.list(&range).unwrap().len(), 2);
    let kernel = Filter {
        mode: Some("kernel".into()),
        ..Filter::default()
    };
    assert!(history.list(&kernel).unwrap().is_empty());
}

#[test]
fn a_write_that_fails_halfway_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open_at(&dir.path().join("h.sqlite"));
    let mut broken = entry(&run("parse", 2.0, "abc"));
    // Two rows of one key: the second insert fails after the run's.
    broken.rows.push(broken.rows[0].clone());
    assert!(history.add(&broken).is_err());
    assert!(history.list(&Filter::default()).unwrap().is_empty());
    broken.rows.pop();
    assert_eq!(history.add(&broken).unwrap(), Added::New);
}

#[test]
fn writers_at_once_lose_nothing_and_duplicate_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    // Each writer adds 60 runs of its own and the same 20 shared ones.
    let writers: Vec<_> = (0..3)
        .map(|w| {
            let path = path.clone();
            std::thread::spawn(move || {
                let mut history = open_at(&path);
                let mut new = 0;
                for i in 0..80 {
                    let r = if i % 4 == 0 {
                        run("shared", i as f64, "s")
                    } else {
                        run(&format!("w{w}"), i as f64, "own")
                    };
                    new += usize::from(history.add(&entry(&r)).unwrap() == Added::New);
                }
                new
            })
        })
        .collect();
    let new: usize = writers.into_iter().map(|w| w.join().unwrap()).sum();
    let listed = open_at(&path).list(&Filter::default()).unwrap();
    assert_eq!(listed.len(), 3 * 60 + 20);
    assert_eq!(new, listed.len());
}

#[test]
fn what_is_not_a_history_of_ours_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let corrupt = dir.path().join("corrupt.sqlite");
    let garbage = b"this is no database, and it must stay exactly this".repeat(100);
    std::fs::write(&corrupt, &garbage).unwrap();
    let e = open(&Location::Sqlite(corrupt.clone()))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("corrupt.sqlite") && e.contains("not a readable SQLite database"),
        "{e}"
    );
    assert!(!e.contains('\n'), "{e}");
    assert_eq!(std::fs::read(&corrupt).unwrap(), garbage);

    let foreign = dir.path().join("foreign.sqlite");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE accounts (id INTEGER);")
        .unwrap();
    let before = std::fs::read(&foreign).unwrap();
    let e = open(&Location::Sqlite(foreign.clone()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("holds no yardstick history"), "{e}");
    assert_eq!(std::fs::read(&foreign).unwrap(), before);
}

/// A history with one run, then changed by `sql` behind yardstick's back
/// (hooks of a hostile file); its bytes after the change.
fn tampered(dir: &Path, sql: &str) -> (std::path::PathBuf, Vec<u8>) {
    let path = dir.join(format!("h{}.sqlite", sql.len()));
    open_at(&path)
        .add(&entry(&run("parse", 2.0, "abc")))
        .unwrap();
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute_batch(sql).unwrap();
    c.pragma_update(None, "wal_checkpoint", "TRUNCATE").unwrap();
    drop(c);
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

#[test]
fn a_history_whose_schema_runs_code_or_stands_in_for_tables_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)";
    for (sql, says) in [
        // A trigger on every write that never ends.
        (
            format!(
                "CREATE TRIGGER spin AFTER INSERT ON yardstick_runs BEGIN \
                 SELECT count(*) FROM ({endless} SELECT x FROM c); END;"
            ),
            "it holds the trigger `spin`",
        ),
        // A view in place of the runs that never ends.
        (
            format!(
                "ALTER TABLE yardstick_runs RENAME TO r0; \
                 CREATE VIEW yardstick_runs AS {endless} SELECT r0.* FROM r0, c;"
            ),
            "schema",
        ),
        // A view in place of the figures that halves every median.
        (
            "ALTER TABLE yardstick_figures RENAME TO f0; \
             CREATE VIEW yardstick_figures AS SELECT run_id, key, errors, median / 2 AS median, \
             x_calib, p95, p99, instructions, estimated_cycles, rps FROM f0;"
                .to_string(),
            "schema",
        ),
        // A table of the right name whose median is computed.
        (
            "DROP INDEX yardstick_figures_by_key; DROP TABLE yardstick_figures; \
             CREATE TABLE yardstick_figures (run_id TEXT NOT NULL, key TEXT NOT NULL, \
             errors BIGINT NOT NULL, raw DOUBLE PRECISION, \
             median DOUBLE PRECISION GENERATED ALWAYS AS (raw / 2), x_calib DOUBLE PRECISION, \
             p95 DOUBLE PRECISION, p99 DOUBLE PRECISION, instructions DOUBLE PRECISION, \
             estimated_cycles DOUBLE PRECISION, rps DOUBLE PRECISION, PRIMARY KEY (run_id, key)); \
             CREATE INDEX yardstick_figures_by_key ON yardstick_figures (key);"
                .to_string(),
            "its schema differs from a history's: it has the table `yardstick_figures`",
        ),
        // A table more.
        (
            "CREATE TABLE notes (text TEXT);".to_string(),
            "it holds the table `notes`",
        ),
    ] {
        let (path, before) = tampered(dir.path(), &sql);
        for opened in [
            open(&Location::Sqlite(path.clone())),
            open_existing(&Location::Sqlite(path.clone())),
        ] {
            let e = opened.err().map(|e| e.to_string()).unwrap_or_default();
            assert!(
                e.contains(says) && e.contains("left as it is") && !e.contains('\n'),
                "{sql}: {e}"
            );
        }
        assert_eq!(std::fs::read(&path).unwrap(), before, "{sql}");
    }
}

#[test]
fn an_empty_file_is_no_history_to_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.sqlite");
    std::fs::write(&path, b"").unwrap();
    let e = open_existing(&Location::Sqlite(path.clone()))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        e.contains("empty.sqlite: an empty database, not a history"),
        "{e}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"");
    // To record into, it becomes one.
    assert!(open(&Location::Sqlite(path)).is_ok());
}

#[test]
fn a_history_of_a_newer_schema_is_refused_never_downgraded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    open_at(&path)
        .add(&entry(&run("parse", 2.0, "abc")))
        .unwrap();
    let future = schema::current() + 1;
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            &format!("UPDATE {} SET version = ?1", schema::VERSION_TABLE),
            [future],
        )
        .unwrap();
    let e = open(&Location::Sqlite(path.clone()))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains(&format!("schema version {future}")), "{e}");
    let version: u32 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row(
            &format!("SELECT version FROM {}", schema::VERSION_TABLE),
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(version, future);
}

#[test]
fn an_older_history_is_upgraded_in_place_and_keeps_its_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite");
    // A history of schema version 1, made as version 1 made it.
    let old = rusqlite::Connection::open(&path).unwrap();
    old.execute_batch(&format!(
        "CREATE TABLE {} (version INTEGER NOT NULL); INSERT INTO {} VALUES (1); {}",
        schema::VERSION_TABLE,
        schema::VERSION_TABLE,
        schema::MIGRATIONS[0]
    ))
    .unwrap();
    old.execute(
        "INSERT INTO yardstick_runs (id, tool, mode, metric, machine_class, count_setup, \
         git_commit, branch, started, params, recorded, text) \
         VALUES ('ab12cd34ef', 'yardstick', 'micro', 'time', '', '', '', '', \
         '2026-01-01T00:00:00Z', '{}', '2026-01-01T00:00:00Z', '{}')",
        [],
    )
    .unwrap();
    old.execute(
        "INSERT INTO yardstick_figures (run_id, key, errors, median) \
         VALUES ('ab12cd34ef', 'parse', 0, 1.0)",
        [],
    )
    .unwrap();
    drop(old);
    let mut history = open_at(&path);
    assert_eq!(history.find("ab12cd34").unwrap().text, "{}");
    let mut e = entry(&run("parse", 2.0, "abc"));
    e.columns.bench = "micro".into();
    assert_eq!(history.add(&e).unwrap(), Added::New);
    let micro = Filter {
        bench: Some("micro".into()),
        ..Filter::default()
    };
    assert_eq!(history.list(&micro).unwrap().len(), 1);
    // The row kept at version 1 reads back unmarked beside a marked one.
    old_row_and_injected_row_trend(&mut *history);
    let version: u32 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row(
            &format!("SELECT version FROM {}", schema::VERSION_TABLE),
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(version, schema::current());
}

/// Adds a run made with an injected slowdown to `history`, which holds a
/// run of `parse` (median 1.0) kept at version 1 and one (2.0) added
/// since: the trend gives all three, only the last marked, with its knob.
fn old_row_and_injected_row_trend(history: &mut dyn Store) {
    let mut injected = run("parse", 3.0, "def");
    if let crate::document::settings::Settings::Micro(s) = &mut injected.settings {
        s.inject = Some("parse:10".into());
    }
    assert_eq!(history.add(&entry(&injected)).unwrap(), Added::New);
    let points = history
        .trend("parse", Figure::Median, &Filter::default())
        .unwrap();
    let seen: Vec<(f64, &str)> = points
        .iter()
        .map(|p| (p.value, p.injected.as_str()))
        .collect();
    assert_eq!(seen, [(1.0, ""), (2.0, ""), (3.0, "parse:10")]);
}

#[test]
fn runs_of_one_second_keep_the_order_they_were_recorded_in() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open_at(&dir.path().join("h.sqlite"));
    // Ids are hashes: added in an order that is neither theirs nor its
    // reverse.
    let mut entries: Vec<Entry> = (0..6)
        .map(|i| {
            let mut r = run("parse", 2.0, &format!("c{i}"));
            r.started = "2026-12-01T10:00:00Z".into();
            entry(&r)
        })
        .collect();
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    let entries: Vec<Entry> = [0, 5, 1, 4, 2, 3]
        .iter()
        .map(|&i| entries[i].clone())
        .collect();
    for e in &entries {
        history.add(e).unwrap();
        // Recording times are read from the clock: a tick apart.
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let listed: Vec<String> = history
        .list(&Filter::default())
        .unwrap()
        .into_iter()
        .map(|l| l.id)
        .collect();
    let added: Vec<String> = entries.iter().rev().map(|e| e.id.clone()).collect();
    assert_eq!(listed, added);
    let trend = history.trend("parse", Figure::Median, &Filter::default());
    let ids: Vec<String> = trend.unwrap().into_iter().map(|p| p.id).collect();
    let oldest_first: Vec<String> = entries.iter().map(|e| e.id.clone()).collect();
    assert_eq!(ids, oldest_first);
}

#[test]
fn a_bench_names_its_run_when_the_file_came_first_and_only_then() {
    let dir = tempfile::tempdir().unwrap();
    let mut history = open_at(&dir.path().join("h.sqlite"));
    let from_file = entry(&run("parse", 2.0, "c0"));
    history.add(&from_file).unwrap();
    let mut by_bench = from_file.clone();
    by_bench.columns.bench = "micro".into();
    assert_eq!(history.add(&by_bench).unwrap(), Added::Already);
    let micro = Filter {
        bench: Some("micro".into()),
        ..Filter::default()
    };
    let listed = history.list(&micro).unwrap();
    assert_eq!((listed.len(), listed[0].rows), (1, 1));
    // Another bench does not take a run that has a name.
    by_bench.columns.bench = "other".into();
    history.add(&by_bench).unwrap();
    assert_eq!(history.list(&micro).unwrap().len(), 1);
}
