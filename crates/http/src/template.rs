//! What every request a slot sends to one URL shares, made at the first
//! and reused after: making a URI and headers anew for each request took
//! more of its CPU time than sending it.

use super::failure::Failure;
use super::http2;
use http::{HeaderMap, Uri};
use std::ops::Range;

/// A request made once, the part that names its target replaceable (by
/// one with a cold-cache query): an HTTP/1.1 head or an HTTP/2 header
/// block.
struct Made {
    /// The whole request, with the target it was made with.
    bytes: Vec<u8>,
    /// Where that target's part lies in `bytes`.
    target: Range<usize>,
    /// The request with another target, made here to keep its buffer.
    other: Vec<u8>,
}

impl Made {
    /// The request, asking for `target` when given (a target yardstick
    /// made, such as the one with `_bench=`; `write` writes its part),
    /// else for the one it was made with.
    fn with(&mut self, target: Option<&str>, write: impl FnOnce(&mut Vec<u8>, &str)) -> &[u8] {
        let Some(target) = target else {
            return &self.bytes;
        };
        self.other.clear();
        self.other
            .extend_from_slice(&self.bytes[..self.target.start]);
        write(&mut self.other, target);
        self.other.extend_from_slice(&self.bytes[self.target.end..]);
        &self.other
    }
}

/// An HTTP/1.1 GET as bytes.
pub(crate) struct H1Request(Made);

const GET: &[u8] = b"GET ";

impl H1Request {
    /// The GET of `target` (a path and query) with `headers`, each on its
    /// own line.
    pub(crate) fn new(target: &str, headers: &HeaderMap) -> Result<H1Request, Failure> {
        // Checked as a request target, as hyper would check it: no space,
        // no line break, no fragment.
        checked(target)?;
        let mut bytes = Vec::with_capacity(256);
        bytes.extend_from_slice(GET);
        bytes.extend_from_slice(target.as_bytes());
        let target = GET.len()..bytes.len();
        bytes.extend_from_slice(b" HTTP/1.1\r\n");
        for (name, value) in headers {
            bytes.extend_from_slice(name.as_str().as_bytes());
            bytes.extend_from_slice(b": ");
            bytes.extend_from_slice(value.as_bytes());
            bytes.extend_from_slice(b"\r\n");
        }
        bytes.extend_from_slice(b"\r\n");
        Ok(H1Request(Made {
            bytes,
            target,
            other: Vec::new(),
        }))
    }

    /// The request's bytes, asking for `target` when given.
    pub(crate) fn bytes(&mut self, target: Option<&str>) -> &[u8] {
        self.0.with(target, |out, target| {
            out.extend_from_slice(target.as_bytes())
        })
    }
}

/// Headers of HTTP/1.1's connection, left out of an HTTP/2 request
/// (RFC 9113 §8.2.2).
const CONNECTION_SPECIFIC: [&str; 5] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "upgrade",
];

/// Headers whose values are secrets whoever set them (`--header`, not
/// only `--auth`): no table of the server's keeps them (RFC 7541 §7.1.3).
const NEVER_INDEXED: [&str; 3] = ["authorization", "proxy-authorization", "cookie"];

/// An HTTP/2 GET's header block made the three ways (`http2::blocks`),
/// each with its `:path` field the replaceable part, and an id of its own,
/// by which a connection knows whose fields its server's table holds.
pub(crate) struct H2Request {
    first: Made,
    again: Made,
    plain: Made,
    table_bytes: usize,
    id: u64,
}

/// The id of the next request made: unique in the process, so a
/// connection never takes one request's fields for another's.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl H2Request {
    /// The GET of `target` on `authority` over `https` or not, with
    /// `headers` (the request's own, no `Host`).
    pub(crate) fn new(
        https: bool,
        authority: &str,
        target: &str,
        headers: &HeaderMap,
    ) -> Result<H2Request, Failure> {
        checked(target)?;
        // What HTTP/1.1 says of its connection has no place in HTTP/2: a
        // request that carries it is malformed (RFC 9113 §8.2.2), and a
        // server resets its stream.
        let named: Vec<&[u8]> = headers
            .get_all(http::header::CONNECTION)
            .iter()
            .flat_map(|v| v.as_bytes().split(|b| *b == b','))
            .map(<[u8]>::trim_ascii)
            .collect();
        let fields: Vec<http2::Field<'_>> = headers
            .iter()
            .filter(|(name, value)| {
                let n = name.as_str();
                let te = n == "te" && !value.as_bytes().eq_ignore_ascii_case(b"trailers");
                !(CONNECTION_SPECIFIC.contains(&n)
                    || te
                    || named.iter().any(|c| c.eq_ignore_ascii_case(n.as_bytes())))
            })
            .map(|(name, value)| {
                let secret = value.is_sensitive() || NEVER_INDEXED.contains(&name.as_str());
                (name.as_str(), value.as_bytes(), secret)
            })
            .collect();
        let made = http2::blocks(https, authority, target, &fields);
        let made_of = |(bytes, target): http2::Block| Made {
            bytes,
            target,
            other: Vec::new(),
        };
        Ok(H2Request {
            first: made_of(made.first),
            again: made_of(made.again),
            plain: made_of(made.plain),
            table_bytes: made.table_bytes,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        })
    }

    /// Its id and the room its kept fields take in a server's table: what
    /// a connection decides the way by (`http2::Connection::way`).
    pub(crate) fn table(&self) -> (u64, usize) {
        (self.id, self.table_bytes)
    }

    /// The block sent `way`, asking for `target` when given.
    pub(crate) fn block(&mut self, way: http2::Way, target: Option<&str>) -> &[u8] {
        let made = match way {
            http2::Way::First => &mut self.first,
            http2::Way::Again => &mut self.again,
            http2::Way::Plain => &mut self.plain,
        };
        made.with(target, http2::path_field)
    }
}

