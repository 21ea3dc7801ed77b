//! The demo site against hostile peers on loopback, written here: peers
//! that connect and send nothing, half a request line, headers without
//! their blank line; that fill the connection cap; that ask for endless
//! unique URLs or a search word of 60,000 characters. Every assertion is
//! an outcome (a connection closed by the server, a page answered, bytes
//! on disk, a process that exited); the long read timeouts are safety
//! nets, never what is asserted.

mod support;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;
use support::{BINARY, Site, get};

/// How long a peer waits for the server before the test gives up: far
/// beyond any timeout the tests configure.
const GUARD: Duration = Duration::from_secs(60);

/// A peer that connects and sends `bytes` (maybe nothing), then waits.
fn peer(port: u16, bytes: &[u8]) -> TcpStream {
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    tcp.write_all(bytes).expect("write");
    tcp.set_read_timeout(Some(GUARD)).expect("timeout");
    tcp
}

/// The peers the sweep found holding connections open for ever.
const HALF_SENT: [&[u8]; 4] = [
    b"",
    b"GET / HT",
    b"GET /news HTTP/1.1\r\nHost: x\r\n",
    // An HTTP/2 preface and nothing more.
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
];

/// Reads until the server closes the connection; what it sent, or the
/// reason it is not closed (the guard ran out).
fn read_to_close(tcp: &mut TcpStream) -> Result<Vec<u8>, String> {
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match tcp.read(&mut buf) {
            Ok(0) => return Ok(got),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return Ok(got),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("still open: {e}")),
        }
    }
}

