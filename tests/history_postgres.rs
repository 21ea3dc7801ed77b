//! The history on a real PostgreSQL server: the same promises as on
//! SQLite (byte-equal, once, filters, trend), two writers at once, and a
//! history of a newer schema refused. The server comes from the
//! environment libpq reads (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`):
//! `.ci/run` runs the tests under `pg_virtualenv`, which makes a cluster
//! and sets them, and names `postgres` in `YARDSTICK_REQUIRE_TOOLS`, so
//! there a missing server fails the tests instead of skipping them.

mod common;

use common::{check, needing, run, yardstick};
use libtest_mimic::Failed;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Whether a server is there: the variables libpq reads, and its tools.
fn server() -> bool {
    std::env::var_os("PGHOST").is_some()
        && Command::new("createdb").arg("--version").output().is_ok()
}

/// A database of its own for one test, dropped at the end.
struct Database {
    name: String,
}

impl Database {
    /// A database of its own for `test` (which runs only where a server
    /// was found: [`server`]).
    fn create(test: &str) -> Database {
        let name = format!("yardstick_{test}_{}", std::process::id());
        let made = Command::new("createdb").arg(&name).status();
        assert!(made.is_ok_and(|s| s.success()), "createdb {name} failed");
        Database { name }
    }

    fn url(&self) -> String {
        format!("--history=postgres:///{}?sslmode=disable", self.name)
    }

    /// Runs `sql`; what it printed, unaligned.
    fn psql(&self, sql: &str) -> String {
        let ran = Command::new("psql")
            .args(["-qtA", "-v", "ON_ERROR_STOP=1", "-d", &self.name, "-c", sql])
            .output()
            .expect("psql runs");
        assert!(ran.status.success(), "psql: {sql}");
        String::from_utf8_lossy(&ran.stdout).trim().to_string()
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        let _ = Command::new("dropdb").arg(&self.name).status();
    }
}

fn history(db: &Database, args: &[&str]) -> Command {
    let mut cmd = yardstick();
    cmd.arg("history").args(args).arg(db.url());
    cmd
}

/// `n` different runs made from the committed micro run: each its own
/// start, so each its own text and id.
fn runs(dir: &Path, tag: &str, n: usize) -> Vec<PathBuf> {
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exp-benchmark/micro.json");
    let text = std::fs::read_to_string(&fixture).expect("the fixture");
    (0..n)
        .map(|i| {
            let path = dir.join(format!("{tag}-{i}.json"));
            let changed = text.replacen(
                "\"machine\":",
                &format!("\"note_{tag}_{i}\": 1, \"machine\":"),
                1,
            );
            std::fs::write(&path, changed).expect("a run written");
            path
        })
        .collect()
}

fn kept_runs_read_back_byte_equal_once_and_trend() -> Result<(), Failed> {
    let db = Database::create("kept");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exp-benchmark");
    let micro = fixtures.join("micro.json");
    let http = fixtures.join("http.json");
    let paths = [micro.to_str().unwrap_or(""), http.to_str().unwrap_or("")];
    let ran = run(history(&db, &["add", paths[0], paths[1]]));
    check(
        ran.code == 0 && ran.stdout.matches("added").count() == 2,
        "both added",
        &ran,
    )?;
    let again = run(history(&db, &["add", paths[0]]));
    check(
        again.stdout.contains("already there"),
        "the same file is kept once",
        &again,
    )?;
    let listed = run(history(&db, &["list", "--csv"]));
    check(
        listed.stdout.lines().count() == 3,
        "two runs listed",
        &listed,
    )?;
    let micro_id = listed
        .stdout
        .lines()
        .find(|l| l.contains(",micro,"))
        .and_then(|l| l.split(',').next())
        .unwrap_or_default()
        .to_string();
    let shown = run(history(&db, &["show", &micro_id[..8], "--json"]));
    check(
        shown.code == 0 && shown.stdout.as_bytes() == std::fs::read(&micro)?.as_slice(),
        "the kept run is the file, byte for byte",
        &shown,
    )?;
    let http_only = run(history(&db, &["list", "--mode=http", "--csv"]));
    check(
        http_only.stdout.lines().count() == 2,
        "a filter narrows",
        &http_only,
    )?;
    Ok(())
}

fn two_writers_at_once_lose_nothing_and_duplicate_nothing() -> Result<(), Failed> {
    let db = Database::create("writers");
    let dir = tempfile::tempdir()?;
    let shared = runs(dir.path(), "shared", 30);
    let writers: Vec<_> = ["a", "b"]
        .iter()
        .map(|tag| {
            let mut files = runs(dir.path(), tag, 120);
            files.extend(shared.iter().cloned());
            let mut cmd = history(&db, &["add"]);
            cmd.args(&files)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            cmd.spawn().expect("a writer starts")
        })
        .collect();
    for writer in writers {
        let out = writer.wait_with_output()?;
        assert!(out.status.success(), "a writer failed");
    }
    let listed = run(history(&db, &["list", "--csv"]));
    check(
        listed.stdout.lines().count() == 1 + 2 * 120 + 30,
        "every run once",
        &listed,
    )?;
    Ok(())
}

