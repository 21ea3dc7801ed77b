//! The card's two answers, from its file as it is now: the page, and the
//! JSON. Neither measures, and neither is cached: the file changes when an
//! administrator measures again.

use super::{JSON, store, view};
use crate::respond::{App, failure};
use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Response, StatusCode};
use std::sync::Arc;

/// The answer to `method` on the card's `path`.
pub async fn answer(app: Arc<App>, method: &Method, path: &'static str) -> Response<Full<Bytes>> {
    if method != Method::GET && method != Method::HEAD {
        let mut r = text(
            StatusCode::METHOD_NOT_ALLOWED,
            "text/plain",
            "only GET and HEAD\n".into(),
        );
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    // Reading a file and rendering: off the server's threads.
    tokio::task::spawn_blocking(move || {
        let kept = store::read(&app.card_file);
        if let Err(e) = &kept {
            eprintln!("speed card: {e}");
        }
        if path == JSON {
            return json(&kept);
        }
        match app.pages.card(&view::vars(&kept)) {
            Ok(html) => text(StatusCode::OK, "text/html; charset=utf-8", html),
            Err(e) => failure(&format!("{path}: {e}")),
        }
    })
    .await
    .unwrap_or_else(|e| failure(&format!("{path}: panicked: {e}")))
}

/// The file's last measurement and failure as JSON; 404 before the first
/// measurement, 500 when the file is damaged (its error logged).
fn json(kept: &Result<Option<store::Kept>, String>) -> Response<Full<Bytes>> {
    let (status, body) = match kept {
        Ok(Some(k)) => (
            StatusCode::OK,
            serde_json::to_string_pretty(k).map_err(|e| e.to_string()),
        ),
        Ok(None) => (
            StatusCode::NOT_FOUND,
            Ok(serde_json::json!({"error": "not measured yet"}).to_string()),
        ),
        Err(_) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            Ok(serde_json::json!({ "error": "the card's file is damaged" }).to_string()),
        ),
    };
    match body {
        Ok(body) => text(status, "application/json", body + "\n"),
        Err(e) => failure(&format!("{JSON}: {e}")),
    }
}

fn text(status: StatusCode, content_type: &'static str, body: String) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::HeaderName::from_static("x-cache"),
        HeaderValue::from_static("BYPASS"),
    );
    r
}
