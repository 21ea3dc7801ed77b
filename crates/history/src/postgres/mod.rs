//! The back end for teams: a PostgreSQL server, given by a URL, through
//! the `postgres` client with rustls. The tables and the questions are
//! the ones SQLite has (`schema.rs`, `query.rs`); migrations take an
//! advisory lock, so two jobs that start on an empty database at once do
//! not both create the tables.

mod config;
mod pgpass;

use super::entry::Entry;
use super::location::Url;
use super::query::{Statement, Value};
use super::row::FromRow;
use super::schema::{self, VERSION_TABLE};
use super::write;
use super::{Added, Backend};
use crate::error::Error;
use postgres::types::ToSql;
use postgres::{Client, Row};
use std::sync::Arc;

/// The advisory lock migrations hold: any fixed number, the same in
/// every yardstick.
const MIGRATION_LOCK: i64 = 0x7961_7264_7374_6b00;

pub(crate) struct Postgres {
    client: Client,
    shown: String,
}

/// Reads `url` and the environment as a connection would, without
/// connecting.
pub(crate) fn check(url: &Url) -> Result<(), Error> {
    config::target(url)
        .map(drop)
        .map_err(|m| Error::input(format!("{}: {m}", url.shown())))
}

impl Postgres {
    /// Connects to the server `url` names and brings its tables to this
    /// build's version. An unreachable server is one line naming it.
    pub fn open(url: &Url) -> Result<Postgres, Error> {
        let shown = url.shown();
        let target = config::target(url).map_err(|m| Error::input(format!("{shown}: {m}")))?;
        let client = target.config.connect(tls()?).map_err(|e| {
            Error::input(format!(
                "{shown}: cannot reach the history at {}: {}",
                target.server,
                url.masked(&one_line(&e))
            ))
        })?;
        let mut store = Postgres { client, shown };
        store.migrate()?;
        Ok(store)
    }

    fn failed(&self, what: &str, e: &postgres::Error) -> Error {
        Error::input(format!("{}: cannot {what}: {}", self.shown, one_line(e)))
    }

    fn migrate(&mut self) -> Result<(), Error> {
        let shown = self.shown.clone();
        let fail = |what: &str, e: postgres::Error| {
            Error::input(format!("{shown}: cannot {what}: {}", one_line(&e)))
        };
        let mut tx = self.client.transaction().map_err(|e| fail("write", e))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .map_err(|e| fail("write", e))?;
        let exists = |tx: &mut postgres::Transaction<'_>, table: &str| {
            tx.query_one("SELECT to_regclass($1) IS NOT NULL", &[&table])
                .and_then(|r| r.try_get::<_, bool>(0))
        };
        let ours = exists(&mut tx, VERSION_TABLE).map_err(|e| fail("read", e))?;
        let found: u32 = if ours {
            let row = tx
                .query_one(&format!("SELECT version FROM {VERSION_TABLE}"), &[])
                .map_err(|e| fail("read its schema version", e))?;
            let version: i32 = row
                .try_get(0)
                .map_err(|e| fail("read its schema version", e))?;
            u32::try_from(version).unwrap_or(u32::MAX)
        } else {
            if exists(&mut tx, "yardstick_runs").map_err(|e| fail("read", e))? {
                return Err(Error::input(format!(
                    "{shown}: a yardstick_runs table without a schema version; it is left as it is"
                )));
            }
            tx.batch_execute(&format!(
                "CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL); \
                 INSERT INTO {VERSION_TABLE} VALUES (0);"
            ))
            .map_err(|e| fail("write", e))?;
            0
        };
        let pending = schema::pending(found).map_err(|m| Error::input(format!("{shown}: {m}")))?;
        if pending.is_empty() {
            return Ok(());
        }
        for sql in pending {
            tx.batch_execute(sql)
                .map_err(|e| fail("upgrade its tables", e))?;
        }
        let current = i32::try_from(schema::current()).unwrap_or(i32::MAX);
        tx.execute(
            &format!("UPDATE {VERSION_TABLE} SET version = $1"),
            &[&current],
        )
        .map_err(|e| fail("write", e))?;
        tx.commit().map_err(|e| fail("write", e))
    }
}

/// The error's text, and its cause's, on one line.
fn one_line(e: &postgres::Error) -> String {
    let mut text = e.to_string();
    if let Some(source) = std::error::Error::source(e) {
        let cause = source.to_string();
        if !text.contains(&cause) {
            text = format!("{text}: {cause}");
        }
    }
    crate::text::cleaned(&text)
}

/// TLS with the system's trusted roots, verified whatever the mode.
fn tls() -> Result<tokio_postgres_rustls::MakeRustlsConnect, Error> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| Error::input(format!("TLS set-up: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

fn bind(values: &[Value]) -> Vec<Box<dyn ToSql + Sync>> {
    values
        .iter()
        .map(|v| -> Box<dyn ToSql + Sync> {
            match v {
                Value::Text(t) => Box::new(t.clone()),
                Value::Int(i) => Box::new(*i),
                Value::Real(x) => Box::new(*x),
            }
        })
        .collect()
}

impl write::Writer for postgres::Transaction<'_> {
    type Error = postgres::Error;
    fn execute(&mut self, statement: &Statement) -> Result<u64, postgres::Error> {
        let values = bind(&statement.values);
        let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v.as_ref()).collect();
        postgres::Transaction::execute(self, &statement.sql, &refs)
    }
    fn execute_each(&mut self, sql: &str, each: &[Vec<Value>]) -> Result<(), postgres::Error> {
        let prepared = self.prepare(sql)?;
        for values in each {
            let values = bind(values);
            let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v.as_ref()).collect();
            postgres::Transaction::execute(self, &prepared, &refs)?;
        }
        Ok(())
    }
}

impl super::row::Row for Row {
    type Error = postgres::Error;
    fn text(&self, i: usize) -> Result<String, postgres::Error> {
        self.try_get(i)
    }
    fn int(&self, i: usize) -> Result<i64, postgres::Error> {
        self.try_get(i)
    }
    fn real(&self, i: usize) -> Result<f64, postgres::Error> {
        self.try_get(i)
    }
}

impl Backend for Postgres {
    fn shown(&self) -> &str {
        &self.shown
    }

    fn placeholder(n: usize) -> String {
        format!("${n}")
    }

    fn record(&mut self, entry: &Entry) -> Result<Added, Error> {
        let shown = self.shown.clone();
        let fail =
            |e: postgres::Error| Error::input(format!("{shown}: cannot record: {}", one_line(&e)));
        let mut tx = self.client.transaction().map_err(fail)?;
        let added = write::add(&mut tx, entry, Self::placeholder).map_err(fail)?;
        tx.commit().map_err(fail)?;
        Ok(added)
    }

    /// The rows `statement` selects.
    fn select<T: FromRow>(&mut self, statement: &Statement) -> Result<Vec<T>, Error> {
        let values = bind(&statement.values);
        let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v.as_ref()).collect();
        self.client
            .query(&statement.sql, &refs)
            .and_then(|rows| rows.iter().map(T::read).collect())
            .map_err(|e| self.failed("read", &e))
    }
}
