//! The server: a tokio runtime of `--workers` threads, one task per
//! connection (HTTP/1.1 or HTTP/2, hyper's auto builder), and a clean stop
//! on SIGTERM or Ctrl-C: the listener is closed at once, idle connections
//! are closed, requests in flight are answered, then the process exits 0.

use crate::respond::{App, respond};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

/// How long requests in flight may take to finish after a stop signal.
const DRAIN: Duration = Duration::from_secs(10);

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
        serve(listener, Arc::new(app), stop).await;
        Ok(())
    })
}

/// Accepts connections until `stop` resolves, then drains them.
async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    stop: impl std::future::Future<Output = ()>,
) {
    let builder = auto::Builder::new(TokioExecutor::new());
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let tcp = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((tcp, _)) => tcp,
                Err(e) => {
                    // Out of file descriptors and the like: wait, go on.
                    eprintln!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = tcp.set_nodelay(true);
        let app = Arc::clone(&app);
        let service = service_fn(move |req| respond(Arc::clone(&app), req));
        let connection = builder.serve_connection(TokioIo::new(tcp), service);
        let connection = graceful.watch(connection.into_owned());
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(DRAIN) => eprintln!("stopping with requests still in flight after {DRAIN:?}"),
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
