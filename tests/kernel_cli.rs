//! End-to-end tests of kernel mode: a bench whose `main!` names the
//! kernel suite runs that suite's probes only, saves a run of mode
//! `kernel`, and judges absolute medians with a threshold and a minimum
//! delta, within one machine class only.
//!
//! This test binary is itself the bench, started as a child
//! (`YARDSTICK_E2E_CHILD`); its times come from the scripted clock.

mod common;

use common::{assert_valid_run, check, json, own_child, run};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::process::Command;

yardstick::probe! {
    suite: kernel,
    name: k_sum,
    run: || (0..std::hint::black_box(500u64)).sum::<u64>(),
    check: |s| if *s == 124_750 { Ok(()) } else { Err(format!("sum {s}")) },
}

yardstick::probe! {
    suite: kernel,
    name: k_tiny,
    run: || std::hint::black_box(3u64) * 7,
    check: |x| if *x == 21 { Ok(()) } else { Err(format!("{x}")) },
}

yardstick::process_probe! {
    suite: kernel,
    name: k_proc,
    child: |child| {
        // `--size=13` reaches the child through its environment.
        if yardstick::param("size").as_deref() == Some("13") {
            return Err("size 13 reached the child".into());
        }
        child.ready();
        Ok(())
    },
}

/// The parameters this bench declares, as `yardstick::main!` would.
const PARAMS: &[yardstick::Param] = &[yardstick::Param {
    name: "size",
    kind: "u64",
    help: "how much work (a test's parameter)",
    check: yardstick::probe::param::check_as::<u64>,
}];

// Of the default suite: never in a kernel run.
yardstick::probe! {
    name: micro_only,
    run: || 1u8,
}

/// The bench, started as `cargo bench --bench kernel` would, its times
/// scripted: `k_sum` takes `sum` ms, `k_tiny` `tiny` ms, every process
/// figure 2 ms.
fn kernel(args: &[&str], sum: f64, tiny: f64) -> Command {
    scripted(
        args,
        &format!("k_sum={sum}; k_tiny={tiny}; k_proc.boot=2; k_proc.process=3"),
    )
}

/// The bench with the clock's `script` (the floor takes 1 ms).
fn scripted(args: &[&str], script: &str) -> Command {
    let script = format!("@calibration=1; empty.boot=1; empty.process=1; {script}");
    let mut cmd = own_child("kernel", &script);
    cmd.args([
        "--bench",
        "--repeat=3",
        "--warmup=1",
        "--boot-repeat=2",
        "-q",
    ])
    .args(args);
    cmd
}

fn checks(doc: &Value) -> Vec<(String, bool)> {
    doc["comparison"]["checks"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|c| c["metric"] == "median")
        .map(|c| {
            (
                c["key"].as_str().unwrap_or("").to_string(),
                c["regressed"] == true,
            )
        })
        .collect()
}

/// A baseline saved by a run with `args` (k_sum 1 ms, k_tiny 0.01 ms).
struct Saved {
    _dir: tempfile::TempDir,
    file: std::path::PathBuf,
    /// `--baseline=FILE`.
    against: String,
}

fn saved_baseline(args: &[&str]) -> Result<Saved, Failed> {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("base.json");
    let save = format!("--save={}", file.display());
    let mut all = vec!["--no-baseline", save.as_str()];
    all.extend_from_slice(args);
    let ran = run(kernel(&all, 1.0, 0.01));
    check(
        ran.code == 0,
        &format!("baseline saved with {args:?}"),
        &ran,
    )?;
    let against = format!("--baseline={}", file.display());
    Ok(Saved {
        _dir: dir,
        file,
        against,
    })
}

/// The keys of the median checks that regressed.
fn regressed_keys(doc: &Value) -> Vec<String> {
    checks(doc)
        .into_iter()
        .filter(|c| c.1)
        .map(|c| c.0)
        .collect()
}

fn runs_its_own_suite_in_kernel_mode() -> Result<(), Failed> {
    let ran = run(kernel(&["--list"], 1.0, 0.01));
    check(
        ran.stdout.contains("k_sum: bench")
            && ran.stdout.contains("k_proc: bench")
            && !ran.stdout.contains("micro_only"),
        "the kernel suite's probes, and only those",
        &ran,
    )?;
    let ran = run(kernel(&["--no-baseline", "--format=json"], 1.0, 0.01));
    check(ran.code == 0, "exit 0", &ran)?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    let keys: Vec<&str> = doc["rows"]
        .as_array()
        .map(|rows| rows.iter().filter_map(|r| r["key"].as_str()).collect())
        .unwrap_or_default();
    check(
        doc["mode"] == "kernel"
            && keys
                == [
                    "k_sum",
                    "k_tiny",
                    "empty.boot",
                    "empty.process",
                    "k_proc.boot",
                    "k_proc.process",
                ],
        &format!("a kernel run of its probes: {keys:?}"),
        &ran,
    )
}

