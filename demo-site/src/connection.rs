//! One connection: hyper's HTTP/1.1 or HTTP/2 over the socket, and the
//! time limits hyper does not keep for it. A peer that sends nothing,
//! half a request line, or headers without their blank line would hold its
//! descriptor for ever; here each connection has a deadline whenever no
//! request of it is being answered:
//!
//! - the first request's head must arrive whole within the header timeout
//!   of the opening;
//! - after an answer, the next request must start within the idle
//!   timeout, and its head arrive whole within the header timeout of its
//!   first byte.
//!
//! A request being answered has no deadline: its answer is the server's
//! own work. At a stop, a connection with no request being answered and
//! bytes of an unfinished head is dropped at once; the others are stopped
//! through hyper (idle ones close, answers in flight finish).

use crate::options::ConnectionLimits;
use crate::respond::{App, respond};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{Notify, OwnedSemaphorePermit, watch};
use tokio::time::Instant;

/// What every connection of the server shares.
pub struct Shared {
    pub app: Arc<App>,
    pub builder: auto::Builder<TokioExecutor>,
    pub limits: ConnectionLimits,
    /// Turns true at a stop signal.
    pub stop: watch::Receiver<bool>,
    /// Told when the connection cap is reached: connections with no
    /// request being answered close, to make room.
    pub shed: Notify,
}

/// Serves one accepted connection until it ends, times out, is shed or
/// is stopped; `slot` is its place under the connection cap.
pub async fn serve(tcp: TcpStream, shared: Arc<Shared>, slot: OwnedSemaphorePermit) {
    let _slot = slot;
    let _ = tcp.set_nodelay(true);
    let peer = tcp.peer_addr().ok().map(|a| a.ip());
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched {
        tcp,
        activity: Arc::clone(&activity),
    });
    let (app, tracked) = (Arc::clone(&shared.app), Arc::clone(&activity));
    let service = service_fn(move |req| {
        let answering = Answering::begin(&tracked);
        let app = Arc::clone(&app);
        async move {
            let response = respond(app, peer, req).await;
            drop(answering);
            response
        }
    });
    let connection = shared.builder.serve_connection(io, service);
    tokio::pin!(connection);
    let mut stop = shared.stop.clone();
    let mut stopping = *stop.borrow_and_update();
    if stopping {
        return;
    }
    loop {
        tokio::select! {
            _ = connection.as_mut() => return,
            () = activity.expired(shared.limits) => return,
            () = shared.shed.notified(), if !stopping => if activity.waiting() {
                return;
            },
            _ = stop.changed(), if !stopping => {
                stopping = true;
                // Nothing being answered: nothing to finish. An idle
                // HTTP/2 connection would otherwise hold the stop until
                // the drain's limit, its peer never closing it.
                if activity.mid_head() || activity.waiting() {
                    return;
                }
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Where a connection is, as its deadline reads it.
struct State {
    /// Requests being answered (more than one on HTTP/2).
    answering: usize,
    /// The opening, or the end of the last answer.
    idle_since: Instant,
    /// No request has been answered yet.
    first: bool,
    /// The first byte read since `idle_since`, while nothing is answered.
    first_byte: Option<Instant>,
    /// Bytes read since the last answer while nothing is answered: a
    /// request's head is a few kilobytes; a flood of HTTP/2 PINGs or
    /// SETTINGS, which never start a request, grows this without end.
    idle_bytes: u64,
}

/// The most bytes a connection may send while no request of it is being
/// answered: far above any request head (and HTTP/2's preface, settings
/// and window updates), far below what a flood sends in a second.
const MAX_IDLE_BYTES: u64 = 1 << 20;

/// A connection's [`State`], and a wake-up for its deadline when it
/// changes.
struct Activity {
    state: Mutex<State>,
    changed: Notify,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            state: Mutex::new(State {
                answering: 0,
                idle_since: Instant::now(),
                first: true,
                first_byte: None,
                idle_bytes: 0,
            }),
            changed: Notify::new(),
        }
    }

    fn update(&self, change: impl FnOnce(&mut State)) {
        if let Ok(mut state) = self.state.lock() {
            change(&mut state);
        }
        self.changed.notify_waiters();
    }

    /// `n` bytes came: the first since the last answer starts a head, whose
    /// deadline then runs; past [`MAX_IDLE_BYTES`] with nothing answered,
    /// the deadline is now. One lock a read, the socket's hot path.
    fn bytes_read(&self, n: usize) {
        let changed = self.state.lock().is_ok_and(|mut s| {
            if s.answering != 0 {
                return false;
            }
            let before = s.idle_bytes;
            s.idle_bytes = before.saturating_add(n as u64);
            let flooded = before <= MAX_IDLE_BYTES && s.idle_bytes > MAX_IDLE_BYTES;
            let starts = s.first_byte.is_none();
            if starts {
                s.first_byte = Some(Instant::now());
            }
            starts || flooded
        });
        if changed {
            self.changed.notify_waiters();
        }
    }

    /// No request is being answered.
    fn waiting(&self) -> bool {
        self.state.lock().map_or(true, |s| s.answering == 0)
    }

    /// Part of a request has come, and nothing is being answered.
    fn mid_head(&self) -> bool {
        self.state
            .lock()
            .map_or(true, |s| s.answering == 0 && s.first_byte.is_some())
    }

    /// When the connection is to be closed, if nothing changes first.
    fn deadline(&self, limits: ConnectionLimits) -> Option<Instant> {
        let Ok(s) = self.state.lock() else {
            return Some(Instant::now());
        };
        if s.answering == 0 && s.idle_bytes > MAX_IDLE_BYTES {
            return Some(Instant::now());
        }
        match (s.answering, s.first, s.first_byte) {
            (0, true, _) => Some(s.idle_since + limits.header_timeout),
            (0, false, Some(at)) => Some(at + limits.header_timeout),
            (0, false, None) => Some(s.idle_since + limits.idle_timeout),
            _ => None,
        }
    }

    /// Resolves when the deadline has passed.
    async fn expired(&self, limits: ConnectionLimits) {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            match self.deadline(limits) {
                Some(at) if at <= Instant::now() => return,
                Some(at) => tokio::select! {
                    () = tokio::time::sleep_until(at) => {}
                    () = changed => {}
                },
                None => changed.await,
            }
        }
    }
}

/// A request being answered, from its head to its answer.
struct Answering(Arc<Activity>);

impl Answering {
    fn begin(activity: &Arc<Activity>) -> Answering {
        activity.update(|s| {
            s.answering += 1;
            s.first_byte = None;
            s.idle_bytes = 0;
        });
        Answering(Arc::clone(activity))
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.update(|s| {
            s.answering = s.answering.saturating_sub(1);
            if s.answering == 0 {
                s.idle_since = Instant::now();
                s.first = false;
                s.first_byte = None;
                s.idle_bytes = 0;
            }
        });
    }
}

/// The socket, telling the connection's [`Activity`] when bytes come.
struct Watched {
    tcp: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.tcp).poll_read(cx, buf);
        if matches!(read, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.bytes_read(buf.filled().len() - before);
        }
        read
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}
