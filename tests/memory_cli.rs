//! End-to-end tests of memory per probe: a yardstick binary with the
//! counting allocator installed, started as a child as a user's bench
//! binary would be, and its saved runs and verdicts read back.
//!
//! Every figure checked here is a count, and the times come from the
//! scripted clock, so nothing depends on the machine's load.

mod common;

use common::{assert_valid_run, check, json, own_child, run};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::hint::black_box;
use std::process::Command;

#[global_allocator]
static ALLOC: yardstick::alloc::Counting = yardstick::alloc::Counting;

/// Sixteen bytes: the link to the next node and a value.
struct Node {
    next: Option<Box<Node>>,
    value: u64,
}

fn chain(n: u64) -> Option<Box<Node>> {
    (0..n).fold(None, |next, value| Some(Box::new(Node { next, value })))
}

/// The chain's length and the sum of its values.
fn walk(mut node: &Option<Box<Node>>) -> (u64, u64) {
    let (mut n, mut sum) = (0, 0);
    while let Some(b) = node {
        (n, sum) = (n + 1, sum + b.value);
        node = &b.next;
    }
    (n, sum)
}

// Exactly 1,000 allocations of 16 bytes, all live at once, then freed.
yardstick::probe! {
    name: known_allocations,
    run: || chain(1000),
    check: |c| match walk(c) {
        (1000, 499_500) => Ok(()),
        (n, sum) => Err(format!("{n} nodes summing to {sum}")),
    },
}

// A thread that allocates a megabyte: none of it is this thread's.
yardstick::probe! {
    name: other_thread,
    run: || std::thread::spawn(|| black_box(vec![1u8; 1 << 20]).len()).join().unwrap_or(0),
    check: |n| if *n == 1 << 20 { Ok(()) } else { Err(format!("{n} bytes")) },
}

// 100 boxes, or 101 when the test asks for one more.
yardstick::probe! {
    name: hundred_boxes,
    setup: || Ok::<_, String>(100 + u64::from(std::env::var_os("ONE_MORE").is_some())),
    run: |n| (0..*n).map(Box::new).fold(0u64, |a, b| a + *black_box(b)),
    check: |n, sum| if *sum == n * (n - 1) / 2 { Ok(()) } else { Err(format!("sum {sum}")) },
}

const SCRIPT: &str = "@calibration=1; known_allocations=0.1; other_thread=0.1; hundred_boxes=0.1";

/// This binary as a yardstick binary, timed by the scripted clock.
fn micro(args: &[&str]) -> Command {
    let mut cmd = own_child("main", SCRIPT);
    cmd.env_remove("ONE_MORE")
        .args(["micro", "--repeat=3", "--warmup=1", "-q"])
        .args(args);
    cmd
}

fn memory(doc: &Value, probe: &str) -> Value {
    let rows = doc["rows"].as_array().cloned().unwrap_or_default();
    rows.into_iter()
        .find(|r| r["key"] == probe)
        .map_or(Value::Null, |r| r["memory"].clone())
}

fn known_allocations_read_exactly() -> Result<(), Failed> {
    let ran = run(micro(&[
        "--probe=known_allocations",
        "--no-baseline",
        "--format=json",
    ]));
    check(ran.code == 0, "exit 0", &ran)?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    let m = memory(&doc, "known_allocations");
    let want = serde_json::json!({"allocs": 1000, "reallocs": 0, "bytes": 16000, "peak": 16000});
    check(m == want, &format!("memory {m}"), &ran)?;
    // The table's columns.
    let ran = run(micro(&["--probe=known_allocations", "--no-baseline"]));
    let line = ran
        .stdout
        .lines()
        .find(|l| l.starts_with("known_allocations"))
        .unwrap_or("");
    check(
        line.contains(" 1,000 ") && line.matches(" 16,000 ").count() == 2,
        "allocs, bytes and peak in the table",
        &ran,
    )
}

fn another_threads_allocations_are_not_counted() -> Result<(), Failed> {
    let ran = run(micro(&[
        "--probe=other_thread",
        "--no-baseline",
        "--format=json",
    ]));
    check(ran.code == 0, "exit 0", &ran)?;
    let m = memory(&json(&ran.stdout), "other_thread");
    // Spawning allocates a little on this thread (the new thread's handle
    // and its result's slot); the megabyte is the other thread's.
    let bytes = m["bytes"].as_u64().unwrap_or(u64::MAX);
    let allocs = m["allocs"].as_u64().unwrap_or(u64::MAX);
    check(
        bytes < 64 * 1024 && (1..=20).contains(&allocs),
        &format!("only the spawning thread's own allocations: {m}"),
        &ran,
    )
}

