//! What an HTTP run is asked to measure and how: the pages and their
//! servers, how many requests and how many at a time, what every request
//! carries, and who sends them. A plain description: the command line
//! fills it (`commands::http::options`), and `http::measure` reads it.

use super::discover::Seed;
use super::settings::is_secret_header;
use crate::error::Error;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The protocol asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// HTTP/1.1 for `http`, HTTP/2 when the server offers it by ALPN.
    Negotiated,
    /// HTTP/1.1 only, also over TLS.
    Http1,
    /// HTTP/2 only: prior knowledge for `http`, refused without ALPN's
    /// agreement for `https`.
    Http2,
}

impl Protocol {
    /// The name saved in a run's settings (`--http`'s values, or
    /// `negotiated`).
    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::Negotiated => "negotiated",
            Protocol::Http1 => "1.1",
            Protocol::Http2 => "2",
        }
    }
}

/// What the client accepts as `Accept-Encoding`: a page's time depends on
/// whether it is compressed, so it is asked for, not left to defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// `Accept-Encoding: gzip`, which every browser accepts.
    Gzip,
    /// `Accept-Encoding: br`.
    Br,
    /// No `Accept-Encoding`: the page as stored.
    None,
}

impl Encoding {
    /// The name `--encoding` takes and a run's settings save.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Gzip => "gzip",
            Encoding::Br => "br",
            Encoding::None => "none",
        }
    }
}

/// Who sends the requests and times them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// yardstick's own client: every request timed, TTFB and cache answers
    /// included.
    Builtin,
    /// ApacheBench.
    Ab,
    /// wrk, which runs for a duration rather than a number of requests.
    Wrk,
    /// oha.
    Oha,
    /// h2load, from nghttp2.
    H2load,
    /// k6, given a script yardstick writes, whose per-request output
    /// yardstick reads back (`http::k6`).
    K6,
}

impl Tool {
    /// The installed load tools a run can hand its pages to.
    pub const EXTERNAL: [Tool; 5] = [Tool::Ab, Tool::Wrk, Tool::Oha, Tool::H2load, Tool::K6];

    /// The name `--tool` takes, which is also the program's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Tool::Builtin => "builtin",
            Tool::Ab => "ab",
            Tool::Wrk => "wrk",
            Tool::Oha => "oha",
            Tool::H2load => "h2load",
            Tool::K6 => "k6",
        }
    }
}

/// `host:port` reached at `address` instead of what the system resolver
/// says (`--resolve`, as curl's): a name measured on a server it does not
/// point at yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolve {
    /// The host as in the URLs, compared without regard to case.
    pub host: String,
    /// The port as in the URLs (or the scheme's default).
    pub port: u16,
    /// Where its connections go.
    pub address: IpAddr,
}

/// Everything an HTTP run is asked to measure and how. The defaults are
/// the documented ones of `yardstick http`.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Pages as given: absolute URLs, or paths measured on every server of
    /// `base` or `compare`.
    pub urls: Vec<String>,
    /// A file of more pages, one a line.
    pub urls_file: Option<PathBuf>,
    /// The server the paths are measured on.
    pub base: Option<String>,
    /// Servers the paths are measured on side by side: the first is the
    /// reference.
    pub compare: Vec<String>,
    /// Which of the site's pages to measure when no page is given.
    pub seed: Seed,
    /// Measured requests per page and server.
    pub requests: u64,
    /// Unmeasured requests per page and server before the first round
    /// (raised to one per connection).
    pub warmup: u64,
    /// Requests in flight at a time, each on its own connection.
    pub concurrency: u64,
    /// `--threads`: the built-in client's worker threads; none: the rule
    /// of [`Job::client_threads`].
    pub threads: Option<u64>,
    /// How many parts the measured requests are split into, the servers
    /// taking turns within each.
    pub rounds: u64,
    /// Every request gets a unique query, so no cache answers it.
    pub cold: bool,
    /// `--cold-clear`: the file of the token with which every server's
    /// cache is cleared once before the run, which then has no warm-up.
    pub cold_clear: Option<PathBuf>,
    /// The response header whose first word tells a cache hit from a miss.
    pub cache_header: String,
    /// Connections are kept open between requests.
    pub keepalive: bool,
    /// The HTTP version asked for.
    pub protocol: Protocol,
    /// The `Accept-Encoding` sent.
    pub encoding: Encoding,
    /// How long a request may take before it counts as failed.
    pub timeout: Duration,
    /// `user:password` for basic auth; never saved.
    pub auth: Option<String>,
    /// Extra request headers (name, value), in the order given.
    pub headers: Vec<(String, String)>,
    /// Names of headers whose values are secrets beyond the deny-list's:
    /// hidden like them.
    pub secret_headers: Vec<String>,
    /// The `Cookie` header sent; never saved.
    pub cookie: Option<String>,
    /// Addresses given for names, before any lookup.
    pub resolve: Vec<Resolve>,
    /// TLS certificates are not checked.
    pub insecure: bool,
    /// Who sends the requests.
    pub tool: Tool,
    /// `--duration`: seconds of load per page and server, for a tool that
    /// runs for a time (wrk always, k6 when given).
    pub duration: Option<u64>,
    /// `--rate`: requests started per second, whatever the server's pace
    /// (k6's constant arrival rate).
    pub rate: Option<f64>,
    /// `--segments`: how many k6 instances share the load, each given its
    /// execution segment.
    pub segments: u64,
    /// `yardstick k6 collect DIR`: the k6 output of each segment was
    /// written here (one file a pod) by a run elsewhere; it is read
    /// instead of running k6.
    pub k6_logs: Option<PathBuf>,
    /// The safety caps on servers that are not loopback are lifted.
    pub force: bool,
    /// Percent a page may slow down before the comparison flags it: not
    /// used to measure, but saved with the run's settings.
    pub threshold: Option<f64>,
    /// Milliseconds a page must also slow down by to be flagged: saved
    /// with the run's settings like `threshold`.
    pub min_delta: Option<f64>,
    /// The share of failed requests, in percent, above which the run
    /// fails: `--max-failures`, or 0 when no baseline judges the run.
    /// Saved with the run's settings, which the verdict reads.
    pub max_failures: Option<f64>,
}

