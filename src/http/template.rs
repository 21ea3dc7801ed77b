//! What every request a slot sends to one URL shares, made at the first
//! and reused after: making a URI and headers anew for each request took
//! more of its CPU time than sending it.

use super::failure::Failure;
use super::url::Url;
use http::{HeaderMap, Uri};

/// A slot's requests to one URL, in the form its connection speaks.
pub(crate) struct Template {
    /// The URL the template is for.
    pub(crate) url: Url,
    pub(crate) form: Form,
}

pub(crate) enum Form {
    /// HTTP/1.1: the request's bytes.
    H1(Head),
    /// HTTP/2: what hyper sends.
    H2 { uri: Uri, headers: HeaderMap },
}

/// An HTTP/1.1 GET as bytes, with room to add a query to its path.
pub(crate) struct Head {
    bytes: Vec<u8>,
    /// Where the path ends in `bytes`.
    path_end: usize,
    /// Joins an added query to the path: `?`, or `&` after a query.
    separator: u8,
    /// The request with an added query, made here to keep its buffer.
    scratch: Vec<u8>,
}

impl Head {
    /// The GET of `path` with `headers`, each on its own line.
    pub(crate) fn new(path: &str, headers: &HeaderMap) -> Result<Head, Failure> {
        // Checked as a request target, as hyper would check it: no space,
        // no line break.
        Uri::try_from(path).map_err(|e| Failure::new(format!("cannot build the request: {e}")))?;
        let mut bytes = Vec::with_capacity(256);
        bytes.extend_from_slice(b"GET ");
        bytes.extend_from_slice(path.as_bytes());
        let path_end = bytes.len();
        bytes.extend_from_slice(b" HTTP/1.1\r\n");
        for (name, value) in headers {
            bytes.extend_from_slice(name.as_str().as_bytes());
            bytes.extend_from_slice(b": ");
            bytes.extend_from_slice(value.as_bytes());
            bytes.extend_from_slice(b"\r\n");
        }
        bytes.extend_from_slice(b"\r\n");
        Ok(Head {
            bytes,
            path_end,
            separator: if path.contains('?') { b'&' } else { b'?' },
            scratch: Vec::new(),
        })
    }

    /// The request's bytes; with `bench`, its path carries `_bench=bench`
    /// as its last query parameter.
    pub(crate) fn bytes(&mut self, bench: Option<&str>) -> &[u8] {
        let Some(bench) = bench else {
            return &self.bytes;
        };
        let (path, rest) = self.bytes.split_at(self.path_end);
        self.scratch.clear();
        self.scratch.extend_from_slice(path);
        self.scratch.push(self.separator);
        self.scratch.extend_from_slice(b"_bench=");
        self.scratch.extend_from_slice(bench.as_bytes());
        self.scratch.extend_from_slice(rest);
        &self.scratch
    }
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
    fn a_head_is_the_request_line_then_each_header() {
        let mut head = Head::new("/news?page=2", &headers()).unwrap();
        assert_eq!(
            head.bytes(None),
            b"GET /news?page=2 HTTP/1.1\r\nhost: example.test:8080\r\nuser-agent: yardstick\r\n\r\n"
        );
        assert_eq!(
            head.bytes(Some("ab1")),
            b"GET /news?page=2&_bench=ab1 HTTP/1.1\r\nhost: example.test:8080\r\nuser-agent: yardstick\r\n\r\n"
        );
        let mut plain = Head::new("/", &headers()).unwrap();
        assert!(
            plain
                .bytes(Some("7"))
                .starts_with(b"GET /?_bench=7 HTTP/1.1\r\n")
        );
    }

    #[test]
    fn a_path_that_is_no_request_target_is_refused() {
        assert!(Head::new("/a b", &headers()).is_err());
        assert!(Head::new("/a\r\nX: y", &headers()).is_err());
    }
}