fn a_history_of_a_newer_schema_is_refused() -> Result<(), Failed> {
    let db = Database::create("newer");
    let ran = run(history(&db, &["list"]));
    check(ran.code == 0, "an empty history lists nothing", &ran)?;
    let _ = db.psql("UPDATE yardstick_schema SET version = 99");
    let ran = run(history(&db, &["list"]));
    check(
        ran.code == 2 && ran.stderr.contains("schema version 99"),
        "refused, naming the version",
        &ran,
    )?;
    let version = db.psql("SELECT version FROM yardstick_schema");
    check(version == "99", "and never downgraded", &ran)?;
    Ok(())
}

/// What differs between the back ends' SQL: the newest N of a trend (a
/// subquery), runs of one start second in the order recorded, the bench
/// filter and the bench named on a run there already, and a page drawn.
fn trends_benches_and_pages_on_the_server() -> Result<(), Failed> {
    let db = Database::create("trend");
    let dir = tempfile::tempdir()?;
    // One start second for all: the order is the order recorded.
    let files = runs(dir.path(), "t", 4);
    for file in &files {
        let ran = run(history(&db, &["add", file.to_str().unwrap_or("")]));
        check(ran.code == 0, "added", &ran)?;
    }
    let listed = run(history(&db, &["list", "--json", "--limit=2"]));
    let newest: serde_json::Value = serde_json::from_str(&listed.stdout)?;
    let class = format!(
        "--class={}",
        newest[0]["machine_class"].as_str().unwrap_or("")
    );
    let newest: Vec<&str> = newest
        .as_array()
        .map(|a| a.iter().rev().filter_map(|l| l["id"].as_str()).collect())
        .unwrap_or_default();
    let page = dir.path().join("trend.html");
    let html = format!("--html={}", page.display());
    let args = ["trend", "ini_parse", &class, "--limit=2", "--json", &html];
    let ran = run(history(&db, &args));
    check(ran.code == 0, "trend exits 0", &ran)?;
    let doc: serde_json::Value = serde_json::from_str(&ran.stdout)?;
    let ids: Vec<&str> = doc["runs"]
        .as_array()
        .map(|a| a.iter().filter_map(|p| p["id"].as_str()).collect())
        .unwrap_or_default();
    check(
        ids.len() == 2 && ids == newest,
        "the newest two, oldest first, as list orders them",
        &ran,
    )?;
    check(
        std::fs::read_to_string(&page)?.contains("<svg"),
        "the page is drawn",
        &ran,
    )?;
    let from_files = run(history(&db, &["list", "--bench=", "--csv"]));
    check(
        from_files.stdout.lines().count() == 5,
        "every run came from a file",
        &from_files,
    )?;
    name_a_bench(&db, &files[0])?;
    let by_bench = run(history(&db, &["list", "--bench=micro", "--csv"]));
    check(
        by_bench.stdout.lines().count() == 2,
        "a run recorded by a bench after its file was added takes the bench's name",
        &by_bench,
    )
}

/// Adds `file` again as the bench `micro` records it, through the library.
fn name_a_bench(db: &Database, file: &Path) -> Result<(), Failed> {
    use yardstick_history::{Entry, Location};
    let url = format!("postgres:///{}?sslmode=disable", db.name);
    let location = Location::chosen(Some(&url), PathBuf::new)?;
    let mut store = yardstick_history::open(&location)?;
    let text = std::fs::read_to_string(file)?;
    let run = yardstick::document::store::load(file)?;
    let mut entry = Entry::new(text, &run, "");
    entry.columns.bench = "micro".into();
    store.add(&entry)?;
    Ok(())
}

fn main() {
    let found = server();
    common::run_trials(vec![
        needing(
            "postgres",
            found,
            "kept_runs_read_back_byte_equal_once_and_trend",
            kept_runs_read_back_byte_equal_once_and_trend,
        ),
        needing(
            "postgres",
            found,
            "two_writers_at_once_lose_nothing_and_duplicate_nothing",
            two_writers_at_once_lose_nothing_and_duplicate_nothing,
        ),
        needing(
            "postgres",
            found,
            "a_history_of_a_newer_schema_is_refused",
            a_history_of_a_newer_schema_is_refused,
        ),
        needing(
            "postgres",
            found,
            "trends_benches_and_pages_on_the_server",
            trends_benches_and_pages_on_the_server,
        ),
    ]);
}
