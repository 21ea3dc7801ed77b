//! Opening one connection: TCP to an address the schedule checked (never a
//! lookup of its own), TLS with ALPN for `https`, then the HTTP/1.1 or
//! HTTP/2 handshake.
//! The connection's driver future is kept with its sender, so the task that
//! sends a request also reads its socket: no hand-over between tasks sits
//! inside a measured time.

use super::failure::{self, Failure};
use super::h1;
use super::h2_resets::{self, Resets};
use super::job::{Job, Protocol};
use super::schedule::Schedule;
use super::tls;
use super::url::{Scheme, Url};
use crate::error::Error;
use bytes::Bytes;
use http::{Request, Response};
use http_body_util::Empty;
use hyper::body::Incoming;
use hyper::client::conn::{http1, http2};
use hyper_util::rt::{TokioExecutor, TokioIo};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// When the request in flight on a slot's connection must end, read by
/// the connection's socket at every read. A timer cannot bound a read
/// loop on its own: a peer that floods the connection (a stream of
/// `100 Continue`) keeps hyper reading and parsing within one poll of the
/// task, and tokio sees a timer elapse only between polls.
#[derive(Clone, Debug)]
pub(crate) struct Deadline(Arc<AtomicU64>);

impl Default for Deadline {
    fn default() -> Deadline {
        Deadline(Arc::new(AtomicU64::new(u64::MAX)))
    }
}

impl Deadline {
    pub(crate) fn set(&self, at: Instant) {
        self.0.store(since_epoch(at), Ordering::Relaxed);
    }

    pub(crate) fn passed(&self) -> bool {
        since_epoch(Instant::now()) >= self.0.load(Ordering::Relaxed)
    }
}

/// Nanoseconds from the first deadline set in this process.
fn since_epoch(at: Instant) -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    u64::try_from(at.saturating_duration_since(epoch).as_nanos()).unwrap_or(u64::MAX)
}

/// What looks at the bytes a stream brings as they are read, and may fail
/// the read: the request's deadline, HTTP/2's stream resets
/// (`h2_resets`). One wrapper carries any of them ([`Observed`]).
pub(crate) trait ReadObserver {
    /// The bytes one read brought (none when the read found nothing).
    fn read(&mut self, bytes: &[u8]) -> io::Result<()>;
}

/// A stream whose reads are shown to `observer`; writes pass through.
pub(crate) struct Observed<S, O> {
    pub(crate) inner: S,
    pub(crate) observer: O,
}

impl<S: AsyncRead + Unpin, O: ReadObserver + Unpin> AsyncRead for Observed<S, O> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(read, Poll::Ready(Ok(()))) {
            self.observer.read(&buf.filled()[before..])?;
        }
        read
    }
}

impl<S: AsyncWrite + Unpin, O: Unpin> AsyncWrite for Observed<S, O> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// A socket's reads fail once its deadline has passed.
impl ReadObserver for Deadline {
    fn read(&mut self, bytes: &[u8]) -> io::Result<()> {
        // Only a read that brings bytes can keep a poll going, so only it
        // looks at the clock: most reads find nothing yet, and a clock
        // read on each of them cost more than the deadline it guards.
        if !bytes.is_empty() && self.passed() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the request's time limit passed",
            ));
        }
        Ok(())
    }
}

/// The byte stream under HTTP: plain TCP or TLS over it.
pub(crate) trait Stream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Stream for T {}

type Io = TokioIo<Box<dyn Stream>>;

/// The sending half of a connection.
pub(crate) enum Sender {
    /// HTTP/1.1: one request at a time.
    H1(http1::SendRequest<Empty<Bytes>>),
    /// HTTP/2.
    H2(http2::SendRequest<Empty<Bytes>>),
}

impl Sender {
    /// Sends `request` once the connection can take it, and waits for the
    /// response's head.
    pub(crate) async fn send(
        &mut self,
        request: Request<Empty<Bytes>>,
    ) -> Result<Response<Incoming>, hyper::Error> {
        match self {
            Sender::H1(s) => {
                s.ready().await?;
                s.send_request(request).await
            }
            Sender::H2(s) => {
                s.ready().await?;
                s.send_request(request).await
            }
        }
    }
}

