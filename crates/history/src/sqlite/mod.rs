//! The embedded back end: one SQLite file, in WAL mode so that readers
//! never wait for a writer, with a generous busy timeout so that two jobs
//! writing at once take turns instead of failing. A file is used only
//! when its schema is a history's, on a defensive connection (`guard.rs`).

mod guard;

use super::entry::Entry;
use super::query::{Statement, Value};
use super::row::{FromRow, Row};
use super::schema::{self, VERSION_TABLE};
use super::write;
use super::{Added, Backend};
use crate::error::Error;
use rusqlite::{Connection, OpenFlags, TransactionBehavior, params_from_iter};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a writer waits for another one before it gives up.
const BUSY: Duration = Duration::from_secs(60);

pub(crate) struct Sqlite {
    connection: Connection,
    path: PathBuf,
    shown: String,
    budget: guard::Budget,
}

impl Sqlite {
    /// Opens the history at `path`, or creates it when `create` says so.
    /// A file that is not a SQLite database, or whose schema is not a
    /// history's, is refused and never written; and so is an empty
    /// database, unless `create`.
    pub fn open(path: &Path, create: bool) -> Result<Sqlite, Error> {
        let shown = path.display().to_string();
        let fail = |m: String| Error::input(format!("{shown}: {m}"));
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| fail(format!("cannot make its folder: {e}")))?;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let connection = Connection::open_with_flags(path, flags)
            .map_err(|e| fail(format!("cannot open: {}", said(path, &e))))?;
        let budget = guard::Budget::new(guard::STATEMENT_LIMIT);
        connection
            .busy_timeout(BUSY)
            .and_then(|()| guard::harden(&connection, &budget))
            .map_err(|e| fail(format!("cannot open: {e}")))?;
        let mut store = Sqlite {
            connection,
            path: path.to_path_buf(),
            shown: shown.clone(),
            budget,
        };
        store.migrate(create).map_err(fail)?;
        Ok(store)
    }

    /// Creates the tables (when `create`), or brings them to this build's
    /// version, once the file's schema is known to be a history's.
    fn migrate(&mut self, create: bool) -> Result<(), String> {
        let path = self.path.clone();
        let cannot_write = |e: rusqlite::Error| format!("cannot write: {}", said(&path, &e));
        let c = &mut self.connection;
        // The first read of the file: a file that is no database fails here,
        // before anything is written.
        let objects = guard::objects(c)
            .map_err(|e| format!("not a readable SQLite database ({e}); it is left as it is"))?;
        let ours = objects
            .iter()
            .any(|(kind, name, ..)| kind == "table" && name == VERSION_TABLE);
        if !ours && !objects.is_empty() {
            return Err(
                "a SQLite database that holds no yardstick history; it is left as it is"
                    .to_string(),
            );
        }
        if !ours && !create {
            return Err(
                "an empty database, not a history (runs are kept with --record, or \
                 history add); it is left as it is"
                    .to_string(),
            );
        }
        if ours {
            let found = version(c)?;
            // Refused before anything, the journal mode too, is written.
            let pending = schema::pending(found)?;
            guard::check_schema(&objects, found)?;
            if pending.is_empty() {
                return Ok(());
            }
        }
        let mode = wal(c).map_err(|e| format!("cannot set WAL mode: {}", said(&path, &e)))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(format!(
                "cannot keep a history here: SQLite gave journal mode {mode}, not WAL \
                 (a network file system?)"
            ));
        }
        let tx = c
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(cannot_write)?;
        tx.execute_batch(&guard::create_version_table())
            .map_err(cannot_write)?;
        // Another process may have migrated it meanwhile: read it again,
        // inside the transaction.
        let found = match version(&tx) {
            Ok(v) => v,
            Err(_) => {
                tx.execute(&format!("INSERT INTO {VERSION_TABLE} VALUES (0)"), [])
                    .map_err(cannot_write)?;
                0
            }
        };
        for sql in schema::pending(found)? {
            tx.execute_batch(sql)
                .map_err(|e| format!("cannot upgrade its tables: {e}"))?;
        }
        tx.execute(
            &format!("UPDATE {VERSION_TABLE} SET version = ?1"),
            [schema::current()],
        )
        .and_then(|_| tx.commit())
        .map_err(cannot_write)
    }

    fn failed(&self, what: &str, e: rusqlite::Error) -> Error {
        failed(&self.path, &self.budget, what, &e)
    }
}

/// SQLite's words for `e` on the history at `path`, with the reason where
/// SQLite's own hides it: "attempt to write a readonly database" when it
/// is the folder that cannot be written, where SQLite keeps the history's
/// journal (`-wal`, `-shm`). Read from the permission bits, so that it
/// holds for any user.
fn said(path: &Path, e: &rusqlite::Error) -> String {
    use rusqlite::ErrorCode::{CannotOpen, ReadOnly};
    if !matches!(e.sqlite_error_code(), Some(ReadOnly | CannotOpen)) {
        return e.to_string();
    }
    let folder = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if read_only(path) {
        format!("{e} (the file is read-only)")
    } else if read_only(folder) {
        format!(
            "{e} (its folder {} is read-only, and SQLite keeps the history's journal, \
             -wal and -shm, beside the file)",
            folder.display()
        )
    } else {
        e.to_string()
    }
}

/// Whether `p` cannot be written: by this process (a folder owned by
/// another user, a read-only mount), or by anyone (no write bit, which is
/// what root, whom no permission stops, is told).
fn read_only(p: &Path) -> bool {
    let no_write_bit = std::fs::metadata(p).is_ok_and(|m| m.permissions().readonly());
    no_write_bit || denied_to_us(p)
}

