use super::read_answer;
use proptest::prelude::*;

/// A frame as a server sends it.
fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let len = (payload.len() as u32).to_be_bytes();
    let mut f = vec![len[1], len[2], len[3], kind, flags];
    f.extend_from_slice(&stream.to_be_bytes());
    f.extend_from_slice(payload);
    f
}

const DATA: u8 = 0x0;
const HEADERS: u8 = 0x1;
const RST_STREAM: u8 = 0x3;
const SETTINGS: u8 = 0x4;
const PING: u8 = 0x6;
const GOAWAY: u8 = 0x7;
const CONTINUATION: u8 = 0x9;
const END_STREAM: u8 = 0x1;
const END_HEADERS: u8 = 0x4;
const PADDED: u8 = 0x8;
const PRIORITY: u8 = 0x20;
/// `:status: 200`, HPACK's static entry 8.
const OK: u8 = 0x88;

/// The server's frames, from its SETTINGS, read at once and three bytes
/// at a time: both must give the same.
fn answer(frames: &[Vec<u8>]) -> Result<(u16, u64), String> {
    let mut bytes = frame(SETTINGS, 0, 0, &[]);
    for f in frames {
        bytes.extend_from_slice(f);
    }
    let whole = read_answer(&bytes, 0);
    assert_eq!(read_answer(&bytes, 3), whole, "read in pieces");
    whole
}

/// Asserts that the server's `frames` give no page, for a reason in
/// `words`.
fn fails_with(frames: &[Vec<u8>], words: &str) {
    let got = answer(frames);
    assert!(
        got.as_ref().is_err_and(|m| m.contains(words)),
        "{words}: {got:?}"
    );
}

/// `content-length: N` (static name 28), a literal without indexing.
fn content_length(n: &str) -> Vec<u8> {
    let mut field = vec![0x0f, 28 - 15, n.len() as u8];
    field.extend_from_slice(n.as_bytes());
    field
}

#[test]
fn an_answer_is_its_status_and_data_to_the_stream_s_end() {
    let got = answer(&[
        frame(HEADERS, END_HEADERS, 1, &[OK]),
        frame(DATA, 0, 1, &[b'x'; 30]),
        frame(PING, 0, 0, &[0; 8]),
        frame(DATA, END_STREAM, 1, &[b'x'; 20]),
    ]);
    assert_eq!(got, Ok((200, 50)));
    let empty = answer(&[frame(HEADERS, END_HEADERS | END_STREAM, 1, &[OK])]);
    assert_eq!(empty, Ok((200, 0)));
}

#[test]
fn padding_priority_continuation_and_trailers_are_read_through() {
    let mut padded = vec![4u8];
    padded.extend_from_slice(&[b'x'; 10]);
    padded.extend_from_slice(&[0; 4]);
    // HEADERS with padding and a priority, its block ending in a
    // CONTINUATION: `:status: 200`, then `content-length: 10`.
    let mut head = vec![2u8, 0, 0, 0, 0, 16, OK];
    head.extend_from_slice(&[0, 0]);
    let got = answer(&[
        frame(HEADERS, PADDED | PRIORITY, 1, &head),
        frame(CONTINUATION, END_HEADERS, 1, &content_length("10")),
        frame(DATA, PADDED, 1, &padded),
        // Trailers end the stream.
        frame(HEADERS, END_HEADERS | END_STREAM, 1, &content_length("0")),
    ]);
    assert_eq!(got, Ok((200, 10)));
}

#[test]
fn an_interim_answer_is_passed_over_and_a_switch_is_no_page() {
    // `:status: 103`: a literal of static name 8.
    let early = [0x08, 3, b'1', b'0', b'3'];
    let got = answer(&[
        frame(HEADERS, END_HEADERS, 1, &early),
        frame(HEADERS, END_HEADERS | END_STREAM, 1, &[OK]),
    ]);
    assert_eq!(got, Ok((200, 0)));
    let switch = [0x08, 3, b'1', b'0', b'1'];
    let got = answer(&[frame(HEADERS, END_HEADERS | END_STREAM, 1, &switch)]);
    assert!(got.is_err_and(|m| m.contains("101")));
}

#[test]
fn what_ends_an_answer_before_its_end_is_an_error() {
    let head = || frame(HEADERS, END_HEADERS, 1, &[OK]);
    for (frames, words) in [
        (
            vec![
                head(),
                frame(DATA, 0, 1, &[1; 5]),
                frame(RST_STREAM, 0, 1, &[0; 4]),
            ],
            "reset",
        ),
        (vec![head(), frame(DATA, 0, 1, &[1; 5])], "closed"),
        (vec![frame(DATA, END_STREAM, 1, &[1; 5])], "DATA before"),
        (vec![frame(GOAWAY, 0, 0, &[0; 8])], "GOAWAY"),
        (vec![frame(DATA, 0, 1, &vec![0; 16_385])], "more than"),
        (
            vec![frame(CONTINUATION, END_HEADERS, 1, &[OK])],
            "CONTINUATION",
        ),
        (vec![frame(HEADERS, END_HEADERS, 1, &[0x80])], "HPACK"),
        (
            vec![frame(HEADERS, END_HEADERS | END_STREAM, 1, &[0x82])],
            ":status",
        ),
        (
            vec![frame(0x5, END_HEADERS, 1, &[0, 0, 0, 2])],
            "PUSH_PROMISE",
        ),
    ] {
        fails_with(&frames, words);
    }
}

