//! One request answered: from the view cache when it holds the target,
//! else rendered (on a blocking thread: rendering reads SQLite and the
//! cache writes a file) and kept for the next request. `X-Cache` says
//! which, for `yardstick http`'s cache column.

use crate::cache::{Stored, ViewCache};
use crate::gzip;
use crate::pages::{Pages, Rendered};
use crate::published::{self, Published, opensearch, sitemap};
use crate::purge::{self, Refusal, Token};
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;

/// What the server answers with.
pub struct App {
    pub pages: Pages,
    pub cache: ViewCache,
    /// The administrators: their login, sessions and dashboard.
    pub admin: crate::admin::Admin,
    /// The speed card's file, which `/speed` and `/speed.json` read.
    pub card_file: std::path::PathBuf,
    /// Measure again's measurements.
    pub measurer: Arc<crate::card::measure::Measurer>,
    /// The token a `PURGE` must carry; none: the site knows no `PURGE`.
    pub purge_token: Option<Token>,
}

/// The response to `req` from `peer`; never an error (a failed render is a
/// 500).
pub async fn respond(
    app: Arc<App>,
    peer: Option<IpAddr>,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    if req.method().as_str() == purge::METHOD && req.uri().path() == purge::PATH {
        return Ok(purge_answer(app, peer, &req).await);
    }
    if let Some(path) = crate::admin::owned(req.uri().path()) {
        return Ok(crate::admin::reply::answer(app, peer, path, req).await);
    }
    if let Some(path) = crate::card::owned(req.uri().path()) {
        return Ok(crate::card::reply::answer(app, req.method(), path).await);
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = Response::new(Full::new(Bytes::from_static(b"only GET and HEAD\n")));
        *r.status_mut() = StatusCode::METHOD_NOT_ALLOWED;
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return Ok(r);
    }
    let target = req
        .uri()
        .path_and_query()
        .map_or_else(|| "/".to_string(), |p| p.as_str().to_string());
    let gzip = req
        .headers()
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(gzip::accepted);
    let path = target.split(['?', '#']).next().unwrap_or("/");
    if let Some((kind, bytes)) = crate::design::file(path) {
        return Ok(design_file(kind, bytes));
    }
    if let Some(document) = Published::at(path) {
        let Some(origin) = origin(&req) else {
            return Ok(plain(StatusCode::BAD_REQUEST, "no host a URL can name\n"));
        };
        let answered = tokio::task::spawn_blocking(move || publish(&app, document, &origin)).await;
        return Ok(answered.unwrap_or_else(|e| failure(&format!("{path}: panicked: {e}"))));
    }
    let front = published::is_front_page(path);
    let purge_offered = app.purge_token.is_some();
    let mut response = match app.cache.in_memory(&target) {
        Some(hit) => page(&hit, gzip, "HIT"),
        None => tokio::task::spawn_blocking(move || answer(&app, &target, gzip))
            .await
            .unwrap_or_else(|e| failure(&format!("a render panicked: {e}"))),
    };
    if front {
        let links = if purge_offered {
            published::FRONT_PAGE_LINKS_WITH_PURGE
        } else {
            published::FRONT_PAGE_LINKS
        };
        response
            .headers_mut()
            .insert(header::LINK, HeaderValue::from_static(links));
    }
    Ok(response)
}

/// The answer to a `PURGE` of the purge endpoint.
async fn purge_answer(
    app: Arc<App>,
    peer: Option<IpAddr>,
    req: &Request<Incoming>,
) -> Response<Full<Bytes>> {
    let authorization = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    // Clearing removes files: off the server's threads, as a render.
    let answered =
        tokio::task::spawn_blocking(move || clear(&app, peer, authorization.as_deref())).await;
    answered.unwrap_or_else(|e| failure(&format!("a purge panicked: {e}")))
}

/// The answer to `target` off the server's threads: a cached page, or one
/// rendered now.
fn answer(app: &App, target: &str, gzip: bool) -> Response<Full<Bytes>> {
    if let Some(hit) = app.cache.get(target) {
        return page(&hit, gzip, "HIT");
    }
    match app.pages.render(target) {
        Ok(Rendered {
            status: 200, html, ..
        }) => page(&app.cache.put(target, Bytes::from(html)), gzip, "MISS"),
        Ok(other) => uncached(other, gzip),
        Err(e) => failure(&format!("{target}: {e}")),
    }
}

/// `http://HOST` as the request names its host (HTTP/2's authority, or
/// HTTP/1.1's Host header); none when that is no host a URL can hold, so a
/// peer's text never reaches the sitemap.
fn origin(req: &Request<Incoming>) -> Option<String> {
    let host = match req.uri().authority() {
        Some(authority) => authority.as_str(),
        None => req.headers().get(header::HOST)?.to_str().ok()?,
    };
    origin_of(host)
}

/// `http://HOST`, when `host` is a name or address with an optional port.
fn origin_of(host: &str) -> Option<String> {
    let fits = !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b));
    fits.then(|| format!("http://{host}"))
}

