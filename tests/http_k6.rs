//! `yardstick http --tool=k6` as a process: real k6 against the test
//! server, split into execution segments, and fake k6 programs (shell
//! scripts first on `PATH`) that fail, print garbage or stop mid-line.
//!
//! Nothing here asserts on a time: what is checked is a count, an exit
//! code, a message, a file not written.

#[macro_use]
mod common;
mod http_support;

use http_support::start;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The real k6: only tests that run where it was found ask for it.
fn k6() -> PathBuf {
    yardstick_http::tools::installed("k6").expect("the trial runs only where k6 was found")
}

/// `yardstick http --tool=k6 ...` with `dir` first on `PATH` (where a
/// fake k6 may be), saving to `save`.
fn yardstick(dir: &Path, save: &Path, args: &[&str]) -> Command {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![dir.to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    let mut cmd = common::yardstick();
    cmd.args(["http", "-q", "--tool=k6"])
        .arg(format!("--save={}", save.display()))
        .args(args)
        .env("PATH", std::env::join_paths(dirs).unwrap());
    cmd
}

/// `yardstick http --tool=k6 ARGS` with the k6 on `PATH`, which must
/// succeed: the run it saved.
fn measured(args: &[&str]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    let ran = common::run(yardstick(dir.path(), &save, args));
    assert_eq!(ran.code, 0, "{args:?}: {}", ran.stderr);
    saved(&save)
}

/// A fake `k6` in `dir` running `body` (sh).
fn fake_k6(dir: &Path, body: &str) {
    let path = dir.join("k6");
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn saved(save: &Path) -> Value {
    common::json(&std::fs::read_to_string(save).unwrap())
}

/// The requests each segment made, read from a row's note
/// (`requests by segment: 0:1/2 4, 1/2:1 3`).
fn by_segment(note: &str) -> Vec<u64> {
    let Some((_, list)) = note.split_once("requests by segment: ") else {
        return Vec::new();
    };
    list.split(';')
        .next()
        .unwrap_or("")
        .split(", ")
        .filter_map(|part| part.rsplit_once(' ')?.1.parse().ok())
        .collect()
}

fn every_segment_count_makes_exactly_the_requests_asked() {
    let (a, b) = (start(), start());
    for segments in [1u64, 2, 3] {
        let before = (a.seen.requests(), b.seen.requests());
        let doc = measured(&[
            &format!("--compare={},{}", a.base(), b.base()),
            "--url=/",
            "--requests=7",
            "--rounds=2",
            "--concurrency=3",
            "--warmup=3",
            &format!("--segments={segments}"),
        ]);
        assert_eq!(doc["settings"]["segments"], segments);
        let rows = doc["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 2);
        for row in rows {
            assert_eq!(
                (row["requests"].as_u64(), row["n"].as_u64()),
                (Some(7), Some(7)),
                "{row}"
            );
            assert_eq!(row["errors"], 0, "{row}");
            let note = row["note"].as_str().unwrap_or("");
            if segments > 1 {
                let counts = by_segment(note);
                assert_eq!(counts.len() as u64, segments, "{note}");
                assert_eq!(counts.iter().sum::<u64>(), 7, "{note}");
            }
        }
        // The measured requests and each virtual user's warm-up, no more.
        for (server, was) in [(&a, before.0), (&b, before.1)] {
            let made = server.seen.requests() - was;
            assert!(
                (7..=7 + 3).contains(&made),
                "{segments} segments: {made} requests"
            );
        }
        assert!(
            doc["pairs"].as_array().is_some_and(|p| p.len() == 1),
            "{doc}"
        );
    }
}

fn cold_requests_are_unique_and_credentials_stay_off_disk() {
    let server = start();
    let doc = measured(&[
        &format!("--url={}", server.url("/auth")),
        "--auth=user:secret",
        "--cold",
        "--requests=8",
        "--concurrency=2",
    ]);
    let row = &doc["rows"][0];
    assert_eq!(
        (row["n"].as_u64(), row["errors"].as_u64()),
        (Some(8), Some(0)),
        "{row}"
    );
    let targets = server.seen.targets.lock().unwrap().clone();
    let unique: std::collections::BTreeSet<&String> = targets.iter().collect();
    assert_eq!(unique.len(), targets.len(), "{targets:?}");
    assert!(targets.iter().all(|t| t.contains("_bench=")), "{targets:?}");
    // The saved run, as the JSON it was read from holds its strings.
    let text = doc.to_string();
    // Neither the password nor its basic-auth form (base64 of user:secret).
    assert!(!text.contains("user:secret"), "{text}");
    assert!(!text.contains("dXNlcjpzZWNyZXQ"), "{text}");
    // The credential reached the server, from k6's environment.
    let auth = server.seen.authorization.lock().unwrap().clone();
    assert!(
        auth.iter().all(|a| a == "Basic dXNlcjpzZWNyZXQ="),
        "{auth:?}"
    );
    assert!(auth.len() >= 8, "{auth:?}");
}

fn an_arrival_rate_is_a_timed_run() {
    let server = start();
    let doc = measured(&[
        &format!("--url={}", server.url("/")),
        "--rate=40",
        "--duration=1",
        "--rounds=1",
        "--concurrency=2",
        // Each instance must write its end mark.
        "--segments=2",
    ]);
    assert_eq!(
        (
            doc["settings"]["rate"].as_f64(),
            doc["settings"]["duration"].as_u64()
        ),
        (Some(40.0), Some(1))
    );
    let row = &doc["rows"][0];
    assert!(row["requests"].as_u64().is_some_and(|n| n > 0), "{row}");
    assert!(
        row["note"]
            .as_str()
            .is_some_and(|n| n.contains("constant-arrival-rate")),
        "{row}"
    );
}

fn credentials_reach_k6_by_its_environment_not_its_command_line_or_script() {
    let real = k6();
    let server = start();
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    // k6 as yardstick starts it: its arguments and its script kept, then
    // the real k6 run with them.
    fake_k6(
        dir.path(),
        &format!(
            "echo \"$@\" > \"$0.argv\"\nfor a; do last=\"$a\"; done\ncp \"$last\" \"$0.script\"\n\
             exec '{}' \"$@\"",
            real.display()
        ),
    );
    let ran = common::run(yardstick(
        dir.path(),
        &save,
        &[
            &format!("--url={}", server.url("/")),
            "--auth=user:pw-QZ7",
            "--header=X-Api-Key: key-QZ8",
            "--requests=4",
            "--concurrency=1",
        ],
    ));
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let argv = std::fs::read_to_string(dir.path().join("k6.argv")).unwrap();
    let script = std::fs::read_to_string(dir.path().join("k6.script")).unwrap();
    assert!(script.contains("YARDSTICK_K6_SECRET_0"), "{script}");
    for (place, text) in [("argv", &argv), ("script", &script)] {
        for secret in ["pw-QZ7", "dXNlcjpwdy1RWjc", "key-QZ8"] {
            assert!(!text.contains(secret), "{place} holds {secret}: {text}");
        }
    }
    let auth = server.seen.authorization.lock().unwrap().clone();
    assert!(
        !auth.is_empty() && auth.iter().all(|a| a == "Basic dXNlcjpwdy1RWjc="),
        "{auth:?}"
    );
}

fn a_k6_that_fails_or_garbles_its_output_saves_nothing() {
    let server = start();
    let url = format!("--url={}", server.url("/"));
    let cases = [
        ("echo 'cannot parse script' >&2; exit 107", "exited with"),
        ("echo 'this is not json'", "not k6's JSON"),
        (
            "printf '{\"metric\":\"http_req_duration\",\"type\":\"Point\",\"data\":{\"time\":'",
            "cut short",
        ),
        (
            "printf '{\"metric\":\"http_reqs\",\"type\":\"Point\",\"data\":{\"time\":\"2026-12-03T20:31:23Z\",\"value\":1}}\\n'",
            "a point without tags",
        ),
        ("exit 0", "made 0 measured requests"),
    ];
    for (body, said) in cases {
        let dir = tempfile::tempdir().unwrap();
        let save = dir.path().join("run.json");
        fake_k6(dir.path(), body);
        let ran = common::run(yardstick(dir.path(), &save, &[&url, "--requests=4"]));
        assert_eq!(ran.code, 2, "{body}: {}", ran.stderr);
        assert!(ran.stderr.contains(said), "{body}: {}", ran.stderr);
        assert_eq!(ran.stderr.trim().lines().count(), 1, "{}", ran.stderr);
        assert!(!save.exists(), "{body}");
    }
}

fn a_failed_segment_fails_the_run() {
    let real = k6();
    let server = start();
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    // The second of two segments fails; the first is real k6.
    fake_k6(
        dir.path(),
        &format!(
            "case \"$*\" in *--execution-segment=1/2:1*) echo 'segment lost' >&2; exit 1;; esac\nexec '{}' \"$@\"",
            real.display()
        ),
    );
    let ran = common::run(yardstick(
        dir.path(),
        &save,
        &[
            &format!("--url={}", server.url("/")),
            "--requests=6",
            "--concurrency=2",
            "--segments=2",
        ],
    ));
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("k6 segment 1/2:1") && ran.stderr.contains("segment lost"),
        "{}",
        ran.stderr
    );
    assert!(!save.exists());
}

fn what_k6_cannot_do_is_refused_before_it_starts() {
    let server = start();
    let url = format!("--url={}", server.url("/"));
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("run.json");
    // A fake that would say it ran: none of these may reach it.
    fake_k6(dir.path(), "echo ran >> \"$0.log\"");
    let cases: [(&[&str], &str); 6] = [
        (
            &["--http=1.1", "--url=https://127.0.0.1:1/"],
            "cannot be held",
        ),
        (&["--segments=0"], "--segments"),
        (&["--segments=3", "--concurrency=2"], "--segments=3"),
        (
            &["--segments=3", "--concurrency=4", "--requests=2"],
            "more segments",
        ),
        (&["--http=2"], "needs https"),
        (
            &[
                "--header=X-Api-Key: k",
                "--url=http://user:pw@127.0.0.1:1/?token=x",
            ],
            "credential",
        ),
    ];
    for (args, said) in cases {
        let mut all = vec![url.as_str()];
        all.extend_from_slice(args);
        let ran = common::run(yardstick(dir.path(), &save, &all));
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.stderr);
        assert!(ran.stderr.contains(said), "{args:?}: {}", ran.stderr);
    }
    assert!(!dir.path().join("k6.log").exists());
    assert!(!save.exists());
    // Without k6 on PATH at all.
    let empty = tempfile::tempdir().unwrap();
    let ran = common::run(
        common::yardstick()
            .args(["http", "-q", "--tool=k6", &url])
            .env("PATH", empty.path()),
    );
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("k6 is not installed"), "{}", ran.stderr);
    let ran = common::run(common::yardstick().args(["http", "-q", "--rate=5", "--tool=ab", &url]));
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("--rate works with the built-in client or --tool=k6, not --tool=ab"),
        "{}",
        ran.stderr
    );
}