fn counts_repeat_exactly_from_run_to_run() -> Result<(), Failed> {
    let memories = (0..3)
        .map(|_| {
            let ran = run(micro(&["--no-baseline", "--format=json"]));
            let doc = json(&ran.stdout);
            ["known_allocations", "other_thread", "hundred_boxes"].map(|p| memory(&doc, p))
        })
        .collect::<Vec<_>>();
    if memories.iter().all(|m| *m == memories[0]) && memories[0][2]["allocs"] == 100 {
        Ok(())
    } else {
        Err(format!("{memories:?}").into())
    }
}

fn one_more_allocation_regresses_on_any_machine() -> Result<(), Failed> {
    let dir = tempfile::tempdir()?;
    let base = dir.path().join("base.json");
    let save = format!("--save={}", base.display());
    let ran = run(micro(&["--probe=hundred_boxes", "--no-baseline", &save]));
    check(ran.code == 0, "baseline saved", &ran)?;
    let against = format!("--baseline={}", base.display());
    let args = ["--probe=hundred_boxes", against.as_str(), "--format=json"];

    // The same work: no regression.
    let ran = run(micro(&args));
    check(ran.code == 0, "the same allocations pass", &ran)?;

    // One allocation more in a hundred: 1 %, and one more.
    let ran = run(micro(&args).env("ONE_MORE", "1"));
    check(ran.code == 1, "one more allocation regresses", &ran)?;
    let doc = json(&ran.stdout);
    let allocs = doc["comparison"]["checks"]
        .as_array()
        .and_then(|c| c.iter().find(|k| k["metric"] == "allocs").cloned())
        .unwrap_or(Value::Null);
    check(
        allocs["regressed"] == true && allocs["baseline"] == 100.0 && allocs["current"] == 101.0,
        &format!("the allocs check: {allocs}"),
        &ran,
    )?;

    // A baseline of another machine class: wall time gives no verdict,
    // counts still do.
    let mut other: Value = json(&std::fs::read_to_string(&base)?);
    other["environment"]["machine_class"] = "another-class-00000000".into();
    std::fs::write(&base, serde_json::to_string(&other)?)?;
    let ran = run(micro(&["--probe=hundred_boxes", against.as_str()]).env("ONE_MORE", "1"));
    check(ran.code == 1, "judged across machine classes", &ran)?;
    check(
        ran.stdout.contains("NO VERDICT") || ran.stdout.contains("no time is judged"),
        "no time is judged",
        &ran,
    )?;
    check(
        ran.stdout
            .contains("FAIL: allocates more than the baseline"),
        "the verdict names allocations",
        &ran,
    )?;

    // Without counting there is nothing to judge, and the columns say so.
    let ran = run(micro(&["--probe=hundred_boxes", against.as_str()])
        .env("ONE_MORE", "1")
        .env("YARDSTICK_ALLOC", "off"));
    check(ran.code == 0, "nothing judged without counts", &ran)?;
    let line = ran
        .stdout
        .lines()
        .find(|l| l.starts_with("hundred_boxes"))
        .unwrap_or("");
    check(
        line.split_whitespace().filter(|c| *c == "-").count() >= 3,
        "dashes in allocs, bytes and peak",
        &ran,
    )?;
    let ran = run(micro(&["--no-baseline"]).env("YARDSTICK_ALLOC", "sometimes"));
    check(
        ran.code == 2 && ran.stderr.contains("YARDSTICK_ALLOC"),
        "a bad YARDSTICK_ALLOC is refused, named",
        &ran,
    )
}

fn main() {
    if std::env::var("YARDSTICK_E2E_CHILD").as_deref() == Ok("main") {
        std::process::exit(yardstick_cli::main());
    }
    let tests = vec![
        Trial::test(
            "known_allocations_read_exactly",
            known_allocations_read_exactly,
        ),
        Trial::test(
            "another_threads_allocations_are_not_counted",
            another_threads_allocations_are_not_counted,
        ),
        Trial::test(
            "counts_repeat_exactly_from_run_to_run",
            counts_repeat_exactly_from_run_to_run,
        ),
        Trial::test(
            "one_more_allocation_regresses_on_any_machine",
            one_more_allocation_regresses_on_any_machine,
        ),
    ];
    libtest_mimic::run(&Arguments::from_args(), tests).exit();
}
