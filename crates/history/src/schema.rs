//! The history's tables, the same on every back end, created and upgraded
//! by numbered migrations.
//!
//! Migration N (counting from 1) takes a store from version N - 1 to N; a
//! store records the version it is at in `yardstick_schema`. A store of a
//! version this build does not know was made by a newer yardstick and is
//! refused, never downgraded. Migrations only add: a migration once
//! released is never edited, since stores out there already ran it.
//!
//! The SQL is the common ground of SQLite and PostgreSQL: `TEXT`,
//! `BIGINT` and `DOUBLE PRECISION` (SQLite's REAL affinity).

/// Each migration's statements, in order; the store's version is how
/// many of them it has run.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: runs, stored whole, and one line per row for queries.
    "CREATE TABLE yardstick_runs (
        id TEXT PRIMARY KEY,
        tool TEXT NOT NULL,
        mode TEXT NOT NULL,
        metric TEXT NOT NULL,
        machine_class TEXT NOT NULL,
        count_setup TEXT NOT NULL,
        git_commit TEXT NOT NULL,
        branch TEXT NOT NULL,
        started TEXT NOT NULL,
        params TEXT NOT NULL,
        recorded TEXT NOT NULL,
        text TEXT NOT NULL
    );
    CREATE INDEX yardstick_runs_by_kind ON yardstick_runs (mode, metric, machine_class, started);
    CREATE INDEX yardstick_runs_by_commit ON yardstick_runs (git_commit);
    CREATE TABLE yardstick_figures (
        run_id TEXT NOT NULL REFERENCES yardstick_runs (id),
        key TEXT NOT NULL,
        errors BIGINT NOT NULL,
        median DOUBLE PRECISION,
        x_calib DOUBLE PRECISION,
        p95 DOUBLE PRECISION,
        p99 DOUBLE PRECISION,
        instructions DOUBLE PRECISION,
        estimated_cycles DOUBLE PRECISION,
        rps DOUBLE PRECISION,
        PRIMARY KEY (run_id, key)
    );
    CREATE INDEX yardstick_figures_by_key ON yardstick_figures (key);",
    // 2: the bench a run came from (`micro` for benches/micro.rs), so that
    // two benches of one mode keep apart; empty for runs added from files.
    "ALTER TABLE yardstick_runs ADD COLUMN bench TEXT NOT NULL DEFAULT '';",
    // 3: the slowdown a run was made with (`YARDSTICK_INJECT`), so that a
    // trend marks the runs made worse on purpose; empty for the others,
    // and for the runs recorded before it.
    "ALTER TABLE yardstick_runs ADD COLUMN injected TEXT NOT NULL DEFAULT '';",
];

/// The version this build reads and writes.
pub(crate) fn current() -> u32 {
    MIGRATIONS.len() as u32
}

/// The table that holds a store's version; a database without it holds
/// no history of ours. Every table's name starts `yardstick_`, so a
/// history can share a PostgreSQL database with a team's own tables.
pub(crate) const VERSION_TABLE: &str = "yardstick_schema";

/// The migrations a store at version `found` still needs; a store of a
/// newer version is refused.
pub(crate) fn pending(found: u32) -> Result<&'static [&'static str], String> {
    MIGRATIONS.get(found as usize..).ok_or_else(|| newer(found))
}

/// The refusal of a store made by a newer yardstick.
fn newer(found: u32) -> String {
    format!(
        "a history of schema version {found}, newer than this yardstick's {}: \
         use a newer yardstick (the history is left as it is)",
        current()
    )
}