fn absolute_medians_regress_past_threshold_and_delta() -> Result<(), Failed> {
    let saved = saved_baseline(&[])?;
    let (base, against) = (saved.file.clone(), saved.against.clone());
    // k_sum twice as slow (1 ms more); k_tiny five times (0.04 ms more).
    let ran = run(kernel(&[&against, "--format=json"], 2.0, 0.05));
    let doc = json(&ran.stdout);
    let regressed = regressed_keys(&doc);
    check(
        ran.code == 1 && regressed == ["k_sum", "k_tiny"],
        &format!("both, with no minimum delta by default: {regressed:?}"),
        &ran,
    )?;
    let ran = run(kernel(
        &[&against, "--format=json", "--min-delta=0.05"],
        2.0,
        0.05,
    ));
    check(ran.code == 1, "exit 1", &ran)?;
    let doc = json(&ran.stdout);
    let regressed = regressed_keys(&doc);
    check(
        doc["comparison"]["method"] == "absolute" && regressed == ["k_sum"],
        &format!("--min-delta=0.05: only k_sum, past the delta: {regressed:?}"),
        &ran,
    )?;
    // A larger minimum delta lets it pass.
    let ran = run(kernel(&[&against, "--min-delta=5"], 2.0, 0.05));
    check(ran.code == 0, "--min-delta=5 passes it", &ran)?;
    // Another machine class: no verdict on time.
    let mut other: Value = json(&std::fs::read_to_string(&base)?);
    other["environment"]["machine_class"] = "another-class-00000000".into();
    std::fs::write(&base, serde_json::to_string(&other)?)?;
    let ran = run(kernel(&[&against], 2.0, 0.05));
    check(
        ran.code == 0 && ran.stdout.contains("NO VERDICT"),
        "no verdict across machine classes",
        &ran,
    )
}

fn a_slowdown_that_does_not_show_again_is_inconclusive() -> Result<(), Failed> {
    let saved = saved_baseline(&[])?;
    let against = saved.against.clone();
    // The two children of the run boot in 10 ms, the two of the
    // confirmation in 2 ms, as in the baseline; k_sum's three measured
    // rounds take 5 ms, its confirmation's 1 ms.
    let script = "k_sum=5*3,1; k_tiny=0.01; k_proc.boot=10*2,2; k_proc.process=3";
    let ran = run(scripted(&[&against, "--format=json"], script));
    check(ran.code == 0, "nothing confirmed, exit 0", &ran)?;
    let doc = json(&ran.stdout);
    let unconfirmed: Vec<&str> = doc["comparison"]["checks"]
        .as_array()
        .map(|c| {
            c.iter()
                .filter(|k| k["inconclusive"] == true && k["confirmation_pct"].is_number())
                .filter_map(|k| k["key"].as_str())
                .collect()
        })
        .unwrap_or_default();
    check(
        unconfirmed == ["k_sum", "k_proc.boot"],
        &format!("both measured again and not confirmed: {unconfirmed:?}"),
        &ran,
    )?;
    // Without confirmation they fail the run.
    let ran = run(scripted(&[&against, "--no-confirm"], script));
    check(ran.code == 1, "--no-confirm: exit 1", &ran)
}

fn each_mode_refuses_what_is_not_its_own() -> Result<(), Failed> {
    let ran = run(kernel(
        &["--metric=instructions", "--no-baseline"],
        1.0,
        0.01,
    ));
    check(
        ran.code == 2 && ran.stderr.contains("--metric") && ran.stderr.contains("kernel"),
        "kernel mode is timed",
        &ran,
    )?;
    let ran =
        run(kernel(&["--min-delta=1", "--no-baseline"], 1.0, 0.01)
            .env("YARDSTICK_E2E_CHILD", "micro"));
    check(
        ran.code == 2 && ran.stderr.contains("--min-delta"),
        "micro mode refuses --min-delta",
        &ran,
    )?;
    // The micro suite of the same binary runs its own probe only.
    let ran = run(kernel(&["--list"], 1.0, 0.01).env("YARDSTICK_E2E_CHILD", "micro"));
    check(
        ran.stdout.trim() == "micro_only: bench",
        "the micro suite's probe",
        &ran,
    )
}