#[cfg(unix)]
fn denied_to_us(p: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(p.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a NUL-terminated path that faccessat(2) only reads.
    let failed =
        unsafe { libc::faccessat(libc::AT_FDCWD, c.as_ptr(), libc::W_OK, libc::AT_EACCESS) };
    failed != 0
        && matches!(
            std::io::Error::last_os_error().raw_os_error(),
            Some(libc::EACCES | libc::EROFS | libc::EPERM)
        )
}

#[cfg(not(unix))]
fn denied_to_us(_: &Path) -> bool {
    false
}

/// The one-line error of an operation on the history at `path` that failed.
fn failed(path: &Path, budget: &guard::Budget, what: &str, e: &rusqlite::Error) -> Error {
    let shown = path.display();
    if guard::interrupted(e) {
        return Error::input(format!(
            "{shown}: cannot {what}: stopped after {} s (a damaged or hostile history?)",
            budget.limit().as_secs()
        ));
    }
    Error::input(format!("{shown}: cannot {what}: {}", said(path, e)))
}

/// Asks for WAL mode, and returns the mode SQLite gives. Changing the mode
/// needs the file to itself, and SQLite answers "locked" at once instead of
/// calling the busy handler: two jobs that create one history together
/// would fail. So a locked answer is asked again, up to the busy timeout.
fn wal(c: &Connection) -> Result<String, rusqlite::Error> {
    let start = std::time::Instant::now();
    loop {
        match c.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0)) {
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && start.elapsed() < BUSY =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            other => return other,
        }
    }
}

/// The schema version recorded in the store.
fn version(c: &Connection) -> Result<u32, String> {
    c.query_row(&format!("SELECT version FROM {VERSION_TABLE}"), [], |r| {
        r.get::<_, i64>(0)
    })
    .map_err(|e| format!("no readable schema version ({e})"))
    .map(|v| u32::try_from(v).unwrap_or(u32::MAX))
}

impl write::Writer for rusqlite::Transaction<'_> {
    type Error = rusqlite::Error;
    fn execute(&mut self, statement: &Statement) -> rusqlite::Result<u64> {
        let changed = rusqlite::Connection::execute(
            self,
            &statement.sql,
            params_from_iter(bind(&statement.values)),
        )?;
        Ok(changed as u64)
    }
    fn execute_each(&mut self, sql: &str, each: &[Vec<Value>]) -> rusqlite::Result<()> {
        let mut prepared = self.prepare(sql)?;
        for values in each {
            prepared.execute(params_from_iter(bind(values)))?;
        }
        Ok(())
    }
}

fn bind(values: &[Value]) -> Vec<rusqlite::types::Value> {
    use rusqlite::types::Value as Sql;
    values
        .iter()
        .map(|v| match v {
            Value::Text(t) => Sql::Text(t.clone()),
            Value::Int(i) => Sql::Integer(*i),
            Value::Real(Some(x)) => Sql::Real(*x),
            Value::Real(None) => Sql::Null,
        })
        .collect()
}

impl Row for rusqlite::Row<'_> {
    type Error = rusqlite::Error;
    fn text(&self, i: usize) -> rusqlite::Result<String> {
        self.get(i)
    }
    fn int(&self, i: usize) -> rusqlite::Result<i64> {
        self.get(i)
    }
    fn real(&self, i: usize) -> rusqlite::Result<f64> {
        self.get(i)
    }
}

impl Backend for Sqlite {
    fn shown(&self) -> &str {
        &self.shown
    }

    fn placeholder(n: usize) -> String {
        format!("?{n}")
    }

    fn record(&mut self, entry: &Entry) -> Result<Added, Error> {
        self.budget.renew();
        let (path, budget) = (self.path.clone(), self.budget.clone());
        let fail = |e: rusqlite::Error| failed(&path, &budget, "record", &e);
        let mut tx = self
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        let added = write::add(&mut tx, entry, Self::placeholder).map_err(fail)?;
        tx.commit().map_err(fail)?;
        Ok(added)
    }

    /// Each query has the statement limit to itself.
    fn select<T: FromRow>(&mut self, statement: &Statement) -> Result<Vec<T>, Error> {
        self.budget.renew();
        self.connection
            .prepare(&statement.sql)
            .and_then(|mut s| {
                s.query_map(params_from_iter(bind(&statement.values)), |r| T::read(r))?
                    .collect()
            })
            .map_err(|e| self.failed("read", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn sqlite_error(code: std::ffi::c_int, message: &str) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), Some(message.into()))
    }

    /// Told by the permission bits, so that it holds even for root, whom
    /// no permission stops.
    #[test]
    fn a_read_only_folder_or_file_is_named_as_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("kept");
        std::fs::create_dir(&folder).unwrap();
        let file = folder.join("history.sqlite");
        std::fs::write(&file, "").unwrap();
        let read_only = sqlite_error(
            rusqlite::ffi::SQLITE_READONLY,
            "attempt to write a readonly database",
        );
        assert_eq!(
            said(&file, &read_only),
            "attempt to write a readonly database"
        );
        let mode = |p: &Path, m: u32| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap()
        };
        mode(&folder, 0o555);
        let why = said(&file, &read_only);
        mode(&folder, 0o755);
        assert!(
            why.contains("its folder") && why.contains("is read-only"),
            "{why}"
        );
        mode(&file, 0o444);
        assert!(said(&file, &read_only).ends_with("(the file is read-only)"));
        let other = sqlite_error(
            rusqlite::ffi::SQLITE_CORRUPT,
            "database disk image is malformed",
        );
        assert_eq!(said(&file, &other), "database disk image is malformed");
    }
}
