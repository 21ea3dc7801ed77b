//! An in-process test server for HTTP mode, on loopback only:
//! `/` (1,000 bytes; `X-Cache: HIT`, or `MISS` when `_bench` is in the
//! query), `/missing` (404), `/slow` (20 ms), `/auth` (basic auth
//! `user:secret`), over plain HTTP or HTTPS with a self-signed certificate.
//! It counts connections, requests and the most requests in flight at once.
#![allow(dead_code)]

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the server saw.
#[derive(Default)]
pub struct Seen {
    pub connections: AtomicU64,
    pub requests: AtomicU64,
    in_flight: AtomicU64,
    pub max_in_flight: AtomicU64,
    /// Path and query of every request, in arrival order.
    pub targets: Mutex<Vec<String>>,
    /// For each connection, the global number (from 1) of its first request.
    pub first_request_of_connection: Mutex<Vec<u64>>,
    /// Authorization headers received.
    pub authorization: Mutex<Vec<String>>,
    /// Host headers received (HTTP/1.1).
    pub hosts: Mutex<Vec<String>>,
    /// Protocol versions received (`HTTP/1.1`, `HTTP/2.0`).
    pub versions: Mutex<Vec<String>>,
}

impl Seen {
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::SeqCst)
    }
    pub fn connections(&self) -> u64 {
        self.connections.load(Ordering::SeqCst)
    }
    pub fn max_in_flight(&self) -> u64 {
        self.max_in_flight.load(Ordering::SeqCst)
    }
}

/// A running server.
pub struct TestServer {
    pub addr: SocketAddr,
    pub seen: Arc<Seen>,
    pub tls: bool,
}

impl TestServer {
    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}{path}", self.addr)
    }
    pub fn base(&self) -> String {
        self.url("")
    }
}

/// Starts a plain HTTP server on 127.0.0.1.
pub fn start() -> TestServer {
    start_with(false)
}

/// Starts an HTTPS server (HTTP/2 and HTTP/1.1 by ALPN) with a self-signed
/// certificate for `localhost` and `127.0.0.1`.
pub fn start_tls() -> TestServer {
    start_with(true)
}

fn start_with(tls: bool) -> TestServer {
    let std_listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    std_listener.set_nonblocking(true).expect("nonblocking");
    let addr = std_listener.local_addr().expect("address");
    let seen = Arc::new(Seen::default());
    let acceptor = tls.then(tls_acceptor);
    let server_seen = Arc::clone(&seen);
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(std_listener).expect("listener");
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    continue;
                };
                let _ = tcp.set_nodelay(true);
                server_seen.connections.fetch_add(1, Ordering::SeqCst);
                let seen = Arc::clone(&server_seen);
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    let first = Arc::new(AtomicU64::new(0));
                    let service = hyper::service::service_fn(move |req| {
                        handle(Arc::clone(&seen), Arc::clone(&first), req)
                    });
                    match acceptor {
                        None => {
                            let _ = hyper::server::conn::http1::Builder::new()
                                .serve_connection(TokioIo::new(tcp), service)
                                .await;
                        }
                        Some(acceptor) => {
                            let Ok(stream) = acceptor.accept(tcp).await else {
                                return;
                            };
                            let h2 = stream.get_ref().1.alpn_protocol() == Some(b"h2");
                            let io = TokioIo::new(stream);
                            if h2 {
                                let _ =
                                    hyper::server::conn::http2::Builder::new(TokioExecutor::new())
                                        .serve_connection(io, service)
                                        .await;
                            } else {
                                let _ = hyper::server::conn::http1::Builder::new()
                                    .serve_connection(io, service)
                                    .await;
                            }
                        }
                    }
                });
            }
        });
    });
    TestServer { addr, seen, tls }
}

