//! The command line of `yardstick-demo-site`, read with lexopt as
//! yardstick's own commands are: every mistake is one line and exit 2.

use lexopt::prelude::*;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

/// What `--help` prints.
pub const HELP: &str = "usage: yardstick-demo-site [OPTIONS]

Serves the reference kernel's pages (probes/) from its SQLite content, for
`yardstick http` to measure:
  /                         the front page
  /news, /products, ...     pages by URL alias (the menu: the front page's folders)
  /content/view/full/N      node N's full view
  /content/search?SearchText=WORDS
                            the search page
  /user/login               the administrators' login form (POST logs in)
  /user/logout              logging out (a POST from the dashboard)
  /content/dashboard        the administrators' dashboard
  /speed, /speed.json       the speed card: the same pages through two servers
  /sitemap.xml              the front page and its menu pages (sitemaps.org)
  /opensearch.xml           the search page's OpenSearch description
Anything else is a 404 page.

Options:
  --database=FILE           the content store (default: the kernel fixture,
                            10,000 nodes, generated once in the temp folder)
  --cache-dir=DIR           the view cache's folder (default: a fresh temporary one)
  --no-cache                render every page (X-Cache: MISS on every response)
  --cache-bytes=N           the cache folder's bound: its pages' bytes on disk (in
                            4 KiB blocks), the least recently used removed past
                            it (default 256M; K, M, G)
  --memory-bytes=N          the same bound for the pages kept in memory (default 64M)
  --workers=N               server threads (default: the available parallelism)
  --listen=ADDR             the address to listen on (default 127.0.0.1)
  --port=N                  the port (default 8080; 0 picks a free one)
  --header-timeout=SECS     a request's head must arrive whole within this of the
                            connection's opening or of its first byte (default 10)
  --idle-timeout=SECS       a kept-alive connection with no request is closed after
                            this, counted from its last answer (one the peer is
                            slow to read too) (default 30)
  --max-connections=N       open connections at most (default: the descriptor limit
                            less 64); past it, idle connections are closed to make
                            room, and busy ones are waited for
  --purge-token-file=FILE   publish /purge (a `purge` link on the front page)
                            and clear the whole view cache on a PURGE of it
                            from this machine that carries the token in FILE
                            (one word of 16 characters or more) as
                            `Authorization: Bearer TOKEN`, as `yardstick http
                            --cold-clear=FILE` sends; without it, no PURGE
  --admin-password-file=FILE
                            the administrators' password: the one line of FILE
                            (12 characters or more), kept only as its Argon2
                            hash; log in at /user/login as `admin`. Without it
                            (or --admin-password=TEXT, which other users of the
                            machine can see), nobody can log in
  --card-file=FILE          the speed card's file (/speed, /speed.json): the last
                            measurement, kept whole (default: a new one in a
                            folder of the process's own: nothing measured yet)
  --card-servers=A,B        Measure again (on the dashboard) measures the card's
                            pages through servers A and B (base URLs) with
                            yardstick http --compare=A,B, warm (20 requests) and
                            --cold (8); without it, Measure again is off
  --card-pages=FILE         the card's pages, one a line (default: the demo's
                            page set, demo-site/pages.txt)
  --yardstick=PATH          the yardstick program Measure again runs (default:
                            the one beside this program, else yardstick on PATH)
  -h, --help                this text

What is cached: a page answered 200 whose target has no query, or is the
search page with its SearchText parameter alone, and is at most 1,024 bytes
long. Any other query (an unknown parameter, such as `yardstick http
--cold`'s `_bench=`) is rendered on every request and never kept, so query
strings cannot fill the cache; X-Cache says which.

A search word longer than 100 characters counts by its first 100.

On start it prints `listening on http://ADDR:PORT`. SIGTERM or Ctrl-C stop
it: no new connections, idle and half-sent requests are dropped at once,
requests in flight finish (10 s at most), exit 0. Exit 2: a bad
option, a database or cache folder it cannot use, an address in use.
";

/// Everything the server was asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub database: Option<PathBuf>,
    pub cache_dir: Option<PathBuf>,
    pub no_cache: bool,
    /// Bytes of pages the cache folder holds at most.
    pub cache_bytes: u64,
    /// Bytes of pages the memory front holds at most.
    pub memory_bytes: u64,
    pub workers: usize,
    pub listen: IpAddr,
    pub port: u16,
    pub limits: ConnectionLimits,
    /// The file of the token a `PURGE` must carry; none: no `PURGE`.
    pub purge_token_file: Option<PathBuf>,
    /// Where the administrators' password comes from; none: no
    /// administrators.
    pub admin_password: Option<AdminPassword>,
    /// The speed card's file; none: one of this process's own.
    pub card_file: Option<PathBuf>,
    /// The speed card's two servers, A and B (base URLs); none: Measure
    /// again is off.
    pub card_servers: Option<[String; 2]>,
    /// The speed card's pages; none: the demo's page set (pages.txt).
    pub card_pages: Option<PathBuf>,
    /// The `yardstick` program Measure again runs.
    pub yardstick: Option<PathBuf>,
}

/// The administrators' password as the owner gave it.
#[derive(Clone, PartialEq)]
pub enum AdminPassword {
    /// `--admin-password-file`: read from this file.
    File(PathBuf),
    /// `--admin-password`: given on the command line.
    Given(String),
}

impl std::fmt::Debug for AdminPassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AdminPassword::File(path) => write!(f, "File({path:?})"),
            AdminPassword::Given(_) => write!(f, "Given(hidden)"),
        }
    }
}

