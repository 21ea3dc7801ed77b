//! End-to-end tests of micro mode, `show` and `compare`.
//!
//! This test binary is itself a yardstick binary: it registers a few probes
//! (one fine, one with a failing check, one that panics, one that hangs) and,
//! when started with `YARDSTICK_E2E_CHILD`, behaves exactly like a user's
//! bench target (`bench`) or probe binary (`main`). The tests start it as a
//! child process and read its exit code, stdout, stderr and files.

mod common;
#[path = "micro_cli/matrix.rs"]
mod matrix;
#[path = "micro_cli/variants.rs"]
mod variants;

use common::{assert_valid_run, check, committed_dir, json, run, schema_errors, yardstick};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::path::Path;
use std::process::Command;
// A bench of this file keeps its runs in the history, as the reference
// suite's benches do.
use yardstick_history as _;

yardstick::probe! {
    name: fine_sum,
    ops: 100,
    note: "100 numbers summed",
    setup: || Ok::<_, String>((1..=100u64).collect::<Vec<_>>()),
    run: |v: &Vec<u64>| v.iter().sum::<u64>(),
    check: |_, total: &u64| if *total == 5050 { Ok(()) } else { Err(format!("sum {total}")) },
}

yardstick::probe! {
    name: fine_words,
    ops: 1,
    note: |w: &Vec<String>| format!("{} words joined", w.len()),
    setup: || Ok::<_, String>(vec!["a".to_string(), "b".to_string()]),
    run: |w: &Vec<String>| w.join(" "),
    check: |_, s: &String| if s == "a b" { Ok(()) } else { Err(s.clone()) },
}

yardstick::probe! {
    name: broken_check,
    ops: 1,
    note: "a probe whose result is wrong",
    setup: || Ok::<_, String>(2u64),
    run: |x: &u64| x + 2,
    check: |_, y: &u64| if *y == 5 { Ok(()) } else { Err(format!("2 + 2 gave {y}, expected 5")) },
}

yardstick::probe! {
    name: panicking,
    ops: 1,
    note: "a probe that panics",
    setup: || Ok::<_, String>(Vec::<u8>::new()),
    run: |v: &Vec<u8>| -> u8 { v.first().copied().unwrap_or_else(|| panic!("no first element")) },
    check: |_, _: &u8| Ok(()),
}

yardstick::probe! {
    name: hanging,
    ops: 1,
    note: "a probe that never finishes in time",
    setup: || Ok::<_, String>(()),
    run: |_: &()| std::thread::sleep(std::time::Duration::from_secs(30)),
    check: |_, _: &()| Ok(()),
}

yardstick::probe! {
    name: scripted_sum,
    ops: 1,
    note: "200 numbers summed, in times the tests script with YARDSTICK_FAKE_CLOCK",
    setup: || Ok::<_, String>(200u64),
    run: |n: &u64| (0..std::hint::black_box(*n)).sum::<u64>(),
    check: |_, total: &u64| if *total == 19900 { Ok(()) } else { Err(format!("sum {total}")) },
}

yardstick::probe! {
    name: odd_processes,
    ops: 1,
    note: "a hundred times the work in every other process that counts in PROCESS_COUNTER",
    setup: || {
        // Each build's workers count themselves in a file of their own, so
        // which process of a pair is slow does not hang on which of the two
        // started first: the 1st, 3rd, ... with PROCESS_SLOW_FIRST set, the
        // 2nd, 4th, ... without.
        let Some(path) = std::env::var_os("PROCESS_COUNTER") else {
            return Ok::<_, String>(false);
        };
        let seen = std::fs::read_to_string(&path).map_or(0, |s| s.len());
        std::fs::write(&path, "x".repeat(seen + 1)).map_err(|e| e.to_string())?;
        Ok((seen % 2 == 0) == std::env::var_os("PROCESS_SLOW_FIRST").is_some())
    },
    run: |slow: &bool| {
        // A hundred times: no load can make the fast process's median
        // sample slower than the slow one's, so each pair's sign is fixed.
        let n = if *slow { 200_000u64 } else { 2_000 };
        (0..std::hint::black_box(n)).fold(0u64, |a, x| a ^ x.wrapping_mul(0x9e37_79b9)) | 1
    },
    check: |_, x: &u64| if x % 2 == 1 { Ok(()) } else { Err(format!("{x} is even")) },
}

// The light form: a fresh input per iteration, and no check.
yardstick::probe! {
    name: light_sort,
    note: "100 numbers sorted, each time a fresh copy",
    setup: || Ok::<_, String>((0..100u32).rev().collect::<Vec<_>>()),
    setup_each: |v: &Vec<u32>| v.clone(),
    run: |_, mut v: Vec<u32>| { v.sort_unstable(); v },
}

const QUICK: &[&str] = &["--repeat=3", "--warmup=1", "-q"];

/// The clock the tests script (see `yardstick::measure::clock`): every figure of a
/// run made with it follows from these milliseconds, whatever the load.
const FAKE_CLOCK: &str = "YARDSTICK_FAKE_CLOCK";
const SCRIPT: &str = "@calibration=1; fine_sum=0.002; fine_words=0.01; scripted_sum=0.01";

/// This binary as a yardstick binary (`yardstick micro ...` style).
fn child() -> Command {
    let mut cmd = Command::new(std::env::current_exe().expect("own path"));
    cmd.env("YARDSTICK_E2E_CHILD", "main").env_remove("COLUMNS");
    cmd.env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove(FAKE_CLOCK)
        .env_remove("YARDSTICK_INJECT")
        .env_remove("YARDSTICK_HISTORY");
    cmd
}

fn micro(args: &[&str]) -> Command {
    let mut cmd = child();
    cmd.arg("micro").args(QUICK).args(args);
    cmd
}

/// `micro(args)` timed by the scripted clock.
fn scripted(args: &[&str]) -> Command {
    let mut cmd = micro(args);
    cmd.env(FAKE_CLOCK, SCRIPT);
    cmd
}

/// `COLUMNS=80`: no line of a run against a baseline, with its failure
/// and its checks, is wider; a pipe without it keeps every column.
fn a_run_fits_80_columns_where_asked_and_a_pipe_gets_every_column() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    saved_run(t.path(), "base.json")?;
    let base = t.path().join("base.json");
    let args = [
        "--probe=fine_sum",
        "--probe=fine_words",
        "--probe=broken_check",
        "--all-checks",
        "--baseline",
        base.to_str().unwrap_or(""),
    ];
    let ran = run(scripted(&args).env("COLUMNS", "80"));
    let widest = ran.stdout.lines().map(|l| l.chars().count()).max();
    check(
        ran.code == 1 && widest.is_some_and(|w| w <= 80),
        "every line within 80 columns",
        &ran,
    )?;
    check(
        ran.stdout.contains("(left out to fit: note")
            && ran.stdout.contains("FAIL: probe broken_check"),
        "says what it left out, and still fails the broken probe",
        &ran,
    )?;
    let piped = run(scripted(&args));
    check(
        piped
            .stdout
            .lines()
            .any(|l| l.starts_with("probe ") && l.ends_with("note"))
            && !piped.stdout.contains("left out to fit")
            && !piped.stdout.contains('\x1b'),
        "a pipe gets every column, and no colour",
        &piped,
    )?;
    let coloured = run(scripted(&args).arg("--color=always"));
    check(
        coloured
            .stdout
            .contains("\x1b[1;31mFAIL\x1b[0m: probe broken_check"),
        "--color=always paints the verdict",
        &coloured,
    )?;
    let bad = run(scripted(&args).arg("--color=sometimes"));
    check(
        bad.code == 2 && bad.stderr.contains("--color: `sometimes`"),
        "a bad --color is named",
        &bad,
    )?;
    Ok(())
}

/// `--save-baseline=NAME`, then `--baseline=NAME`, as criterion's, with
/// the run as Markdown beside it; a name nothing saved is named, and a
/// path is no name.
fn a_baseline_saved_by_name_judges_by_name() -> Result<(), Failed> {
    let home = tempfile::tempdir()?;
    let named = |args: &[&str]| {
        let mut cmd = scripted(&[&["--probe=fine_sum"], args].concat());
        cmd.env("YARDSTICK_HOME", home.path());
        cmd
    };
    let ran = run(named(&["--save-baseline=main"]));
    let file = home.path().join("baselines/main.json");
    check(
        ran.code == 0 && file.is_file(),
        "saved under its name",
        &ran,
    )?;
    let markdown = home.path().join("summary.md");
    let export = format!("--export-markdown={}", markdown.display());
    let ran = run(named(&["--baseline=main", "--all-checks", &export]));
    check(
        ran.code == 0
            && ran
                .stdout
                .contains(&format!("baseline: {}", file.display())),
        "judged against it by name",
        &ran,
    )?;
    let summary = std::fs::read_to_string(&markdown).unwrap_or_default();
    check(
        summary.starts_with("## yardstick micro") && summary.contains("PASS"),
        "the Markdown export is the job summary",
        &ran,
    )?;
    let ran = run(named(&["--baseline=other"]));
    check(
        ran.code == 2 && ran.stderr.contains("no baseline saved as other"),
        "a name nothing saved is named",
        &ran,
    )?;
    let ran = run(named(&["--save-baseline=../up"]));
    check(
        ran.code == 2 && ran.stderr.contains("is no name"),
        "a path is no name",
        &ran,
    )?;
    Ok(())
}