/// Runs `work`, a request on a connection's sender, while driving the
/// connection in the same task; and whether the connection ended meanwhile
/// (a `Connection: close` answer, or an error). An answer may still be
/// whole after the end, so `work` then finishes on its own, and the
/// connection's error (as `failed` words it) is reported only if it did not.
pub(crate) async fn drive<T, E>(
    driver: &mut Driver,
    work: impl Future<Output = Result<T, E>>,
    failed: impl FnOnce(&hyper::Error) -> E,
) -> (Result<T, E>, bool) {
    tokio::pin!(work);
    let ended = tokio::select! {
        biased;
        answer = &mut work => return (answer, false),
        ended = driver => ended,
    };
    let answer = match work.await {
        Ok(answer) => Ok(answer),
        Err(e) => Err(ended.err().map_or(e, |err| failed(&err))),
    };
    (answer, true)
}

/// The future that reads and writes the socket; it ends when the
/// connection closes.
pub(crate) type Driver = Pin<Box<dyn Future<Output = Result<(), hyper::Error>> + Send>>;

/// One open connection.
pub(crate) struct Conn {
    /// Where requests go in.
    pub(crate) sender: Sender,
    /// What moves the bytes; polled by the task that sends.
    pub(crate) driver: Driver,
    /// HTTP/2 answers the server cut short with a stream reset (none on
    /// HTTP/1.1).
    pub(crate) resets: Resets,
}

impl Conn {
    /// True for HTTP/2, whose requests carry the full URI.
    pub(crate) fn is_http2(&self) -> bool {
        matches!(self.sender, Sender::H2(_))
    }
}

/// A connection for measured requests.
pub(crate) enum Measured {
    H1(h1::Connection),
    /// Boxed: an HTTP/2 connection holds its tables' state, four times
    /// an HTTP/1.1 one, and most runs hold only the one kind.
    H2(Box<crate::http2::Connection>),
}

/// How to reach servers: shared by every connection of a run.
pub(crate) struct Connector {
    /// The HTTP version asked for.
    pub(crate) protocol: Protocol,
    /// The checked addresses of each (lower-case host, port): connections go
    /// to these and nowhere else.
    pub(crate) addresses: HashMap<(String, u16), Vec<SocketAddr>>,
    /// Present when some page is `https`.
    pub(crate) tls: Option<Arc<rustls::ClientConfig>>,
}

/// The addresses of every server of a resolved schedule, for a [`Connector`].
pub(crate) fn addresses_of(schedule: &Schedule) -> HashMap<(String, u16), Vec<SocketAddr>> {
    schedule
        .servers
        .iter()
        .map(|s| {
            let port = s.url.port;
            let found = s.addresses.ips.iter().map(|ip| SocketAddr::new(*ip, port));
            ((s.url.host.to_ascii_lowercase(), port), found.collect())
        })
        .collect()
}

impl Connector {
    /// The connector of a run: connections go to the addresses `schedule`
    /// found, TLS set up as `job` asks when a server is `https`.
    pub(crate) fn of(job: &Job, schedule: &Schedule) -> Result<Connector, Error> {
        let needs_tls = schedule
            .servers
            .iter()
            .any(|s| s.url.scheme == Scheme::Https);
        let tls = if needs_tls {
            Some(tls::config(job.insecure, job.protocol).map_err(Error::Refused)?)
        } else {
            None
        };
        Ok(Connector {
            protocol: job.protocol,
            addresses: addresses_of(schedule),
            tls,
        })
    }

    /// Opens a connection to the server of `url` for any request, spoken
    /// by hyper.
    pub(crate) async fn open(&self, url: &Url, deadline: &Deadline) -> Result<Conn, Failure> {
        let (stream, h2) = self.stream(url, deadline).await?;
        handshake(stream, h2).await
    }

    /// Opens a connection to the server of `url` for measured requests:
    /// HTTP/1.1 spoken by [`h1`], HTTP/2 by [`crate::http2`].
    pub(crate) async fn open_measured(
        &self,
        url: &Url,
        deadline: &Deadline,
    ) -> Result<Measured, Failure> {
        let (stream, h2) = self.stream(url, deadline).await?;
        if h2 {
            Ok(Measured::H2(Box::new(crate::http2::Connection::new(
                stream,
            ))))
        } else {
            Ok(Measured::H1(h1::Connection::new(stream)))
        }
    }

