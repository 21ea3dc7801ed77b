//! The server: a tokio runtime of `--workers` threads, one task per
//! connection ([`connection`](crate::connection): HTTP/1.1 or HTTP/2 and
//! its time limits), at most `--max-connections` of them, and a clean stop
//! on SIGTERM or Ctrl-C: the listener is closed at once, idle and
//! half-sent connections are dropped, requests in flight are answered,
//! then the process exits 0.
//!
//! At the cap, the server accepts the one connection that found it full
//! (so the cap is never more than one past), closes every connection with
//! no request being answered, and waits for a place: idle peers cannot
//! keep a real request out. Accept errors (out of descriptors) back off,
//! and each kind of trouble is said at most once a minute.

use crate::connection::{self, Shared};
use crate::options::ConnectionLimits;
use crate::respond::App;
use hyper_util::rt::TokioExecutor;
use hyper_util::server::conn::auto;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};
use tokio::time::Instant;

/// How long requests in flight may take to finish after a stop signal.
const DRAIN: Duration = Duration::from_secs(10);

/// The first wait after a failed accept; it doubles up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(10);
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// Binds `addr` now, so an address in use is an error before anything is
/// started; the error names the address.
pub fn bind(addr: SocketAddr) -> Result<TcpListener, String> {
    let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    Ok(listener)
}

/// Serves `app` on `listener` with `workers` threads until SIGTERM or
/// Ctrl-C, then drains. `ready` is called with the address once the server
/// accepts connections.
pub fn run(
    listener: TcpListener,
    app: App,
    workers: usize,
    limits: ConnectionLimits,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start {workers} server threads: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let stop = stop_signal()?;
        ready(addr);
        serve(listener, Arc::new(app), limits, stop).await;
        Ok(())
    })
}

/// Accepts connections until `stop` resolves, then drains them.
async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    limits: ConnectionLimits,
    stop: impl std::future::Future<Output = ()>,
) {
    let (stopped, stop_seen) = watch::channel(false);
    let shared = Arc::new(Shared {
        app,
        builder: auto::Builder::new(TokioExecutor::new()),
        limits,
        stop: stop_seen,
        shed: Notify::new(),
    });
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    accept_until(&listener, &shared, &slots, stop).await;
    drop(listener);
    let _ = stopped.send(true);
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    tokio::select! {
        _ = slots.acquire_many(all) => {}
        () = tokio::time::sleep(DRAIN) => eprintln!("stopping with requests still in flight after {DRAIN:?}"),
    }
}

/// Accepts and spawns connections, under the cap, until `stop`.
async fn accept_until(
    listener: &tokio::net::TcpListener,
    shared: &Arc<Shared>,
    slots: &Arc<Semaphore>,
    stop: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(stop);
    let mut backoff = FIRST_BACKOFF;
    let mut accept_failed = Sayer::new();
    let mut full = Sayer::new();
    loop {
        let tcp = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => return,
        };
        let tcp = match tcp {
            Ok((tcp, _)) => {
                backoff = FIRST_BACKOFF;
                tcp
            }
            Err(e) => {
                // Out of descriptors and the like: make room, wait longer
                // each time, and go on.
                accept_failed.say(|| format!("accept: {e}; waiting, then going on"));
                shared.shed.notify_waiters();
                tokio::select! {
                    () = tokio::time::sleep(backoff) => {}
                    () = &mut stop => return,
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
                continue;
            }
        };
        let slot = match Arc::clone(slots).try_acquire_owned() {
            Ok(slot) => slot,
            Err(_) => {
                let cap = shared.limits.max_connections;
                full.say(|| {
                    format!("connections: all {cap} in use; closing idle ones to make room")
                });
                match room(shared, slots, &mut stop).await {
                    Some(slot) => slot,
                    None => return,
                }
            }
        };
        tokio::spawn(connection::serve(tcp, Arc::clone(shared), slot));
    }
}

/// A place under the cap: closes the connections with no request being
/// answered, then waits for one to end (again each second, for busy ones
/// that turn idle); `None` at a stop.
async fn room(
    shared: &Shared,
    slots: &Arc<Semaphore>,
    stop: &mut std::pin::Pin<&mut impl std::future::Future<Output = ()>>,
) -> Option<OwnedSemaphorePermit> {
    loop {
        shared.shed.notify_waiters();
        tokio::select! {
            slot = Arc::clone(slots).acquire_owned() => return slot.ok(),
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
            () = stop.as_mut() => return None,
        }
    }
}

/// A message said at most once a minute, with how many were not said.
struct Sayer {
    last: Option<Instant>,
    unsaid: u64,
}

impl Sayer {
    fn new() -> Sayer {
        Sayer {
            last: None,
            unsaid: 0,
        }
    }

    fn say(&mut self, message: impl FnOnce() -> String) {
        let now = Instant::now();
        if self
            .last
            .is_some_and(|t| now.duration_since(t) < Duration::from_secs(60))
        {
            self.unsaid += 1;
            return;
        }
        let unsaid = std::mem::take(&mut self.unsaid);
        let tail = if unsaid > 0 {
            format!(" ({unsaid} more like it since the last)")
        } else {
            String::new()
        };
        eprintln!("{}{tail}", message());
        self.last = Some(now);
    }
}

/// Resolves at the first SIGTERM or Ctrl-C (SIGINT).
fn stop_signal() -> Result<impl std::future::Future<Output = ()>, String> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term =
        signal(SignalKind::terminate()).map_err(|e| format!("cannot catch SIGTERM: {e}"))?;
    let mut int =
        signal(SignalKind::interrupt()).map_err(|e| format!("cannot catch SIGINT: {e}"))?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    })
}