/// A saved run of the two fine probes, timed by the scripted clock.
fn saved_run(dir: &Path, name: &str) -> Result<Value, Failed> {
    let path = dir.join(name);
    let ran = run(scripted(&[
        "--probe=fine_sum",
        "--probe=fine_words",
        "--save",
        path.to_str().unwrap_or(""),
    ]));
    check(ran.code == 0, "a fine run exits 0", &ran)?;
    Ok(json(&std::fs::read_to_string(&path)?))
}

/// Makes a scripted saved run stand for a measured one with the same
/// figures, as far as pooling can tell (it refuses scripted runs).
fn as_measured(path: &Path) -> Result<(), Failed> {
    let mut doc = json(&std::fs::read_to_string(path)?);
    if let Some(settings) = doc["settings"].as_object_mut() {
        settings.remove("fake_clock");
    }
    write_json(path, &doc)
}

fn write_json(path: &Path, v: &Value) -> Result<(), Failed> {
    std::fs::write(path, serde_json::to_string_pretty(v)?)?;
    Ok(())
}

/// Makes a saved probe `factor` times slower: its median and every sample
/// (comparisons recompute the normalised figure from the samples).
fn scale_times(doc: &mut Value, probe: &str, factor: f64) {
    if let Some(rows) = doc["rows"].as_array_mut() {
        for row in rows.iter_mut().filter(|r| r["name"] == probe) {
            let m = row["median"].as_f64().unwrap_or(0.0);
            row["median"] = Value::from(m * factor);
            if let Some(samples) = row["samples"].as_array_mut() {
                for s in samples.iter_mut() {
                    *s = Value::from(s.as_f64().unwrap_or(0.0) * factor);
                }
            }
        }
    }
}

