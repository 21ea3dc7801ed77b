//! End-to-end tests of process probes: a yardstick binary whose process
//! probes pass, and fail in every way a child can (an error before ready,
//! an abort, an exit without ready, a hang past the timeout, a malformed
//! protocol line), started as a child as a user's bench binary would be.
//!
//! Nothing here reads a measured time: the checks are rows, counts, notes
//! and exit codes, and the one time checked is the scripted clock's.

mod common;

use common::{assert_valid_run, check, json, own_child, run};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::process::Command;
use std::time::{Duration, Instant};

yardstick::probe! {
    name: in_process_sum,
    run: || (1..=100u64).sum::<u64>(),
    check: |s| if *s == 5050 { Ok(()) } else { Err(format!("sum {s}")) },
}

yardstick::process_probe! {
    name: fine,
    note: "ready, then a cold render",
    child: |child| {
        println!("the child's own line, passed over");
        let started = Instant::now();
        child.ready();
        let page = format!("<p>{}</p>", 6 * 7);
        child.report("render_cold", started.elapsed());
        if page.len() == 9 { Ok(()) } else { Err(format!("rendered {page}")) }
    },
}

yardstick::process_probe! {
    child: |_child| Err("no kernel to boot".to_string()),
    name: err_before_ready,
}

yardstick::process_probe! {
    name: aborts,
    child: |_child| std::process::abort(),
}

yardstick::process_probe! {
    name: exits_nonzero,
    child: |_child| std::process::exit(3),
}

yardstick::process_probe! {
    name: hangs,
    child: |child| {
        child.ready();
        std::thread::sleep(Duration::from_secs(600));
        Ok(())
    },
}

yardstick::process_probe! {
    name: malformed,
    child: |child| {
        println!("{} bogus", yardstick::probe::process::PREFIX);
        child.ready();
        Ok(())
    },
}

/// What the `big` child holds at its peak, and what the parent holds when
/// `YARDSTICK_TEST_BALLAST` is set: far apart, so that a child's figure
/// says whose peak it is.
const BIG_CHILD: usize = 96 << 20;
const BALLAST: usize = 256 << 20;

yardstick::process_probe! {
    name: big,
    note: "holds 96 MiB at its peak",
    child: |child| {
        child.ready();
        let held = touched(BIG_CHILD);
        if held.len() == BIG_CHILD { Ok(()) } else { Err("short".to_string()) }
    },
}

/// `bytes` of memory, every page written, so that it is resident.
fn touched(bytes: usize) -> Vec<u8> {
    let mut v = vec![0u8; bytes];
    for i in (0..bytes).step_by(4096) {
        v[i] = 1;
    }
    std::hint::black_box(v)
}

const SCRIPT: &str = "@calibration=1; in_process_sum=0.01; fine.boot=2";

/// This binary as a yardstick binary, with three children per process
/// probe and a one-second timeout, judged by what `args` say.
fn judged(args: &[&str]) -> Command {
    let mut cmd = own_child("main", SCRIPT);
    cmd.args(["micro", "--repeat=3", "--warmup=1", "-q", "--boot-repeat=3"])
        .arg("--probe-timeout=1")
        .args(args);
    cmd
}

/// The same, judged against nothing.
fn micro(args: &[&str]) -> Command {
    let mut cmd = judged(args);
    cmd.arg("--no-baseline");
    cmd
}

fn rows(doc: &Value) -> Vec<Value> {
    doc["rows"].as_array().cloned().unwrap_or_default()
}

fn row(doc: &Value, key: &str) -> Value {
    rows(doc)
        .into_iter()
        .find(|r| r["key"] == key)
        .unwrap_or(Value::Null)
}