impl Job {
    /// Measured requests per page and server when `--requests` is not given.
    pub const REQUESTS: u64 = 100;
    /// Unmeasured requests first when `--warmup` is not given.
    pub const WARMUP: u64 = 5;
    /// Requests in flight when `--concurrency` is not given.
    pub const CONCURRENCY: u64 = 4;
    /// Rounds when `--rounds` is not given: two, so each server goes first
    /// once.
    pub const ROUNDS: u64 = 2;
    /// The longest wait for one answer when `--timeout` is not given.
    pub const TIMEOUT: Duration = Duration::from_secs(30);
    /// Seconds of load per page and server when `--duration` is not
    /// given, for a tool that always runs for a time (wrk).
    pub const DURATION: u64 = 10;
    /// k6 instances sharing the load when `--segments` is not given.
    pub const SEGMENTS: u64 = 1;
    /// The share of failed requests, in percent, a run may have when no
    /// baseline judges it: none, since nothing else would fail a run
    /// against a dead server.
    pub const MAX_FAILURES_ALONE: f64 = 0.0;
    /// The fewest requests a second `--rate` takes: one a minute and a
    /// half or so, far below any load, and far above the rates whose
    /// periods would overflow a clock.
    pub const MIN_RATE: f64 = 0.01;
    /// Connections a worker thread of the built-in client serves when
    /// `--threads` is not given. A second thread, where the load needs
    /// none, takes a core from a server on the same machine and switches
    /// more often: on 2 cores against nginx one thread cost less CPU per
    /// request and served more requests a second at every concurrency
    /// measured, up to 256 (docs/evaluation.md, "Threads of the built-in
    /// client").
    pub const CONNECTIONS_PER_THREAD: u64 = 256;
    /// The most `--threads` takes.
    pub const MAX_THREADS: u64 = 1024;

    /// The built-in client's worker threads: `--threads`, or one per
    /// [`Job::CONNECTIONS_PER_THREAD`] connections up to the machine's
    /// CPUs; never more than there are connections, since a thread
    /// without one has nothing to do.
    pub fn client_threads(&self, concurrency: u64) -> usize {
        let wanted = self.threads.unwrap_or_else(|| {
            let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
            concurrency
                .div_ceil(Job::CONNECTIONS_PER_THREAD)
                .min(u64::try_from(cpus).unwrap_or(u64::MAX))
        });
        usize::try_from(wanted.min(concurrency).max(1)).unwrap_or(1)
    }
}

impl Default for Job {
    fn default() -> Job {
        Job {
            urls: Vec::new(),
            urls_file: None,
            base: None,
            compare: Vec::new(),
            seed: Seed::default(),
            requests: Job::REQUESTS,
            warmup: Job::WARMUP,
            concurrency: Job::CONCURRENCY,
            threads: None,
            rounds: Job::ROUNDS,
            cold: false,
            cold_clear: None,
            cache_header: "X-Cache".to_string(),
            keepalive: true,
            protocol: Protocol::Negotiated,
            encoding: Encoding::Gzip,
            timeout: Job::TIMEOUT,
            auth: None,
            headers: Vec::new(),
            secret_headers: Vec::new(),
            cookie: None,
            resolve: Vec::new(),
            insecure: false,
            tool: Tool::Builtin,
            duration: None,
            rate: None,
            segments: Job::SEGMENTS,
            k6_logs: None,
            force: false,
            threshold: None,
            min_delta: None,
            max_failures: None,
        }
    }
}

impl Job {
    /// Seconds of load per page and server, for a tool that runs for a
    /// time.
    pub fn duration_seconds(&self) -> u64 {
        self.duration.unwrap_or(Job::DURATION)
    }

    /// True when the value of header `name` is a secret: by the deny-list,
    /// or named in `secret_headers`. Such a value is never saved, printed
    /// or put on a tool's command line.
    pub fn is_secret(&self, name: &str) -> bool {
        is_secret_header(name)
            || self
                .secret_headers
                .iter()
                .any(|s| s.eq_ignore_ascii_case(name.trim()))
    }
}

/// A header name as HTTP allows it, else a usage error naming `option`.
pub fn header_name(name: &str, option: &str) -> Result<String, Error> {
    http::HeaderName::from_bytes(name.as_bytes())
        .map(|_| name.to_string())
        .map_err(|_| Error::usage(format!("{option}: `{name}` is not a header name")))
}

/// `Name: value`, checked now so a bad header is a usage error, not an
/// error on every request. The value is not echoed: it may be a secret.
pub fn header(text: &str, option: &str) -> Result<(String, String), Error> {
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| Error::usage(format!("{option}: expected \"Name: value\"")))?;
    let name = header_name(name.trim(), option)?;
    let value = value.trim();
    http::HeaderValue::from_str(value).map_err(|_| {
        Error::usage(format!(
            "{option}: the value of {name} is not a valid header value"
        ))
    })?;
    Ok((name, value.to_string()))
}