/// `yardstick k6 manifest --name=shop OPTIONS`, written in `dir`: its
/// script as a file, and its TestRun.
fn manifest(dir: &Path, options: &[String]) -> (PathBuf, Value) {
    let manifest = dir.join("testrun.yaml");
    let ran = common::run(
        common::yardstick()
            .args(["k6", "manifest", "--name=shop"])
            .arg(format!("--output={}", manifest.display()))
            .args(options),
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let text = std::fs::read_to_string(&manifest).unwrap();
    let mut docs = text.split("\n---\n");
    let config_map: Value = yaml_serde::from_str(docs.next().unwrap()).unwrap();
    let test_run: Value = yaml_serde::from_str(docs.next().unwrap()).unwrap();
    let script = dir.join("script.js");
    std::fs::write(&script, config_map["data"]["script.js"].as_str().unwrap()).unwrap();
    (script, test_run)
}

/// One pod, played by `k6` here as the operator starts it: the script with
/// the TestRun's arguments and `segment` (and its sequence), its standard
/// output and error in the log `log`.
fn pod(k6: &Path, script: &Path, test_run: &Value, segment: Option<[&str; 2]>, log: &Path) {
    let arguments: Vec<&str> = test_run["spec"]["arguments"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .collect();
    let file = std::fs::File::create(log).unwrap();
    let mut command = Command::new(k6);
    command.arg("run").args(&arguments);
    if let Some([segment, sequence]) = segment {
        command
            .arg(format!("--execution-segment={segment}"))
            .arg(format!("--execution-segment-sequence={sequence}"));
    }
    let status = command
        .arg(script)
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    assert!(status.success());
}

/// `yardstick k6 collect LOGS OPTIONS`, saving to `save`.
fn collect(logs: &Path, options: &[String], save: &Path) -> common::Ran {
    common::run(
        common::yardstick()
            .args(["k6", "collect"])
            .arg(logs)
            .args(options)
            .args(["-q", &format!("--save={}", save.display())]),
    )
}

/// The pods of a cluster, played by k6 processes here: each runs the
/// ConfigMap's script with the TestRun's arguments and its segment, as the
/// operator starts them, its standard output and error in one log.
fn a_manifest_runs_as_pods_and_their_logs_collect_into_one_run() {
    let real = k6();
    let server = start();
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let options = [
        format!("--base={}", server.base()),
        "--url=/".to_string(),
        "--requests=10".to_string(),
        "--concurrency=2".to_string(),
        "--segments=2".to_string(),
    ];
    let (script, test_run) = manifest(dir.path(), &options);
    assert_eq!(test_run["spec"]["parallelism"], 2);
    for (i, segment) in ["0:1/2", "1/2:1"].iter().enumerate() {
        let log = logs.join(format!("shop-{}.log", i + 1));
        pod(&real, &script, &test_run, Some([segment, "0,1/2,1"]), &log);
    }
    let save = dir.path().join("run.json");
    let ran = collect(&logs, &options, &save);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let row = &saved(&save)["rows"][0];
    assert_eq!(
        (row["n"].as_u64(), row["requests"].as_u64()),
        (Some(10), Some(10)),
        "{row}"
    );
    assert_eq!(
        by_segment(row["note"].as_str().unwrap())
            .iter()
            .sum::<u64>(),
        10
    );
    // A pod's log missing: refused, nothing saved.
    std::fs::remove_file(logs.join("shop-2.log")).unwrap();
    std::fs::remove_file(&save).unwrap();
    let ran = collect(&logs, &options, &save);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("holds 1 files"), "{}", ran.stderr);
    assert!(!save.exists());
}

fn iterations_an_arrival_rate_drops_are_counted() {
    let server = start();
    // One virtual user and /slow's 20 ms make at most 50 requests a
    // second whatever the machine: of 400 asked, most are dropped.
    let row = &measured(&[
        &format!("--url={}", server.url("/slow")),
        "--rate=400",
        "--duration=1",
        "--rounds=1",
        "--concurrency=1",
    ])["rows"][0];
    let note = row["note"].as_str().unwrap_or("");
    let dropped: u64 = note
        .split("; ")
        .find_map(|p| p.strip_suffix(" iterations dropped (no virtual user free)"))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(dropped > 100, "{note}");
    assert!(row["requests"].as_u64().is_some_and(|n| n <= 60), "{row}");
}

fn a_manifest_holds_no_credential_and_names_the_secret_s_keys() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.yaml");
    let manifest = |extra: &[&str]| {
        common::run(
            common::yardstick()
                .args([
                    "k6",
                    "manifest",
                    "--base=http://127.0.0.1:1",
                    "--segments=2",
                ])
                .arg(format!("--output={}", out.display()))
                .args(extra),
        )
    };
    let ran = manifest(&["--url=/", "--auth=user:pw-secret"]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("--secret=NAME") && ran.stderr.contains("YARDSTICK_K6_SECRET_0"),
        "{}",
        ran.stderr
    );
    assert!(!out.exists());
    let ran = manifest(&["--url=/", "--auth=user:pw-secret", "--secret=shop-creds"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stderr.contains("YARDSTICK_K6_SECRET_0"),
        "{}",
        ran.stderr
    );
    let yaml = std::fs::read_to_string(&out).unwrap();
    assert!(
        !yaml.contains("pw-secret") && !yaml.contains("dXNlcjpwdy1zZWNyZXQ"),
        "{yaml}"
    );
    assert!(
        yaml.contains("secretRef") && yaml.contains("shop-creds"),
        "{yaml}"
    );
    for (args, said) in [
        (&["--url=/", "--name=Shop"][..], "not a Kubernetes name"),
        (&[][..], "name the pages"),
        (&["--url=/", "--segments=9"][..], "--segments=9"),
    ] {
        let ran = manifest(args);
        assert_eq!(ran.code, 2, "{args:?}: {}", ran.stderr);
        assert!(ran.stderr.contains(said), "{args:?}: {}", ran.stderr);
    }
}

fn a_server_compared_with_itself_gets_two_rows_of_its_own() {
    let server = start();
    let doc = measured(&[
        &format!("--compare={0},{0}", server.base()),
        "--url=/",
        "--requests=6",
        "--concurrency=2",
    ]);
    for row in doc["rows"].as_array().unwrap() {
        assert_eq!(
            (row["requests"].as_u64(), row["n"].as_u64()),
            (Some(6), Some(6)),
            "{row}"
        );
    }
}

fn a_timed_pod_log_cut_at_a_line_end_or_missing_its_start_is_refused() {
    let real = k6();
    let server = start();
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    let options = [
        format!("--base={}", server.base()),
        "--url=/".to_string(),
        "--rate=40".to_string(),
        "--duration=1".to_string(),
        "--rounds=1".to_string(),
        "--concurrency=2".to_string(),
        // Pods resolve the server themselves, so a timed manifest needs it.
        "--force".to_string(),
    ];
    let (script, test_run) = manifest(dir.path(), &options);
    let played = dir.path().join("pod.log");
    pod(&real, &script, &test_run, None, &played);
    let log = std::fs::read_to_string(&played).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    let collect = |text: String| {
        std::fs::write(logs.join("shop-1.log"), text).unwrap();
        let save = dir.path().join("run.json");
        let ran = collect(&logs, &options, &save);
        (ran, save.exists())
    };
    let (ran, saved) = collect(log.clone());
    assert_eq!((ran.code, saved), (0, true), "{}", ran.stderr);
    std::fs::remove_file(dir.path().join("run.json")).unwrap();
    // Cut where a line ends, before the end mark.
    let mark = lines
        .iter()
        .position(|l| l.contains("\"metric\":\"yardstick_end\""))
        .expect("the end mark");
    let (ran, saved) = collect(lines[..mark].join("\n") + "\n");
    assert_eq!((ran.code, saved), (2, false), "{}", ran.stderr);
    assert!(ran.stderr.contains("no end mark"), "{}", ran.stderr);
    // The first half gone, as a rotated pod log loses it.
    let (ran, saved) = collect(lines[lines.len() / 2..].join("\n") + "\n");
    assert_eq!((ran.code, saved), (2, false), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("its start is missing"),
        "{}",
        ran.stderr
    );
}

fn main() {
    let k6 = yardstick_http::tools::installed("k6").is_some();
    common::run_trials(vec![
        trial!(every_segment_count_makes_exactly_the_requests_asked, needs "k6" if k6),
        trial!(cold_requests_are_unique_and_credentials_stay_off_disk, needs "k6" if k6),
        trial!(an_arrival_rate_is_a_timed_run, needs "k6" if k6),
        trial!(credentials_reach_k6_by_its_environment_not_its_command_line_or_script, needs "k6" if k6),
        trial!(a_k6_that_fails_or_garbles_its_output_saves_nothing),
        trial!(a_failed_segment_fails_the_run, needs "k6" if k6),
        trial!(what_k6_cannot_do_is_refused_before_it_starts),
        trial!(a_manifest_runs_as_pods_and_their_logs_collect_into_one_run, needs "k6" if k6),
        trial!(iterations_an_arrival_rate_drops_are_counted, needs "k6" if k6),
        trial!(a_manifest_holds_no_credential_and_names_the_secret_s_keys),
        trial!(a_server_compared_with_itself_gets_two_rows_of_its_own, needs "k6" if k6),
        trial!(a_timed_pod_log_cut_at_a_line_end_or_missing_its_start_is_refused, needs "k6" if k6),
    ]);
}
