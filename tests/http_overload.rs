//! The built-in client against servers with too little room: failures are
//! counted by kind, exactly as the server counts what it did, a page whose
//! failures pass `--max-failures` is marked overloaded, and the run fails.
//!
//! Each server here is a raw TCP server on loopback that counts what it
//! did (answers, connections turned away, connections reset), so the row
//! can be held to the server's own counts.

mod http_support;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

use http_support::options;
use yardstick::document::run::Row;
use yardstick_cli::commands::http::measure;

/// What a server did, counted as it did it.
#[derive(Default)]
struct Counts {
    /// Connections accepted.
    connections: AtomicU64,
    /// Requests answered `200`.
    answered: AtomicU64,
    /// Connections closed at once, without reading a byte.
    turned_away: AtomicU64,
    /// Connections reset (closed with an RST) at once.
    reset: AtomicU64,
}

impl Counts {
    fn get(c: &AtomicU64) -> u64 {
        c.load(Ordering::SeqCst)
    }
}

/// What the server does with its `n`th connection (from 0).
#[derive(Clone, Copy)]
enum Fate {
    Serve,
    /// Answers this many requests, then closes without a word.
    ServeOnly(u64),
    TurnAway,
    Reset,
}

/// A loopback server that decides each connection's fate by its number,
/// and answers every request of a served connection with 2 bytes.
fn server(fate: impl Fn(u64) -> Fate + Send + 'static) -> (u16, Arc<Counts>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    let counts = Arc::new(Counts::default());
    let seen = Arc::clone(&counts);
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let n = seen.connections.fetch_add(1, Ordering::SeqCst);
            match fate(n) {
                Fate::Serve | Fate::ServeOnly(_) => {
                    let seen = Arc::clone(&seen);
                    let limit = match fate(n) {
                        Fate::ServeOnly(limit) => limit,
                        _ => u64::MAX,
                    };
                    thread::spawn(move || serve(stream, &seen, limit));
                }
                Fate::TurnAway => {
                    seen.turned_away.fetch_add(1, Ordering::SeqCst);
                    drop(stream);
                }
                Fate::Reset => {
                    seen.reset.fetch_add(1, Ordering::SeqCst);
                    // A linger of zero makes the close an RST.
                    let _ = socket2::SockRef::from(&stream).set_linger(Some(Duration::ZERO));
                    drop(stream);
                }
            }
        }
    });
    (port, counts)
}

/// Answers each request head on `stream` until the client closes it, asks
/// it closed, or `limit` were answered.
fn serve(mut stream: TcpStream, counts: &Counts, limit: u64) {
    // A safety net for a client that never comes back; not what is tested.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
    let Ok(read) = stream.try_clone() else { return };
    let mut reader = BufReader::new(read);
    for _ in 0..limit {
        let mut close = false;
        let mut line = String::new();
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) if line == "\r\n" => break,
                Ok(_) => close |= line.eq_ignore_ascii_case("connection: close\r\n"),
            }
        }
        let answer: &[u8] = if close {
            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
        } else {
            b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        };
        // Counted before it is sent: once the client has it, the test may
        // read the count.
        counts.answered.fetch_add(1, Ordering::SeqCst);
        if stream.write_all(answer).is_err() {
            return;
        }
        if close {
            return;
        }
    }
}

/// The row's timed successful requests.
fn answered(r: &Row) -> u64 {
    r.figures.n as u64
}

fn only_row(args: &[&str]) -> Row {
    let run = measure(&options(args)).expect("the run");
    assert_eq!(run.rows.len(), 1, "{:?}", run.rows);
    run.rows.into_iter().next().expect("one row")
}