async fn handle(
    seen: Arc<Seen>,
    first: Arc<AtomicU64>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, std::convert::Infallible> {
    let number = seen.requests.fetch_add(1, Ordering::SeqCst) + 1;
    if first
        .compare_exchange(0, number, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        seen.first_request_of_connection
            .lock()
            .unwrap()
            .push(number);
    }
    let now = seen.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    seen.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let target = req
        .uri()
        .path_and_query()
        .map_or("/".to_string(), |p| p.to_string());
    seen.targets.lock().unwrap().push(target.clone());
    seen.versions
        .lock()
        .unwrap()
        .push(format!("{:?}", req.version()));
    if let Some(h) = req.headers().get("host") {
        seen.hosts
            .lock()
            .unwrap()
            .push(String::from_utf8_lossy(h.as_bytes()).into_owned());
    }
    if let Some(a) = req.headers().get("authorization") {
        seen.authorization
            .lock()
            .unwrap()
            .push(String::from_utf8_lossy(a.as_bytes()).into_owned());
    }
    let path = req.uri().path();
    let host = req
        .headers()
        .get("host")
        .and_then(|h| h.to_str().ok())
        .unwrap_or("127.0.0.1")
        .to_string();
    let response = match path {
        "/" => {
            let cache = if target.contains("_bench=") {
                "MISS"
            } else {
                "HIT"
            };
            Response::builder()
                .header("X-Cache", cache)
                .header("Server", "yardstick-test")
                .header(
                    "Link",
                    "</opensearch.xml>; rel=\"search\"; type=\"application/opensearchdescription+xml\", \
                     </purge-here>; rel=\"purge\"",
                )
                .body(Full::new(Bytes::from(vec![b'a'; 1000])))
        }
        // A site's page list: by priority, /slow then /error; a page on
        // another server, not followed; and a login page.
        "/sitemap.xml" => {
            let url = |path: &str, priority: &str| {
                format!("<url><loc>http://{host}{path}</loc><priority>{priority}</priority></url>")
            };
            let xml = format!(
                "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\
                 {}{}<url><loc>http://elsewhere.invalid/x</loc><priority>1.0</priority></url>{}{}</urlset>",
                url("/", "1.0"),
                url("/error", "0.4"),
                url("/account/login", "0.5"),
                url("/slow", "0.9"),
            );
            Response::builder().body(Full::new(Bytes::from(xml)))
        }
        "/opensearch.xml" => {
            let xml = format!(
                "<OpenSearchDescription xmlns=\"http://a9.com/-/spec/opensearch/1.1/\">\
                 <ShortName>Test</ShortName>\
                 <Url type=\"text/html\" template=\"http://{host}/find?q={{searchTerms}}\"/>\
                 </OpenSearchDescription>"
            );
            Response::builder().body(Full::new(Bytes::from(xml)))
        }
        "/find" | "/account/login" => {
            Response::builder().body(Full::new(Bytes::from_static(b"a page")))
        }
        "/error" => Response::builder()
            .status(500)
            .body(Full::new(Bytes::from_static(b"internal error"))),
        "/slow" => {
            tokio::time::sleep(Duration::from_millis(20)).await;
            Response::builder().body(Full::new(Bytes::from_static(b"slow")))
        }
        // Held until four requests are in flight at once (or 10 s have
        // passed), so a client that keeps four going shows four, however
        // slowly a loaded machine starts them.
        "/gather" => {
            let waited = std::time::Instant::now();
            while seen.in_flight.load(Ordering::SeqCst) < 4 && waited.elapsed().as_secs() < 10 {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
            Response::builder().body(Full::new(Bytes::from_static(b"gathered")))
        }
        // Never answers in a test's lifetime: a timeout always wins.
        "/hang" => {
            tokio::time::sleep(Duration::from_secs(600)).await;
            Response::builder().body(Full::new(Bytes::from_static(b"late")))
        }
        "/auth" => {
            // "user:secret" in base64.
            let ok = req
                .headers()
                .get("authorization")
                .is_some_and(|v| v == "Basic dXNlcjpzZWNyZXQ=");
            if ok {
                Response::builder().body(Full::new(Bytes::from_static(b"welcome")))
            } else {
                Response::builder()
                    .status(401)
                    .header("WWW-Authenticate", "Basic realm=\"test\"")
                    .body(Full::new(Bytes::from_static(b"who are you")))
            }
        }
        _ => Response::builder()
            .status(404)
            .body(Full::new(Bytes::from_static(b"not here"))),
    };
    seen.in_flight.fetch_sub(1, Ordering::SeqCst);
    Ok(response.expect("response"))
}

fn tls_acceptor() -> tokio_rustls::TlsAcceptor {
    let cert =
        rcgen::generate_simple_self_signed(vec!["localhost".to_string(), "127.0.0.1".to_string()])
            .expect("certificate");
    let der = cert.cert.der().clone();
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(cert.signing_key.serialize_der().into());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("versions")
        .with_no_client_auth()
        .with_single_cert(vec![der], key)
        .expect("server certificate");
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    tokio_rustls::TlsAcceptor::from(Arc::new(config))
}

/// A loopback port nothing listens on (bound, then released).
pub fn closed_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("address").port()
}

/// Options for `yardstick http` from command-line words.
pub fn options(args: &[&str]) -> yardstick_cli::commands::http::options::HttpOptions {
    let mut words: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    words.push("-q".to_string());
    yardstick_cli::commands::http::options::parse(words, None).expect("options")
}
