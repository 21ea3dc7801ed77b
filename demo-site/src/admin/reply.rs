//! The administration over HTTP: a request read into an [`Asked`] (its
//! form body bounded), and a [`Reply`] rendered into a response through
//! the site's pages. Nothing here is cached, and every answer says so.

use super::{Asked, Reply, View, cookies};
use crate::card::measure::{LIMIT, Press};
use crate::respond::{App, failure};
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Request, Response, StatusCode};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

/// The largest form body read: a login form is a few hundred bytes.
const MAX_FORM: usize = 8 * 1024;

/// The answer to `req` (to the administration's `path`) from `peer`.
pub async fn answer(
    app: Arc<App>,
    peer: Option<IpAddr>,
    path: &'static str,
    req: Request<Incoming>,
) -> Response<Full<Bytes>> {
    let header = |name: header::HeaderName| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    };
    let mut asked = Asked {
        method: req.method().as_str().to_string(),
        path: path.to_string(),
        // HTTP/2 may send each cookie in a header of its own.
        cookies: cookies(
            &req.headers()
                .get_all(header::COOKIE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .collect::<Vec<_>>()
                .join("; "),
        ),
        peer,
        // Said by a proxy in front; a forged one only makes the cookies
        // stricter.
        https: header(header::HeaderName::from_static("x-forwarded-proto"))
            .eq_ignore_ascii_case("https"),
        ..Asked::default()
    };
    if asked.method == "POST" {
        let body = match Limited::new(req.into_body(), MAX_FORM).collect().await {
            Ok(body) => body.to_bytes(),
            Err(_) => return plain(StatusCode::PAYLOAD_TOO_LARGE, "a form of 8 KiB at most\n"),
        };
        asked.form = form_urlencoded::parse(&body).into_owned().collect();
    }
    // Argon2 and the renders take milliseconds: off the server's threads.
    tokio::task::spawn_blocking(move || {
        let now = Instant::now();
        let reply = app.admin.answer(&asked, now).map(|r| pressed(&app, r, now));
        match reply.and_then(|r| response(&app, r)) {
            Ok(r) => r,
            Err(e) => failure(&format!("{path}: {e}")),
        }
    })
    .await
    .unwrap_or_else(|e| failure(&format!("{path}: panicked: {e}")))
}

/// `reply` with Measure again pressed, when it was: the dashboard says
/// whether a measurement started, and if not, why and when one may.
fn pressed(app: &Arc<App>, mut reply: Reply, now: Instant) -> Reply {
    if !reply.measure {
        return reply;
    }
    let press = app.measurer.press(now);
    let (status, said, retry) = match press {
        Press::Started => (
            200,
            format!(
                "Measuring: the card shows the new figures when it is done (a few seconds; \
                 {} s at most).",
                LIMIT.as_secs()
            ),
            None,
        ),
        Press::Running(since) => {
            let most = LIMIT.saturating_sub(since).as_secs().max(1);
            (
                429,
                format!(
                    "A measurement started {} s ago is still running, for at most {most} s \
                     more: one at a time.",
                    since.as_secs()
                ),
                Some(most),
            )
        }
        Press::TooSoon(wait) => {
            let wait = wait.as_secs().max(1);
            (
                429,
                format!("One measurement a minute: the next may start in {wait} s."),
                Some(wait),
            )
        }
        Press::Stopping => (
            503,
            "The site is stopping: no measurement starts now.".to_string(),
            None,
        ),
        Press::NotSet => (
            409,
            "This site was started without servers to measure (--card-servers).".to_string(),
            None,
        ),
    };
    reply.status = status;
    reply.retry_after = retry;
    if let View::Dashboard { message, .. } = &mut reply.view {
        *message = said;
    }
    reply
}

/// `reply` as a response, its view rendered.
fn response(app: &App, reply: Reply) -> Result<Response<Full<Bytes>>, String> {
    let (html, location, allow) = match &reply.view {
        View::Login { csrf, message } => (app.pages.login(csrf, message)?, None, None),
        View::Dashboard { csrf, message } => {
            let online = app.admin.online(Instant::now());
            (app.pages.dashboard(csrf, message, online)?, None, None)
        }
        View::SeeOther(to) => (String::new(), Some(*to), None),
        View::NotAllowed(allow) => (String::new(), None, Some(*allow)),
    };
    let mut r = Response::new(Full::new(Bytes::from(html)));
    *r.status_mut() =
        StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = r.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    // Made for each visitor and never kept, as a CDN says of what it
    // passes to the origin; `yardstick http` counts it apart from misses.
    h.insert(
        header::HeaderName::from_static("x-cache"),
        HeaderValue::from_static("BYPASS"),
    );
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    if let Some(to) = location {
        h.insert(header::LOCATION, HeaderValue::from_static(to));
    }
    if let Some(allow) = allow {
        h.insert(header::ALLOW, HeaderValue::from_static(allow));
    }
    if let Some(seconds) = reply.retry_after {
        h.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    for c in &reply.set_cookies {
        let value = HeaderValue::from_str(c).map_err(|e| format!("a cookie: {e}"))?;
        h.append(header::SET_COOKIE, value);
    }
    Ok(r)
}

fn plain(status: StatusCode, text: &str) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(text.to_string())));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}