/// What one connection may hold of the server: a peer that sends nothing,
/// or half a request, is closed when its time is up, and the number of
/// them stays below the descriptor limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConnectionLimits {
    /// From the opening (or a later request's first byte) to a whole head.
    pub header_timeout: Duration,
    /// From an answer to the next request's first byte.
    pub idle_timeout: Duration,
    pub max_connections: usize,
}

impl Default for ConnectionLimits {
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            max_connections: descriptor_limit()
                .saturating_sub(RESERVED_DESCRIPTORS)
                .clamp(1, MAX_CONNECTIONS),
        }
    }
}

/// Descriptors kept for what is not a connection: the store, the cache's
/// files, the runtime, standard streams.
const RESERVED_DESCRIPTORS: usize = 64;

/// The process's open-file limit (its soft limit), 1,024 when unknown.
fn descriptor_limit() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit(2) writes the struct it is given, nothing else.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    if read && limit.rlim_cur != libc::RLIM_INFINITY {
        usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
    } else {
        1024
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            database: None,
            cache_dir: None,
            no_cache: false,
            cache_bytes: 256 << 20,
            memory_bytes: 64 << 20,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            listen: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            limits: ConnectionLimits::default(),
            purge_token_file: None,
            admin_password: None,
            card_file: None,
            card_servers: None,
            card_pages: None,
            yardstick: None,
        }
    }
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    Help,
    Run(Box<Options>),
}

/// Most worker threads: more than any machine this runs on has cores, few
/// enough that a typo cannot ask for a million threads.
const MAX_WORKERS: usize = 1024;

/// Parses the arguments after the program name; the error is the line to
/// print.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Parsed, String> {
    let mut o = Options::default();
    let mut p = lexopt::Parser::from_args(args);
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Long("database") => o.database = Some(path(&mut p, "--database")?),
            Long("cache-dir") => o.cache_dir = Some(path(&mut p, "--cache-dir")?),
            Long("no-cache") => o.no_cache = true,
            Long("cache-bytes") => {
                o.cache_bytes = bytes(&text(&mut p, "--cache-bytes")?, "--cache-bytes")?
            }
            Long("memory-bytes") => {
                o.memory_bytes = bytes(&text(&mut p, "--memory-bytes")?, "--memory-bytes")?
            }
            Long("header-timeout") => {
                o.limits.header_timeout =
                    seconds(&text(&mut p, "--header-timeout")?, "--header-timeout")?;
            }
            Long("idle-timeout") => {
                o.limits.idle_timeout =
                    seconds(&text(&mut p, "--idle-timeout")?, "--idle-timeout")?;
            }
            Long("max-connections") => {
                o.limits.max_connections = connections(&text(&mut p, "--max-connections")?)?;
            }
            Long("workers") => o.workers = workers(&text(&mut p, "--workers")?)?,
            Long("listen") => o.listen = address(&text(&mut p, "--listen")?)?,
            Long("port") => o.port = port(&text(&mut p, "--port")?)?,
            Long("purge-token-file") => {
                o.purge_token_file = Some(path(&mut p, "--purge-token-file")?);
            }
            Long("admin-password-file") => {
                let file = path(&mut p, "--admin-password-file")?;
                o.admin_password = Some(AdminPassword::File(file));
            }
            Long("card-file") => o.card_file = Some(path(&mut p, "--card-file")?),
            Long("card-servers") => {
                o.card_servers = Some(servers(&text(&mut p, "--card-servers")?)?)
            }
            Long("card-pages") => o.card_pages = Some(path(&mut p, "--card-pages")?),
            Long("yardstick") => o.yardstick = Some(path(&mut p, "--yardstick")?),
            Long("admin-password") => {
                let given = text(&mut p, "--admin-password")?;
                o.admin_password = Some(AdminPassword::Given(given));
            }
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(Parsed::Run(Box::new(o)))
}

/// `A,B`: two base URLs.
fn servers(value: &str) -> Result<[String; 2], String> {
    let parts: Vec<String> = value.split(',').map(|s| s.trim().to_string()).collect();
    match <[String; 2]>::try_from(parts) {
        Ok([a, b]) if a.starts_with("http") && b.starts_with("http") && a != b => Ok([a, b]),
        _ => Err(format!(
            "--card-servers: `{value}` is not two different base URLs, A,B (http://...)"
        )),
    }
}

fn text(p: &mut lexopt::Parser, option: &str) -> Result<String, String> {
    let value = p.value().map_err(|e| e.to_string())?;
    value
        .into_string()
        .map_err(|_| format!("{option}: the value is not UTF-8"))
}