    /// The byte stream to the server of `url`, and whether it speaks
    /// HTTP/2 (asked for, or agreed in TLS).
    async fn stream(
        &self,
        url: &Url,
        deadline: &Deadline,
    ) -> Result<(Box<dyn Stream>, bool), Failure> {
        let tcp = Observed {
            inner: self.tcp(url).await?,
            observer: deadline.clone(),
        };
        match url.scheme {
            Scheme::Http => Ok((Box::new(tcp), self.protocol == Protocol::Http2)),
            Scheme::Https => {
                let config = self
                    .tls
                    .clone()
                    .ok_or_else(|| Failure::new("TLS is not set up"))?;
                let name =
                    rustls::pki_types::ServerName::try_from(url.host.clone()).map_err(|_| {
                        Failure::new(format!("TLS: `{}` is not a valid server name", url.host))
                    })?;
                let tls = tokio_rustls::TlsConnector::from(config)
                    .connect(name, tcp)
                    .await
                    .map_err(|e| failure::of_io(&e))?;
                let h2 = tls.get_ref().1.alpn_protocol() == Some(b"h2");
                if self.protocol == Protocol::Http2 && !h2 {
                    return Err(Failure::new("the server did not agree to HTTP/2"));
                }
                Ok((Box::new(tls), h2))
            }
        }
    }

    async fn tcp(&self, url: &Url) -> Result<TcpStream, Failure> {
        let key = (url.host.to_ascii_lowercase(), url.port);
        let addresses = self.addresses.get(&key).map_or(&[][..], Vec::as_slice);
        let mut last = Failure::new(format!("cannot resolve {}", url.host));
        for &address in addresses {
            match TcpStream::connect(address).await {
                Ok(tcp) => {
                    // Small requests must leave at once, as a browser's do.
                    let _ = tcp.set_nodelay(true);
                    return Ok(tcp);
                }
                Err(e) => last = failure::of_io(&e),
            }
        }
        Err(last)
    }
}

async fn handshake(stream: Box<dyn Stream>, h2: bool) -> Result<Conn, Failure> {
    if h2 {
        let (watch, resets) = h2_resets::watch();
        let io: Io = TokioIo::new(Box::new(Observed {
            inner: stream,
            observer: watch,
        }));
        // hyper's default lets a peer's header block grow to 16 MB before
        // it is refused; a page's headers need a few kilobytes.
        let (sender, conn) = http2::Builder::new(TokioExecutor::new())
            .max_header_list_size(u32::try_from(h1::MAX_HEAD).unwrap_or(u32::MAX))
            .handshake(io)
            .await
            .map_err(|e| failure::of(&e))?;
        Ok(Conn {
            sender: Sender::H2(sender),
            driver: Box::pin(conn),
            resets,
        })
    } else {
        let io: Io = TokioIo::new(stream);
        let (sender, conn) = http1::handshake(io).await.map_err(|e| failure::of(&e))?;
        Ok(Conn {
            sender: Sender::H1(sender),
            driver: Box::pin(conn),
            resets: Resets::default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// A peer that always has more to send, as one streaming `100 Continue`
    /// does: a read of it is never pending, so only the socket itself can
    /// end the request.
    struct Endless;

    impl AsyncRead for Endless {
        fn poll_read(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            buf.put_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
            Poll::Ready(Ok(()))
        }
    }

    #[test]
    fn a_socket_fails_its_reads_once_the_deadline_has_passed() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let deadline = Deadline::default();
            let mut socket = Observed {
                inner: Endless,
                observer: deadline.clone(),
            };
            let mut buf = [0u8; 64];
            // No deadline yet: the peer's bytes come through.
            assert!(socket.read(&mut buf).await.is_ok_and(|n| n > 0));
            deadline.set(Instant::now());
            let err = socket.read(&mut buf).await.expect_err("past the deadline");
            assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        });
    }
}
