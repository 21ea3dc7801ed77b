use super::*;
use proptest::prelude::*;

/// A point line as k6 1.1 writes it.
fn point(metric: &str, value: f64, extra: &str) -> String {
    format!(
        "{{\"metric\":\"{metric}\",\"type\":\"Point\",\"data\":{{\"time\":\"2026-12-03T20:31:23.224185011Z\",\
         \"value\":{value},\"tags\":{{\"expected_response\":\"true\",\"group\":\"\",\"method\":\"GET\",\
         \"name\":\"/\",\"proto\":\"HTTP/1.1\",\"round\":\"1\",\"scenario\":\"a_r1\",\"server\":\"a\",\
         \"status\":\"200\",\"url\":\"/\"{extra}}}}}}}"
    )
}

/// The lines one request writes, its duration `ms`.
fn request(ms: f64, extra: &str) -> String {
    [
        point("http_reqs", 1.0, extra),
        point("http_req_duration", ms, extra),
        point("http_req_blocked", 0.01, extra),
        point("http_req_waiting", ms * 0.9, extra),
        point("http_req_failed", 0.0, extra),
        point("data_received", 1024.0, extra),
    ]
    .join("\n")
        + "\n"
}

const DECLARATION: &str = "{\"type\":\"Metric\",\"data\":{\"name\":\"http_reqs\",\"type\":\"counter\",\
    \"contains\":\"default\",\"thresholds\":[],\"submetrics\":null},\"metric\":\"http_reqs\"}";

#[test]
fn each_request_is_counted_once_and_its_times_kept() {
    let text = [
        DECLARATION.to_string() + "\n",
        request(2.0, ""),
        request(4.0, ""),
        request(9.0, ",\"warmup\":\"1\""),
    ]
    .concat();
    let series = read(text.as_bytes()).unwrap().series;
    assert_eq!(series.len(), 1);
    let (key, s) = series.into_iter().next().unwrap();
    assert_eq!(
        (key.page.as_str(), key.server.as_str(), key.round),
        ("/", "a", 1)
    );
    // The warm-up request is gone whole.
    assert_eq!((s.succeeded, s.requests()), (2, 2));
    assert_eq!(s.durations, [2.0, 4.0]);
    assert_eq!(s.waiting, [1.8, 3.6]);
    assert!(s.span.is_some());
}

#[test]
fn failures_are_counted_by_status_or_error_and_their_times_dropped() {
    let failed = |extra: &str| {
        [
            point("http_reqs", 1.0, extra),
            point("http_req_duration", 50.0, extra).replace(
                "\"expected_response\":\"true\"",
                "\"expected_response\":\"false\"",
            ),
            point("http_req_failed", 1.0, extra),
        ]
        .join("\n")
            + "\n"
    };
    let text = [
        request(2.0, ""),
        failed("").replace("\"status\":\"200\"", "\"status\":\"503\""),
        failed(",\"error\":\"dial: connection refused\"")
            .replace("\"status\":\"200\"", "\"status\":\"0\""),
    ]
    .concat();
    let s = read(text.as_bytes())
        .unwrap()
        .series
        .into_values()
        .next()
        .unwrap();
    assert_eq!(s.requests(), 3);
    assert_eq!(s.durations, [2.0]);
    assert_eq!(s.failures["HTTP 503"], 1);
    assert_eq!(s.failures["dial: connection refused"], 1);
}

#[test]
fn segments_merge_by_pooling_never_averaging() {
    let one = read(request(1.0, ",\"segment\":\"0:1/2\"").as_bytes()).unwrap();
    let two = read(
        [
            request(3.0, ",\"segment\":\"1/2:1\""),
            request(5.0, ",\"segment\":\"1/2:1\""),
        ]
        .join("\n")
        .as_bytes(),
    )
    .unwrap();
    let mut merged = one.series.into_values().next().unwrap();
    merged.merge(two.series.into_values().next().unwrap());
    assert_eq!(merged.requests(), 3);
    assert_eq!(crate::stats::median(&merged.durations), Some(3.0));
    assert_eq!(merged.segments["0:1/2"], 1);
    assert_eq!(merged.segments["1/2:1"], 2);
}

#[test]
fn a_line_cut_short_or_untagged_names_its_line() {
    let whole = request(2.0, "");
    // Cut inside the last line, a metric not kept: still cut short.
    let cut = &whole[..whole.len() - 40];
    let e = read(cut.as_bytes()).unwrap_err();
    assert_eq!(e.line, 6);
    assert!(e.message.starts_with("cut short"), "{e}");
    let untagged = "{\"metric\":\"http_reqs\",\"type\":\"Point\",\"data\":{\"time\":\"2026-12-03T20:31:23Z\",\"value\":1}}\n";
    let e = read(untagged.as_bytes()).unwrap_err();
    assert_eq!((e.line, e.message.as_str()), (1, "a point without tags"));
    let e = read("{\"metric\":\"http_reqs\" garbage\n".as_bytes()).unwrap_err();
    assert!(e.message.starts_with("not k6's JSON"), "{e}");
}

#[test]
fn times_are_read_with_their_offsets() {
    assert_eq!(seconds("1970-01-01T00:00:00Z"), Some(0.0));
    assert_eq!(seconds("2026-12-03T20:31:23Z"), Some(1_796_329_883.0));
    assert_eq!(
        seconds("2026-12-03T21:31:23.5+01:00"),
        Some(1_796_329_883.5)
    );
    for bad in [
        "",
        "2026-13-03T20:31:23Z",
        "2026-12-03T20:31:23.Z",
        "2026-12-03T20:31:23+0100",
    ] {
        assert_eq!(seconds(bad), None, "{bad}");
    }
}