/// Makes a saved run look as if the whole machine ran `factor` times
/// slower: every probe sample, every loop beside one, and the loop median.
fn scale_machine(doc: &mut Value, factor: f64) {
    let scale = |v: &mut Value| *v = Value::from(v.as_f64().unwrap_or(0.0) * factor);
    scale(&mut doc["calibration"]["median"]);
    let names: Vec<String> = doc["rows"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .filter_map(|r| r["name"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    for name in names {
        scale_times(doc, &name, factor);
    }
    if let Some(rows) = doc["rows"].as_array_mut() {
        for row in rows {
            if let Some(loops) = row["calibration_samples"].as_array_mut() {
                loops.iter_mut().for_each(scale);
            }
        }
    }
}

type Named = (&'static str, fn() -> Result<(), Failed>);

fn tests() -> Vec<Trial> {
    let named: [Named; 29] = [
        (
            "the_schema_refuses_a_broken_document",
            the_schema_refuses_a_broken_document,
        ),
        ("list_names_every_probe", list_names_every_probe),
        (
            "fine_run_prints_table_and_saves_valid_json",
            fine_run_prints_table_and_saves_valid_json,
        ),
        (
            "json_stdout_is_only_the_document",
            json_stdout_is_only_the_document,
        ),
        (
            "rows_save_the_result_fingerprint_at_any_batch",
            rows_save_the_result_fingerprint_at_any_batch,
        ),
        (
            "failing_and_panicking_probes_fail_the_run",
            failing_and_panicking_probes_fail_the_run,
        ),
        (
            "a_probe_past_its_timeout_stops_the_run_and_saves_nothing",
            a_probe_past_its_timeout_stops_the_run_and_saves_nothing,
        ),
        (
            "usage_errors_exit_2_with_one_line",
            usage_errors_exit_2_with_one_line,
        ),
        (
            "bad_baselines_exit_2_naming_the_file_and_save_nothing",
            bad_baselines_exit_2_naming_the_file_and_save_nothing,
        ),
        (
            "compare_exits_1_on_a_regression_and_0_otherwise",
            compare_exits_1_on_a_regression_and_0_otherwise,
        ),
        (
            "compare_calls_a_run_too_slow_to_judge_inconclusive",
            compare_calls_a_run_too_slow_to_judge_inconclusive,
        ),
        (
            "baseline_pools_runs_and_compares_like_a_run",
            baseline_pools_runs_and_compares_like_a_run,
        ),
        (
            "baseline_learns_each_probe_s_threshold_from_twenty_runs_of_its_class",
            baseline_learns_each_probe_s_threshold_from_twenty_runs_of_its_class,
        ),
        (
            "github_annotations_keep_json_stdout_valid_and_write_the_summary",
            github_annotations_keep_json_stdout_valid_and_write_the_summary,
        ),
        (
            "an_injected_slowdown_is_recorded_and_a_bad_rule_refused",
            an_injected_slowdown_is_recorded_and_a_bad_rule_refused,
        ),
        (
            "compare_builds_flags_a_slowdown_in_the_new_build",
            compare_builds_flags_a_slowdown_in_the_new_build,
        ),
        (
            "a_slowdown_that_does_not_show_again_is_inconclusive",
            a_slowdown_that_does_not_show_again_is_inconclusive,
        ),
        (
            "a_broken_probe_never_passes_and_stray_options_are_refused",
            a_broken_probe_never_passes_and_stray_options_are_refused,
        ),
        (
            "bench_mode_judges_by_a_committed_baseline_of_its_class_else_by_its_last_run",
            bench_mode_judges_by_a_committed_baseline_of_its_class_else_by_its_last_run,
        ),
        (
            "arguments_that_are_not_utf8_are_refused_not_panicked_on",
            arguments_that_are_not_utf8_are_refused_not_panicked_on,
        ),
        (
            "machine_prints_the_class_runs_record",
            machine_prints_the_class_runs_record,
        ),
        (
            "across_machine_classes_nothing_is_judged_unless_asked",
            across_machine_classes_nothing_is_judged_unless_asked,
        ),
        (
            "exp_benchmark_runs_show_and_compare_and_another_tool_s_give_no_verdict",
            exp_benchmark_runs_show_and_compare_and_another_tool_s_give_no_verdict,
        ),
        (
            "criterion_results_show_and_compare_by_folder_and_baseline",
            criterion_results_show_and_compare_by_folder_and_baseline,
        ),
        (
            "variants_are_ranked_and_one_that_disagrees_fails",
            variants::variants_are_ranked_and_one_that_disagrees_fails,
        ),
        (
            "a_matrix_gives_multipliers_and_fails_a_configuration_that_skips_work",
            matrix::a_matrix_gives_multipliers_and_fails_a_configuration_that_skips_work,
        ),
        (
            "a_lost_worker_fails_its_configuration_and_bad_files_are_refused",
            matrix::a_lost_worker_fails_its_configuration_and_bad_files_are_refused,
        ),
        (
            "a_run_fits_80_columns_where_asked_and_a_pipe_gets_every_column",
            a_run_fits_80_columns_where_asked_and_a_pipe_gets_every_column,
        ),
        (
            "a_baseline_saved_by_name_judges_by_name",
            a_baseline_saved_by_name_judges_by_name,
        ),
    ];
    named
        .into_iter()
        .map(|(name, test)| Trial::test(name, test))
        .collect()
}

fn the_schema_refuses_a_broken_document() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let good = saved_run(t.path(), "good.json")?;
    let mut bad = good.clone();
    bad["rows"][0]["kind"] = Value::from("bogus");
    bad["environment"]["git_commit"] = Value::from("not a hash");
    let errors = schema_errors(&bad);
    if errors.len() == 2 {
        Ok(())
    } else {
        Err(format!("{errors:#?}").into())
    }
}

fn list_names_every_probe() -> Result<(), Failed> {
    let ran = run(child().args(["micro", "--list"]));
    check(ran.code == 0, "exit 0", &ran)?;
    for name in [
        "fine_sum",
        "fine_words",
        "broken_check",
        "panicking",
        "hanging",
    ] {
        check(ran.stdout.contains(&format!("{name}: bench")), name, &ran)?;
    }
    Ok(())
}

fn fine_run_prints_table_and_saves_valid_json() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let path = t.path().join("deep/dir/run.json");
    let ran = run(micro(&[
        "--probe=fine_sum",
        "--probe=fine_words",
        "--save",
        path.to_str().unwrap_or(""),
    ]));
    check(ran.code == 0, "exit 0", &ran)?;
    check(
        ran.stdout.contains("calibration loop: median"),
        "calibration line",
        &ran,
    )?;
    check(
        ran.stdout.contains("x calib") && ran.stdout.contains("fine_sum"),
        "table",
        &ran,
    )?;
    check(ran.stdout.contains("2 words joined"), "computed note", &ran)?;
    check(
        ran.stdout.lines().all(|l| !l.ends_with(' ')),
        "no trailing spaces",
        &ran,
    )?;
    check(ran.stderr.is_empty(), "-q keeps stderr empty", &ran)?;
    let doc = json(&std::fs::read_to_string(&path)?);
    assert_valid_run(&doc);
    check(
        doc["rows"].as_array().map_or(0, Vec::len) == 2,
        "two rows",
        &ran,
    )?;
    check(
        doc["rows"][0]["samples"].as_array().map_or(0, Vec::len) == 3,
        "raw samples kept",
        &ran,
    )?;
    check(doc["calibration"]["n"] == 6, "calibration twice", &ran)?;
    let shown = run(yardstick().arg("show").arg(&path));
    check(
        shown.code == 0 && shown.stdout.contains("fine_words"),
        "show prints the run",
        &shown,
    )?;
    let csv = run(yardstick().arg("show").arg(&path).arg("--csv"));
    check(
        csv.stdout.starts_with("\"key\",\"kind\",\"name\",\"n\","),
        "show --csv",
        &csv,
    )?;
    Ok(())
}

fn json_stdout_is_only_the_document() -> Result<(), Failed> {
    let ran = run(micro(&["--probe=fine_sum", "--format=json"]));
    check(ran.code == 0, "exit 0", &ran)?;
    assert_valid_run(&json(&ran.stdout));
    let ran = run(child().args(["micro", "--repeat=2", "--probe=fine_sum", "--csv"]));
    check(
        ran.stdout.lines().count() == 2,
        "csv: header and one row",
        &ran,
    )?;
    check(ran.stderr.contains("[1/3]"), "progress on stderr", &ran)?;
    Ok(())
}

fn rows_save_the_result_fingerprint_at_any_batch() -> Result<(), Failed> {
    let mut sorted = Vec::new();
    for batch in ["--min-batch=1", "--min-batch=7"] {
        let ran = run(scripted(&[
            "--probe=fine_sum",
            "--probe=light_sort",
            batch,
            "--format=json",
        ]));
        check(ran.code == 0, "an unchecked probe runs", &ran)?;
        let doc = json(&ran.stdout);
        assert_valid_run(&doc);
        // 5050, the sum, is its own fingerprint.
        check(
            doc["rows"][0]["checksum"] == "00000000000013ba",
            "the sum's fingerprint",
            &ran,
        )?;
        let note = doc["rows"][1]["note"].as_str().unwrap_or("");
        check(
            note.ends_with("(unchecked)"),
            "the note says unchecked",
            &ran,
        )?;
        let mut bad = doc.clone();
        bad["rows"][0]["checksum"] = Value::from(5050);
        check(
            schema_errors(&bad).len() == 1,
            "the schema wants 16 hex digits",
            &ran,
        )?;
        sorted.push((doc["rows"][1]["checksum"].clone(), ran));
    }
    check(
        sorted[0].0.is_string() && sorted[0].0 == sorted[1].0,
        "the same work gives the same fingerprint at any batch",
        &sorted[1].1,
    )?;
    // A worker of compare-builds says them in its greeting.
    let worker = run(child().args([
        "--bench",
        "--worker",
        "-q",
        "--no-baseline",
        "--min-batch=2",
        "--probe=fine_sum",
    ]));
    check(
        worker.code == 0
            && worker
                .stdout
                .contains(r#""checksums":{"fine_sum":"00000000000013ba"}"#),
        "the greeting carries the fingerprint",
        &worker,
    )?;
    Ok(())
}

fn failing_and_panicking_probes_fail_the_run() -> Result<(), Failed> {
    let ran = run(micro(&[
        "--probe=fine_sum",
        "--probe=broken_check",
        "--probe=panicking",
        "--json",
    ]));
    check(ran.code == 1, "exit 1", &ran)?;
    check(
        ran.stderr
            .contains("FAIL: probe broken_check failed its check"),
        "names the probe",
        &ran,
    )?;
    check(
        ran.stderr
            .contains("FAIL: probe panicking failed its check"),
        "names the panic",
        &ran,
    )?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    let rows = doc["rows"].as_array().cloned().unwrap_or_default();
    let row = |n: &str| {
        rows.iter()
            .find(|r| r["name"] == n)
            .cloned()
            .unwrap_or_default()
    };
    check(row("broken_check")["errors"] == 3, "err = repeat", &ran)?;
    check(
        row("broken_check")["note"]
            .as_str()
            .is_some_and(|n| n.starts_with("failed: check failed: 2 + 2 gave 4")),
        "failure note",
        &ran,
    )?;
    check(
        row("panicking")["note"].as_str().is_some_and(|n| {
            n.contains("panicked at tests/micro_cli.rs:") && n.ends_with(": no first element")
        }),
        "panic note, with where it panicked",
        &ran,
    )?;
    check(row("fine_sum")["n"] == 3, "other probes still run", &ran)?;
    // The document says the verdict it was delivered with, for scripts.
    let outcome = &doc["outcome"];
    check(
        outcome["exit_code"] == 1 && outcome["broken"] == true,
        "the outcome: exit 1, broken",
        &ran,
    )?;
    check(
        outcome["lines"].as_array().is_some_and(|l| {
            l.iter()
                .any(|l| l == "FAIL: probe panicking failed its check")
        }),
        "the outcome's lines are the printed ones",
        &ran,
    )?;
    Ok(())
}

fn a_probe_past_its_timeout_stops_the_run_and_saves_nothing() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let path = t.path().join("run.json");
    let ran = run(micro(&[
        "--probe=hanging",
        "--probe-timeout=0.3",
        "--save",
        path.to_str().unwrap_or(""),
    ]));
    check(ran.code == 2, "exit 2", &ran)?;
    check(
        ran.stderr.contains("`hanging`") && ran.stderr.contains("--probe-timeout"),
        "names the probe",
        &ran,
    )?;
    check(!path.exists(), "nothing saved", &ran)?;
    Ok(())
}

fn usage_errors_exit_2_with_one_line() -> Result<(), Failed> {
    for args in [
        vec!["micro", "--probe=nope"],
        vec!["micro", "--repeat=zero"],
        vec!["micro", "--format=xml"],
        vec!["micro", "no_such_filter"],
        vec!["micro", "--baseline=/nonexistent/base.json"],
        vec!["micro", "--min-batch=9223372036854775807"],
        vec!["micro", "--probe=fine_sum", "--save=/dev/null"],
        vec!["show", "/dev/zero"],
        vec!["frobnicate"],
    ] {
        let ran = run(child().args(&args));
        check(ran.code == 2, &format!("{args:?} exits 2"), &ran)?;
        check(ran.stdout.is_empty(), "nothing on stdout", &ran)?;
        check(ran.stderr.trim().lines().count() == 1, "one line", &ran)?;
    }
    let ran = run(child().args(["micro", "--probe=nope"]));
    check(
        ran.stderr.contains("--probe") && ran.stderr.contains("nope"),
        "names the option",
        &ran,
    )?;
    let ran = run(child().args(["micro", "--min-batch=9223372036854775807"]));
    check(
        ran.stderr
            .contains("--min-batch: must be at most 1000000000"),
        "names the option and its range",
        &ran,
    )?;
    Ok(())
}

/// Baselines `micro --baseline` and `compare` refuse, each made from the
/// good run `good`: its file name, its text, and what the refusal says.
fn bad_baselines(good: &Value) -> Vec<(&'static str, String, &'static str)> {
    vec![
        ("notjson.json", "{ nope".into(), "not JSON"),
        ("array.json", "[]".into(), "not a yardstick run"),
        (
            "v2.json",
            good.to_string()
                .replace("\"format\": 1", "\"format\": 2")
                .replace("\"format\":1", "\"format\":2"),
            "format",
        ),
        (
            "http.json",
            {
                let mut v = good.clone();
                v["mode"] = "http".into();
                v["settings"] = serde_json::json!({"servers": ["http://127.0.0.1:1"]});
                v.to_string()
            },
            "HTTP run",
        ),
        (
            "counts.json",
            {
                let mut v = good.clone();
                v["metric"] = Value::from("instructions");
                v.to_string()
            },
            "run of instruction counts",
        ),
        (
            "zero-loop.json",
            {
                let mut v = good.clone();
                v["calibration"]["median"] = Value::from(0.0);
                v.to_string()
            },
            "calibration.median is 0",
        ),
        (
            "tiny.json",
            {
                let mut v = good.clone();
                v["rows"][0]["samples"][0] = Value::from(1e-308);
                v.to_string()
            },
            "samples[0] is 1e-308",
        ),
        (
            "twice.json",
            {
                let mut v = good.clone();
                let row = v["rows"][0].clone();
                if let Some(rows) = v["rows"].as_array_mut() {
                    rows.push(row);
                }
                v.to_string()
            },
            "appears twice",
        ),
        (
            "format-text.json",
            good.to_string().replace("\"format\":1", "\"format\":\"1\""),
            "not a version number",
        ),
        (
            "nocal.json",
            {
                let mut v = good.clone();
                v.as_object_mut().map(|o| o.remove("calibration"));
                v.to_string()
            },
            "without calibration",
        ),
    ]
}

fn bad_baselines_exit_2_naming_the_file_and_save_nothing() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let good = saved_run(t.path(), "good.json")?;
    let cases = bad_baselines(&good);
    for (name, text, needle) in cases {
        let base = t.path().join(name);
        std::fs::write(&base, text)?;
        let out = t.path().join(format!("out-{name}"));
        let ran = run(micro(&[
            "--probe=fine_sum",
            "--baseline",
            base.to_str().unwrap_or(""),
            "--save",
            out.to_str().unwrap_or(""),
        ]));
        check(ran.code == 2, &format!("{name}: exit 2"), &ran)?;
        check(
            ran.stderr.contains(name) && ran.stderr.contains(needle),
            &format!("{name}: says {needle}"),
            &ran,
        )?;
        check(!out.exists(), "nothing saved", &ran)?;
        let ran = run(yardstick()
            .arg("compare")
            .arg(&base)
            .arg(t.path().join("good.json")));
        check(
            ran.code == 2 && ran.stderr.contains(needle),
            &format!("compare {name}"),
            &ran,
        )?;
    }
    let ran = run(yardstick()
        .arg("compare")
        .arg(t.path().join("missing.json"))
        .arg(t.path().join("good.json")));
    check(
        ran.code == 2 && ran.stderr.contains("missing.json"),
        "missing file",
        &ran,
    )?;
    // Where the run is of another kind, the run is named.
    let ran = run(yardstick()
        .arg("compare")
        .arg(t.path().join("good.json"))
        .arg(t.path().join("http.json")));
    check(
        ran.code == 2
            && ran.stderr.starts_with(&format!(
                "error: {}: an HTTP run",
                t.path().join("http.json").display()
            )),
        "compare names the run of another mode",
        &ran,
    )?;
    // A --save that cannot be written is refused before the
    // probe that would hang for 30 s is measured.
    for bad in ["/dev/null", "/proc/version"] {
        let ran = run(micro(&[
            "--probe=hanging",
            "--probe-timeout=30",
            &format!("--save={bad}"),
        ]));
        check(
            ran.code == 2 && ran.stderr.starts_with(&format!("error: {bad}: ")),
            &format!("--save={bad} refused first"),
            &ran,
        )?;
    }
    Ok(())
}

/// The runs of exp:benchmark, the CMS's own benchmark command, as the
/// binary reads them: shown, compared with each other by its rules, and
/// never judged against a yardstick run unless asked.
fn exp_benchmark_runs_show_and_compare_and_another_tool_s_give_no_verdict() -> Result<(), Failed> {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/exp-benchmark");
    // Saved as yardstick's, each kind is a run the published schema allows.
    for kind in ["micro.json", "http.json", "kernel.json"] {
        let ran = run(yardstick().args(["show", "--json"]).arg(fixture.join(kind)));
        let errors = schema_errors(&json(&ran.stdout));
        check(errors.is_empty(), &format!("{kind}: {errors:?}"), &ran)?;
    }
    let ran = run(yardstick().arg("show").arg(fixture.join("micro.json")));
    check(
        ran.code == 0
            && ran
                .stdout
                .contains("imported from exp:benchmark format 1 (php 8.5.11")
            && ran.stdout.contains("ini_parse"),
        "show",
        &ran,
    )?;
    let t = tempfile::tempdir()?;
    // Without the fixture's failed probe, which fails any run it is in.
    let mut passing: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture.join("micro.json"))?)?;
    if let Some(rows) = passing["rows"].as_array_mut() {
        rows.truncate(2);
    }
    let php = t.path().join("php.json");
    write_json(&php, &passing)?;
    let mut slower = passing.clone();
    slower["rows"][0]["median"] = Value::from(5.23 * 1.5);
    let slower_path = t.path().join("slower.json");
    write_json(&slower_path, &slower)?;
    // Two runs of one host share its class: judged by the tool's rules.
    let ran = run(yardstick().arg("compare").arg(&php).arg(&slower_path));
    check(
        ran.code == 1 && ran.stdout.contains("+50.0 %") && ran.stdout.contains("FAIL"),
        "judged within the host's class",
        &ran,
    )?;
    // One run of it becomes a baseline in yardstick's format, judged alike.
    let base = t.path().join("base.json");
    let ran = run(yardstick().arg("baseline").arg(&php).arg("-o").arg(&base));
    check(ran.code == 0 && base.is_file(), "baseline of one run", &ran)?;
    let ran = run(yardstick().arg("compare").arg(&base).arg(&slower_path));
    check(
        ran.code == 1 && ran.stdout.contains("+50.0 %"),
        "judged by it",
        &ran,
    )?;
    // Against a yardstick run: the tools are named, and nothing judged.
    saved_run(t.path(), "ours.json")?;
    let ran = run(yardstick()
        .arg("compare")
        .arg(&php)
        .arg(t.path().join("ours.json")));
    check(
        ran.code == 0
            && ran
                .stdout
                .contains("the baseline was made by exp:benchmark, this run by yardstick")
            && ran.stdout.contains(
                "NO VERDICT: the baseline was made by exp:benchmark, this run by yardstick",
            ),
        "another tool",
        &ran,
    )?;
    // A probe the tool marked failed by its null median alone (no error
    // count) fails the comparison; it never drops out of it.
    let mut vanished = passing.clone();
    for field in [
        "min",
        "mean",
        "median",
        "p90",
        "p95",
        "p99",
        "max",
        "stddev",
        "rps",
        "normalized",
    ] {
        vanished["rows"][1][field] = Value::Null;
    }
    vanished["rows"][1]["n"] = Value::from(0);
    let vanished_path = t.path().join("vanished.json");
    write_json(&vanished_path, &vanished)?;
    let ran = run(yardstick().arg("compare").arg(&php).arg(&vanished_path));
    check(
        ran.code == 1
            && ran
                .stdout
                .contains("FAIL: probe template_compile has no figure")
            && !ran.stdout.contains("PASS"),
        "a probe without its figure fails, with no all-clear after it",
        &ran,
    )?;
    let bad = t.path().join("bad.json");
    slower["rows"][0]["median"] = Value::from("fast");
    write_json(&bad, &slower)?;
    let ran = run(yardstick().arg("show").arg(&bad));
    check(
        ran.code == 2 && ran.stderr.contains("rows[0].median") && ran.stderr.lines().count() == 1,
        "a field of the wrong type is named",
        &ran,
    )?;
    Ok(())
}