#[test]
fn a_body_of_another_length_than_declared_is_no_page() {
    let mut block = vec![OK];
    block.extend(content_length("10"));
    let got = answer(&[
        frame(HEADERS, END_HEADERS, 1, &block),
        frame(DATA, END_STREAM, 1, &[1; 5]),
    ]);
    assert!(got.is_err_and(|m| m.contains("cut short")));
}

#[test]
fn frames_of_other_streams_and_of_no_kind_are_passed_over() {
    let got = answer(&[
        frame(RST_STREAM, 0, 3, &[0; 4]),
        frame(0x42, 0xff, 1, &[1, 2, 3]),
        frame(0x8, 0, 0, &[0, 0, 1, 0]),
        frame(DATA, 0, 7, &[1; 9]),
        frame(HEADERS, END_HEADERS | END_STREAM, 1, &[OK]),
    ]);
    assert_eq!(got, Ok((200, 0)));
}

proptest! {
    #[test]
    fn no_peer_makes_the_reader_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..400),
        chunk in 0usize..20,
    ) {
        let _ = read_answer(&bytes, chunk);
    }

    #[test]
    fn an_answer_never_counts_more_data_than_was_sent(
        tail in prop::collection::vec(any::<u8>(), 0..300),
        chunk in 0usize..10,
    ) {
        let mut bytes = frame(SETTINGS, 0, 0, &[]);
        bytes.extend(frame(HEADERS, END_HEADERS, 1, &[OK]));
        bytes.extend_from_slice(&tail);
        if let Ok((_, body)) = read_answer(&bytes, chunk) {
            prop_assert!(body <= tail.len() as u64);
        }
    }
}

/// What a connection's answers told `keep`.
#[derive(Default)]
struct Kept(Vec<(String, Vec<u8>)>);

impl super::Keep for Kept {
    fn header(&mut self, name: &str, value: &[u8]) {
        self.0.push((name.to_string(), value.to_vec()));
    }
}

/// A connection to a peer that sends `bytes` (from its SETTINGS) in one
/// read, then has nothing more (`idle`) or closes.
fn connection(frames: &[Vec<u8>], idle: bool) -> super::Connection {
    let mut bytes = frame(SETTINGS, 0, 0, &[]);
    for f in frames {
        bytes.extend_from_slice(f);
    }
    super::Connection::new(Box::new(crate::h1::replay::Replay {
        chunks: [bytes].into(),
        idle,
    }))
}

fn run<T>(work: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(work)
}

#[test]
fn a_connection_carries_answers_one_after_another_and_its_table_with_them() {
    // The first answer adds `server: nginx` to HPACK's table; the second
    // names it by index 62. A reset of the first stream, after its end,
    // comes before the second answer.
    let mut first = vec![OK, 0x40 | 54, 5];
    first.extend(b"nginx");
    let mut conn = connection(
        &[
            frame(HEADERS, END_HEADERS | END_STREAM, 1, &first),
            frame(RST_STREAM, 0, 1, &[0; 4]),
            frame(HEADERS, END_HEADERS, 3, &[OK, 0xbe]),
            frame(DATA, END_STREAM, 3, b"hi"),
        ],
        true,
    );
    let (block, _) = super::blocks(false, "localhost", "/", &[]).plain;
    let mut kept = Kept::default();
    let one = run(conn.exchange(&block, &mut kept)).unwrap();
    assert!(conn.still_open());
    let two = run(conn.exchange(&block, &mut kept)).unwrap();
    assert_eq!(
        (one.status, one.bytes, two.status, two.bytes),
        (200, 0, 200, 2)
    );
    let servers: Vec<&[u8]> = kept.0.iter().map(|(_, v)| v.as_slice()).collect();
    assert_eq!(servers, [b"nginx", b"nginx"]);
}

#[test]
fn a_smaller_table_the_server_asks_for_is_announced_and_kept_to() {
    // SETTINGS_HEADER_TABLE_SIZE = 0, read with the first answer.
    let mut conn = connection(
        &[
            frame(SETTINGS, 0, 0, &[0, 1, 0, 0, 0, 0]),
            frame(HEADERS, END_HEADERS | END_STREAM, 1, &[OK]),
        ],
        true,
    );
    let request = super::blocks(false, "localhost", "/", &[("accept", b"*/*", false)]);
    assert_eq!(conn.way(7, request.table_bytes), super::Way::First);
    run(conn.exchange(&request.first.0, &mut Kept::default())).unwrap();
    // Nothing may be named by index now, and the next block begins by
    // announcing the table's new size.
    assert_eq!(conn.way(7, request.table_bytes), super::Way::Plain);
    assert_eq!(conn.encoder.take_update(), Some(vec![0x20]));
}