fn every_child_is_measured_and_every_failure_named() -> Result<(), Failed> {
    let ran = run(micro(&["--format=json"]));
    check(ran.code == 1, "exit 1: process probes failed", &ran)?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    check(
        doc["settings"]["boot_repeat"] == 3,
        "boot_repeat saved",
        &ran,
    )?;
    check(
        row(&doc, "in_process_sum")["n"] == 3,
        "the in-process probe ran",
        &ran,
    )?;
    for key in [
        "empty.boot",
        "empty.process",
        "fine.boot",
        "fine.process",
        "fine.render_cold",
    ] {
        let r = row(&doc, key);
        check(
            r["kind"] == "process" && r["n"] == 3 && r["errors"] == 0,
            &format!("{key}: three children, none failed: {r}"),
            &ran,
        )?;
    }
    check(
        row(&doc, "fine.boot")["median"] == 2.0,
        "the script drives boot",
        &ran,
    )?;
    check(
        row(&doc, "fine.process")["note"] == "ready, then a cold render",
        "note",
        &ran,
    )?;
    let rss = |key: &str| row(&doc, key)["peak_rss"].as_u64().is_some_and(|b| b > 0);
    let linux = cfg!(target_os = "linux");
    check(
        rss("fine.process") == linux && rss("empty.process") == linux && !rss("fine.boot"),
        "peak_rss on the process rows, on Linux",
        &ran,
    )?;
    for (probe, note) in [
        (
            "err_before_ready",
            "failed: exited with code 1: no kernel to boot",
        ),
        ("aborts", "failed: killed by signal 6"),
        ("exits_nonzero", "failed: exited with code 3"),
        ("hangs", "failed: ran past --probe-timeout (1 s), killed"),
        (
            "malformed",
            "failed: malformed protocol line `#yardstick-process# bogus`",
        ),
    ] {
        let r = row(&doc, &format!("{probe}.process"));
        let got = r["note"].as_str().unwrap_or("");
        check(
            got.starts_with(note) && !got.contains('\n') && r["errors"] == 3 && r["n"] == 0,
            &format!("{probe}: {r}"),
            &ran,
        )?;
    }
    Ok(())
}

fn the_table_shows_process_probes_apart() -> Result<(), Failed> {
    let ran = run(micro(&["--probe=fine", "--probe=in_process_sum"]));
    check(ran.code == 0, "exit 0", &ran)?;
    // The header's warning names the script, process rows and all.
    let tables = ran
        .stdout
        .split_once("times in ms per iteration")
        .map_or("", |t| t.1);
    let (probes, processes) = tables
        .split_once("process probes, ms per child")
        .unwrap_or(("", ""));
    check(
        probes.contains("in_process_sum") && !probes.contains("fine."),
        "in-process rows in the first table",
        &ran,
    )?;
    check(
        [
            "empty.boot",
            "empty.process",
            "fine.boot",
            "fine.process",
            "fine.render_cold",
        ]
        .iter()
        .all(|k| processes.contains(k)),
        "process rows and the floor in the second",
        &ran,
    )
}

fn process_probes_are_not_judged_by_the_loop() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let base = dir.path().join("base.json");
    let save = format!("--save={}", base.display());
    let ran = run(micro(&["--probe=fine", "--probe=in_process_sum", &save]));
    check(ran.code == 0, "baseline saved", &ran)?;
    let against = format!("--baseline={}", base.display());
    let cmd = judged(&[
        "--probe=fine",
        "--probe=in_process_sum",
        "--format=json",
        &against,
    ]);
    let ran = run(cmd);
    check(ran.code == 0, "judged, exit 0", &ran)?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    let checks = doc["comparison"]["checks"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    check(
        checks.iter().any(|c| c["key"] == "in_process_sum")
            && !checks
                .iter()
                .any(|c| c["key"].as_str().is_some_and(|k| k.contains('.'))),
        "only the in-process probe is judged",
        &ran,
    )?;
    // Process probes alone: nothing to judge, and no error for the loop
    // the run does not have.
    let ran = run(micro(&["--probe=fine", "--format=json"]));
    check(
        ran.code == 0 && row(&json(&ran.stdout), "fine.boot")["n"] == 3,
        "alone",
        &ran,
    )
}

fn list_and_selection_include_process_probes() -> Result<(), Failed> {
    let ran = run(micro(&["--list"]));
    for name in ["in_process_sum: bench", "fine: bench", "hangs: bench"] {
        check(ran.stdout.lines().any(|l| l == name), name, &ran)?;
    }
    let ran = run(micro(&["--probe=nope"]));
    check(
        ran.code == 2 && ran.stderr.contains("nope"),
        "unknown probe",
        &ran,
    )?;
    let ran = run(micro(&["fin", "--format=json"]));
    let keys: Vec<String> = rows(&json(&ran.stdout))
        .iter()
        .filter_map(|r| r["key"].as_str().map(str::to_string))
        .collect();
    check(
        keys.iter()
            .all(|k| k.starts_with("fine.") || k.starts_with("empty.")),
        &format!("a filter selects process probes: {keys:?}"),
        &ran,
    )
}