/// `target` if it is a request target as hyper would send it.
fn checked(target: &str) -> Result<(), Failure> {
    let uri = Uri::try_from(target)
        .map_err(|e| Failure::new(format!("cannot build the request: {e}")))?;
    if uri.path_and_query().map(|p| p.as_str()) != Some(target) {
        return Err(Failure::new(format!(
            "cannot build the request: `{target}` is no request target"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;
    use http::header::{HOST, USER_AGENT};

    fn headers() -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(HOST, HeaderValue::from_static("example.test:8080"));
        h.insert(USER_AGENT, HeaderValue::from_static("yardstick"));
        h
    }

    #[test]
    fn a_request_is_the_request_line_then_each_header() {
        let mut request = H1Request::new("/news?page=2", &headers()).unwrap();
        let rest = " HTTP/1.1\r\nhost: example.test:8080\r\nuser-agent: yardstick\r\n\r\n";
        assert_eq!(
            request.bytes(None),
            format!("GET /news?page=2{rest}").as_bytes()
        );
        assert_eq!(
            request.bytes(Some("/news?page=2&_bench=ab1")),
            format!("GET /news?page=2&_bench=ab1{rest}").as_bytes()
        );
        // The target it was made with, again.
        assert_eq!(
            request.bytes(None),
            format!("GET /news?page=2{rest}").as_bytes()
        );
    }

    #[test]
    fn an_http2_block_replaces_its_path_alone() {
        let mut headers = HeaderMap::new();
        headers.insert(USER_AGENT, HeaderValue::from_static("yardstick"));
        let mut request = H2Request::new(false, "example.test", "/news", &headers).unwrap();
        let decode = |block: &[u8]| {
            let mut decoder = loona_hpack::Decoder::new();
            decoder.decode(block).unwrap()
        };
        let field = |n: &str, v: &str| (n.as_bytes().to_vec(), v.as_bytes().to_vec());
        let made = [
            field(":method", "GET"),
            field(":scheme", "http"),
            field(":path", "/news"),
            field(":authority", "example.test"),
            field("user-agent", "yardstick"),
        ];
        use http2::Way::{Again, First, Plain};
        assert_eq!(decode(request.block(Plain, None)), made);
        let mut cold = made.clone();
        cold[2] = field(":path", &format!("/news?_bench={}", "x".repeat(200)));
        let target = format!("/news?_bench={}", "x".repeat(200));
        assert_eq!(decode(request.block(Plain, Some(&target))), cold);
        assert_eq!(decode(request.block(Plain, None)), made);
        // On one connection: kept, then by index, the path replaced in
        // either.
        let mut server = loona_hpack::Decoder::new();
        assert_eq!(
            server.decode(request.block(First, Some(&target))).unwrap(),
            cold
        );
        assert_eq!(server.decode(request.block(Again, None)).unwrap(), made);
        assert_eq!(
            server.decode(request.block(Again, Some(&target))).unwrap(),
            cold
        );
        // A secret given as a plain header is never indexed either.
        let mut bearer = headers.clone();
        bearer.insert(
            http::header::AUTHORIZATION,
            HeaderValue::from_static("Bearer t"),
        );
        let mut request = H2Request::new(false, "example.test", "/news", &bearer).unwrap();
        let first = request.block(First, None).to_vec();
        let at = first
            .windows(13)
            .position(|w| w == b"authorization")
            .unwrap();
        assert_eq!(first[at - 2], 0x10, "never indexed");
        // Each request its own id.
        let other = H2Request::new(false, "example.test", "/news", &headers).unwrap();
        assert_ne!(request.table().0, other.table().0);
        assert!(H2Request::new(true, "a", "/a b", &headers).is_err());
        // HTTP/1.1's connection headers are left out, and the headers
        // `Connection` names with them.
        let mut hop = headers.clone();
        for (name, value) in [
            ("connection", "keep-alive, x-hop"),
            ("keep-alive", "timeout=5"),
            ("x-hop", "1"),
            ("te", "gzip"),
            ("upgrade", "h2c"),
        ] {
            hop.insert(
                http::HeaderName::from_static(name),
                HeaderValue::from_static(value),
            );
        }
        let mut request = H2Request::new(false, "example.test", "/news", &hop).unwrap();
        assert_eq!(decode(request.block(Plain, None)), made);
        hop.insert(
            http::HeaderName::from_static("te"),
            HeaderValue::from_static("trailers"),
        );
        let mut request = H2Request::new(false, "example.test", "/news", &hop).unwrap();
        assert_eq!(decode(request.block(Plain, None)).len(), made.len() + 1);
    }

    #[test]
    fn a_path_that_is_no_request_target_is_refused() {
        assert!(H1Request::new("/a b", &headers()).is_err());
        assert!(H1Request::new("/a\r\nX: y", &headers()).is_err());
        assert!(H1Request::new("/a#frag", &headers()).is_err());
    }
}