/// criterion's `target/criterion/`, as the binary reads it: a folder is
/// its benches' last results, `FOLDER@NAME` a saved baseline.
fn criterion_results_show_and_compare_by_folder_and_baseline() -> Result<(), Failed> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/criterion/0.8.2");
    let ran = run(yardstick().args(["show", "--json"]).arg(&dir));
    let errors = schema_errors(&json(&ran.stdout));
    check(errors.is_empty(), &format!("the schema: {errors:?}"), &ran)?;
    let ran = run(yardstick().arg("show").arg(&dir));
    check(
        ran.code == 0
            && ran
                .stdout
                .contains("imported from criterion (baseline new)")
            && ran.stdout.contains("tiny/xor"),
        "show",
        &ran,
    )?;
    // A criterion baseline against a yardstick run: the tools are named,
    // and nothing judged (nor refused for the missing loop).
    let t = tempfile::tempdir()?;
    saved_run(t.path(), "ours.json")?;
    let ran = run(yardstick()
        .arg("compare")
        .arg(&dir)
        .arg(t.path().join("ours.json")));
    check(
        ran.code == 0
            && ran
                .stdout
                .contains("NO VERDICT: the baseline was made by criterion, this run by yardstick"),
        "a criterion baseline for a yardstick run",
        &ran,
    )?;
    let fast = format!("{}@fast", dir.display());
    let ran = run(yardstick()
        .args([
            "compare",
            "--cross-machine",
            "--all-checks",
            "--threshold=1000",
        ])
        .arg(&fast)
        .arg(&dir));
    check(
        ran.code == 0 && ran.stdout.contains("tiny/xor") && ran.stdout.contains("PASS"),
        "compare with a named baseline",
        &ran,
    )?;
    let ran = run(yardstick()
        .arg("show")
        .arg(format!("{}@nonesuch", dir.display())));
    check(
        ran.code == 2 && ran.stderr.contains("baseline `nonesuch`"),
        "an unknown baseline",
        &ran,
    )?;
    let empty = tempfile::tempdir()?;
    let ran = run(yardstick().arg("show").arg(empty.path()));
    check(
        ran.code == 2 && ran.stderr.lines().count() == 1,
        "a folder of nothing",
        &ran,
    )?;
    Ok(())
}

