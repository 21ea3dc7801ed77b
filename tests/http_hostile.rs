//! The built-in client against hostile peers written here: an answer counts
//! as a page only when it is final and complete, every wait ends at
//! `--timeout`, and what a peer sends is kept only within bounds.
//!
//! Each peer is a raw TCP server on loopback that reads a request head and
//! answers with bytes no well-behaved server sends.

mod http_support;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

use http_support::options;
use yardstick::document::run::Row;
use yardstick_cli::commands::http::measure;

/// A loopback server that answers every request of every connection with
/// `answer(n)`, `n` counting requests from 0, then keeps the connection
/// (or closes it when `close`).
struct Peer {
    port: u16,
}

impl Peer {
    fn start(close: bool, answer: impl Fn(u64, &mut TcpStream) + Send + Sync + 'static) -> Peer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        let answer = Arc::new(answer);
        let count = Arc::new(AtomicU64::new(0));
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (answer, count) = (Arc::clone(&answer), Arc::clone(&count));
                thread::spawn(move || serve(stream, close, &*answer, &count));
            }
        });
        Peer { port }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }
}

fn serve(
    mut stream: TcpStream,
    close: bool,
    answer: &dyn Fn(u64, &mut TcpStream),
    count: &AtomicU64,
) {
    // A safety net for a client that never comes back; not what is tested.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
    let Ok(read) = stream.try_clone() else { return };
    let mut reader = BufReader::new(read);
    loop {
        let mut line = String::new();
        // The request head, up to its blank line.
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) if line == "\r\n" => break,
                Ok(_) => {}
            }
        }
        answer(count.fetch_add(1, Ordering::SeqCst), &mut stream);
        if close {
            return;
        }
    }
}

fn only_row(args: &[&str]) -> Row {
    let run = measure(&options(args)).expect("the run");
    assert_eq!(run.rows.len(), 1, "{:?}", run.rows);
    run.rows.into_iter().next().expect("one row")
}

#[test]
fn a_body_cut_short_is_an_error_not_a_page() {
    let peer = Peer::start(true, |_, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n0123456789");
    });
    let r = only_row(&[
        &format!("--url={}", peer.url()),
        "--requests=10",
        "--warmup=0",
    ]);
    assert_eq!((r.figures.n, r.errors), (0, 10), "{:?}", r.error_messages);
}

#[test]
fn an_informational_answer_is_not_a_page() {
    for head in [
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        "HTTP/1.1 102 Processing\r\n\r\n",
        "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n",
    ] {
        let peer = Peer::start(true, move |_, s| {
            let _ = s.write_all(head.as_bytes());
        });
        let r = only_row(&[
            &format!("--url={}", peer.url()),
            "--requests=4",
            "--warmup=0",
            "--timeout=2",
        ]);
        assert_eq!(
            (r.figures.n, r.errors),
            (0, 4),
            "{head}: {:?} {:?}",
            r.page.status,
            r.error_messages
        );
    }
}

#[test]
fn a_stream_of_100_continue_ends_at_the_timeout() {
    let peer = Peer::start(false, |_, s| {
        // As fast as the client reads, until it goes away (or a safety
        // net of a few GB).
        let burst = b"HTTP/1.1 100 Continue\r\n\r\n".repeat(1000);
        for _ in 0..100_000 {
            if s.write_all(&burst).is_err() {
                return;
            }
        }
    });
    let r = only_row(&[
        &format!("--url={}", peer.url()),
        "--requests=3",
        "--warmup=0",
        "--concurrency=1",
        "--timeout=0.5",
    ]);
    assert_eq!((r.figures.n, r.errors), (0, 3));
    assert_eq!(
        r.error_messages.get("timeout after 0.5 s"),
        Some(&3),
        "{:?}",
        r.error_messages
    );
}

#[test]
fn header_values_from_a_peer_are_kept_within_bounds() {
    let peer = Peer::start(false, |n, s| {
        let unique = format!("{n:06}{}", "v".repeat(90_000));
        let answer = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Cache: HIT{unique}\r\nServer: S{unique}\r\n\r\nok"
        );
        let _ = s.write_all(answer.as_bytes());
    });
    let r = only_row(&[
        &format!("--url={}", peer.url()),
        "--requests=300",
        "--warmup=0",
        "--concurrency=2",
    ]);
    assert_eq!((r.figures.n, r.errors), (300, 0), "{:?}", r.error_messages);
    assert!(
        r.page.cache.len() <= 33,
        "{} distinct cache values kept",
        r.page.cache.len()
    );
    assert_eq!(
        r.page.cache.values().sum::<u64>(),
        300,
        "every answer is counted"
    );
    assert!(
        r.page.cache.keys().all(|k| k.len() <= 64),
        "cache values cut"
    );
    let server = r.page.server.unwrap_or_default();
    assert!(
        server.len() <= 128,
        "server value of {} bytes",
        server.len()
    );
}

#[test]
fn chunked_and_close_delimited_answers_are_pages_of_their_data() {
    // Chunks with an extension and a trailer, on a kept connection.
    let chunked = Peer::start(false, |_, s| {
        let _ = s.write_all(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n",
        );
    });
    // No length: the body ends with the connection.
    let to_close = Peer::start(true, |_, s| {
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nServer: raw\r\n\r\nabc");
    });
    for (peer, bytes) in [(chunked, 11.0), (to_close, 3.0)] {
        let r = only_row(&[
            &format!("--url={}", peer.url()),
            "--requests=20",
            "--warmup=0",
            "--concurrency=2",
        ]);
        assert_eq!((r.figures.n, r.errors), (20, 0), "{:?}", r.error_messages);
        assert_eq!(r.page.bytes, Some(bytes));
    }
}

