//! `yardstick http --tool=...` as a process: a real ab against a hostile
//! server written here, and fake tools (shell scripts first on `PATH`)
//! that hang, recording each time they are started, to see a hung tool
//! waited for once and a signal end the run with the tool's processes.
//!
//! Nothing here asserts on a time: the waits below are safety nets, and
//! what is checked is an outcome (a count, an exit code, a process gone, a
//! file not written).

#[macro_use]
mod common;

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The longest any step here is waited for: a safety net, never asserted.
const PATIENCE: Duration = Duration::from_secs(60);

/// A loopback server that answers every request with `answer` and closes
/// the connection, on a thread of its own for the life of the test.
fn hostile_server(answer: &'static [u8]) -> u16 {
    answering_server(false, move |_| answer)
}

/// A loopback server that answers each request with `answer(head)`, given
/// the request's head, then closes the connection, or keeps it for the
/// next request when `keep`.
fn answering_server(
    keep: bool,
    answer: impl Fn(&[u8]) -> &'static [u8] + Send + Sync + 'static,
) -> u16 {
    let answer = std::sync::Arc::new(answer);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let answer = std::sync::Arc::clone(&answer);
            std::thread::spawn(move || {
                let mut stream = stream;
                let _ = stream.set_read_timeout(Some(PATIENCE));
                let mut seen = Vec::new();
                let mut buffer = [0u8; 4096];
                loop {
                    let Some(end) = seen.windows(4).position(|w| w == b"\r\n\r\n") else {
                        match stream.read(&mut buffer) {
                            Ok(0) | Err(_) => return,
                            Ok(n) => seen.extend_from_slice(&buffer[..n]),
                        }
                        continue;
                    };
                    let head: Vec<u8> = seen.drain(..end + 4).collect();
                    let _ = stream.write_all(answer(&head));
                    if !keep {
                        let _ = stream.shutdown(std::net::Shutdown::Both);
                        return;
                    }
                }
            });
        }
    });
    port
}

/// An [`answering_server`] that answers the first five requests whose
/// head names `agent` (a tool's warm-up: the most of `--warmup=5` and
/// `--concurrency=2`) with `warm_up`, and every other with `measured`.
fn warm_up_answered_apart(
    keep: bool,
    agent: &'static [u8],
    warm_up: &'static [u8],
    measured: &'static [u8],
) -> u16 {
    let seen = std::sync::atomic::AtomicU64::new(0);
    answering_server(keep, move |head| {
        let by_agent = head.windows(agent.len()).any(|w| w == agent);
        if by_agent && seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < 5 {
            warm_up
        } else {
            measured
        }
    })
}

/// `yardstick http` with `args` against a [`hostile_server`] giving
/// `answer`, saved: how it ran, and its one row.
fn saved_row(answer: &'static [u8], args: &[&str]) -> (common::Ran, Value) {
    saved_row_of(hostile_server(answer), args)
}

/// `yardstick http` with `args` against the server on `port`, saved.
fn saved_row_of(port: u16, args: &[&str]) -> (common::Ran, Value) {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    let ran = common::run(
        common::yardstick()
            .args(["http", "-q", &format!("--url=http://127.0.0.1:{port}/")])
            .args(args)
            .arg(format!("--save={}", save.display())),
    );
    let doc: Value = std::fs::read_to_string(&save)
        .map(|text| common::json(&text))
        .unwrap_or(Value::Null);
    (ran, doc["rows"][0].clone())
}

fn ab_counts_answers_cut_short_as_errors() {
    let answers: [&'static [u8]; 3] = [
        // 10 bytes of a declared gigabyte, on a connection kept alive, or
        // not, and a chunked body cut in its first chunk.
        b"HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\nConnection: keep-alive\r\n\r\n0123456789",
        b"HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n0123456789",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n0123456789",
    ];
    for answer in answers {
        let (ran, row) = saved_row(
            answer,
            &[
                "--tool=ab",
                "--requests=10",
                "--concurrency=2",
                "--timeout=30",
            ],
        );
        // Every request failed: the run fails, and is saved.
        assert_eq!(ran.code, 1, "{}", ran.stderr);
        let said = String::from_utf8_lossy(answer);
        assert_eq!(row["n"], 0, "{said}: {row}");
        assert_eq!(row["errors"], row["requests"], "{said}: {row}");
        assert!(row["requests"].as_u64().is_some_and(|n| n >= 10), "{row}");
        assert!(row["median"].is_null(), "{said}: no success, no time");
    }
}