fn compare_exits_1_on_a_regression_and_0_otherwise() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let base = saved_run(t.path(), "base.json")?;
    let base_path = t.path().join("base.json");
    let mut slower = base.clone();
    scale_times(&mut slower, "fine_sum", 1.5);
    let slower_path = t.path().join("slower.json");
    write_json(&slower_path, &slower)?;
    let ran = run(yardstick().arg("compare").arg(&base_path).arg(&slower_path));
    check(ran.code == 1, "exit 1", &ran)?;
    check(
        ran.stdout.contains("FAIL: slower than the baseline"),
        "FAIL line",
        &ran,
    )?;
    check(
        ran.stdout.contains("REGRESSED") && ran.stdout.contains("+50.0 %"),
        "the check",
        &ran,
    )?;
    check(
        ran.stdout.contains("this machine x1.00 the speed"),
        "speed line",
        &ran,
    )?;
    let ran = run(yardstick()
        .arg("compare")
        .arg(&base_path)
        .arg(&slower_path)
        .arg("--threshold=60"));
    check(
        ran.code == 0 && ran.stdout.contains("PASS: no regression"),
        "above the threshold passes",
        &ran,
    )?;
    let ran = run(yardstick()
        .args(["compare", "--format=json"])
        .arg(&base_path)
        .arg(&slower_path));
    let c = json(&ran.stdout);
    check(
        c["regressions"] == 1 && c["method"] == "normalized",
        "comparison JSON",
        &ran,
    )?;
    check(
        c["calibration"]["speed"].as_f64().is_some(),
        "calibration in JSON",
        &ran,
    )?;
    let ran = run(yardstick()
        .arg("compare")
        .arg(&base_path)
        .arg(&base_path)
        .arg("--all-checks"));
    check(
        ran.code == 0 && ran.stdout.matches(" ok").count() >= 2,
        "all checks listed",
        &ran,
    )?;
    Ok(())
}

fn compare_calls_a_run_too_slow_to_judge_inconclusive() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let base = saved_run(t.path(), "base.json")?;
    let base_path = t.path().join("base.json");
    // The machine 50 % slower at everything, fine_sum 50 % slower
    // on top of that.
    let mut contended = base.clone();
    scale_machine(&mut contended, 1.5);
    scale_times(&mut contended, "fine_sum", 1.5);
    let path = t.path().join("contended.json");
    write_json(&path, &contended)?;
    let ran = run(yardstick().arg("compare").arg(&base_path).arg(&path));
    check(ran.code == 3, "exit 3: not judged, and no pass", &ran)?;
    check(
        ran.stdout
            .contains("warning: the calibration loop ran 50.0 % slower than in the baseline")
            && ran.stdout.contains("inconclusive (fine_sum)")
            && ran.stdout.contains("\nINCONCLUSIVE: ")
            && !ran.stdout.contains("PASS"),
        "inconclusive, with the reason",
        &ran,
    )?;
    let ran = run(yardstick()
        .args(["compare", "--format=json"])
        .arg(&base_path)
        .arg(&path));
    let c = json(&ran.stdout);
    let fine_sum = c["checks"]
        .as_array()
        .and_then(|checks| checks.iter().find(|k| k["key"] == "fine_sum"));
    check(
        fine_sum.is_some_and(|k| k["inconclusive"] == true && k["regressed"] == false)
            && c["calibration"]["max_slowdown"] == 30.0
            && ran.stderr.contains("warning: the calibration loop ran"),
        "the check is inconclusive, and stderr says why",
        &ran,
    )?;
    let ran = run(yardstick()
        .arg("compare")
        .arg(&base_path)
        .arg(&path)
        .arg("--max-machine-slowdown=60"));
    check(
        ran.code == 1 && ran.stdout.contains("REGRESSED") && !ran.stdout.contains("warning"),
        "judged under a looser limit",
        &ran,
    )?;
    let ran = run(yardstick()
        .arg("show")
        .arg(&path)
        .arg("--max-machine-slowdown=60"));
    check(
        ran.code == 2 && ran.stderr.contains("--max-machine-slowdown"),
        "show refuses the option",
        &ran,
    )?;
    // A live run against a baseline whose loop was twice as fast
    // (the scripted loop takes 1 ms, the baseline's 0.5 ms), and in
    // which fine_sum was far faster: nothing is judged.
    let mut fast = base.clone();
    scale_times(&mut fast, "fine_sum", 0.01);
    fast["calibration"]["median"] =
        Value::from(fast["calibration"]["median"].as_f64().unwrap_or(0.0) / 2.0);
    let fast_path = t.path().join("fast.json");
    write_json(&fast_path, &fast)?;
    let ran = run(scripted(&[
        "--probe=fine_sum",
        "--json",
        "--baseline",
        fast_path.to_str().unwrap_or(""),
    ]));
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    let warned = doc["warnings"].as_array().is_some_and(|w| {
        w.iter().any(|x| {
            x.as_str()
                .is_some_and(|s| s.starts_with("inconclusive: fine_sum over the threshold"))
        })
    });
    check(
        ran.code == 3
            && doc["comparison"]["checks"][0]["inconclusive"] == true
            && doc["comparison"]["checks"][0]
                .get("confirmation_pct")
                .is_none()
            && warned,
        "a live run too slow to judge is inconclusive, unconfirmed, with a warning",
        &ran,
    )?;
    Ok(())
}

fn baseline_pools_runs_and_compares_like_a_run() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let mut paths = Vec::new();
    for name in ["a.json", "b.json", "c.json"] {
        saved_run(t.path(), name)?;
        paths.push(t.path().join(name));
    }
    // A scripted run is refused...
    let ran = run(yardstick()
        .arg("baseline")
        .arg(&paths[0])
        .arg("-o")
        .arg(t.path().join("scripted.json")));
    check(
        ran.code == 2 && ran.stderr.contains("scripted clock"),
        "a scripted run is no baseline",
        &ran,
    )?;
    // ...so these stand for measured runs with the same figures.
    for path in &paths {
        as_measured(path)?;
    }
    let out = t.path().join("baselines").join("pooled.json");
    let ran = run(yardstick().arg("baseline").args(&paths).arg("-o").arg(&out));
    check(ran.code == 0, "pooling exits 0", &ran)?;
    check(
        ran.stdout.contains("pooled 3 runs") && ran.stdout.contains("fine_sum"),
        "what was pooled, per probe",
        &ran,
    )?;
    let pooled = json(&std::fs::read_to_string(&out)?);
    assert_valid_run(&pooled);
    check(
        pooled["settings"]["pooled_runs"] == 3
            && pooled["rows"][0]["samples"].as_array().map(Vec::len) == Some(9),
        "three runs of three samples each",
        &ran,
    )?;
    // Scripted runs are identical: their pool judges each of them
    // unchanged.
    let ran = run(yardstick().arg("compare").arg(&out).arg(&paths[0]));
    check(
        ran.code == 0 && ran.stdout.contains("0 regressions"),
        "a pooled run is a baseline",
        &ran,
    )?;

    // An injected run is refused, naming it, and nothing is written.
    let mut injected = json(&std::fs::read_to_string(&paths[2])?);
    injected["settings"]["inject"] = Value::from("*:15");
    let injected_path = t.path().join("injected.json");
    write_json(&injected_path, &injected)?;
    let refused = t.path().join("refused.json");
    let ran = run(yardstick()
        .arg("baseline")
        .arg(&paths[0])
        .arg(&injected_path)
        .arg(format!("--output={}", refused.display())));
    check(
        ran.code == 2
            && ran.stderr.lines().count() == 1
            && ran.stderr.contains("injected.json")
            && !refused.exists(),
        "refused in one line, nothing saved",
        &ran,
    )?;
    Ok(())
}