#[test]
fn idle_and_half_sent_connections_are_closed_by_the_server() {
    // A head may take seconds on a loaded machine without being cut off;
    // the kept-alive peer shows the idle timeout, the others the header's.
    let site = Site::start(&["--header-timeout=3", "--idle-timeout=0.3"]);
    let mut peers: Vec<_> = HALF_SENT.iter().map(|b| peer(site.port, b)).collect();
    // Kept alive after a whole answer, then silent.
    let mut kept = peer(site.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    // Headers trickled a byte at a time, each well within the timeout.
    let mut writer = peer(site.port, b"GET / HTTP/1.1\r\nX-Slow: ");
    let trickling = std::thread::spawn(move || {
        for _ in 0..6000 {
            if writer.write_all(b"a").is_err() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    });
    for (n, tcp) in peers.iter_mut().enumerate() {
        let got = read_to_close(tcp).unwrap_or_else(|e| panic!("peer {n}: {e}"));
        assert!(!got.starts_with(b"HTTP/1.1 200"), "peer {n} got a page");
    }
    let answer = read_to_close(&mut kept).expect("the kept-alive peer");
    assert!(answer.starts_with(b"HTTP/1.1 200"), "{answer:?}");
    assert!(
        trickling.join().expect("the trickling peer"),
        "a peer trickling its head for a minute was never cut off"
    );
}

#[test]
fn at_the_connection_cap_a_real_request_still_gets_its_page() {
    // Timeouts far beyond the test: only making room can let it in.
    let site = Site::start(&[
        "--max-connections=6",
        "--header-timeout=3600",
        "--idle-timeout=3600",
    ]);
    let mut idle: Vec<_> = HALF_SENT.iter().map(|b| peer(site.port, b)).collect();
    let mut kept = peer(site.port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    let mut first = [0u8; 12];
    kept.read_exact(&mut first).expect("a first answer");
    idle.push(kept);
    idle.push(peer(site.port, b""));
    for round in 0..3 {
        let r = get(site.port, "/news", &[]);
        assert_eq!(r.status, 200, "round {round}");
        // The idle peers come back, as an attacker's would.
        idle.extend((0..6).map(|_| peer(site.port, b"GET / HT")));
    }
}

#[test]
fn at_the_descriptor_limit_pages_are_served_and_stderr_stays_quiet() {
    let mut command = Command::new(BINARY);
    command.args(["--header-timeout=3600", "--idle-timeout=3600"]);
    command.stderr(Stdio::piped());
    limit_descriptors(&mut command, 200);
    let site = Site::spawn(command);
    // More idle peers than the process has descriptors.
    let idle: Vec<_> = (0..260).map(|_| peer(site.port, b"")).collect();
    for _ in 0..3 {
        assert_eq!(get(site.port, "/news", &[]).status, 200);
    }
    drop(idle);
    let stderr = site.stderr();
    assert!(stderr.lines().count() <= 4, "{stderr}");
}

/// Starts `command` with an open-file limit of `n`.
fn limit_descriptors(command: &mut Command, n: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit(2) alone, between fork and exec, which is allowed
    // there (async-signal-safe, no allocation).
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: n,
                rlim_max: n,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// The bytes of the files under `dir`, at any depth.
fn bytes_under(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => bytes_under(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

#[test]
fn unique_urls_leave_the_cache_folder_within_its_bound() {
    let dir = tempfile::tempdir().expect("a folder");
    let cache = format!("--cache-dir={}", dir.path().display());
    let site = Site::start(&[&cache, "--cache-bytes=100K", "--memory-bytes=50K"]);
    for n in 0..40 {
        // A query the page does not read: rendered, never kept.
        let r = get(site.port, &format!("/products?u={n}"), &[]);
        assert_eq!((r.status, r.header("x-cache")), (200, Some("MISS")));
        // A search is kept per text: the bound removes the oldest.
        let r = get(site.port, &format!("/content/search?SearchText=w{n}"), &[]);
        assert_eq!(r.status, 200);
        assert!(bytes_under(dir.path()) <= 100 << 10, "after {n}");
    }
    let r = get(site.port, "/content/search?SearchText=w39", &[]);
    assert_eq!(r.header("x-cache"), Some("HIT"));
}

#[test]
fn a_60000_character_search_word_is_no_error_and_stderr_stays_bounded() {
    let mut command = Command::new(BINARY);
    command.arg("--header-timeout=3600").stderr(Stdio::piped());
    let site = Site::spawn(command);
    // `_` is a LIKE wildcard: escaped, the pattern is twice as long.
    for word in ["a".repeat(60_000), "_".repeat(60_000)] {
        let r = get(
            site.port,
            &format!("/content/search?SearchText={word}"),
            &[],
        );
        assert!(matches!(r.status, 200 | 400), "{}", r.status);
    }
    let stderr = site.stderr();
    assert!(stderr.len() < 2000, "{} bytes on stderr", stderr.len());
}

/// A flood of HTTP/2 PINGs starts no request: the server closes the
/// connection once a megabyte has come with nothing to answer, instead of
/// acknowledging every one for as long as the peer sends.
#[test]
fn a_flood_of_http2_pings_is_cut_off() {
    let mut command = Command::new(BINARY);
    command.args(["--header-timeout=3600", "--idle-timeout=3600"]);
    let site = Site::spawn(command);
    let mut hello = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    hello.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 0, 0]);
    let mut tcp = peer(site.port, &hello);
    tcp.set_write_timeout(Some(GUARD)).expect("timeout");
    // The acknowledgements are read and thrown away, so that the server
    // never waits on this peer to read.
    let mut reader = tcp.try_clone().expect("clone");
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while matches!(reader.read(&mut buf), Ok(n) if n > 0) {}
    });
    let ping = [0, 0, 8, 6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
    let pings: Vec<u8> = ping
        .iter()
        .copied()
        .cycle()
        .take(ping.len() * 4096)
        .collect();
    let mut sent = 0usize;
    while sent < (64 << 20) {
        match tcp.write_all(&pings) {
            Ok(()) => sent += pings.len(),
            Err(_) => break,
        }
    }
    assert!(sent < (64 << 20), "the server took {sent} bytes of PINGs");
    drop(site);
}

/// An HTTP/2 connection that finished its preface and settings and then
/// sits idle holds nothing: SIGTERM closes it at once instead of waiting
/// out the drain.
#[test]
fn sigterm_closes_an_idle_http2_connection_at_once() {
    let mut command = Command::new(BINARY);
    command.args(["--header-timeout=3600", "--idle-timeout=3600"]);
    command.stderr(Stdio::piped());
    let mut site = Site::spawn(command);
    // The preface, an empty SETTINGS frame, and the ACK of the server's.
    let mut hello = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    hello.extend_from_slice(&[0, 0, 0, 4, 0, 0, 0, 0, 0]);
    let mut idle = peer(site.port, &hello);
    let mut settings = [0u8; 9];
    idle.read_exact(&mut settings)
        .expect("the server's SETTINGS");
    assert_eq!(settings[3], 4, "a SETTINGS frame: {settings:?}");
    idle.write_all(&[0, 0, 0, 4, 1, 0, 0, 0, 0]).expect("ACK");
    // One request answered first (GET / on stream 1: :method GET,
    // :scheme http, :path / from HPACK's static table, :authority x), so
    // that the connection is idle after an answer, not mid-preface.
    let headers = [0x82, 0x86, 0x84, 0x41, 0x01, b'x'];
    let mut request = vec![0, 0, headers.len() as u8, 1, 0x05, 0, 0, 0, 1];
    request.extend_from_slice(&headers);
    idle.write_all(&request).expect("a request");
    // Read the answer's frames until the server has nothing more to say.
    idle.set_read_timeout(Some(Duration::from_secs(2)))
        .expect("timeout");
    let mut answered = 0;
    let mut buf = [0u8; 16384];
    while let Ok(n) = idle.read(&mut buf) {
        if n == 0 {
            break;
        }
        answered += n;
    }
    assert!(answered > 0, "no answer");
    idle.set_read_timeout(Some(GUARD)).expect("timeout");
    let status = site.terminate(GUARD).expect("the site exits");
    assert_eq!(status.code(), Some(0), "{status:?}");
    read_to_close(&mut idle).expect("closed");
    let stderr = site.stderr();
    assert!(!stderr.contains("in flight"), "{stderr}");
}

#[test]
fn sigterm_drops_half_sent_requests_and_finishes_answers() {
    let mut command = Command::new(BINARY);
    // Only the stop may close the half-sent peers.
    command.args(["--header-timeout=3600", "--idle-timeout=3600"]);
    command.stderr(Stdio::piped());
    let mut site = Site::spawn(command);
    let mut half: Vec<_> = HALF_SENT.iter().map(|b| peer(site.port, b)).collect();
    // An answer being read when the stop comes.
    let mut reading = peer(site.port, b"GET /news HTTP/1.1\r\nHost: x\r\n\r\n");
    let mut first = [0u8; 12];
    reading.read_exact(&mut first).expect("an answer begins");
    assert_eq!(&first, b"HTTP/1.1 200");
    let status = site.terminate(GUARD).expect("the site exits");
    assert_eq!(status.code(), Some(0), "{status:?}");
    let rest = read_to_close(&mut reading).expect("closed");
    assert!(String::from_utf8_lossy(&rest).ends_with("</html>\n"));
    for (n, tcp) in half.iter_mut().enumerate() {
        read_to_close(tcp).unwrap_or_else(|e| panic!("peer {n}: {e}"));
    }
    // Not stopped by the drain's time limit: nothing was waited for.
    let stderr = site.stderr();
    assert!(!stderr.contains("in flight"), "{stderr}");
}
