//! One request, timed on its connection: the time to the response head
//! (TTFB) and to the body's last byte (total), the status, the bytes of the
//! body as transferred (not decoded), the cache header's first word and the
//! `Server` header. GET only; redirects are answers, never followed.

use super::connect::{Connector, Deadline, Measured};
use super::failure::Failure;
use super::job::{Encoding, Job};
use super::template::{H1Request, H2Request};
use super::url::{Scheme, Url};
use super::words::Words;
use base64::Engine;
use bytes::Bytes;
use http::header::{ACCEPT_ENCODING, AUTHORIZATION, CONNECTION, COOKIE, HOST, USER_AGENT};
use http::{HeaderMap, HeaderName, HeaderValue, Request, Uri};
use http_body_util::Empty;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A response.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Answer {
    /// Milliseconds from sending (or connecting, when a connection had to be
    /// opened) to the body's last byte.
    pub(crate) total: f64,
    /// Milliseconds to the response head.
    pub(crate) ttfb: f64,
    /// The status code.
    pub(crate) status: u16,
    /// Body bytes as transferred (compressed when the server compressed).
    pub(crate) bytes: u64,
    /// The cache header's first word, upper-cased.
    pub(crate) cache: Option<Arc<str>>,
    /// The `Server` header.
    pub(crate) server: Option<Arc<str>>,
}

/// What one request gave.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// The server answered, whatever the status.
    Answer(Answer),
    /// No answer: the connection, TLS or the timeout failed.
    Failed(Failure),
}

impl Outcome {
    /// The outcome of a request sent `late` after its planned start
    /// (`--rate`): its times run from the plan, so a server that held the
    /// slot up is charged for the wait it caused.
    pub(crate) fn late_by(self, late: Duration) -> Outcome {
        match self {
            Outcome::Answer(a) if !late.is_zero() => Outcome::Answer(Answer {
                total: a.total + millis(late),
                ttfb: a.ttfb + millis(late),
                ..a
            }),
            other => other,
        }
    }
}

/// A connection slot: the connection a task keeps between requests.
#[derive(Default)]
pub(crate) struct Slot {
    conn: Option<Measured>,
    /// The request timeout, kept from one request to the next: moving a
    /// timer's deadline later costs nothing, while a new timer per request
    /// takes the runtime's timer lock twice.
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    /// Connections this slot opened (the tests count them).
    pub(crate) opened: u64,
    /// Connections lost in a row (refused, reset, closed under a request),
    /// which set the pause before the next; 0 from the slot's next answer.
    /// Kept from one batch to the next, so a slot turned away in the
    /// warm-up does not rush the server again as the measuring begins.
    pub(crate) losses: u32,
    /// When the request in flight must end; its connections' reads fail
    /// after it.
    deadline: Deadline,
    /// The request to the URL the slot is sent to, made at its first.
    h1: Option<(Url, H1Request)>,
    h2: Option<(Url, H2Request)>,
    /// The last answers' words, kept from one answer to the next.
    words: Words,
}

/// A try of a request that got no answer.
struct Missed {
    failure: Failure,
    /// The request may be sent again: its kept connection ended before
    /// any byte of an answer.
    again: bool,
}

impl From<Failure> for Missed {
    fn from(failure: Failure) -> Missed {
        Missed {
            failure,
            again: false,
        }
    }
}

/// Everything requests share within a run.
pub(crate) struct Client {
    /// How connections are opened.
    pub(crate) connector: Connector,
    keepalive: bool,
    pub(crate) timeout: Duration,
    headers: HeaderMap,
    has_auth: bool,
    cache_header: HeaderName,
    /// `--cold`: every request's unique query.
    cold: Option<ColdQueries>,
}

/// The values of `_bench` for cold requests: a prefix no other run shares,
/// then a count.
struct ColdQueries {
    prefix: String,
    sent: AtomicU64,
}

impl ColdQueries {
    fn new() -> ColdQueries {
        ColdQueries {
            prefix: run_unique(),
            sent: AtomicU64::new(0),
        }
    }

    /// The next request's value.
    fn next(&self) -> String {
        let n = self.sent.fetch_add(1, Ordering::Relaxed);
        format!("{}{n}", self.prefix)
    }
}

impl Client {
    /// The client for a run; `connector` knows how to reach the servers.
    pub(crate) fn new(job: &Job, connector: Connector) -> Result<Client, String> {
        let headers = headers(job)?;
        let cache_header = HeaderName::from_bytes(job.cache_header.as_bytes())
            .map_err(|e| format!("--cache-header: {e}"))?;
        Ok(Client {
            connector,
            keepalive: job.keepalive,
            timeout: job.timeout,
            has_auth: headers.contains_key(AUTHORIZATION),
            headers,
            cache_header,
            cold: job.cold.then(ColdQueries::new),
        })
    }