fn baseline_learns_each_probe_s_threshold_from_twenty_runs_of_its_class() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let scripted_run = saved_run(t.path(), "scripted.json")?;
    let mut paths = Vec::new();
    let mut first = Value::Null;
    for i in 0..21 {
        let mut doc = scripted_run.clone();
        if let Some(settings) = doc["settings"].as_object_mut() {
            settings.remove("fake_clock");
        }
        doc["environment"]["machine_class"] = Value::from("test-cpu-2cpu-00000000");
        // Runs of one content are one run to a history.
        doc["started"] = Value::from(format!("2026-12-05T10:{i:02}:00Z"));
        // fine_sum wanders by ±2 % from run to run; fine_words never moves.
        let wobble = ((i * 7) % 11) as f64 / 10.0 - 0.5;
        scale_times(&mut doc, "fine_sum", 1.0 + 0.04 * wobble);
        let path = t.path().join(format!("run{i}.json"));
        write_json(&path, &doc)?;
        if i == 0 {
            first = doc;
        }
        paths.push(path);
    }
    let out = t.path().join("learned.json");
    let ran = run(yardstick().arg("baseline").args(&paths).arg("-o").arg(&out));
    let pooled = json(&std::fs::read_to_string(&out).unwrap_or_default());
    let learned = pooled["thresholds"]["probes"]["fine_sum"].as_f64();
    check(
        ran.code == 0
            && ran.stdout.contains("thresholds from 21 runs of the class")
            && pooled["thresholds"]["runs"] == 21
            && learned.is_some_and(|t| (5.0..30.0).contains(&t))
            && pooled["thresholds"]["probes"]["fine_words"] == 5.0,
        "each probe's threshold from the spread of the runs pooled, within 5 and 30 %",
        &ran,
    )?;
    assert_valid_run(&pooled);
    // 15 % slower: under the default 30 %, over fine_sum's own threshold.
    let mut slow = first.clone();
    scale_times(&mut slow, "fine_sum", 1.15);
    let slow_path = t.path().join("slow.json");
    write_json(&slow_path, &slow)?;
    let ran = run(yardstick().arg("compare").arg(&out).arg(&slow_path));
    check(
        ran.code == 1
            && ran.stdout.contains("runs of this class)")
            && ran.stdout.contains("each probe's own threshold"),
        "a probe is judged by its own threshold, and the verdict says where it came from",
        &ran,
    )?;
    // --threshold wins over the baseline's own.
    let ran = run(yardstick()
        .arg("compare")
        .arg(&out)
        .arg(&slow_path)
        .arg("--threshold=20"));
    check(
        ran.code == 0 && ran.stdout.contains("0 regressions at threshold 20 %"),
        "a threshold given is one for all",
        &ran,
    )?;

    // From a history: its runs of the bench teach three pooled runs.
    let history = t.path().join("history.sqlite");
    let ran = run(yardstick()
        .args(["history", "add"])
        .args(&paths)
        .arg(format!("--history={}", history.display())));
    check(ran.code == 0, "the runs go into a history", &ran)?;
    let refused = run(yardstick()
        .arg("baseline")
        .args(&paths[..3])
        .arg(format!("--history={}", history.display()))
        .arg("-o")
        .arg(t.path().join("refused.json")));
    check(
        refused.code == 2 && refused.stderr.contains("--history and --bench go together"),
        "a history without a bench is refused: another bench's runs must not teach",
        &refused,
    )?;
    let from_history = t.path().join("from-history.json");
    let ran = run(yardstick()
        .arg("baseline")
        .args(&paths[..3])
        .arg(format!("--history={}", history.display()))
        .arg("--bench=")
        .arg("-o")
        .arg(&from_history));
    let pooled = json(&std::fs::read_to_string(&from_history).unwrap_or_default());
    check(
        ran.code == 0
            && pooled["settings"]["pooled_runs"] == 3
            && pooled["thresholds"]["runs"] == 21
            && pooled["thresholds"]["probes"]["fine_sum"].as_f64() == learned,
        "three runs pooled, thresholds learned from the history's 21",
        &ran,
    )?;
    Ok(())
}

fn github_annotations_keep_json_stdout_valid_and_write_the_summary() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let mut base = saved_run(t.path(), "base.json")?;
    // A baseline in which fine_sum was far faster: the new run regresses.
    scale_times(&mut base, "fine_sum", 0.01);
    let base_path = t.path().join("fast-base.json");
    write_json(&base_path, &base)?;
    let summary = t.path().join("summary.md");
    let ran = run(scripted(&[
        "--probe=fine_sum",
        "--json",
        "--baseline",
        base_path.to_str().unwrap_or(""),
    ])
    .env("GITHUB_ACTIONS", "true")
    .env("GITHUB_STEP_SUMMARY", &summary));
    check(ran.code == 1, "exit 1", &ran)?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    // 0.002 ms against 0.00002 ms, each over a 1 ms loop.
    let confirmed = doc["comparison"]["checks"][0]["confirmation_pct"].as_f64();
    check(
        confirmed.is_some_and(|x| (x - 9900.0).abs() < 1e-6),
        "the regression was confirmed",
        &ran,
    )?;
    check(
        doc["settings"]["fake_clock"] == SCRIPT.trim()
            && doc["warnings"].as_array().is_some_and(|w| {
                w.iter()
                    .any(|x| x.as_str().is_some_and(|s| s.starts_with("fake clock")))
            }),
        "a scripted run says so",
        &ran,
    )?;
    check(
        doc["comparison"]["regressions"] == 1,
        "comparison in the document",
        &ran,
    )?;
    check(
        ran.stderr
            .lines()
            .any(|l| l.starts_with("::warning title=Performance regression%3A fine_sum::")),
        "annotation",
        &ran,
    )?;
    let md = std::fs::read_to_string(&summary)?;
    check(
        md.contains("FAIL: slower than the baseline") && md.contains("| fine\\_sum |"),
        "summary",
        &ran,
    )?;
    check(
        md.contains("calibration loop: baseline"),
        "speed line in summary",
        &ran,
    )?;
    Ok(())
}

fn an_injected_slowdown_is_recorded_and_a_bad_rule_refused() -> Result<(), Failed> {
    let ran = run(micro(&["--probe=fine_sum", "--json", "--min-batch=20"])
        .env("YARDSTICK_INJECT", "fine_sum:15"));
    check(ran.code == 0, "exit 0", &ran)?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    check(
        doc["settings"]["inject"] == "fine_sum:15",
        "settings say so",
        &ran,
    )?;
    let warned = doc["warnings"].as_array().is_some_and(|w| {
        w.iter()
            .any(|x| x.as_str().is_some_and(|s| s.contains("slowdown injected")))
    });
    check(warned, "a warning says so", &ran)?;
    check(doc["rows"][0]["batch"] == 20, "batch as given", &ran)?;
    let ran = run(micro(&["--probe=fine_sum"]).env("YARDSTICK_INJECT", "fine_sum"));
    check(
        ran.code == 2 && ran.stderr.contains("YARDSTICK_INJECT"),
        "refused",
        &ran,
    )?;
    Ok(())
}

