//! One request outside the measured ones, on a connection of its own and
//! untimed: a document of the site read for the page list (sent with the
//! run's headers, its credentials, cookie and `--header`s, but without
//! `Accept-Encoding`, so that the body comes as the site stores it), or the
//! `PURGE` that clears a cache. The answer's body is read up to a cap.

use crate::client::Client;
use crate::connect::{self, Conn, Deadline, Sender};
use crate::failure;
use crate::url::Url;
use bytes::Bytes;
use http::header::{ACCEPT_ENCODING, LINK};
use http::{HeaderMap, Request};
use http_body_util::{BodyExt, Empty};
use std::time::Instant;

/// An answer, its body read up to the cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Document {
    pub(crate) status: u16,
    pub(crate) headers: HeaderMap,
    /// The body, at most the cap.
    pub(crate) body: Vec<u8>,
    /// The body was longer than the cap, and was cut there.
    pub(crate) cut: bool,
}

impl Document {
    /// The values of its `Link` headers.
    pub(crate) fn links(&self) -> Vec<String> {
        self.headers
            .get_all(LINK)
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
            .collect()
    }
}

/// GETs `url`, the body as stored; the error says in a few words why
/// there is no answer.
pub(crate) async fn get(client: &Client, url: &Url, cap: usize) -> Result<Document, String> {
    send(client, url, cap, |h2| {
        let mut request = client
            .request_to(url, url.path.clone(), h2)
            .map_err(|f| f.to_string())?;
        request.headers_mut().remove(ACCEPT_ENCODING);
        Ok(request)
    })
    .await
}

/// Sends the request `make` builds (told whether the connection is
/// HTTP/2) to `url`'s server on a connection of its own, within the run's
/// timeout.
pub(crate) async fn send(
    client: &Client,
    url: &Url,
    cap: usize,
    make: impl FnOnce(bool) -> Result<Request<Empty<Bytes>>, String>,
) -> Result<Document, String> {
    let deadline = Deadline::default();
    deadline.set(Instant::now() + client.timeout);
    let work = async {
        let mut conn = client
            .connector
            .open(url, &deadline)
            .await
            .map_err(|f| f.to_string())?;
        let request = make(conn.is_http2())?;
        exchange(&mut conn, request, cap).await
    };
    match tokio::time::timeout(client.timeout, work).await {
        Ok(answer) => answer,
        Err(_) => Err(format!(
            "no answer within {} s",
            client.timeout.as_secs_f64()
        )),
    }
}

/// Sends `request` and reads its answer, driving the connection meanwhile.
async fn exchange(
    conn: &mut Conn,
    request: Request<Empty<Bytes>>,
    cap: usize,
) -> Result<Document, String> {
    let Conn {
        sender,
        driver,
        resets,
        ..
    } = conn;
    let before = resets.count();
    let work = read(sender, request, cap);
    let document = connect::drive(driver, work, |e| failure::of(e).to_string())
        .await
        .0?;
    // hyper ends a body quietly at a stream reset with NO_ERROR.
    if resets.count() > before {
        return Err("the server reset the answer's stream before its end".to_string());
    }
    Ok(document)
}

async fn read(
    sender: &mut Sender,
    request: Request<Empty<Bytes>>,
    cap: usize,
) -> Result<Document, String> {
    let response = sender
        .send(request)
        .await
        .map_err(|e| failure::of(&e).to_string())?;
    let (parts, body) = response.into_parts();
    let (body, cut) = capped(body, cap).await?;
    Ok(Document {
        status: parts.status.as_u16(),
        headers: parts.headers,
        body,
        cut,
    })
}

/// The body's first `cap` bytes, and whether there was more.
async fn capped<B>(mut body: B, cap: usize) -> Result<(Vec<u8>, bool), String>
where
    B: hyper::body::Body<Data = Bytes> + Unpin,
    B::Error: std::error::Error + 'static,
{
    let mut kept = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| failure::of(&e).to_string())?;
        if let Some(data) = frame.data_ref() {
            if kept.len() + data.len() > cap {
                let room = cap - kept.len();
                kept.extend_from_slice(&data[..room]);
                return Ok((kept, true));
            }
            kept.extend_from_slice(data);
        }
    }
    Ok((kept, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::Full;
    use hyper::body::{Body, Frame};
    use std::collections::VecDeque;
    use std::convert::Infallible;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    fn run<T>(f: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime")
            .block_on(f)
    }

    /// A body of several frames, one per poll.
    struct Frames(VecDeque<&'static str>);

    impl Body for Frames {
        type Data = Bytes;
        type Error = Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
            let next = self.0.pop_front();
            Poll::Ready(next.map(|s| Ok(Frame::data(Bytes::from_static(s.as_bytes())))))
        }
    }

    #[test]
    fn a_body_is_kept_whole_up_to_the_cap_and_cut_past_it() {
        let body = || Full::new(Bytes::from_static(b"0123456789"));
        assert_eq!(run(capped(body(), 10)), Ok((b"0123456789".to_vec(), false)));
        assert_eq!(run(capped(body(), 4)), Ok((b"0123".to_vec(), true)));
        let frames = || Frames(VecDeque::from(["abc", "def", "ghi"]));
        assert_eq!(run(capped(frames(), 7)), Ok((b"abcdefg".to_vec(), true)));
        assert_eq!(run(capped(frames(), 9)), Ok((b"abcdefghi".to_vec(), false)));
        assert_eq!(run(capped(frames(), 6)), Ok((b"abcdef".to_vec(), true)));
    }
}