/// A server that holds its first four connections for three requests each
/// and turns every other connection away, as nginx does past
/// `worker_connections`, against twelve slots. The warm-up's one request
/// a slot gets four answers and eight connections turned away; the held
/// connections then answer at most two more each (how many depends on
/// which slots take the requests first), and every other request fails,
/// each turned-away connection one failure of kind `closed`. The row must
/// say exactly what the server did.
#[test]
fn a_server_out_of_room_is_counted_exactly_and_marked_overloaded() {
    let fate = |n| {
        if n < 4 {
            Fate::ServeOnly(3)
        } else {
            Fate::TurnAway
        }
    };
    let run = |port: u16, limit: &str| {
        only_row(&[
            &format!("--url=http://127.0.0.1:{port}/"),
            "--requests=30",
            "--warmup=0",
            "--concurrency=12",
            "--rounds=1",
            &format!("--max-failures={limit}"),
        ])
    };
    let (port, counts) = server(fate);
    let r = run(port, "50");
    let failures = r.page.failures.expect("failures by kind");
    assert_eq!(r.requests, 30);
    assert_eq!(answered(&r), Counts::get(&counts.answered) - 4, "{r:?}");
    assert_eq!(
        failures.closed,
        Counts::get(&counts.turned_away) - 8,
        "{r:?}"
    );
    assert_eq!(answered(&r) + failures.closed, 30, "{r:?}");
    assert!(answered(&r) <= 8, "{r:?}");
    assert_eq!(
        (
            failures.connect,
            failures.timeout,
            failures.http,
            failures.other
        ),
        (0, 0, 0, 0),
        "{r:?}"
    );
    assert_eq!(r.errors, failures.total());
    // At least 22 of 30 failed: past 50 %.
    assert!(r.page.overloaded, "{r:?}");

    // The same server, allowed every failure: counted alike, not marked.
    let (port, _) = server(fate);
    let r = run(port, "100");
    assert!(r.page.failures.is_some_and(|f| f.closed >= 22), "{r:?}");
    assert!(!r.page.overloaded, "{r:?}");
}

/// A server that resets every tenth connection, with a connection per
/// request: one slot sends them in turn, so exactly the tenth, twentieth,
/// ... hundredth of the 101 connections (the first is the warm-up's) are
/// reset, and the row counts ten closed connections and 90 answers: 10 %
/// failed, past a limit of 5 %.
#[test]
fn a_server_that_resets_every_tenth_connection_fails_exactly_those() {
    let (port, counts) = server(|n| {
        if n % 10 == 9 {
            Fate::Reset
        } else {
            Fate::Serve
        }
    });
    let r = only_row(&[
        &format!("--url=http://127.0.0.1:{port}/"),
        "--requests=100",
        "--warmup=0",
        "--concurrency=1",
        "--no-keepalive",
        "--max-failures=5",
    ]);
    let failures = r.page.failures.expect("failures by kind");
    assert_eq!(Counts::get(&counts.connections), 101);
    assert_eq!(Counts::get(&counts.reset), 10);
    assert_eq!(failures.closed, 10, "{:?}", r.error_messages);
    assert_eq!(answered(&r), 90);
    assert_eq!(Counts::get(&counts.answered), 91);
    assert_eq!(failures.total(), r.errors);
    // 10 % failed, more than the 5 % allowed.
    assert!(r.page.overloaded);
}

/// Refused connections are counted as connection failures, and a run of
/// nothing but them fails, saying what failed, with the row marked.
#[test]
fn an_overloaded_run_fails_and_says_so() {
    let port = http_support::closed_port();
    let out = Command::new(env!("CARGO_BIN_EXE_yardstick"))
        .args([
            "http",
            &format!("--url=http://127.0.0.1:{port}/"),
            "--requests=20",
            "--concurrency=2",
            "--format=json",
            "-q",
        ])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("yardstick runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let run: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON run");
    let row = &run["rows"][0];
    assert_eq!(row["overloaded"], true, "{row}");
    assert_eq!(row["failures"]["connect"], 20, "{row}");
    assert!(
        stderr.contains("overloaded: 20 of 20 requests failed (100.0 %: connect 20)"),
        "{stderr}"
    );
}
