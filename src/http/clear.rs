//! `--cold-clear`: every server's cache cleared once before the run, so
//! that the first request of each page is rendered from scratch. yardstick
//! never clears a cache it was not told it may clear, and three things
//! tell it: the owner's token, given in a file (`--cold-clear=FILE`); a
//! server on this machine (loopback addresses only); and a server that
//! answers the `PURGE` as one that cleared its whole cache (the
//! `X-Cache-Cleared` header, as the demo site started with
//! `--purge-token-file` sends). A server that answers otherwise has
//! cleared nothing yardstick knows of, and the run ends there, before
//! anything is measured.

use super::client::Client;
use super::connect::Connector;
use super::fetch::{self, Document};
use super::job::Job;
use super::schedule::Schedule;
use super::url::Url;
use crate::error::Error;
use http::header::{AUTHORIZATION, HOST};
use http::{HeaderValue, Method, Request};
use http_body_util::Empty;
use std::path::Path;

/// The request method that clears a cache (as Varnish and nginx's purge
/// module name it): a server that does not know it refuses it, so it
/// never does anything on a server that was not made for it.
const PURGE: &str = "PURGE";

/// The header of an answer whose server cleared its whole cache.
const CLEARED: &str = "x-cache-cleared";

/// The longest token file read.
const MAX_TOKEN_FILE: u64 = 4096;

/// Clears the cache of every server of `schedule` with the token in
/// `token_file`, each step told to `progress`; a refusal names the server
/// and why.
pub(crate) fn clear(
    job: &Job,
    schedule: &Schedule,
    token_file: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<(), Error> {
    let token = read_token(token_file)?;
    if let Some(server) = schedule.servers.iter().find(|s| !s.addresses.is_loopback()) {
        return Err(Error::Refused(format!(
            "--cold-clear: {} is not on this machine: yardstick clears the cache of a \
             loopback server only",
            server.name
        )));
    }
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
    for server in &schedule.servers {
        let answer = runtime.block_on(purge(&client, &server.url, &bearer));
        let pages = cleared(answer, token_file).map_err(|why| {
            Error::Refused(format!(
                "--cold-clear: {}: {why}; nothing was measured (--cold passes caches by instead)",
                server.name
            ))
        })?;
        progress(&format!("{}: cache cleared ({pages} pages)", server.name));
    }
    Ok(())
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
            "answered {status} to the PURGE without an X-Cache-Cleared header: it does not \
             clear its cache on request (the demo site does, started with \
             --purge-token-file)"
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