#[test]
fn real_output_of_k6_1_1_reads() {
    // `k6 run --quiet --no-summary --out json=six-requests.json
    // six-requests.js` against a local static server: 6 requests by 2
    // virtual users, 91 lines.
    let text = include_str!("../../../../../tests/fixtures/k6/six-requests.json");
    let series = read(text.as_bytes()).unwrap().series;
    let s = &series[&SeriesKey {
        page: "/".into(),
        server: "a".into(),
        round: 1,
    }];
    assert_eq!(
        (
            s.succeeded,
            s.requests(),
            s.durations.len(),
            s.waiting.len()
        ),
        (6, 6, 6, 6)
    );
    let (first, last) = s.span.unwrap();
    assert!(first <= last && last - first < 10.0, "{first} {last}");
}

proptest! {
    #[test]
    fn no_input_panics(lines in proptest::collection::vec(".{0,300}", 0..20)) {
        let _ = read(lines.join("\n").as_bytes());
    }

    #[test]
    fn no_time_panics(text in ".{0,40}") {
        let _ = seconds(&text);
    }
}

proptest! {
    #[test]
    fn any_chunking_reads_the_same(cuts in proptest::collection::vec(0usize..12_000, 0..12)) {
        let text = include_str!("../../../../../tests/fixtures/k6/six-requests.json").as_bytes();
        let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c % text.len()).collect();
        cuts.sort_unstable();
        let mut reader = Reader::new();
        let mut from = 0;
        for cut in cuts.into_iter().chain([text.len()]) {
            reader.feed(&text[from..cut]);
            from = cut;
        }
        prop_assert_eq!(reader.finish().unwrap(), read(text).unwrap());
    }
}

#[test]
fn statuses_protocols_and_dropped_iterations_are_counted() {
    let text = [
        request(2.0, ""),
        point("http_req_failed", 1.0, "").replace("\"status\":\"200\"", "\"status\":\"0\"") + "\n",
        "{\"metric\":\"dropped_iterations\",\"type\":\"Point\",\"data\":{\"time\":\"2026-12-03T22:34:51.7Z\",\"value\":1,\"tags\":{\"scenario\":\"b3\"}}}\n".to_string(),
    ]
    .concat();
    let out = read(text.as_bytes()).unwrap();
    assert_eq!(out.dropped["b3"], 1);
    let s = out.series.into_values().next().unwrap();
    assert_eq!((s.status["200"], s.status[FAILED]), (1, 1));
    assert_eq!(s.failures["failed"], 1);
    assert!(s.protocols.contains("HTTP/1.1"), "{:?}", s.protocols);
}

#[test]
fn hostile_counts_and_endless_lines_are_bounded() {
    let dropped = "{\"metric\":\"dropped_iterations\",\"type\":\"Point\",\"data\":{\"time\":\"2026-12-03T22:34:51.7Z\",\"value\":1e30,\"tags\":{\"scenario\":\"b0\"}}}\n";
    let out = read(dropped.repeat(3).as_bytes()).unwrap();
    assert_eq!(out.dropped["b0"], 3);
    let mut reader = Reader::new();
    for _ in 0..(MAX_LINE / 4096 + 2) {
        reader.feed(&[b'{'; 4096]);
    }
    let e = reader.finish().unwrap_err();
    assert!(e.message.contains("longer than"), "{e}");
}

#[test]
fn a_long_line_is_refused_however_it_comes() {
    let mut line = vec![b'{'; MAX_LINE + 10];
    line.push(b'\n');
    let whole = read(&line[..]).unwrap_err();
    let mut reader = Reader::new();
    reader.feed(&line[..MAX_LINE + 5]);
    reader.feed(&line[MAX_LINE + 5..]);
    assert_eq!(reader.finish().unwrap_err(), whole);
}

#[test]
fn end_marks_are_kept_by_segment_and_merge() {
    let mark = |segment: &str, n: u64| {
        format!(
            "{{\"metric\":\"yardstick_end\",\"type\":\"Point\",\"data\":{{\"time\":\
             \"2026-12-03T20:31:23Z\",\"value\":{n},\"tags\":{{\"scenario\":\"end\"{segment}}}}}}}\n"
        )
    };
    let mut one = read(format!("{}{}", request(1.0, ""), mark("", 1)).as_bytes()).unwrap();
    assert_eq!(one.ended.get(""), Some(&1));
    assert_eq!(one.check_ended(&["".into()]), Ok(()));
    let two = read(mark(",\"segment\":\"1/2:1\"", 3).as_bytes()).unwrap();
    one.merge(two);
    assert_eq!(one.ended.get("1/2:1"), Some(&3));
    let e = one.check_ended(&["1/2:1".into()]).unwrap_err();
    assert!(e.contains("holds 0 measured requests"), "{e}");
    let e = Output::default().check_ended(&["".into()]).unwrap_err();
    assert!(e.contains("no end mark"), "{e}");
    // A mark without a count is not k6's.
    let bad = mark("", 1).replace("\"value\":1", "\"value\":null");
    assert!(read(bad.as_bytes()).is_err());
}