/// A kept connection that the server closes as a request arrives (an idle
/// close racing the request) had its request sent again once, on a new
/// connection; a new connection that closes so is a failure, never a
/// second try.
#[test]
fn a_request_lost_to_a_kept_connections_close_is_sent_again_once() {
    // Each connection answers its first request and closes, without a
    // word, on its second.
    thread_local!(static ON_THIS_CONNECTION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) });
    let racing = Peer::start(false, move |_, s| {
        // Each connection is served on a thread of its own.
        let n = ON_THIS_CONNECTION.replace(ON_THIS_CONNECTION.get() + 1);
        if n == 0 {
            let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        } else {
            let _ = s.shutdown(std::net::Shutdown::Both);
        }
    });
    let r = only_row(&[
        &format!("--url={}", racing.url()),
        "--requests=6",
        "--warmup=0",
        "--concurrency=1",
    ]);
    assert_eq!((r.figures.n, r.errors), (6, 0), "{:?}", r.error_messages);

    // Every connection closes at once: each request is tried once.
    let tries = Arc::new(AtomicU64::new(0));
    let counted = Arc::clone(&tries);
    let silent = Peer::start(false, move |_, s| {
        counted.fetch_add(1, Ordering::SeqCst);
        let _ = s.shutdown(std::net::Shutdown::Both);
    });
    let r = only_row(&[
        &format!("--url={}", silent.url()),
        "--requests=4",
        "--warmup=0",
        "--concurrency=1",
    ]);
    assert_eq!((r.figures.n, r.errors), (0, 4), "{:?}", r.error_messages);
    // The four measured requests, and the warm-up's one (at least one a
    // connection, even with --warmup=0).
    assert_eq!(tries.load(Ordering::SeqCst), 5);
}

/// An HTTP/2 frame: its nine-byte header, then `payload`.
fn h2_frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len())
        .expect("a small frame")
        .to_be_bytes();
    let mut f = vec![len[1], len[2], len[3], kind, flags];
    f.extend_from_slice(&stream.to_be_bytes());
    f.extend_from_slice(payload);
    f
}

/// A cleartext HTTP/2 server on loopback that answers each request's
/// HEADERS with `answer(stream)`, and acknowledges the client's settings.
fn h2_peer(answer: fn(u32) -> Vec<u8>) -> u16 {
    use std::io::Read;
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            thread::spawn(move || {
                let mut s = stream;
                let _ = s.set_read_timeout(Some(Duration::from_secs(60)));
                let mut preface = [0u8; 24];
                if s.read_exact(&mut preface).is_err() {
                    return;
                }
                let _ = s.write_all(&h2_frame(0x4, 0, 0, &[]));
                loop {
                    let mut head = [0u8; 9];
                    if s.read_exact(&mut head).is_err() {
                        return;
                    }
                    let len = u32::from_be_bytes([0, head[0], head[1], head[2]]) as usize;
                    let mut payload = vec![0u8; len];
                    if s.read_exact(&mut payload).is_err() {
                        return;
                    }
                    let id = u32::from_be_bytes([head[5], head[6], head[7], head[8]]) & 0x7fff_ffff;
                    match (head[3], head[4]) {
                        (0x4, flags) if flags & 0x1 == 0 => {
                            let _ = s.write_all(&h2_frame(0x4, 0x1, 0, &[]));
                        }
                        (0x1, _) => {
                            let _ = s.write_all(&answer(id));
                        }
                        _ => {}
                    }
                }
            });
        }
    });
    port
}

/// An HTTP/2 answer is a page only when the server ended its stream: a
/// stream reset with NO_ERROR before END_STREAM (which hyper takes for the
/// body's end) cuts it, Content-Length or not; a reset after the end, as a
/// server may send to stop a request body, does not.
#[test]
fn an_http2_answer_reset_before_its_end_is_an_error() {
    const OK_HEAD: u8 = 0x88; // `:status: 200`, HPACK's static entry 8.
    const END_HEADERS: u8 = 0x4;
    const END_STREAM: u8 = 0x1;
    // Each reset carries NO_ERROR (0).
    fn half(id: u32) -> Vec<u8> {
        let mut a = h2_frame(0x1, END_HEADERS, id, &[OK_HEAD]);
        a.extend(h2_frame(0x0, 0, id, &[b'x'; 50]));
        a.extend(h2_frame(0x3, 0, id, &[0; 4]));
        a
    }
    fn head_only(id: u32) -> Vec<u8> {
        let mut a = h2_frame(0x1, END_HEADERS, id, &[OK_HEAD]);
        a.extend(h2_frame(0x3, 0, id, &[0; 4]));
        a
    }
    fn whole(id: u32) -> Vec<u8> {
        let mut a = h2_frame(0x1, END_HEADERS, id, &[OK_HEAD]);
        a.extend(h2_frame(0x0, END_STREAM, id, &[b'x'; 50]));
        a.extend(h2_frame(0x3, 0, id, &[0; 4]));
        a
    }
    for (answer, whole_pages) in [
        (half as fn(u32) -> Vec<u8>, false),
        (head_only, false),
        (whole, true),
    ] {
        let port = h2_peer(answer);
        let r = only_row(&[
            &format!("--url=http://127.0.0.1:{port}/"),
            "--http=2",
            "--requests=6",
            "--warmup=0",
            "--concurrency=1",
            "--max-failures=100",
        ]);
        let expected = if whole_pages { (6, 0) } else { (0, 6) };
        assert_eq!((r.figures.n, r.errors), expected, "{:?}", r.error_messages);
    }
}
