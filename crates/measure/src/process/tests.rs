use super::*;

fn sh(script: &str) -> Command {
    let mut c = Command::new("sh");
    c.args(["-c", script]);
    c
}

const READY: &str = "echo '#yardstick-process# ready'";

fn failed(script: &str, timeout: Duration) -> String {
    match run_child(sh(script), timeout) {
        Err(why) => why,
        Ok(run) => panic!("{script}: passed: {run:?}"),
    }
}

#[test]
fn a_child_that_cannot_start_says_so() {
    let command = Command::new("/nonexistent/yardstick-bench");
    let why = run_child(command, Duration::from_secs(60)).unwrap_err();
    assert!(
        why.starts_with("cannot start /nonexistent/yardstick-bench"),
        "{why}"
    );
}

#[cfg(unix)]
#[test]
fn a_child_that_passes_gives_its_figures() {
    // A print that does not end its line, then a protocol line that
    // starts with a newline, as `Child` writes it.
    let script = "echo hello; printf 'no newline'; printf '\\n#yardstick-process# ready\\n'; \
         echo '#yardstick-process# report render_cold 1500000'; \
         echo '#yardstick-process# peak 5242880'";
    let run = run_child(sh(script), Duration::from_secs(60)).unwrap();
    assert_eq!(
        run.reports,
        BTreeMap::from([("render_cold".to_string(), Duration::from_micros(1500))])
    );
    // The peak is the one the child reported, not the shell's own.
    assert_eq!(run.peak_rss, Some(5 << 20));
    let silent = run_child(sh(READY), Duration::from_secs(60)).unwrap();
    assert_eq!(silent.peak_rss, None, "a child that reports none has none");
}

#[cfg(unix)]
#[test]
fn each_way_a_child_fails_is_named_in_one_line() {
    let minute = Duration::from_secs(60);
    for (script, want) in [
        ("echo oops >&2; exit 3", "exited with code 3: oops"),
        ("kill -9 $$", "killed by signal 9"),
        // Far more than a pipe holds, and not text.
        (
            "head -c 300000 /dev/urandom >&2; exit 4",
            "exited with code 4",
        ),
        ("echo fine", "exited without signalling ready"),
        (
            "echo '#yardstick-process# hello'",
            "malformed protocol line",
        ),
        (&format!("{READY}; {READY}") as &str, "ready twice"),
    ] {
        let why = failed(script, minute);
        assert!(why.contains(want) && !why.contains('\n'), "{script}: {why}");
    }
    let why = failed(&format!("{READY}; exec sleep 600"), Duration::from_secs(1));
    assert_eq!(why, "ran past --probe-timeout (1 s), killed");
}

fn probe() -> ProcessProbe {
    ProcessProbe {
        name: "k",
        note: "kernel",
        suite: crate::probe::DEFAULT_SUITE,
        file: "x.rs",
        line: 1,
        child: |_| Ok(()),
        setup: None,
    }
}

fn child(rss: u64, cold: Option<u64>) -> ChildRun {
    ChildRun {
        boot: Duration::from_millis(1),
        process: Duration::from_millis(2),
        reports: cold
            .map(|ms| ("render_cold".to_string(), Duration::from_millis(ms)))
            .into_iter()
            .collect(),
        peak_rss: Some(rss),
        note: None,
    }
}

fn children(clock: &Clock) -> Children<'_> {
    static NONE: std::sync::LazyLock<Injection> = std::sync::LazyLock::new(Injection::default);
    Children {
        program: "unused".into(),
        invocation: Vec::new(),
        repeat: 3,
        timeout: Duration::from_secs(1),
        clock,
        injection: &NONE,
    }
}

#[test]
fn rows_per_figure_with_the_median_resident_set() {
    let clock = Clock::scripted("k.render_cold=4").unwrap();
    let runs = [child(10, Some(1)), child(30, Some(1)), child(20, None)];
    let rows = children(&clock).rows(&probe(), &runs, None);
    let keys: Vec<&str> = rows.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys, ["k.boot", "k.process", "k.render_cold"]);
    assert!(
        rows.iter()
            .all(|r| r.kind == RowKind::Process && r.note == "kernel")
    );
    assert_eq!(
        rows.iter().map(|r| r.figures.n).collect::<Vec<_>>(),
        [3, 3, 2]
    );
    assert_eq!(rows[1].peak_rss, Some(20));
    assert_eq!((rows[0].peak_rss, rows[2].peak_rss), (None, None));
    assert_eq!(rows[2].samples, [4.0, 4.0]);
}

#[test]
fn the_knob_stretches_a_figure_or_all_of_a_probes() {
    let clock = Clock::real();
    let runs = [child(10, None), child(20, None)];
    let figures = |rule: &str| {
        let injection = Injection::parse(rule).unwrap();
        let rows = Children {
            injection: &injection,
            ..children(&clock)
        }
        .rows(&probe(), &runs, None);
        rows.into_iter().map(|r| r.samples).collect::<Vec<_>>()
    };
    let plain = figures("");
    let boot = figures("k.boot:50");
    assert_eq!(
        boot[0],
        plain[0].iter().map(|s| s * 1.5).collect::<Vec<_>>()
    );
    assert_eq!(boot[1], plain[1]);
    let all = figures("k:100");
    for (stretched, measured) in all.iter().zip(&plain) {
        assert_eq!(
            *stretched,
            measured.iter().map(|s| s * 2.0).collect::<Vec<_>>()
        );
    }
    assert_eq!(figures("other:100"), plain);
    // `*` is every probe's, the floor's aside: it would hide theirs.
    assert_eq!(figures("*:100"), all);
    let floor = Children {
        injection: &Injection::parse("*:100").unwrap(),
        ..children(&clock)
    }
    .rows(&EMPTY_PROBE, &runs, None);
    assert_eq!(floor[0].samples, plain[0]);
}

#[test]
fn the_last_childs_note_follows_the_probes() {
    let clock = Clock::real();
    let mut runs = [child(10, None), child(20, None)];
    runs[0].note = Some("node 3".into());
    let rows = children(&clock).rows(&probe(), &runs, None);
    assert!(rows.iter().all(|r| r.note == "kernel (node 3)"), "{rows:?}");
    runs[1].note = Some("node 4".into());
    let rows = children(&clock).rows(&probe(), &runs, None);
    assert_eq!(rows[0].note, "kernel (node 4)");
}

#[test]
fn a_failed_probe_keeps_its_rows_and_says_why() {
    let clock = Clock::real();
    let rows = children(&clock).rows(&probe(), &[child(10, None)], Some("exited with code 1"));
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r.note, "failed: exited with code 1");
        assert_eq!((r.figures.n, r.errors, r.requests), (1, 2, 3));
    }
    let none = children(&clock).rows(&probe(), &[], Some("x"));
    assert!(
        none.iter()
            .all(|r| r.figures.n == 0 && r.errors == 3 && r.peak_rss.is_none())
    );
}

#[test]
fn medians_of_resident_sets() {
    assert_eq!(median(vec![]), None);
    assert_eq!(median(vec![5, 1, 3]), Some(3));
    assert_eq!(median(vec![4, 2]), Some(3));
    assert_eq!(median(vec![u64::MAX, u64::MAX]), Some(u64::MAX - 1));
}