/// A published document, made at each request: each is small, and the
/// sitemap would go stale with the content if cached.
fn publish(app: &App, document: Published, origin: &str) -> Response<Full<Bytes>> {
    let (xml, content_type) = match document {
        Published::Sitemap => match app.pages.sitemap_paths() {
            Ok(paths) => (
                sitemap::document(origin, &paths),
                "application/xml; charset=utf-8",
            ),
            Err(e) => return failure(&format!("{}: {e}", sitemap::PATH)),
        },
        Published::OpenSearch => (
            opensearch::document(origin, app.pages.site_name()),
            "application/opensearchdescription+xml; charset=utf-8",
        ),
    };
    let mut r = Response::new(Full::new(Bytes::from(xml)));
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

/// The answer to a `PURGE`: the cache cleared, or why not.
fn clear(app: &App, peer: Option<IpAddr>, authorization: Option<&str>) -> Response<Full<Bytes>> {
    match purge::allowed(app.purge_token.as_ref(), peer, authorization) {
        Ok(()) => {
            let pages = app.cache.clear();
            let mut r = Response::new(Full::new(Bytes::from(format!("cleared: {pages} pages\n"))));
            r.headers_mut()
                .insert(purge::CLEARED_HEADER, HeaderValue::from(pages));
            r
        }
        Err(Refusal::NotOffered) => {
            let mut r = plain(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD\n");
            r.headers_mut()
                .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
            r
        }
        Err(Refusal::NotLoopback) => plain(
            StatusCode::FORBIDDEN,
            "the cache is cleared only from this machine\n",
        ),
        Err(Refusal::WrongToken) => {
            let mut r = plain(StatusCode::UNAUTHORIZED, "no purge token, or another one\n");
            r.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            r
        }
    }
}

/// A short plain-text answer.
/// A design file: a stylesheet or a logo, the same for every page, so a
/// browser keeps it for a day.
fn design_file(kind: &'static str, bytes: &'static [u8]) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from_static(bytes)));
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=86400"),
    );
    r
}

fn plain(status: StatusCode, text: &'static str) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from_static(text.as_bytes())));
    *r.status_mut() = status;
    r
}

/// A page with status 200 from the cache's bytes.
fn page(stored: &Stored, gzip: bool, cache: &'static str) -> Response<Full<Bytes>> {
    let body = if gzip { &stored.gzip } else { &stored.html };
    html(StatusCode::OK, body.clone(), gzip, cache)
}

/// A page the cache does not keep: a redirect, "not found".
fn uncached(r: Rendered, gzip: bool) -> Response<Full<Bytes>> {
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = if gzip {
        Bytes::from(gzip::compress(r.html.as_bytes()))
    } else {
        Bytes::from(r.html)
    };
    let mut response = html(status, body, gzip, "MISS");
    if let Some(to) = r.location.and_then(|l| HeaderValue::from_str(&l).ok()) {
        response.headers_mut().insert(header::LOCATION, to);
    }
    response
}

fn html(status: StatusCode, body: Bytes, gzip: bool, cache: &'static str) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(body));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert("x-cache", HeaderValue::from_static(cache));
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    h.insert(
        header::SERVER,
        HeaderValue::from_static("yardstick-demo-site"),
    );
    if gzip {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    r
}

/// The longest cause of a 500 written to stderr: a cause may quote the
/// request, which a peer can make as long as the server reads.
const MAX_LOGGED: usize = 300;

/// A 500, its cause on stderr in one line of at most [`MAX_LOGGED`]
/// characters (not in the page: it may name files).
pub(crate) fn failure(message: &str) -> Response<Full<Bytes>> {
    eprintln!("error: {}", one_line(message, MAX_LOGGED));
    let mut r = Response::new(Full::new(Bytes::from_static(b"internal error\n")));
    *r.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    r
}

/// `message` on one line, cut to `max` characters, saying how long it was.
fn one_line(message: &str, max: usize) -> String {
    let line = message.replace(['\n', '\r'], " ");
    match line.char_indices().nth(max) {
        None => line,
        Some((cut, _)) => format!("{}... ({} bytes in all)", &line[..cut], line.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logged_cause_is_one_bounded_line() {
        assert_eq!(one_line("a\nb", 10), "a b");
        let long = one_line(&"é".repeat(1000), 5);
        assert_eq!(long, "ééééé... (2000 bytes in all)");
    }

    #[test]
    fn only_a_host_a_url_can_hold_becomes_the_sitemap_s_origin() {
        assert_eq!(
            origin_of("127.0.0.1:8080").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(origin_of("[::1]:80").as_deref(), Some("http://[::1]:80"));
        assert_eq!(
            origin_of("demo.example").as_deref(),
            Some("http://demo.example")
        );
        for bad in ["", "a b", "evil<x>", "a/b", "a@b", &"a".repeat(256)] {
            assert_eq!(origin_of(bad), None, "{bad}");
        }
    }
}