/// ab takes an answer without a status line (HTTP/0.9) or whose head never
/// ended for a 2xx success of 0 bytes: its warm-up's log shows them, and
/// they are errors. It counts a redirect among its errors, where the other
/// clients count it an answer: such a page is not measured with ab, and
/// its row says why. A warm-up with no 2xx answer is said to be one.
fn ab_takes_only_answers_it_can_read_as_the_others_do() {
    let ab = ["--tool=ab", "--requests=10", "--concurrency=2"];
    for answer in [
        &b"HTTP/0.9: a body without a head"[..],
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n",
    ] {
        let said = String::from_utf8_lossy(answer);
        let (ran, row) = saved_row(answer, &ab);
        assert_eq!(ran.code, 1, "{said}: {}", ran.stderr);
        assert_eq!(row["n"], 0, "{said}: {row}");
        assert_eq!(row["errors"], row["requests"], "{said}: {row}");
        let note = row["note"].as_str().unwrap_or_default();
        assert!(note.contains("no head ab could read"), "{said}: {row}");
    }

    let (ran, row) = saved_row(
        b"HTTP/1.1 302 Found\r\nLocation: /there\r\nContent-Length: 0\r\n\r\n",
        &ab,
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_eq!(
        (row["n"].as_u64(), row["errors"].as_u64()),
        (Some(0), Some(10)),
        "{row}"
    );
    let why = row["error_messages"].to_string();
    assert!(why.contains("answered 302, a redirect"), "{row}");

    // The warm-up's requests are answered 503, the measured ones 200.
    let port = warm_up_answered_apart(
        false,
        b"ApacheBench",
        b"HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
    );
    let (ran, row) = saved_row_of(port, &[&ab[..], &["--warmup=5"]].concat());
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(row["n"], 10, "{row}");
    let note = row["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("none of the warm-up's 5 answers logged was 2xx"),
        "{row}"
    );
    assert!(!note.contains("--warmup=0"), "{row}");
}

/// h2load takes a `000` for a 3xx success: its verbose warm-up
/// shows the statuses, and such a page is not measured; a true redirect is
/// a success, as with the other clients.
fn h2load_counts_only_final_statuses_as_answers() {
    let h2load = ["--tool=h2load", "--requests=10", "--concurrency=2"];
    // (h2load stops reading after a `101`, and waits on the connection
    // until the server closes it: not tried here.)
    let zero = b"HTTP/1.1 000 X\r\nContent-Length: 2\r\n\r\nok";
    let (ran, row) = saved_row_of(answering_server(true, move |_| zero), &h2load);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_eq!(row["n"], 0, "{row}");
    let why = row["error_messages"].to_string();
    assert!(why.contains("answered 000"), "{row}");
    // 200 to the warm-up's requests, 000 after them: those 3xx are errors.
    let changing = warm_up_answered_apart(
        true,
        b"h2load",
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        b"HTTP/1.1 000 X\r\nContent-Length: 2\r\n\r\nok",
    );
    let (ran, row) = saved_row_of(changing, &[&h2load[..], &["--warmup=5"]].concat());
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_eq!(
        (row["n"].as_u64(), row["errors"].as_u64()),
        (Some(0), Some(10)),
        "{row}"
    );
    assert!(
        row["note"]
            .as_str()
            .is_some_and(|n| n.contains("never saw")),
        "{row}"
    );
    let redirect = b"HTTP/1.1 302 Found\r\nLocation: /there\r\nContent-Length: 0\r\n\r\n";
    let (ran, row) = saved_row_of(answering_server(true, move |_| redirect), &h2load);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(
        (row["n"].as_u64(), row["errors"].as_u64()),
        (Some(10), Some(0)),
        "{row}"
    );
    assert_eq!(row["status"]["3xx"], 10, "{row}");
}

/// wrk's own summary takes a `000` and a `101` for successes and counts an
/// answer ended by its close twice (an answer and a read error): its
/// hooks' tally counts each answer once, by its exact status.
fn wrk_counts_statuses_exactly() {
    let answers: [(&'static [u8], &str); 3] = [
        (b"HTTP/1.1 000 X\r\nContent-Length: 2\r\n\r\nok", "000"),
        (b"HTTP/1.1 101 X\r\nContent-Length: 2\r\n\r\nok", "101"),
        (b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nok", "200"),
    ];
    for (answer, status) in answers {
        let (ran, row) = saved_row(
            answer,
            &[
                "--tool=wrk",
                "--duration=1",
                "--concurrency=1",
                "--max-failures=100",
            ],
        );
        // A run none of whose requests succeeded fails, whatever the cap.
        let failed_all = status != "200";
        assert_eq!(ran.code, i32::from(failed_all), "{}", ran.stderr);
        let said = format!("{}{}", ran.stdout, ran.stderr);
        assert_eq!(
            said.contains("requests failed, so nothing was measured"),
            failed_all,
            "{said}"
        );
        let seen = row["status"][status].as_u64().unwrap_or(0);
        assert!(seen > 0, "{status}: {row}");
        if status == "200" {
            // Each answer once: a success, and no read error for it.
            assert_eq!(row["n"].as_u64(), Some(seen), "{row}");
            let read = row["error_messages"]["read error"].as_u64().unwrap_or(0);
            assert!(read < seen, "{row}");
        } else {
            assert_eq!(row["n"], 0, "{status}: {row}");
            assert!(row["errors"].as_u64().is_some_and(|e| e >= seen), "{row}");
        }
    }
}

/// A folder holding a fake `ab`: `script` under `sh`, with `$LOG` the
/// file it records itself in.
struct FakeTool {
    dir: tempfile::TempDir,
    tool: &'static str,
}

impl FakeTool {
    fn new(script: &str) -> FakeTool {
        FakeTool::named("ab", script)
    }

    /// A fake `tool` (`ab`, `wrk`) running `script`.
    fn named(tool: &'static str, script: &str) -> FakeTool {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(tool);
        std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        FakeTool { dir, tool }
    }

    fn log(&self) -> PathBuf {
        self.dir.path().join("log")
    }

    fn save(&self) -> PathBuf {
        self.dir.path().join("out").join("run.json")
    }

    /// `yardstick http` handing a closed port's page to the fake ab, with
    /// the fake first on `PATH`.
    fn yardstick(&self, extra: &[&str]) -> Command {
        std::fs::create_dir_all(self.save().parent().unwrap()).unwrap();
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![self.dir.path().to_path_buf()];
        dirs.extend(std::env::split_paths(&path));
        let mut cmd = common::yardstick();
        cmd.args(["http", "-q", "--concurrency=1"])
            .arg(format!("--tool={}", self.tool))
            .arg(format!("--url=http://127.0.0.1:{}/", closed_port()))
            .arg(format!("--save={}", self.save().display()))
            .args(extra)
            .env("PATH", std::env::join_paths(dirs).unwrap())
            .env("LOG", self.log());
        cmd
    }

    /// The lines the fake wrote in its log so far.
    fn logged(&self) -> Vec<String> {
        std::fs::read_to_string(self.log())
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// True when nothing was saved, whole or in part.
    fn saved_nothing(&self) -> bool {
        std::fs::read_dir(self.save().parent().unwrap())
            .unwrap()
            .next()
            .is_none()
    }
}

fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A tool that printed a summary and then failed (issue: a wrk that said
/// "10 requests in 2.00s" and exited 3 was saved as 10 successes): its
/// figures are refused, naming how it ended, and nothing is saved.
fn a_tool_that_failed_is_no_measurement_whatever_it_printed() {
    let summary = include_str!("fixtures/http/wrk-ok.txt");
    let fake = FakeTool::named(
        "wrk",
        &format!("cat <<'EOF'\n{summary}\nEOF\necho 'wrk: lost its threads' >&2\nexit 3"),
    );
    let ran = common::run(fake.yardstick(&["--duration=1", "--warmup=0"]));
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("it failed (exit status: 3: wrk: lost its threads)"),
        "{}",
        ran.stderr
    );
    assert!(fake.saved_nothing());
}

/// A tool that reports what it cannot have measured (a negative latency,
/// more errors than requests): refused as it is read, one line naming the
/// tool and the field, exit 2, and nothing saved that `show` would refuse.
fn impossible_figures_of_a_tool_are_refused_and_nothing_is_saved() {
    let summary = include_str!("fixtures/http/wrk-ok.txt");
    // The status tally wrk's hooks print after its summary.
    let tally = |n: u64| format!("yardstick-wrk status 200 {n}\nyardstick-wrk end\n");
    for (changed, field) in [
        (
            summary.replace("50%   49.00us", "50%   -49.00us") + &tally(149156),
            "median is -0.049",
        ),
        (
            format!("{summary}  Socket errors: connect 0, read 0, write 0, timeout 900000\n")
                .replace("149156 requests", "10 requests")
                + &tally(10),
            "more than its 10 requests",
        ),
    ] {
        let fake = FakeTool::named("wrk", &format!("cat <<'EOF'\n{changed}\nEOF"));
        let ran = common::run(fake.yardstick(&["--duration=1", "--warmup=0"]));
        assert_eq!(ran.code, 2, "{}", ran.stderr);
        let said = ran.stderr.trim();
        assert!(
            said.lines().count() == 1
                && said.contains("wrk: http://127.0.0.1:")
                && said.contains("reported what no run of it can give")
                && said.contains(field),
            "{said}"
        );
        assert!(fake.saved_nothing());
    }
}

/// A tool that prints without end is read up to a bound (RSS stays low),
/// refused in one line that does not quote its output, and nothing saved.
fn a_tool_that_prints_without_end_is_refused_within_a_bound() {
    let fake = FakeTool::named("wrk", "head -c 40000000 /dev/zero | tr '\\0' x");
    let ran = common::run(fake.yardstick(&["--duration=1", "--warmup=0"]));
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    let said = ran.stderr.trim();
    assert!(
        said.lines().count() == 1 && said.contains("printed more than 16 MB") && said.len() < 300,
        "{}",
        &said[..said.len().min(400)]
    );
    assert!(fake.saved_nothing());
}

/// A tool that hangs on one page is killed at its limit and fails that
/// page's row; the other pages are measured and the run is saved.
fn a_page_whose_tool_hangs_fails_alone() {
    let summary = format!(
        "{}yardstick-wrk status 200 149156\nyardstick-wrk end",
        include_str!("fixtures/http/wrk-ok.txt")
    );
    let fake = FakeTool::named(
        "wrk",
        &format!(
            "case \"$*\" in\n*slow*) exec sleep 600;;\n*) cat <<'EOF'\n{summary}\nEOF\n;;\nesac"
        ),
    );
    let slow = format!("--url=http://127.0.0.1:{}/slow", closed_port());
    // The limit: the duration, one timeout and the slack of 20 s.
    let ran = common::run(fake.yardstick(&[&slow, "--duration=1", "--timeout=0.1", "--warmup=0"]));
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let doc: Value = common::json(&std::fs::read_to_string(fake.save()).unwrap());
    let rows = doc["rows"].as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 2, "{doc}");
    let (hung, fine): (Vec<&Value>, Vec<&Value>) = rows
        .iter()
        .partition(|r| r["key"].as_str().is_some_and(|k| k.contains("/slow")));
    assert!(
        hung.len() == 1
            && hung[0]["n"] == 0
            && hung[0]["errors"] == hung[0]["requests"]
            && hung[0]["error_messages"].as_object().is_some_and(|m| m
                .keys()
                .any(|k| k.contains("still running after its limit"))),
        "{hung:?}"
    );
    assert!(
        fine.len() == 1 && fine[0]["n"].as_u64().is_some_and(|n| n > 0),
        "{fine:?}"
    );
}

/// A server that never answers: wrk saw no request end in its whole
/// duration. That is a failed page, never an empty row that passes.
fn a_tool_that_saw_no_request_end_fails_its_page() {
    let summary = include_str!("fixtures/http/wrk-ok.txt")
        .replace(
            "149156 requests in 2.10s, 176.24MB read",
            "0 requests in 2.10s, 0.00B read",
        )
        .replace("Requests/sec:  70975.56", "Requests/sec:      0.00");
    let fake = FakeTool::named("wrk", &format!("cat <<'EOF'\n{summary}\nEOF"));
    let ran = common::run(fake.yardstick(&["--duration=1", "--warmup=0"]));
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let doc: Value = common::json(&std::fs::read_to_string(fake.save()).unwrap());
    let row = &doc["rows"][0];
    assert!(
        row["n"] == 0
            && row["errors"].as_u64().is_some_and(|e| e > 0)
            && row["errors"] == row["requests"]
            && row["error_messages"]
                .as_object()
                .is_some_and(|m| m.keys().any(|k| k.contains("no request ended"))),
        "{row}"
    );
}

fn a_warm_up_that_hangs_fails_its_page_and_is_not_followed() {
    let fake = FakeTool::new("echo started >> \"$LOG\"\nexec sleep 600");
    // The smallest limit the options give: 0.1 s for each of two requests,
    // and the slack of 20 s.
    let ran = common::run(fake.yardstick(&["--requests=1", "--warmup=1", "--timeout=0.1"]));
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_eq!(fake.logged(), ["started"], "the tool was started again");
    let doc: Value = common::json(&std::fs::read_to_string(fake.save()).unwrap());
    let row = &doc["rows"][0];
    assert_eq!(row["n"], 0, "{row}");
    let why = row["error_messages"].to_string();
    assert!(
        why.contains("still running after its limit") && why.contains("s in its warm-up, killed"),
        "{row}"
    );
}

fn a_signal_kills_the_tool_with_its_children_and_saves_nothing() {
    for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let fake = FakeTool::new("sleep 600 &\necho \"$$ $!\" >> \"$LOG\"\nwait");
        let mut child = fake
            .yardstick(&["--requests=5", "--warmup=0"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pids = wait_for_line(&fake, &mut child);
        let yardstick = libc::pid_t::try_from(child.id()).unwrap();
        // SAFETY: kill(2) only sends a signal, to our own child, unreaped.
        assert_eq!(unsafe { libc::kill(yardstick, signal) }, 0);
        let code = wait_for_exit(&mut child);
        let mut stderr = String::new();
        let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
        assert_eq!(code, Some(128 + signal), "signal {signal}: {stderr}");
        for pid in &pids {
            assert!(
                gone(*pid),
                "signal {signal}: process {pid} outlived the run"
            );
        }
        assert!(
            fake.saved_nothing(),
            "signal {signal}: a run file was saved"
        );
    }
}

/// A SIGKILL gives yardstick no chance to kill the tool's group: the tool
/// dies with it all the same (its parent-death signal).
fn a_killed_run_leaves_no_tool_running() {
    let fake = FakeTool::new("echo \"$$ $$\" >> \"$LOG\"\nexec sleep 600");
    let mut child = fake
        .yardstick(&["--requests=5", "--warmup=0"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pids = wait_for_line(&fake, &mut child);
    let _ = child.kill();
    let _ = child.wait();
    assert!(gone(pids[0]), "the tool {} outlived a killed run", pids[0]);
}

/// The pids of the fake tool and its child, once it has logged them; the
/// run is killed and the test fails when it does not within the patience.
fn wait_for_line(fake: &FakeTool, child: &mut Child) -> Vec<libc::pid_t> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(line) = fake.logged().first() {
            let pids: Vec<libc::pid_t> = line
                .split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect();
            if pids.len() == 2 {
                return pids;
            }
        }
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            panic!("the fake tool was not started: {:?}", child.wait());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The exit code of `child`, once it has exited; killed (and the test
/// failed) if it does not within the patience.
fn wait_for_exit(child: &mut Child) -> Option<i32> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("yardstick did not exit after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// True once `pid` is gone (kill -0 fails), or a zombie at most: killed,
/// and waiting for whoever adopted it to reap it. Waits up to the patience.
fn gone(pid: libc::pid_t) -> bool {
    let deadline = Instant::now() + PATIENCE;
    let alive = || {
        // SAFETY: signal 0 sends nothing; it only asks whether pid exists.
        let exists = unsafe { libc::kill(pid, 0) } == 0;
        let zombie =
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z "));
        exists && !zombie
    };
    while alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    !alive()
}

fn main() {
    let ab = yardstick_http::tools::installed("ab").is_some();
    let wrk = yardstick_http::tools::installed("wrk").is_some();
    let h2load = yardstick_http::tools::installed("h2load").is_some();
    common::run_trials(vec![
        trial!(ab_counts_answers_cut_short_as_errors, needs "ab" if ab),
        trial!(ab_takes_only_answers_it_can_read_as_the_others_do, needs "ab" if ab),
        trial!(wrk_counts_statuses_exactly, needs "wrk" if wrk),
        trial!(h2load_counts_only_final_statuses_as_answers, needs "h2load" if h2load),
        trial!(a_tool_that_failed_is_no_measurement_whatever_it_printed),
        trial!(impossible_figures_of_a_tool_are_refused_and_nothing_is_saved),
        trial!(a_warm_up_that_hangs_fails_its_page_and_is_not_followed),
        trial!(a_signal_kills_the_tool_with_its_children_and_saves_nothing),
        trial!(a_killed_run_leaves_no_tool_running),
        trial!(a_tool_that_prints_without_end_is_refused_within_a_bound),
        trial!(a_page_whose_tool_hangs_fails_alone),
        trial!(a_tool_that_saw_no_request_end_fails_its_page),
    ]);
}