    /// Sends one GET for `url` on the slot's connection, opening one when
    /// the slot has none (or it closed). A failure drops the connection.
    pub(crate) async fn fetch(&self, slot: &mut Slot, url: &Url) -> Outcome {
        let start = Instant::now();
        let deadline = tokio::time::Instant::from_std(start) + self.timeout;
        let mut timer = match slot.timer.take() {
            Some(mut t) => {
                t.as_mut().reset(deadline);
                t
            }
            None => Box::pin(tokio::time::sleep_until(deadline)),
        };
        // The timer wakes a request that waits; the deadline ends one whose
        // peer keeps it busy (see `Deadline`). An error past the deadline
        // is the deadline's doing, and said so.
        slot.deadline.set(start + self.timeout);
        // After the deadline is set: the probe reads the socket, and a read
        // past the last request's deadline would fail.
        if slot.conn.as_mut().is_some_and(|c| !still_open(c)) {
            slot.conn = None;
        }
        let timeout = || {
            Outcome::Failed(Failure::timeout(format!(
                "timeout after {} s",
                self.timeout.as_secs_f64()
            )))
        };
        let outcome = {
            let attempt = async {
                match self.attempt(slot, url, start).await {
                    // Once only: the second attempt is on a new connection.
                    Err(Missed {
                        failure: _,
                        again: true,
                    }) => {
                        slot.conn = None;
                        // Boxed: a second try is rare, and its future
                        // inline would double every slot's task.
                        Box::pin(self.attempt(slot, url, start)).await
                    }
                    done => done,
                }
                .map_err(|missed| missed.failure)
            };
            tokio::pin!(attempt);
            tokio::select! {
                biased;
                result = &mut attempt => match result {
                    Ok(answer) => Outcome::Answer(answer),
                    Err(_) if Instant::now() >= start + self.timeout => timeout(),
                    Err(failure) => Outcome::Failed(failure),
                },
                () = timer.as_mut() => timeout(),
            }
        };
        slot.timer = Some(timer);
        if !self.keepalive || matches!(outcome, Outcome::Failed(_)) {
            slot.conn = None;
        }
        outcome
    }

    /// One try of the request, on the slot's connection or a new one.
    async fn attempt(&self, slot: &mut Slot, url: &Url, start: Instant) -> Result<Answer, Missed> {
        let reused = slot.conn.is_some();
        let conn = match &mut slot.conn {
            Some(conn) => conn,
            empty => {
                slot.opened += 1;
                // Boxed: connecting is rare, and its large future would
                // otherwise be moved on every request.
                let opened = Box::pin(self.connector.open_measured(url, &slot.deadline)).await;
                empty.insert(opened.map_err(|f| Missed::from(f.at_connect()))?)
            }
        };
        let bench = self
            .cold
            .as_ref()
            .map(|cold| url.path_with_bench(&cold.next()));
        let mut reader = slot.words.reader(&self.cache_header);
        let (received, heard_nothing, closed) = match conn {
            Measured::H1(conn) => {
                let request = made_for(&mut slot.h1, url, || self.h1_request(url))?;
                let received = conn
                    .exchange(request.bytes(bench.as_deref()), &mut reader)
                    .await;
                (received, conn.heard_nothing(), conn.is_closed())
            }
            Measured::H2(conn) => {
                let request = made_for(&mut slot.h2, url, || self.h2_request(url))?;
                let (id, table_bytes) = request.table();
                let way = conn.way(id, table_bytes);
                let received = conn
                    .exchange(request.block(way, bench.as_deref()), &mut reader)
                    .await;
                (received, conn.heard_nothing(), conn.is_closed())
            }
        };
        let answer = received.map(|r| Answer {
            total: millis(start.elapsed()),
            ttfb: millis(r.head_at.saturating_duration_since(start)),
            status: r.status,
            bytes: r.bytes,
            cache: reader.said.cache,
            server: reader.said.server,
        });
        // A kept connection that ended before a byte of the answer came
        // (HTTP/2: a GOAWAY that did not take the request) was closed by
        // the server as the request went: the request is sent again,
        // once, on a new connection. Not past the deadline, where a read
        // that brings bytes fails before they are heard.
        let again = reused && heard_nothing && !slot.deadline.passed();
        let answer = answer.map_err(|failure| Missed { failure, again });
        if closed {
            slot.conn = None;
        }
        answer
    }

    /// The HTTP/1.1 request for `url`, made once per slot.
    fn h1_request(&self, url: &Url) -> Result<H1Request, Failure> {
        H1Request::new(url.target(), &self.headers_to(url, false)?)
    }

    /// The HTTP/2 request for `url`, made once per slot.
    fn h2_request(&self, url: &Url) -> Result<H2Request, Failure> {
        H2Request::new(
            url.scheme == Scheme::Https,
            &url.authority,
            url.target(),
            &self.headers_to(url, true)?,
        )
    }