#[test]
fn a_goaway_while_idle_closes_the_connection_before_a_request() {
    let mut conn = connection(
        &[
            frame(HEADERS, END_HEADERS | END_STREAM, 1, &[OK]),
            frame(GOAWAY, 0, 0, &[0, 0, 0, 1, 0, 0, 0, 0]),
        ],
        true,
    );
    let (block, _) = super::blocks(false, "localhost", "/", &[]).plain;
    run(conn.exchange(&block, &mut Kept::default())).unwrap();
    assert!(!conn.still_open());
    // A GOAWAY that did not take the request: it may be sent again.
    let mut conn = connection(
        &[
            frame(HEADERS, END_HEADERS | END_STREAM, 1, &[OK]),
            frame(PING, 0, 0, &[0; 8]),
            frame(GOAWAY, 0, 0, &[0, 0, 0, 1, 0, 0, 0, 0]),
        ],
        false,
    );
    run(conn.exchange(&block, &mut Kept::default())).unwrap();
    let lost = run(conn.exchange(&block, &mut Kept::default()));
    assert!(lost.is_err_and(|f| f.message.contains("GOAWAY (NO_ERROR)")));
    assert!(conn.heard_nothing() && conn.is_closed());
}

#[test]
fn an_interim_answer_s_headers_are_not_the_page_s() {
    // `:status: 103` and `server: early`, then `:status: 200` and
    // `server: late`; each a literal without indexing.
    let mut early = vec![0x08, 3];
    early.extend(b"103");
    early.extend([0x0f, 54 - 15, 5]);
    early.extend(b"early");
    let mut last = vec![OK, 0x0f, 54 - 15, 4];
    last.extend(b"late");
    let mut conn = connection(
        &[
            frame(HEADERS, END_HEADERS, 1, &early),
            frame(HEADERS, END_HEADERS | END_STREAM, 1, &last),
        ],
        false,
    );
    let (block, _) = super::blocks(false, "localhost", "/", &[]).plain;
    let mut kept = Kept::default();
    run(conn.exchange(&block, &mut kept)).unwrap();
    assert_eq!(kept.0, [("server".to_string(), b"late".to_vec())]);
}

#[test]
fn malformed_answers_are_errors() {
    let status = |s: &[u8]| {
        let mut f = vec![0x08, s.len() as u8];
        f.extend_from_slice(s);
        f
    };
    for (frames, words) in [
        (
            vec![frame(
                HEADERS,
                END_HEADERS | END_STREAM,
                1,
                &status(b"0200"),
            )],
            ":status",
        ),
        (
            vec![frame(HEADERS, END_HEADERS | END_STREAM, 1, &status(b"+20"))],
            ":status",
        ),
        (
            vec![frame(HEADERS, END_HEADERS | END_STREAM, 1, &[OK, OK])],
            ":status",
        ),
        (
            vec![frame(HEADERS, END_HEADERS | END_STREAM, 1, &status(b"103"))],
            "interim",
        ),
        (
            vec![
                frame(HEADERS, END_HEADERS, 1, &[OK]),
                frame(HEADERS, END_HEADERS, 1, &content_length("0")),
            ],
            "trailers",
        ),
    ] {
        fails_with(&frames, words);
    }
}

#[test]
fn a_header_list_past_its_bound_is_refused() {
    // A 3 KB value in HPACK's table, then a block naming it a hundred
    // times: 300 KB of headers from a block of a hundred bytes.
    // 3,000 as a 7-bit prefix's integer: 127, then 2,873 in 7-bit groups.
    let mut big = vec![0x40 | 54, 0x7f, 0x80 | 57, 22];
    big.extend(vec![b'x'; 3_000]);
    let mut many = vec![OK];
    many.extend(vec![0xbe; 100]);
    let got = answer(&[frame(
        HEADERS,
        END_HEADERS | END_STREAM,
        1,
        &[&[OK][..], &big].concat(),
    )]);
    assert_eq!(got, Ok((200, 0)));
    let mut conn = connection(
        &[
            frame(
                HEADERS,
                END_HEADERS | END_STREAM,
                1,
                &[&[OK][..], &big].concat(),
            ),
            frame(HEADERS, END_HEADERS | END_STREAM, 3, &many),
        ],
        false,
    );
    let (block, _) = super::blocks(false, "localhost", "/", &[]).plain;
    run(conn.exchange(&block, &mut Kept::default())).unwrap();
    let refused = run(conn.exchange(&block, &mut Kept::default()));
    assert!(refused.is_err_and(|f| f.message.contains("header list larger")));
}