fn path(p: &mut lexopt::Parser, option: &str) -> Result<PathBuf, String> {
    let value = p.value().map_err(|e| e.to_string())?;
    if value.is_empty() {
        return Err(format!("{option}: the value is empty"));
    }
    Ok(PathBuf::from(value))
}

fn workers(value: &str) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_WORKERS).contains(&n) => Ok(n),
        _ => Err(format!(
            "--workers: `{value}` is not a number of threads from 1 to {MAX_WORKERS}"
        )),
    }
}

/// Most connections one may ask for: beyond any descriptor limit in use.
const MAX_CONNECTIONS: usize = 1 << 20;

fn connections(value: &str) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_CONNECTIONS).contains(&n) => Ok(n),
        _ => Err(format!(
            "--max-connections: `{value}` is not a number of connections from 1 to {MAX_CONNECTIONS}"
        )),
    }
}

/// A positive number of seconds, fractions allowed, a day at most.
fn seconds(value: &str, option: &str) -> Result<Duration, String> {
    match value.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "{option}: `{value}` is not a number of seconds above 0 and up to 86400"
        )),
    }
}

/// A number of bytes, with an optional binary K, M or G; 1 TiB at most.
fn bytes(value: &str, option: &str) -> Result<u64, String> {
    let v = value.trim();
    let (digits, shift) = match v.char_indices().last() {
        Some((i, 'K' | 'k')) => (&v[..i], 10),
        Some((i, 'M' | 'm')) => (&v[..i], 20),
        Some((i, 'G' | 'g')) => (&v[..i], 30),
        _ => (v, 0),
    };
    match digits.parse::<u64>() {
        Ok(n) if n > 0 && n <= (1 << (40 - shift)) => Ok(n << shift),
        _ => Err(format!(
            "{option}: `{value}` is not a number of bytes above 0 (K, M, G allowed) up to 1T"
        )),
    }
}

fn port(value: &str) -> Result<u16, String> {
    let digits = value.trim();
    // Digits alone: `parse` takes a leading `+` too.
    digits
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| digits.parse().ok())
        .flatten()
        .ok_or_else(|| format!("--port: `{value}` is not a port (0 to 65535)"))
}

fn address(value: &str) -> Result<IpAddr, String> {
    let bare = value
        .strip_prefix('[')
        .and_then(|v| v.strip_suffix(']'))
        .unwrap_or(value);
    bare.parse()
        .map_err(|_| format!("--listen: `{value}` is not an IP address"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Options, String> {
        match parse(args.iter().map(|s| s.to_string()))? {
            Parsed::Run(o) => Ok(*o),
            Parsed::Help => Err("help".into()),
        }
    }

    #[test]
    fn defaults_and_every_option() {
        let o = run(&[]).unwrap();
        assert_eq!(
            (o.port, o.listen.to_string(), o.no_cache),
            (8080, "127.0.0.1".into(), false)
        );
        assert!(o.workers >= 1 && o.database.is_none() && o.cache_dir.is_none());
        let o = run(&[
            "--database=a.db",
            "--cache-dir",
            "c",
            "--no-cache",
            "--workers=3",
            "--listen=[::1]",
            "--port=0",
            "--cache-bytes=2M",
            "--memory-bytes=512k",
            "--header-timeout=0.5",
            "--idle-timeout=2",
            "--max-connections=7",
        ])
        .unwrap();
        assert_eq!((o.cache_bytes, o.memory_bytes), (2 << 20, 512 << 10));
        let limits = ConnectionLimits {
            header_timeout: Duration::from_millis(500),
            idle_timeout: Duration::from_secs(2),
            max_connections: 7,
        };
        assert_eq!(o.limits, limits);
        assert_eq!(o.database, Some(PathBuf::from("a.db")));
        assert_eq!(o.cache_dir, Some(PathBuf::from("c")));
        assert_eq!((o.workers, o.port, o.no_cache), (3, 0, true));
        assert!(o.listen.is_loopback());
        assert_eq!(parse(["--help".to_string()]), Ok(Parsed::Help));
    }

    #[test]
    fn mistakes_name_the_option() {
        for (arg, want) in [
            ("--port=65536", "--port"),
            ("--port=+8080", "--port"),
            ("--port=x", "--port"),
            ("--workers=0", "--workers"),
            ("--workers=100000", "--workers"),
            ("--listen=localhost", "--listen"),
            ("--database=", "--database"),
            ("--cache-bytes=0", "--cache-bytes"),
            ("--cache-bytes=12X", "--cache-bytes"),
            ("--memory-bytes=99999G", "--memory-bytes"),
            ("--header-timeout=0", "--header-timeout"),
            ("--idle-timeout=NaN", "--idle-timeout"),
            ("--idle-timeout=-1", "--idle-timeout"),
            ("--max-connections=0", "--max-connections"),
            ("--bogus", "--bogus"),
            ("stray", "stray"),
        ] {
            let e = run(&[arg]).unwrap_err();
            assert!(e.contains(want) && !e.contains('\n'), "{arg}: {e}");
        }
    }
}