fn compare_builds_flags_a_slowdown_in_the_new_build() -> Result<(), Failed> {
    let me = std::env::current_exe()?;
    let ran = run(yardstick()
        .arg("compare-builds")
        .arg(&me)
        .arg(&me)
        .args([
            "--rounds=8",
            "--repeat=3",
            "--probe=fine_sum",
            "--min-batch=200",
            "--seed=1",
            "--json",
            "-q",
        ])
        .arg("--env-new=YARDSTICK_INJECT=fine_sum:100")
        .env("YARDSTICK_E2E_CHILD", "bench")
        // Both builds' workers inherit it: a sample of 200
        // iterations takes 0.8 ms, and 1.6 ms with the new build's
        // doubled work.
        .env(FAKE_CLOCK, "fine_sum=0.004"));
    check(ran.code == 1, "exit 1", &ran)?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    let c = &doc["comparison"];
    check(
        c["method"] == "paired" && c["regressions"] == 1,
        "a paired regression",
        &ran,
    )?;
    // Every one of the eight pairs slower: the smallest p-value
    // the exact one-sided test gives for eight pairs, 1/256.
    check(
        c["checks"][0]["p_value"].as_f64() == Some(1.0 / 256.0)
            && c["checks"][0]["change_pct"]
                .as_f64()
                .is_some_and(|x| (x - 100.0).abs() < 1e-6),
        "significant",
        &ran,
    )?;
    check(doc["settings"]["seed"] == 1, "the seed is recorded", &ran)?;
    check(
        doc["settings"]["pairs"] == 8,
        "eight rounds on eight worker pairs",
        &ran,
    )?;
    // The shorter build's 0.8 ms sample: 25 of them fill the
    // default 20 ms, and every round took that many.
    let per_round = doc["settings"]["samples_per_round"]["fine_sum"]
        .as_u64()
        .unwrap_or(0);
    check(
        doc["settings"]["round_ms"] == 20 && per_round == 25,
        "a round fills its time with short samples",
        &ran,
    )?;
    check(
        doc["rows"][0]["n"].as_u64() == Some(8 * per_round),
        "every round took them",
        &ran,
    )?;
    // The worker's fingerprint of the result is the row's, and the
    // two builds, one binary, agree on it.
    check(
        doc["rows"][0]["checksum"]
            .as_str()
            .is_some_and(|c| c.len() == 16),
        "the result's fingerprint is saved",
        &ran,
    )?;
    check(
        !ran.stdout.contains("different results"),
        "the same results",
        &ran,
    )?;

    one_slow_process_is_no_evidence(&me)?;
    let ran = run(yardstick()
        .arg("compare-builds")
        .arg(&me)
        .arg("/nonexistent/new-bench"));
    check(
        ran.code == 2 && ran.stderr.contains("/nonexistent/new-bench"),
        "missing binary",
        &ran,
    )?;
    // A program that is not a bench binary answers no greeting.
    let ran = run(yardstick()
        .arg("compare-builds")
        .arg(&me)
        .arg("/bin/echo")
        .arg("--probe=fine_sum")
        .env("YARDSTICK_E2E_CHILD", "bench"));
    check(
        ran.code == 2
            && ran.stderr.contains("/bin/echo: gave no worker greeting")
            && ran.stderr.lines().count() == 1,
        "not a worker: one line naming it",
        &ran,
    )?;
    Ok(())
}

/// Part of `compare_builds_flags_a_slowdown_in_the_new_build`: with `me`,
/// this binary, as both builds, a slow process in each pair is no evidence.
fn one_slow_process_is_no_evidence(me: &Path) -> Result<(), Failed> {
    // Each pair's processes are fresh: the old build's process is
    // the slow one in every other pair, the new build's in the rest.
    // One pair per piece of evidence, that is no regression. Real
    // time here: the scripted clock cannot tell processes apart, and
    // a hundred times the work fixes each pair's sign. Four pairs of eight
    // each way give p >= 40/256 however their sizes rank.
    let t = tempfile::tempdir()?;
    let counters = [t.path().join("old"), t.path().join("new")];
    let ran = run(yardstick()
        .arg("compare-builds")
        .arg(me)
        .arg(me)
        .args([
            "--rounds=8",
            "--probe=odd_processes",
            "--seed=1",
            "--json",
            "-q",
            "--env-old=PROCESS_SLOW_FIRST=1",
        ])
        .arg(format!(
            "--env-old=PROCESS_COUNTER={}",
            counters[0].display()
        ))
        .arg(format!(
            "--env-new=PROCESS_COUNTER={}",
            counters[1].display()
        ))
        .env("YARDSTICK_E2E_CHILD", "bench"));
    check(ran.code == 0, "exit 0", &ran)?;
    for counter in &counters {
        check(
            std::fs::read_to_string(counter)?.len() == 8,
            "a fresh worker of each build per pair",
            &ran,
        )?;
    }
    let c = &json(&ran.stdout)["comparison"];
    check(
        c["regressions"] == 0 && c["checks"][0]["p_value"].as_f64().is_some_and(|p| p > 0.1),
        "offsets of single processes are no evidence",
        &ran,
    )?;
    Ok(())
}

fn a_slowdown_that_does_not_show_again_is_inconclusive() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let base = t.path().join("base.json");
    let ran = run(scripted(&[
        "--probe=scripted_sum",
        "--save",
        base.to_str().unwrap_or(""),
    ]));
    check(ran.code == 0, "baseline made", &ran)?;
    // The run's three samples take a hundred times as long; the
    // confirmation's take what they took in the baseline.
    let spike = "@calibration=1; scripted_sum=1*3,0.01";
    let args = [
        "--probe=scripted_sum",
        "--json",
        "--baseline",
        base.to_str().unwrap_or(""),
    ];
    let ran = run(micro(&args).env(FAKE_CLOCK, spike));
    check(ran.code == 0, "inconclusive is exit 0", &ran)?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    let c = &doc["comparison"]["checks"][0];
    check(
        c["inconclusive"] == true && c["regressed"] == false,
        "inconclusive",
        &ran,
    )?;
    check(
        c["change_pct"]
            .as_f64()
            .is_some_and(|x| (x - 9900.0).abs() < 1e-6),
        "first measurement flagged",
        &ran,
    )?;
    check(
        c["confirmation_pct"]
            .as_f64()
            .is_some_and(|x| x.abs() < 1e-6),
        "not confirmed",
        &ran,
    )?;
    let warned = doc["warnings"].as_array().is_some_and(|w| {
        w.iter().any(|x| {
            x.as_str()
                .is_some_and(|s| s.starts_with("inconclusive: scripted_sum"))
        })
    });
    check(warned, "a warning says so", &ran)?;
    let mut without = args.to_vec();
    without.push("--no-confirm");
    let ran = run(micro(&without).env(FAKE_CLOCK, spike));
    check(
        ran.code == 1,
        "without confirmation the spike fails the run",
        &ran,
    )?;
    // A slowdown that shows again is confirmed.
    let ran = run(micro(&args).env(FAKE_CLOCK, "scripted_sum=1"));
    let doc = json(&ran.stdout);
    check(
        ran.code == 1
            && doc["comparison"]["checks"][0]["regressed"] == true
            && doc["comparison"]["checks"][0]["confirmation_pct"]
                .as_f64()
                .is_some_and(|x| (x - 9900.0).abs() < 1e-6),
        "a lasting slowdown is confirmed",
        &ran,
    )?;
    Ok(())
}

fn a_broken_probe_never_passes_and_stray_options_are_refused() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let good = saved_run(t.path(), "good.json")?;
    let good_path = t.path().join("good.json");
    let mut broken = good.clone();
    if let Some(rows) = broken["rows"].as_array_mut() {
        for row in rows.iter_mut().filter(|r| r["name"] == "fine_sum") {
            for field in [
                "min",
                "mean",
                "median",
                "p90",
                "p95",
                "p99",
                "max",
                "stddev",
                "normalized",
            ] {
                row[field] = Value::Null;
            }
            row["n"] = Value::from(0);
            row["samples"] = Value::Array(Vec::new());
            row["errors"] = Value::from(3);
        }
    }
    let broken_path = t.path().join("broken.json");
    write_json(&broken_path, &broken)?;
    // Broken in both: no regression, yet the run's broken probe fails.
    let ran = run(yardstick()
        .arg("compare")
        .arg(&broken_path)
        .arg(&broken_path));
    check(ran.code == 1, "exit 1", &ran)?;
    check(
        ran.stdout.contains("FAIL: probe fine_sum failed its check"),
        "names the probe",
        &ran,
    )?;
    let ran = run(yardstick()
        .arg("show")
        .arg(&good_path)
        .arg("--save=elsewhere.json"));
    check(
        ran.code == 2 && ran.stderr.contains("--save"),
        "show refuses --save",
        &ran,
    )?;
    check(
        !Path::new("elsewhere.json").exists(),
        "nothing written",
        &ran,
    )?;
    let ran = run(micro(&[
        "--probe=fine_sum",
        "--no-calibration",
        "--baseline",
        good_path.to_str().unwrap_or(""),
    ]));
    check(
        ran.code == 2 && ran.stderr.contains("--no-calibration"),
        "no calibration, no baseline",
        &ran,
    )?;
    Ok(())
}

/// This binary as `cargo bench` runs a bench target of the package at
/// `package` (its committed baselines there, its kept runs in
/// `package/home`), on the two fine probes, timed by the clock `script`,
/// with `extra` given.
fn bench(package: &Path, script: &str, extra: &[&str]) -> Command {
    let mut cmd = child();
    cmd.env("YARDSTICK_E2E_CHILD", "bench")
        .env("CARGO_MANIFEST_DIR", package)
        .env("YARDSTICK_HOME", package.join("home"))
        .env(FAKE_CLOCK, script);
    cmd.args(["--bench", "--probe=fine_sum", "--probe=fine_words"])
        .args(QUICK)
        .args(extra);
    cmd
}

