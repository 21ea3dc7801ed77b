//! A PostgreSQL URL made whole as libpq would make it: what the URL leaves
//! out comes from `PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`,
//! `PGPASSWORD`, the password file and `PGSSLMODE` (the client library
//! reads none of them itself), so a team's usual set-up works unchanged.

use super::pgpass::{self, Wanted};
use crate::location::Url;
use postgres::config::{Host, SslMode};
use std::time::Duration;

/// How long a connection may take before the history is called
/// unreachable, unless `connect_timeout` or `PGCONNECT_TIMEOUT` says.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The connection, and the server as messages name it (`host H port P`).
pub(crate) struct Target {
    pub config: postgres::Config,
    pub server: String,
}

fn variable(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The connection `url` names, completed from the environment; the error
/// is one line without the password.
pub(crate) fn target(url: &Url) -> Result<Target, String> {
    let mut config: postgres::Config =
        libpq_modes(url.secret())
            .parse()
            .map_err(|e: postgres::Error| {
                format!("not a PostgreSQL URL ({})", url.masked(&e.to_string()))
            })?;
    if config.get_hosts().is_empty() {
        config.host(&variable("PGHOST").unwrap_or_else(|| "localhost".to_string()));
    }
    if config.get_ports().is_empty() {
        let port = match variable("PGPORT") {
            Some(p) => p
                .parse()
                .map_err(|_| format!("PGPORT: `{p}` is not a port"))?,
            None => 5432,
        };
        config.port(port);
    }
    if config.get_user().is_none() {
        let user = variable("PGUSER")
            .or_else(|| variable("USER"))
            .ok_or("no user: give one in the URL, or set PGUSER")?;
        config.user(&user);
    }
    if config.get_dbname().is_none() {
        let database = variable("PGDATABASE").or_else(|| config.get_user().map(str::to_string));
        config.dbname(&database.unwrap_or_default());
    }
    if !url.secret().contains("sslmode=")
        && let Some(mode) = variable("PGSSLMODE")
    {
        config.ssl_mode(ssl_mode(&mode)?);
    }
    if config.get_connect_timeout().is_none() {
        let timeout = variable("PGCONNECT_TIMEOUT")
            .and_then(|t| t.parse::<u64>().ok())
            .filter(|t| *t > 0)
            .map_or(CONNECT_TIMEOUT, Duration::from_secs);
        config.connect_timeout(timeout);
    }
    config.application_name("yardstick");
    let server = server(&config);
    if config.get_password().is_none()
        && let Some(password) = variable("PGPASSWORD").or_else(|| from_file(&config))
    {
        config.password(password);
    }
    Ok(Target { config, server })
}

/// The URL with libpq's `sslmode` values the client does not know put as
/// the client's: `verify-ca` and `verify-full` as `require` (which
/// verifies here), `allow` as `disable`.
fn libpq_modes(url: &str) -> String {
    url.replace("sslmode=verify-full", "sslmode=require")
        .replace("sslmode=verify-ca", "sslmode=require")
        .replace("sslmode=allow", "sslmode=disable")
}

/// `PGSSLMODE`: libpq's modes; every one that encrypts verifies the
/// server's certificate here (libpq's `prefer` and `require` do not).
fn ssl_mode(mode: &str) -> Result<SslMode, String> {
    match mode {
        "disable" | "allow" => Ok(SslMode::Disable),
        "prefer" => Ok(SslMode::Prefer),
        "require" | "verify-ca" | "verify-full" => Ok(SslMode::Require),
        other => Err(format!(
            "PGSSLMODE: `{other}` is none of disable, allow, prefer, require, verify-ca, verify-full"
        )),
    }
}

/// The first host and port, as messages name the server.
fn server(config: &postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(name)) => name.clone(),
        #[cfg(unix)]
        Some(Host::Unix(dir)) => dir.display().to_string(),
        None => "localhost".to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!("host {host} port {port}")
}

/// The password file's password for this connection.
fn from_file(config: &postgres::Config) -> Option<String> {
    let host = match config.get_hosts().first()? {
        Host::Tcp(name) => name.clone(),
        // libpq matches a socket connection by `localhost`.
        #[cfg(unix)]
        Host::Unix(_) => "localhost".to_string(),
    };
    let wanted = Wanted {
        host: &host,
        port: config.get_ports().first().copied().unwrap_or(5432),
        database: config.get_dbname().unwrap_or_default(),
        user: config.get_user().unwrap_or_default(),
    };
    pgpass::lookup(&pgpass::file()?, &wanted)
}