fn bench_parameters_reach_children_and_hold_back_the_verdict() -> Result<(), Failed> {
    let ran = run(kernel(&["--size=many"], 1.0, 0.01));
    check(
        ran.code == 2 && ran.stderr.trim() == "error: --size=many: invalid digit found in string",
        "a value of the wrong type is a usage error",
        &ran,
    )?;
    let ran = run(kernel(&["--help"], 1.0, 0.01));
    check(
        ran.code == 0
            && ran.stdout.contains("--size=N")
            && ran.stdout.contains("a test's parameter"),
        "--help lists the bench's parameters",
        &ran,
    )?;
    let ran = run(kernel(
        &["--size=13", "--no-baseline", "--format=json"],
        1.0,
        0.01,
    ));
    let doc = json(&ran.stdout);
    let note = doc["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|r| r["key"] == "k_proc.boot"))
        .and_then(|r| r["note"].as_str())
        .unwrap_or_default()
        .to_string();
    check(
        ran.code == 1
            && note.contains("size 13 reached the child")
            && doc["settings"]["params"]["size"] == "13",
        &format!("the child read --size=13, the run saved it: {note:?}"),
        &ran,
    )?;
    // Set by hand in the environment, a value is checked and recorded alike.
    let ran =
        run(kernel(&["--no-baseline", "--format=json"], 1.0, 0.01)
            .env("YARDSTICK_PARAM_SIZE", "13"));
    check(
        ran.code == 1 && json(&ran.stdout)["settings"]["params"]["size"] == "13",
        "YARDSTICK_PARAM_SIZE=13 recorded as --size=13",
        &ran,
    )?;
    let ran = run(kernel(&["--no-baseline"], 1.0, 0.01).env("YARDSTICK_PARAM_SIZE", "many"));
    check(
        ran.code == 2 && ran.stderr.contains("YARDSTICK_PARAM_SIZE=many"),
        "a bad value in the environment is a usage error naming the variable",
        &ran,
    )?;
    let saved = saved_baseline(&["--size=12"])?;
    let against = saved.against.clone();
    // k_sum twice as slow, but with another --size: shown, not judged.
    let ran = run(kernel(&["--size=14", &against, "--format=json"], 2.0, 0.01));
    let doc = json(&ran.stdout);
    let differences = &doc["comparison"]["param_differences"];
    check(
        ran.code == 0
            && doc["comparison"]["informational"] == true
            && differences[0]["field"] == "--size"
            && differences[0]["baseline"] == "12"
            && differences[0]["current"] == "14",
        "other parameters: information, not a verdict",
        &ran,
    )?;
    // Not given at all is the default, which differs from 12 too.
    let ran = run(kernel(&[&against], 2.0, 0.01));
    check(
        ran.code == 0
            && ran
                .stdout
                .contains("NO VERDICT: the probes ran with other parameters")
            && ran
                .stdout
                .contains("--size 12 in the baseline, default now"),
        "no --size against a baseline of --size=12",
        &ran,
    )
}

fn cargo_test_runs_the_kernel_suite_once() -> Result<(), Failed> {
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.env("YARDSTICK_E2E_CHILD", "kernel").arg("--list");
    let ran = run(cmd);
    check(
        ran.stdout.contains("k_sum: test")
            && ran.stdout.contains("k_proc: test")
            && !ran.stdout.contains("micro_only"),
        "the kernel suite as tests",
        &ran,
    )
}

fn main() {
    match std::env::var("YARDSTICK_E2E_CHILD").as_deref() {
        Ok("kernel") => std::process::exit(yardstick::run_bench("kernel", PARAMS)),
        Ok("micro") => std::process::exit(yardstick::run_main()),
        _ => {}
    }
    let tests = vec![
        Trial::test(
            "runs_its_own_suite_in_kernel_mode",
            runs_its_own_suite_in_kernel_mode,
        ),
        Trial::test(
            "absolute_medians_regress_past_threshold_and_delta",
            absolute_medians_regress_past_threshold_and_delta,
        ),
        Trial::test(
            "a_slowdown_that_does_not_show_again_is_inconclusive",
            a_slowdown_that_does_not_show_again_is_inconclusive,
        ),
        Trial::test(
            "each_mode_refuses_what_is_not_its_own",
            each_mode_refuses_what_is_not_its_own,
        ),
        Trial::test(
            "bench_parameters_reach_children_and_hold_back_the_verdict",
            bench_parameters_reach_children_and_hold_back_the_verdict,
        ),
        Trial::test(
            "cargo_test_runs_the_kernel_suite_once",
            cargo_test_runs_the_kernel_suite_once,
        ),
    ];
    libtest_mimic::run(&Arguments::from_args(), tests).exit();
}
