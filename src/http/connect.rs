//! Opening one connection: TCP to an address the plan checked (never a
//! lookup of its own), TLS with ALPN for `https`, then the HTTP/1.1 or
//! HTTP/2 handshake.
//! The connection's driver future is kept with its sender, so the task that
//! sends a request also reads its socket: no hand-over between tasks sits
//! inside a measured time.

use super::failure::{self, Failure};
use super::options::Protocol;
use super::plan::Plan;
use super::url::{Scheme, Url};
use bytes::Bytes;
use http_body_util::Empty;
use hyper::client::conn::{http1, http2};
use hyper_util::rt::{TokioExecutor, TokioIo};
use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

/// The byte stream under HTTP: plain TCP or TLS over it.
pub trait Stream: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Stream for T {}

type Io = TokioIo<Box<dyn Stream>>;

/// The sending half of a connection.
pub enum Sender {
    H1(http1::SendRequest<Empty<Bytes>>),
    H2(http2::SendRequest<Empty<Bytes>>),
}

/// The future that reads and writes the socket; it ends when the
/// connection closes.
pub type Driver = Pin<Box<dyn Future<Output = Result<(), hyper::Error>> + Send>>;

/// One open connection.
pub struct Conn {
    pub sender: Sender,
    pub driver: Driver,
    /// The driver has ended: it must not be polled again.
    pub closed: bool,
}

impl Conn {
    pub fn is_http2(&self) -> bool {
        matches!(self.sender, Sender::H2(_))
    }
}

/// How to reach servers: shared by every connection of a run.
pub struct Connector {
    pub protocol: Protocol,
    /// The checked addresses of each (lower-case host, port): connections go
    /// to these and nowhere else.
    pub addresses: HashMap<(String, u16), Vec<SocketAddr>>,
    /// Present when some page is `https`.
    pub tls: Option<Arc<rustls::ClientConfig>>,
}

/// The addresses of every server of a resolved plan, for a [`Connector`].
pub fn addresses_of(plan: &Plan) -> HashMap<(String, u16), Vec<SocketAddr>> {
    plan.servers
        .iter()
        .map(|s| {
            let port = s.url.port;
            let found = s.addresses.ips.iter().map(|ip| SocketAddr::new(*ip, port));
            ((s.url.host.to_ascii_lowercase(), port), found.collect())
        })
        .collect()
}

impl Connector {
    /// Opens a connection to the server of `url`.
    pub async fn open(&self, url: &Url) -> Result<Conn, Failure> {
        let tcp = self.tcp(url).await?;
        match url.scheme {
            Scheme::Http => {
                let h2 = self.protocol == Protocol::Http2;
                handshake(Box::new(tcp), h2).await
            }
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
                handshake(Box::new(tls), h2).await
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
    let io: Io = TokioIo::new(stream);
    if h2 {
        let (sender, conn) = http2::Builder::new(TokioExecutor::new())
            .handshake(io)
            .await
            .map_err(|e| failure::of(&e))?;
        Ok(Conn {
            sender: Sender::H2(sender),
            driver: Box::pin(conn),
            closed: false,
        })
    } else {
        let (sender, conn) = http1::handshake(io).await.map_err(|e| failure::of(&e))?;
        Ok(Conn {
            sender: Sender::H1(sender),
            driver: Box::pin(conn),
            closed: false,
        })
    }
}