    /// The GET of `path` on `url`'s server with the run's headers: what
    /// every request sends, measured or not.
    pub(crate) fn request_to(
        &self,
        url: &Url,
        path: String,
        h2: bool,
    ) -> Result<Request<Empty<Bytes>>, Failure> {
        let mut request = Request::new(Empty::new());
        *request.uri_mut() = uri(url, path, h2)?;
        *request.headers_mut() = self.headers_to(url, h2)?;
        Ok(request)
    }

    /// The headers of a request to `url`'s server.
    fn headers_to(&self, url: &Url, h2: bool) -> Result<HeaderMap, Failure> {
        let mut headers = self.headers.clone();
        if !h2 {
            let host = HeaderValue::from_str(&url.authority)
                .map_err(|_| Failure::new("the host is not a valid header value"))?;
            headers.insert(HOST, host);
            if !self.keepalive {
                headers.insert(CONNECTION, HeaderValue::from_static("close"));
            }
        }
        if !self.has_auth
            && let Some(userinfo) = &url.userinfo
        {
            headers.insert(AUTHORIZATION, basic(userinfo).map_err(Failure::new)?);
        }
        Ok(headers)
    }
}

/// What `kept` holds when it was made for `url`, else what `make` makes
/// for it, kept in its place.
fn made_for<'a, T>(
    kept: &'a mut Option<(Url, T)>,
    url: &Url,
    make: impl FnOnce() -> Result<T, Failure>,
) -> Result<&'a mut T, Failure> {
    if kept.as_ref().is_some_and(|(for_url, _)| for_url != url) {
        *kept = None;
    }
    let (_, made) = match kept {
        Some(made) => made,
        empty => empty.insert((url.clone(), make()?)),
    };
    Ok(made)
}

/// The URI a request for `path` on `url`'s server carries: the path alone
/// on HTTP/1.1, the whole URI on HTTP/2.
fn uri(url: &Url, path: String, h2: bool) -> Result<Uri, Failure> {
    let uri = if h2 {
        format!("{}://{}{path}", url.scheme.as_str(), url.authority)
    } else {
        path
    };
    Uri::try_from(uri).map_err(|e| Failure::new(format!("cannot build the request: {e}")))
}

/// The headers every request of `job` carries.
fn headers(job: &Job) -> Result<HeaderMap, String> {
    let mut headers = HeaderMap::new();
    let agent = concat!("yardstick/", env!("CARGO_PKG_VERSION"));
    headers.insert(USER_AGENT, HeaderValue::from_static(agent));
    match job.encoding {
        Encoding::Gzip => headers.insert(ACCEPT_ENCODING, HeaderValue::from_static("gzip")),
        Encoding::Br => headers.insert(ACCEPT_ENCODING, HeaderValue::from_static("br")),
        Encoding::None => None,
    };
    if let Some(auth) = &job.auth {
        headers.insert(AUTHORIZATION, basic(auth)?);
    }
    if let Some(cookie) = &job.cookie {
        let v = HeaderValue::from_str(cookie).map_err(|_| "--cookie: not a valid header value")?;
        headers.insert(COOKIE, v);
    }
    for (name, value) in &job.headers {
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|e| format!("--header: {e}"))?;
        let value = HeaderValue::from_str(value).map_err(|e| format!("--header: {e}"))?;
        headers.append(name, value);
    }
    Ok(headers)
}

/// `Authorization: Basic ...` for `user:password`, marked sensitive so it
/// is never logged.
fn basic(userinfo: &str) -> Result<HeaderValue, String> {
    let encoded = base64::engine::general_purpose::STANDARD.encode(userinfo);
    let mut value = HeaderValue::from_str(&format!("Basic {encoded}"))
        .map_err(|_| "--auth: not a valid header value".to_string())?;
    value.set_sensitive(true);
    Ok(value)
}

/// A prefix no other run shares, so cold requests miss every cache even
/// across runs.
fn run_unique() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{:x}{:x}-", nanos & 0xffff_ffff_ffff, std::process::id())
}

/// Whether a kept connection can take the next request: one the server
/// closed while idle is found out before a request is timed on it.
fn still_open(conn: &mut Measured) -> bool {
    match conn {
        Measured::H1(conn) => conn.still_open(),
        Measured::H2(conn) => conn.still_open(),
    }
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_request_is_timed_from_its_plan() {
        let answer = Outcome::Answer(Answer {
            total: 2.0,
            ttfb: 1.0,
            status: 200,
            bytes: 2,
            cache: None,
            server: None,
        });
        let Outcome::Answer(late) = answer.late_by(Duration::from_millis(200)) else {
            panic!("an answer stays an answer");
        };
        assert_eq!((late.total, late.ttfb), (202.0, 201.0));
        let failed = Outcome::Failed(Failure::new("x"));
        assert_eq!(failed.clone().late_by(Duration::from_secs(1)), failed);
    }

    #[test]
    fn basic_auth_is_encoded_and_sensitive() {
        let v = basic("user:pass").unwrap();
        assert_eq!(v.to_str().unwrap(), "Basic dXNlcjpwYXNz");
        assert!(v.is_sensitive());
    }
}
