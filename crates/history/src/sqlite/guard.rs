//! What keeps a hostile SQLite file from running code or lying: a history
//! file may come from anywhere (a cache, an artifact of another job), and
//! SQLite runs what the file's schema says. A trigger runs on every write,
//! a view on every read, and a view named like a table stands in for it.
//!
//! So the connection is defensive (no writes to the schema through SQL),
//! trusts no function the schema names, and stops any statement that runs
//! past [`STATEMENT_LIMIT`]; and a file is used only when its schema is
//! exactly the one this build's migrations make, object for object and
//! statement for statement.

use super::super::schema::{MIGRATIONS, VERSION_TABLE};
use rusqlite::Connection;
use rusqlite::config::DbConfig;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The longest one operation on the history may run. A real history
/// answers in milliseconds (its queries are indexed); only a damaged or
/// hostile file gets near this.
pub(super) const STATEMENT_LIMIT: Duration = Duration::from_secs(60);

/// How many virtual-machine steps SQLite runs between two looks at the
/// clock: often enough to stop within milliseconds, rarely enough to cost
/// nothing.
const STEPS_BETWEEN_LOOKS: i32 = 10_000;

/// The clock of the operation under way: [`Budget::renew`] starts an
/// operation, and SQLite's progress handler stops a statement once the
/// operation's limit has passed.
#[derive(Clone)]
pub(super) struct Budget {
    base: Instant,
    limit: Duration,
    /// Milliseconds after `base` when the operation under way must end.
    deadline: Arc<AtomicU64>,
}

impl Budget {
    pub fn new(limit: Duration) -> Budget {
        let budget = Budget {
            base: Instant::now(),
            limit,
            deadline: Arc::new(AtomicU64::new(0)),
        };
        budget.renew();
        budget
    }

    /// Starts the clock of a new operation.
    pub fn renew(&self) {
        let end = self.base.elapsed().saturating_add(self.limit);
        let ms = u64::try_from(end.as_millis()).unwrap_or(u64::MAX);
        self.deadline.store(ms, Ordering::Relaxed);
    }

    /// The operation's limit, for a message.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    fn passed(&self) -> bool {
        let now = u64::try_from(self.base.elapsed().as_millis()).unwrap_or(u64::MAX);
        now > self.deadline.load(Ordering::Relaxed)
    }
}

/// Makes `c` defensive before it reads anything of the file: no schema
/// writes through SQL, no function of the schema trusted, every statement
/// bounded by `budget`.
pub(super) fn harden(c: &Connection, budget: &Budget) -> rusqlite::Result<()> {
    c.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)?;
    c.set_db_config(DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false)?;
    let budget = budget.clone();
    c.progress_handler(STEPS_BETWEEN_LOOKS, Some(move || budget.passed()))
}

/// One entry of `sqlite_master`: its type, name, table and statement.
type Object = (String, String, String, Option<String>);

/// Every object of the file's schema, in a fixed order. SQLite's own
/// statistics tables (`ANALYZE`) are left out: they steer the planner and
/// change no answer.
pub(super) fn objects(c: &Connection) -> rusqlite::Result<Vec<Object>> {
    let mut s = c.prepare(
        "SELECT type, name, tbl_name, sql FROM sqlite_master \
         WHERE name NOT LIKE 'sqlite\\_stat%' ESCAPE '\\' ORDER BY type, name",
    )?;
    let all = s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    all.collect()
}

/// Refuses a schema that is not exactly the one a history of `version`
/// has: another object (a trigger, a view, a table), a missing one, or
/// one made by another statement (a view where a table belongs, a column
/// computed from another).
pub(super) fn check_schema(found: &[Object], version: u32) -> Result<(), String> {
    let expected = reference(version).map_err(|e| format!("cannot check its schema: {e}"))?;
    let strange = |(kind, name, ..): &Object, what: &str| {
        format!(
            "{what} {kind} `{}`, which a history of schema version {version} does not have; \
             it is left as it is",
            crate::text::cleaned(name)
        )
    };
    if let Some(extra) = found.iter().find(|o| !expected.contains(o)) {
        let named = expected.iter().any(|e| e.1 == extra.1);
        return Err(if named {
            strange(extra, "its schema differs from a history's: it has the")
        } else {
            strange(extra, "it holds the")
        });
    }
    if let Some((kind, name, ..)) = expected.iter().find(|o| !found.contains(o)) {
        return Err(format!(
            "it lacks the {kind} `{name}` of a history of schema version {version}; \
             it is left as it is"
        ));
    }
    Ok(())
}

/// The schema a history of `version` has: this build's migrations run
/// up to it on a database in memory, by the same SQLite.
fn reference(version: u32) -> rusqlite::Result<Vec<Object>> {
    let c = Connection::open_in_memory()?;
    c.execute_batch(&create_version_table())?;
    for sql in MIGRATIONS.iter().take(version as usize) {
        c.execute_batch(sql)?;
    }
    objects(&c)
}

/// The statement that makes the table holding the version.
pub(super) fn create_version_table() -> String {
    format!("CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER NOT NULL);")
}

/// Whether `e` is a statement stopped by the budget.
pub(super) fn interrupted(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_past_its_budget_is_stopped() {
        let c = Connection::open_in_memory().unwrap();
        let budget = Budget::new(Duration::from_millis(50));
        harden(&c, &budget).unwrap();
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) \
                       SELECT count(*) FROM c";
        let e = c
            .query_row(endless, [], |r| r.get::<_, i64>(0))
            .unwrap_err();
        assert!(interrupted(&e), "{e}");
        // A new operation gets a new budget.
        budget.renew();
        let one: i64 = c.query_row("SELECT 1", [], |r| r.get(0)).unwrap();
        assert_eq!(one, 1);
    }

    #[test]
    fn the_schema_of_each_version_is_its_own_reference() {
        for version in 0..=MIGRATIONS.len() as u32 {
            let objects = reference(version).unwrap();
            assert_eq!(check_schema(&objects, version), Ok(()));
        }
        let v1 = reference(1).unwrap();
        let e = check_schema(&v1, 2).unwrap_err();
        assert!(e.contains("differs") && e.contains("yardstick_runs"), "{e}");
    }
}
