use super::*;
use proptest::prelude::*;

/// Every header of the final answer, as told.
#[derive(Default)]
struct Seen(Vec<(String, Vec<u8>)>);

impl Keep for Seen {
    fn header(&mut self, name: &str, value: &[u8]) {
        self.0.push((name.to_string(), value.to_vec()));
    }
}

fn connection(chunks: &[&[u8]], idle: bool) -> Connection {
    Connection::new(Box::new(Replay {
        chunks: chunks.iter().map(|c| c.to_vec()).collect(),
        idle,
    }))
}

fn block_on<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(f)
}

/// The answer to one GET from a peer sending `chunks`, and whether the
/// connection then ended.
fn answer(chunks: &[&[u8]]) -> (Result<(u16, u64), String>, bool) {
    replayed(chunks.iter().map(|c| c.to_vec()).collect())
}

#[test]
fn the_fuzz_entry_reads_as_the_connection_does() {
    let whole = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";
    for chunk in [0, 1, 7, 1000] {
        assert_eq!(read_answer(whole, chunk), Ok((200, 5)));
    }
    assert!(read_answer(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nx", 3).is_err());
}

#[test]
fn a_body_of_a_given_length_is_counted_and_the_connection_kept() {
    let whole = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nServer: x\r\n\r\nhello";
    assert_eq!(answer(&[whole]), (Ok((200, 5)), false));
    // The same bytes one at a time.
    let bytes: Vec<&[u8]> = whole.chunks(1).collect();
    assert_eq!(answer(&bytes), (Ok((200, 5)), false));
}

#[test]
fn a_chunked_body_counts_its_data_past_extensions_and_trailers() {
    let body = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n";
    assert_eq!(answer(&[body]), (Ok((200, 11)), false));
    let bytes: Vec<&[u8]> = body.chunks(3).collect();
    assert_eq!(answer(&bytes), (Ok((200, 11)), false));
    // Framed both ways: the chunks count, and the connection ends.
    let both = b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n";
    assert_eq!(answer(&[both]), (Ok((200, 2)), true));
}

#[test]
fn a_body_without_a_length_runs_to_the_close() {
    assert_eq!(
        answer(&[b"HTTP/1.1 200 OK\r\n\r\nabc", b"de"]),
        (Ok((200, 5)), true)
    );
    let gzip_only = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nxyz";
    assert_eq!(answer(&[gzip_only]), (Ok((200, 3)), true));
}

#[test]
fn informational_heads_are_passed_over_and_101_is_no_page() {
    let mut conn = connection(
        &[b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nServer: hint\r\n\r\nHTTP/1.1 204 No Content\r\nServer: real\r\n\r\n"],
        true,
    );
    let mut seen = Seen::default();
    let got = block_on(conn.exchange(b"GET / HTTP/1.1\r\n\r\n", &mut seen));
    assert_eq!(got.map(|r| (r.status, r.bytes)), Ok((204, 0)));
    assert_eq!(seen.0, [("Server".to_string(), b"real".to_vec())]);
    let switching = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n";
    assert!(answer(&[switching]).0.is_err());
}

#[test]
fn the_connection_ends_when_the_answer_says_so() {
    let close = b"HTTP/1.1 200 OK\r\nConnection: Keep-Alive, close\r\nContent-Length: 0\r\n\r\n";
    assert_eq!(answer(&[close]), (Ok((200, 0)), true));
    let old = b"HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n";
    assert_eq!(answer(&[old]), (Ok((200, 0)), true));
    let old_kept = b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n";
    assert_eq!(answer(&[old_kept]), (Ok((200, 0)), false));
    // Close said anywhere wins over keep-alive.
    let both = b"HTTP/1.0 200 OK\r\nConnection: close\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n";
    assert_eq!(answer(&[both]), (Ok((200, 0)), true));
    // Bytes no request asked for; a stray line end is passed over.
    let extra = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n";
    assert_eq!(answer(&[extra]), (Ok((200, 2)), true));
    let stray = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok\r\n";
    assert_eq!(answer(&[stray]), (Ok((200, 2)), false));
}

#[test]
fn a_kept_connection_reads_answer_after_answer() {
    let one = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc";
    let two = b"HTTP/1.1 404 Not Found\r\nContent-Length: 1\r\n\r\nx";
    let mut conn = connection(&[one, two], true);
    for want in [(200, 3), (404, 1)] {
        let got = block_on(conn.exchange(b"GET / HTTP/1.1\r\n\r\n", &mut Seen::default()));
        assert_eq!(got.map(|r| (r.status, r.bytes)), Ok(want));
        assert!(!conn.is_closed());
    }
}

#[test]
fn still_open_finds_a_closed_or_chattering_peer() {
    assert!(connection(&[], true).still_open());
    assert!(!connection(&[], false).still_open());
    assert!(!connection(&[b"HTTP/1.1 408 Timeout\r\n\r\n"], true).still_open());
}

#[test]
fn malformed_answers_are_failures_that_say_why() {
    let failure = |chunks: &[&[u8]], words: &str| {
        let (got, _) = answer(chunks);
        let message = got.expect_err(words);
        assert!(message.contains(words), "{message:?} lacks {words:?}");
    };
    failure(
        &[b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"],
        "two Content-Lengths",
    );
    failure(
        &[b"HTTP/1.1 200 OK\r\nContent-Length: 3, 4\r\n\r\nabcd"],
        "Content-Length",
    );
    failure(
        &[b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"],
        "Content-Length",
    );
    failure(
        &[b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"],
        "closed within",
    );
    failure(&[b"HTTP/1.1 200 OK\r\nContent-Le"], "closed before");
    failure(
        &[b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"],
        "chunk size",
    );
    failure(
        &[b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n11111111111111111\r\n"],
        "chunk size",
    );
    failure(
        &[b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n"],
        "longer than its size",
    );
    failure(&[b"SSH-2.0-OpenSSH\r\n\r\n"], "invalid answer head");
    let many = format!("HTTP/1.1 200 OK\r\n{}\r\n", "A: b\r\n".repeat(101));
    failure(&[many.as_bytes()], "over 100 headers");
    let huge = format!("HTTP/1.1 200 OK\r\nX: {}", "v".repeat(MAX_HEAD));
    failure(&[huge.as_bytes()], "over 256 KiB");
    let long_line = format!(
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;{}",
        "e".repeat(5000)
    );
    failure(&[long_line.as_bytes()], "trailer line over 4 KiB");
    failure(
        &[b"HTTP/1.1 000 Zero\r\nContent-Length: 0\r\n\r\n"],
        "status below 100",
    );
}

#[test]
fn a_content_length_that_frames_nothing_is_not_judged() {
    let chunked =
        b"HTTP/1.1 200 OK\r\nContent-Length: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n";
    assert_eq!(answer(&[chunked]), (Ok((200, 0)), true));
    let empty = b"HTTP/1.1 304 Not Modified\r\nContent-Length: 1, 2\r\n\r\n";
    assert_eq!(answer(&[empty]), (Ok((304, 0)), false));
}

#[test]
fn a_large_head_within_the_bound_is_read() {
    let head = format!(
        "HTTP/1.1 200 OK\r\nServer: {}\r\nContent-Length: 2\r\n\r\nok",
        "s".repeat(200_000)
    );
    let chunks: Vec<&[u8]> = head.as_bytes().chunks(70_000).collect();
    assert_eq!(answer(&chunks), (Ok((200, 2)), false));
}

proptest! {
    #[test]
    fn no_answer_makes_the_reader_panic(
        chunks in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..64), 0..8),
        prefix in prop::sample::select(vec![
            "", "HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n", "HTTP/1.0 100 C\r\n\r\n",
        ]),
    ) {
        let mut all: Vec<&[u8]> = vec![prefix.as_bytes()];
        all.extend(chunks.iter().map(Vec::as_slice));
        let total: usize = all.iter().map(|c| c.len()).sum();
        let (got, _) = answer(&all);
        if let Ok((_, bytes)) = got {
            prop_assert!(bytes <= total as u64);
        }
    }
}
