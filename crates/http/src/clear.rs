//! `--cold-clear`: every server's cache cleared once before the run, so
//! that the first request of each page is rendered from scratch.
//!
//! yardstick never clears a cache it was not told it may clear. Before a
//! `PURGE` is sent, three things must hold: the user gave the owner's token
//! in a file (`--cold-clear=FILE`); every server is on this machine
//! (loopback addresses only, checked before any request); and each server
//! publishes where it is purged, a `purge` link relation on its front page
//! (as the demo site started with `--purge-token-file` does). A server
//! that publishes none is sent no `PURGE` and no token. Afterwards, the
//! answer must say that the whole cache was cleared (`X-Cache-Cleared`);
//! any other answer ends the run before anything is measured.

use super::client::Client;
use super::connect::Connector;
use super::discover::{self, links};
use super::fetch::{self, Document};
use super::job::Job;
use super::schedule::{Schedule, Server};
use super::url::Url;
use crate::error::Error;
use http::header::{AUTHORIZATION, HOST};
use http::{HeaderValue, Method, Request};
use http_body_util::Empty;
use std::path::Path;

/// The request method that clears a cache, as Varnish and nginx's purge
/// module name it.
const PURGE: &str = "PURGE";

/// The link relation of a server's purge endpoint.
const PURGE_RELATION: &str = "purge";

/// The header of an answer whose server cleared its whole cache.
const CLEARED: &str = "x-cache-cleared";

/// The longest token file read.
const MAX_TOKEN_FILE: u64 = 4096;

/// Refuses `--cold-clear` for a schedule with a server off this machine:
/// checked before any request, the page list's included.
pub(crate) fn check_loopback(schedule: &Schedule) -> Result<(), Error> {
    match schedule.servers.iter().find(|s| !s.addresses.is_loopback()) {
        Some(server) => Err(Error::Refused(format!(
            "--cold-clear: {} is not on this machine: yardstick clears the cache of a \
             loopback server only",
            server.name
        ))),
        None => Ok(()),
    }
}

/// Clears the cache of every server of `schedule` with the token in
/// `token_file`, each step told to `progress`; a refusal names the server
/// and why. The first `n_bases` servers are those of `--base` or
/// `--compare`, whose front page is their URL; another's is its root.
pub(crate) fn clear(
    job: &Job,
    schedule: &Schedule,
    n_bases: usize,
    token_file: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<(), Error> {
    let token = read_token(token_file)?;
    check_loopback(schedule)?;
    let mut bearer = HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| {
        Error::input(format!(
            "--cold-clear: {}: the token is not a valid header value",
            token_file.display()
        ))
    })?;
    bearer.set_sensitive(true);
    let client = Client::new(job, Connector::of(job, schedule)?).map_err(Error::Usage)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Refused(format!("cannot start the HTTP client: {e}")))?;
    let refused = |server: &Server, why: String| {
        Error::Refused(format!(
            "--cold-clear: {}: {why}; nothing was measured (--cold passes caches by instead)",
            server.name
        ))
    };
    // Every endpoint first: no server is purged unless all publish one.
    let mut endpoints = Vec::with_capacity(schedule.servers.len());
    for (i, server) in schedule.servers.iter().enumerate() {
        let front = if i < n_bases {
            server.url.clone()
        } else {
            Url {
                path: "/".to_string(),
                ..server.url.clone()
            }
        };
        let answer = runtime.block_on(fetch::get(&client, &front, links::HTML_SCANNED));
        endpoints.push(endpoint(&front, answer).map_err(|why| refused(server, why))?);
    }
    for (server, endpoint) in schedule.servers.iter().zip(&endpoints) {
        let answer = runtime.block_on(purge(&client, endpoint, &bearer));
        let pages = cleared(answer, token_file).map_err(|why| refused(server, why))?;
        progress(&format!("{}: cache cleared ({pages} pages)", server.name));
    }
    Ok(())
}

/// The purge endpoint the front page `front` names, or why there is none.
fn endpoint(front: &Url, answer: Result<Document, String>) -> Result<Url, String> {
    let document = answer.map_err(|m| format!("its front page {front} got no answer: {m}"))?;
    if document.status != 200 {
        return Err(format!(
            "its front page {front} answered {}, so no purge endpoint is known",
            document.status
        ));
    }
    discover::link(front, &discover::links_of(&document), PURGE_RELATION, None).ok_or_else(|| {
        format!(
            "publishes no purge endpoint (a `{PURGE_RELATION}` link relation on its front page \
             {front}), so it is sent no PURGE: the demo site publishes one when started with \
             --purge-token-file"
        )
    })
}

/// Sends the `PURGE` of `url`'s server.
async fn purge(client: &Client, url: &Url, bearer: &HeaderValue) -> Result<Document, String> {
    fetch::send(client, url, 1024, |h2| {
        let target = if h2 {
            format!("{}://{}{}", url.scheme.as_str(), url.authority, url.path)
        } else {
            url.path.clone()
        };
        let mut request = Request::builder()
            .method(Method::from_bytes(PURGE.as_bytes()).map_err(|e| e.to_string())?)
            .uri(target)
            .header(AUTHORIZATION, bearer.clone());
        if !h2 {
            request = request.header(HOST, url.authority.as_str());
        }
        request.body(Empty::new()).map_err(|e| e.to_string())
    })
    .await
}

/// How many pages the server says it cleared; or, when it did not say it
/// cleared its whole cache, why not.
fn cleared(answer: Result<Document, String>, token_file: &Path) -> Result<String, String> {
    let document = answer.map_err(|m| format!("the PURGE got no answer: {m}"))?;
    match (document.status, document.headers.get(CLEARED)) {
        (200..=299, Some(pages)) => Ok(String::from_utf8_lossy(pages.as_bytes()).into_owned()),
        (status @ (401 | 403), _) => Err(format!(
            "answered {status} to the PURGE: the token in {} is not the one it was started \
             with, or it clears only for its own machine",
            token_file.display()
        )),
        (status, _) => Err(format!(
            "answered {status} to the PURGE without an X-Cache-Cleared header, so it is not \
             known to have cleared its whole cache"
        )),
    }
}

/// The token in `path`: its one word, trimmed. Never shown.
fn read_token(path: &Path) -> Result<String, Error> {
    let shown = path.display();
    let fail = |what: String| Error::input(format!("--cold-clear: {shown}: {what}"));
    let size = std::fs::metadata(path)
        .map_err(|e| fail(format!("cannot read: {e}")))?
        .len();
    if size > MAX_TOKEN_FILE {
        return Err(fail(format!("{size} bytes; a token file holds one word")));
    }
    let text = std::fs::read_to_string(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    let token = text.trim();
    if token.is_empty() || token.contains(char::is_whitespace) {
        return Err(fail("holds no token (one word is expected)".to_string()));
    }
    Ok(token.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_file_holds_one_word_and_its_errors_name_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "  s3cret-token-value\n").unwrap();
        assert_eq!(read_token(&file).unwrap(), "s3cret-token-value");
        for bad in ["", " \n", "two words"] {
            std::fs::write(&file, bad).unwrap();
            let e = read_token(&file).unwrap_err().to_string();
            assert!(
                e.contains("token") && e.contains(&file.display().to_string()),
                "{e}"
            );
            assert_eq!(e.lines().count(), 1);
        }
        std::fs::write(&file, "x".repeat(5000)).unwrap();
        assert!(
            read_token(&file)
                .unwrap_err()
                .to_string()
                .contains("5000 bytes")
        );
        let e = read_token(&dir.path().join("none")).unwrap_err();
        assert_eq!(e.exit_code(), 2);
    }
}