fn bad_boot_repeats_are_refused() -> Result<(), Failed> {
    for bad in ["--boot-repeat=0", "--boot-repeat=x", "--boot-repeat=1001"] {
        let ran = run(micro(&[bad]));
        check(
            ran.code == 2
                && ran.stderr.contains("--boot-repeat")
                && ran.stderr.trim().lines().count() == 1,
            bad,
            &ran,
        )?;
    }
    Ok(())
}

/// Each child's peak is its own: a parent holding 256 MiB does not lend
/// it to its children (as `wait4`'s `ru_maxrss` does), and a child of
/// 96 MiB is told apart from the empty one.
fn each_child_reports_its_own_peak() -> Result<(), Failed> {
    let mut cmd = micro(&["--probe=big", "--format=json"]);
    cmd.env("YARDSTICK_TEST_BALLAST", "1");
    let ran = run(cmd);
    check(ran.code == 0, "exit 0", &ran)?;
    let doc = json(&ran.stdout);
    let peak = |key: &str| row(&doc, key)["peak_rss"].as_u64().unwrap_or(0);
    let (empty, big) = (peak("empty.process"), peak("big.process"));
    check(
        empty > 0 && empty < (64 << 20),
        &format!("the empty child's own peak, not the parent's: {empty} bytes"),
        &ran,
    )?;
    check(
        big >= BIG_CHILD as u64 && big < BALLAST as u64,
        &format!("the big child's own peak: {big} bytes"),
        &ran,
    )
}

fn cargo_test_runs_one_child_per_process_probe() -> Result<(), Failed> {
    let test = |name: &str| {
        let mut cmd = Command::new(std::env::current_exe().expect("own path"));
        cmd.env("YARDSTICK_E2E_CHILD", "bench")
            .args([name, "--exact"]);
        run(cmd)
    };
    let ran = test("fine");
    check(
        ran.code == 0 && ran.stdout.contains("1 passed"),
        "fine passes",
        &ran,
    )?;
    let ran = test("exits_nonzero");
    check(
        ran.code == 101 && ran.stdout.contains("exited with code 3"),
        "fails",
        &ran,
    )
}

fn main() {
    match std::env::var("YARDSTICK_E2E_CHILD").as_deref() {
        Ok("main") => {
            let parent = !std::env::args().any(|a| a.starts_with("--process-child"));
            let ballast = (parent && std::env::var_os("YARDSTICK_TEST_BALLAST").is_some())
                .then(|| touched(BALLAST));
            let code = yardstick_cli::main();
            drop(ballast);
            std::process::exit(code)
        }
        Ok("bench") => std::process::exit(yardstick::run_main()),
        _ => {}
    }
    let tests = vec![
        Trial::test(
            "every_child_is_measured_and_every_failure_named",
            every_child_is_measured_and_every_failure_named,
        ),
        Trial::test(
            "the_table_shows_process_probes_apart",
            the_table_shows_process_probes_apart,
        ),
        Trial::test(
            "process_probes_are_not_judged_by_the_loop",
            process_probes_are_not_judged_by_the_loop,
        ),
        Trial::test(
            "list_and_selection_include_process_probes",
            list_and_selection_include_process_probes,
        ),
        Trial::test("bad_boot_repeats_are_refused", bad_boot_repeats_are_refused),
        Trial::test(
            "each_child_reports_its_own_peak",
            each_child_reports_its_own_peak,
        )
        // Only Linux gives a peak (`VmHWM`).
        .with_ignored_flag(!cfg!(target_os = "linux")),
        Trial::test(
            "cargo_test_runs_one_child_per_process_probe",
            cargo_test_runs_one_child_per_process_probe,
        ),
    ];
    libtest_mimic::run(&Arguments::from_args(), tests).exit();
}
