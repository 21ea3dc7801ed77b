//! Where a history is: a SQLite file, or a PostgreSQL server's URL.
//!
//! A URL's password never comes from the command line, where every
//! process on the machine can read it: `--history` refuses one, and names
//! the ways that keep it private. In `YARDSTICK_HISTORY` it is taken. A
//! location is shown with its password hidden, always.

use crate::error::Error;
use std::path::{Path, PathBuf};

/// The variable that configures a history: every run is then recorded.
pub const VARIABLE: &str = "YARDSTICK_HISTORY";
/// The history's file in the folder of kept runs.
pub const DEFAULT_FILE: &str = "history.sqlite";

/// Where a history is.
#[derive(Debug, Clone, PartialEq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL server.
    Postgres(Url),
}

/// A PostgreSQL URL; its `Debug` hides the password too.
#[derive(Clone, PartialEq)]
pub struct Url(String);

impl std::fmt::Debug for Url {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Url({})", self.shown())
    }
}

impl Url {
    /// The URL as given, password and all: for the connection only.
    pub fn secret(&self) -> &str {
        &self.0
    }

    /// The URL with whatever may be a password as `***`.
    pub fn shown(&self) -> String {
        mask(&self.0, &self.0)
    }

    /// Whether the URL carries a password, as the client reads it: in its
    /// user part, or as a `password=` parameter.
    fn has_password(&self) -> bool {
        match self.0.parse::<postgres::Config>() {
            Ok(config) => config.get_password().is_some(),
            // Unreadable: judged by where a password could be.
            Err(_) => !secret_spans(&self.0).is_empty(),
        }
    }

    /// `text` (a message about this URL) with every part of the URL that
    /// may be a password as `***`.
    pub(crate) fn masked(&self, text: &str) -> String {
        mask(&self.0, text)
    }
}

/// `text` with each secret of `url` replaced by `***`.
fn mask(url: &str, text: &str) -> String {
    let mut out = text.to_string();
    for (start, end) in secret_spans(url) {
        let secret = &url[start..end];
        if !secret.is_empty() {
            out = out.replace(secret, "***");
        }
    }
    out
}

/// Where a URL may hold a password, as byte ranges: its user part's,
/// from the first `:` after the scheme to the last `@` (wider than any
/// client reads it, so that nothing that could be one is shown), and the
/// value of each `password=` parameter.
fn secret_spans(url: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    if let Some(scheme) = url.find("://") {
        let from = scheme + 3;
        if let (Some(at), Some(colon)) = (url.rfind('@'), url[from..].find(':')) {
            let colon = from + colon;
            if colon < at {
                spans.push((colon + 1, at));
            }
        }
    }
    let mut rest = 0;
    while let Some(found) = url[rest..].find("password=") {
        let start = rest + found + "password=".len();
        let end = url[start..].find('&').map_or(url.len(), |e| start + e);
        spans.push((start, end));
        rest = end;
    }
    spans
}

fn is_postgres(value: &str) -> bool {
    value.starts_with("postgres://") || value.starts_with("postgresql://")
}

impl Location {
    /// `--history`'s value: a URL with a password is refused.
    pub fn from_option(value: &str) -> Result<Location, Error> {
        if value.is_empty() {
            return Err(Error::usage(
                "--history: empty (a file, or a postgres:// URL)",
            ));
        }
        if !is_postgres(value) {
            if value.contains("password=") {
                return Err(Error::usage(
                    "--history: a connection string with a password: give a file, or a \
                     postgres:// URL and the password through PGPASSWORD or a .pgpass file",
                ));
            }
            return Ok(Location::Sqlite(PathBuf::from(value)));
        }
        let url = Url(value.to_string());
        if url.has_password() {
            return Err(Error::usage(format!(
                "--history: {}: a password on the command line is readable by every \
                 process; set PGPASSWORD, use a .pgpass file, or put the URL in {VARIABLE}",
                url.shown()
            )));
        }
        Ok(Location::Postgres(url))
    }

    /// `YARDSTICK_HISTORY`, when set and not empty.
    pub fn from_env() -> Option<Location> {
        let value = std::env::var(VARIABLE).ok().filter(|v| !v.is_empty())?;
        Some(if is_postgres(&value) {
            Location::Postgres(Url(value))
        } else {
            Location::Sqlite(PathBuf::from(value))
        })
    }

    /// The history a command uses: `--history`'s value when given, else
    /// `YARDSTICK_HISTORY`, else `history.sqlite` in the folder of kept
    /// runs, `home`.
    pub fn chosen(option: Option<&str>, home: impl FnOnce() -> PathBuf) -> Result<Location, Error> {
        if let Some(value) = option {
            return Location::from_option(value);
        }
        Ok(Location::from_env().unwrap_or_else(|| Location::default_in(&home())))
    }

    /// The default: `history.sqlite` in the folder of kept runs.
    pub fn default_in(home: &Path) -> Location {
        Location::Sqlite(home.join(DEFAULT_FILE))
    }

    /// The location as shown in messages: a path, or the URL without its
    /// password.
    pub fn shown(&self) -> String {
        match self {
            Location::Sqlite(path) => path.display().to_string(),
            Location::Postgres(url) => url.shown(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_refused_on_the_command_line_and_never_shown() {
        let e = Location::from_option("postgres://ci:s3cret@db.example:5432/perf")
            .unwrap_err()
            .to_string();
        assert!(!e.contains("s3cret"), "{e}");
        assert!(e.contains("PGPASSWORD") && e.contains(VARIABLE), "{e}");
        assert!(e.contains("postgres://ci:***@db.example:5432/perf"), "{e}");
        let url = Url("postgresql://u:p%40ss@h/db?sslmode=require".into());
        assert_eq!(url.shown(), "postgresql://u:***@h/db?sslmode=require");
        assert!(!format!("{url:?}").contains("p%40ss"));
        // Every form the client reads a password from.
        for (given, secret) in [
            ("postgres://ci@db/perf?password=s3cret", "s3cret"),
            ("postgres://ci:pa/ss@db/perf", "pa/ss"),
            ("postgres://ci:pa?ss@db/perf", "pa?ss"),
            ("postgres://ci:pa#ss@db/perf", "pa#ss"),
            (
                "postgres://db/perf?sslmode=disable&password=s3cret&x=1",
                "s3cret",
            ),
        ] {
            let e = Location::from_option(given).unwrap_err().to_string();
            assert!(!e.contains(secret), "{given}: {e}");
            assert!(e.contains("PGPASSWORD"), "{given}: {e}");
            assert!(!Url(given.into()).shown().contains(secret), "{given}");
        }
        let e = Location::from_option("host=db password=s3cret")
            .unwrap_err()
            .to_string();
        assert!(!e.contains("s3cret") && e.contains("PGPASSWORD"), "{e}");
        for plain in [
            "postgres://ci@db/perf",
            "postgres:///perf?host=/run",
            "postgres://db",
        ] {
            let location = Location::from_option(plain).unwrap();
            assert_eq!(location.shown(), plain);
        }
    }

    #[test]
    fn anything_else_is_a_file() {
        assert_eq!(
            Location::from_option("runs/h.sqlite").unwrap(),
            Location::Sqlite("runs/h.sqlite".into())
        );
        assert!(Location::from_option("").is_err());
        assert_eq!(
            Location::default_in(Path::new("target/yardstick")).shown(),
            "target/yardstick/history.sqlite"
        );
    }
}