/// How many runs the local history under `home` keeps, and the listing.
fn kept_in(home: &Path) -> (usize, common::Ran) {
    let listed = run(yardstick().args([
        "history",
        "list",
        "--csv",
        &format!("--history={}", home.join("history.sqlite").display()),
    ]));
    (listed.stdout.lines().count().saturating_sub(1), listed)
}

fn bench_mode_judges_by_a_committed_baseline_of_its_class_else_by_its_last_run()
-> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let home = t.path().join("home");
    // fine_sum a hundred times slower than in SCRIPT.
    let slower = "@calibration=1; fine_sum=0.2; fine_words=0.01";
    // 3. Nothing to compare with: said, and the run is kept.
    let ran = run(bench(t.path(), SCRIPT, &["--json"]));
    let first = json(&ran.stdout);
    assert_valid_run(&first);
    let class = first["environment"]["machine_class"]
        .as_str()
        .unwrap_or("unknown")
        .to_string();
    let said = first["warnings"].as_array().is_some_and(|w| {
        w.iter().any(|x| {
            x.as_str().is_some_and(|s| {
                s.starts_with(&format!("no baseline for machine class {class}"))
                    && s.contains("this run is kept in the history")
            })
        })
    });
    check(
        ran.code == 0 && first.get("comparison").is_none() && said,
        "no baseline: said so, and kept the run",
        &ran,
    )?;
    // 2. The last run of this class, as information: the same
    // verdict words, exit 0.
    let ran = run(bench(t.path(), slower, &[]));
    check(
        ran.code == 0
            && ran.stdout.contains(&format!(
                "(the last run on machine class {class}, as information"
            ))
            && ran.stdout.contains("REGRESSED")
            && ran.stdout.contains("INFO: slower than the last run"),
        "compared with the last run, as information",
        &ran,
    )?;
    // Every run is kept in the local history (this binary has the feature
    // `history`): one a second, since the scripted clock makes the same
    // run, and so the same text, within one.
    for i in 0..3 {
        std::thread::sleep(std::time::Duration::from_millis(1100));
        let ran = run(bench(
            t.path(),
            SCRIPT,
            &[&format!("--threshold={}", 40 + i)],
        ));
        check(ran.code == 0, "a run to keep", &ran)?;
    }
    let (kept, listed) = kept_in(&home);
    check(kept == 5, &format!("five runs kept, not {kept}"), &listed)?;
    // Recorded too, into the same history: the run the loop kept, once.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let ran = run(bench(t.path(), SCRIPT, &["--record", "--threshold=50"]));
    check(
        ran.code == 0 && ran.stderr.contains("already in the history"),
        "a bench's --record into its own history adds the kept run once",
        &ran,
    )?;
    let (kept, listed) = kept_in(&home);
    check(kept == 6, &format!("six runs kept, not {kept}"), &listed)?;
    // 1. A committed baseline of this class: a verdict.
    let committed = committed_dir(t.path())?;
    let base = saved_run(t.path(), "base.json")?;
    write_json(&committed.join(format!("{class}.json")), &base)?;
    let ran = run(bench(t.path(), SCRIPT, &[]));
    check(
        ran.code == 0
            && ran
                .stdout
                .contains(&format!("(committed for machine class {class})"))
            && ran.stdout.contains("PASS"),
        "the committed baseline of this class judges",
        &ran,
    )?;
    let ran = run(bench(t.path(), slower, &[]));
    check(
        (class == "unknown" && ran.code == 0) || ran.code == 1,
        "a slowdown against it fails (on a machine of known class)",
        &ran,
    )?;
    let ran = run(bench(t.path(), SCRIPT, &["--no-baseline"]));
    check(
        ran.code == 0 && !ran.stdout.contains("baseline: "),
        "--no-baseline",
        &ran,
    )?;
    Ok(())
}

fn arguments_that_are_not_utf8_are_refused_not_panicked_on() -> Result<(), Failed> {
    use std::os::unix::ffi::OsStrExt;
    let odd = std::ffi::OsStr::from_bytes(b"--probe=\xff");
    for bench in [true, false] {
        let mut cmd = child();
        cmd.env("YARDSTICK_E2E_CHILD", "bench");
        if bench {
            cmd.arg("--bench");
        }
        let ran = run(cmd.arg(odd));
        check(
            ran.code == 2 && ran.stderr.lines().count() == 1,
            &format!("bench mode {bench}: exit 2 in one line"),
            &ran,
        )?;
    }
    Ok(())
}

fn machine_prints_the_class_runs_record() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let doc = saved_run(t.path(), "run.json")?;
    let recorded = doc["environment"]["machine_class"]
        .as_str()
        .unwrap_or("unknown")
        .to_string();
    let ran = run(yardstick().args(["machine", "--class"]));
    check(
        ran.code == 0 && ran.stdout.trim() == recorded,
        "--class prints the class alone, the one runs record",
        &ran,
    )?;
    let ran = run(yardstick().arg("machine"));
    check(
        ran.code == 0
            && ran
                .stdout
                .starts_with(&format!("machine class: {recorded}\n"))
            && ran.stdout.contains("\ncpu: "),
        "the class and what it is made of",
        &ran,
    )?;
    let ran = run(yardstick().args(["machine", "--clas"]));
    check(
        ran.code == 2 && ran.stderr.lines().count() == 1,
        "a bad option: one line, exit 2",
        &ran,
    )?;
    Ok(())
}

fn across_machine_classes_nothing_is_judged_unless_asked() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let base = saved_run(t.path(), "base.json")?;
    let base_path = t.path().join("base.json");
    let mut slower = base.clone();
    scale_times(&mut slower, "fine_sum", 2.0);
    slower["environment"]["machine_class"] = Value::from("other-cpu-64cpu-0123abcd");
    slower["environment"]["cpu"] =
        serde_json::json!({"vendor": "GenuineIntel", "model_name": "Other CPU", "id": "6/1/1"});
    let path = t.path().join("elsewhere.json");
    write_json(&path, &slower)?;
    let ran = run(yardstick().arg("compare").arg(&base_path).arg(&path));
    check(
        ran.code == 0
            && ran.stdout.contains("other-cpu-64cpu-0123abcd (Other CPU)")
            && ran.stdout.contains("inconclusive")
            && ran.stdout.contains("+100.0 %")
            && ran.stdout.contains("this machine x1.00")
            && ran.stdout.contains("NO VERDICT"),
        "no verdict, the change and both CPUs shown",
        &ran,
    )?;
    let ran = run(yardstick()
        .arg("compare")
        .arg(&base_path)
        .arg(&path)
        .arg("--cross-machine"));
    check(
        ran.code == 1 && ran.stdout.contains("judged anyway (--cross-machine)"),
        "--cross-machine judges",
        &ran,
    )?;
    // A run saved before classes were recorded is of unknown class.
    let mut old = base.clone();
    if let Some(env) = old["environment"].as_object_mut() {
        env.remove("machine_class");
        env.remove("cpu");
    }
    let old_path = t.path().join("old.json");
    write_json(&old_path, &old)?;
    let ran = run(yardstick()
        .args(["compare", "--format=json"])
        .arg(&old_path)
        .arg(&path));
    let c = json(&ran.stdout);
    check(
        ran.code == 0
            && c["machines"]["baseline_class"] == "unknown"
            && c["machines"]["judged"] == "no"
            && ran
                .stderr
                .contains("note: the baseline was made on machine class unknown"),
        "unknown class, no verdict, the note on stderr",
        &ran,
    )?;
    // A live run against it: the document, with the machines, is valid.
    let ran = run(scripted(&[
        "--probe=fine_sum",
        "--probe=fine_words",
        "--json",
        "--baseline",
        path.to_str().unwrap_or(""),
    ]));
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    check(
        ran.code == 0 && doc["comparison"]["machines"]["judged"] == "no",
        "a live run against another class: no verdict",
        &ran,
    )?;
    // Runs of two classes do not pool (measured runs, as far as
    // pooling can tell).
    for p in [&base_path, &path] {
        as_measured(p)?;
    }
    let ran = run(yardstick()
        .arg("baseline")
        .arg(&base_path)
        .arg(&path)
        .arg(format!("--output={}", t.path().join("pool.json").display())));
    check(
        ran.code == 2 && ran.stderr.contains("pool runs of one machine class"),
        "baseline refuses mixed classes",
        &ran,
    )?;
    Ok(())
}

fn main() {
    match std::env::var("YARDSTICK_E2E_CHILD").as_deref() {
        Ok("main") => std::process::exit(yardstick_cli::main()),
        Ok("bench") => std::process::exit(yardstick::run_main()),
        _ => libtest_mimic::run(&Arguments::from_args(), tests()).exit(),
    }
}
