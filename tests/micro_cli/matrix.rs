//! `yardstick matrix`: configurations of this binary against a base, each
//! cell a multiplier, and the cells that must never look fast (a result
//! that differs, a lost worker) failed.

use crate::FAKE_CLOCK;
use crate::common::{Ran, assert_valid_run, check, json, run, yardstick};
use libtest_mimic::Failed;
use serde_json::Value;
use std::sync::atomic::{AtomicU64, Ordering};

yardstick::probe! {
    name: lenient_sum,
    ops: 1,
    note: "1..=100 summed, or with SKIP_WORK set only 1..=50: a check that takes any sum",
    setup: || Ok::<_, String>(if std::env::var_os("SKIP_WORK").is_some() { 50u64 } else { 100 }),
    run: |n: &u64| (1..=std::hint::black_box(*n)).sum::<u64>(),
    check: |_, total: &u64| if *total > 0 { Ok(()) } else { Err("no sum".to_string()) },
}

/// Iterations this process has run of `mortal_sum`.
static MORTAL_DONE: AtomicU64 = AtomicU64::new(0);

yardstick::probe! {
    name: mortal_sum,
    ops: 1,
    note: "1..=100 summed; with MORTAL_AFTER=N the process ends after N iterations",
    setup: || Ok::<_, String>(std::env::var("MORTAL_AFTER").ok().and_then(|v| v.parse::<u64>().ok())),
    run: |limit: &Option<u64>| {
        if limit.is_some_and(|l| MORTAL_DONE.fetch_add(1, Ordering::Relaxed) >= l) {
            std::process::exit(3);
        }
        (1..=std::hint::black_box(100u64)).sum::<u64>()
    },
    check: |_, total: &u64| if *total == 5050 { Ok(()) } else { Err(format!("sum {total}")) },
}

/// `yardstick matrix` over this binary as a bench, on the scripted clock.
fn matrix(args: &[&str]) -> Ran {
    let me = std::env::current_exe().unwrap_or_default();
    run(yardstick()
        .arg("matrix")
        .arg(format!("--bench={}", me.display()))
        .args(["--rounds=6", "--warmup=1", "--json", "-q"])
        .args(args)
        .env("YARDSTICK_E2E_CHILD", "bench")
        .env(
            FAKE_CLOCK,
            "fine_sum=0.004; lenient_sum=0.002; mortal_sum=0.001",
        ))
}

/// The cell of `probe` on `configuration` in a saved matrix.
fn cell<'a>(doc: &'a Value, probe: &str, configuration: &str) -> &'a Value {
    let m = &doc["matrix"];
    let column = m["configurations"]
        .as_array()
        .and_then(|c| c.iter().position(|n| n == configuration))
        .unwrap_or(usize::MAX);
    m["lines"]
        .as_array()
        .and_then(|lines| lines.iter().find(|l| l["probe"] == probe))
        .map_or(&Value::Null, |l| &l["cells"][column])
}

pub(crate) fn a_matrix_gives_multipliers_and_fails_a_configuration_that_skips_work()
-> Result<(), Failed> {
    // Flagged every time: whatever the order the rounds take.
    for seed in ["--seed=1", "--seed=2", "--seed=3"] {
        let ran = matrix(&[
            "--config=base:",
            "--config=slow:YARDSTICK_INJECT=fine_sum:50",
            "--config=skips:SKIP_WORK=1",
            "--probe=fine_sum",
            "--probe=lenient_sum",
            seed,
        ]);
        check(ran.code == 1, "exit 1: a failed cell", &ran)?;
        let doc = json(&ran.stdout);
        assert_valid_run(&doc);
        check(
            doc["settings"]["configurations"][1]["env"][0] == "YARDSTICK_INJECT=fine_sum:50"
                && doc["settings"]["sets"] == 6,
            "the settings",
            &ran,
        )?;
        // Half as much work again, on the scripted clock: exactly 1.5.
        let slow = &cell(&doc, "fine_sum", "slow")["multiplier"];
        check(
            slow["estimate"] == 1.5 && slow["low"] == 1.5 && slow["high"] == 1.5,
            "slow is 1.5 times the base",
            &ran,
        )?;
        check(
            cell(&doc, "fine_sum", "skips")["multiplier"]["estimate"] == 1.0,
            "skips runs fine_sum as the base does",
            &ran,
        )?;
        let skipped = cell(&doc, "lenient_sum", "skips");
        check(
            skipped["failed"]
                .as_str()
                .is_some_and(|w| w.contains("result differs from base"))
                && skipped.get("multiplier").is_none(),
            "the skipped work is failed, never fast",
            &ran,
        )?;
        check(
            ran.stderr
                .contains("FAIL: configuration skips on probe lenient_sum: result differs"),
            "a FAIL line names it",
            &ran,
        )?;
    }
    Ok(())
}

pub(crate) fn a_lost_worker_fails_its_configuration_and_bad_files_are_refused() -> Result<(), Failed>
{
    let ran = matrix(&[
        "--config=base:",
        "--config=mortal:MORTAL_AFTER=30",
        "--probe=fine_sum",
        "--probe=mortal_sum",
        "--min-batch=10",
    ]);
    check(ran.code == 1, "exit 1: a failed cell", &ran)?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    for probe in ["fine_sum", "mortal_sum"] {
        check(
            cell(&doc, probe, "mortal")["failed"]
                .as_str()
                .is_some_and(|w| w.contains("worker lost")),
            "every probe of the lost worker fails",
            &ran,
        )?;
        check(
            cell(&doc, probe, "base")["median"].is_number(),
            "the base is measured",
            &ran,
        )?;
    }

    // A configuration whose worker never greets is lost from the start,
    // and the others measured; a base that gives nothing is refused.
    let ran = matrix(&[
        "--config=base:",
        "--config=echo:/bin/echo",
        "--probe=fine_sum",
    ]);
    check(ran.code == 1, "exit 1: a failed cell", &ran)?;
    check(
        cell(&json(&ran.stdout), "fine_sum", "echo")["failed"]
            .as_str()
            .is_some_and(|w| w.contains("gave no worker greeting")),
        "the configuration that never started is failed",
        &ran,
    )?;
    let ran = matrix(&[
        "--config=base:YARDSTICK_ALLOC=bogus",
        "--config=other:",
        "--probe=fine_sum",
        "--metric=instructions",
    ]);
    check(
        ran.code == 2
            && ran
                .stderr
                .contains("the base configuration base gave nothing")
            && ran.stderr.lines().count() == 1,
        "a counted base that gave nothing: one line, exit 2",
        &ran,
    )?;

    let t = tempfile::tempdir()?;
    let me = std::env::current_exe()?;
    let file = t.path().join("matrix.toml");
    let write = |text: String| std::fs::write(&file, text);
    let from_file = || {
        run(yardstick()
            .arg("matrix")
            .arg(&file)
            .args([
                "--rounds=6",
                "--warmup=1",
                "--json",
                "-q",
                "--probe=fine_sum",
            ])
            .env("YARDSTICK_E2E_CHILD", "bench")
            .env(FAKE_CLOCK, "fine_sum=0.004"))
    };
    let bench = format!("bench = {:?}\n", me.display().to_string());
    write(format!(
        "{bench}base = \"uncounted\"\n[[configuration]]\nname = \"counted\"\n\n\
         [[configuration]]\nname = \"uncounted\"\nenv = {{ YARDSTICK_ALLOC = \"off\" }}\n"
    ))?;
    let ran = from_file();
    check(ran.code == 0, "exit 0", &ran)?;
    let doc = json(&ran.stdout);
    check(
        doc["matrix"]["configurations"] == serde_json::json!(["uncounted", "counted"]),
        "the base first",
        &ran,
    )?;
    for (text, needle) in [
        (
            format!("{bench}colour = 1\n"),
            "matrix.toml:2: unknown field `colour`",
        ),
        (
            format!("{bench}[[configuration]]\nname = \"a\"\n[[configuration]]\nname = \"a\"\n"),
            "matrix.toml:5: configuration `a` is named twice",
        ),
        (
            "[[configuration]]\nname = \"a\"\nbench = \"no-such-bench\"\n".to_string(),
            "matrix.toml:3: bench:",
        ),
    ] {
        write(text)?;
        let ran = from_file();
        check(
            ran.code == 2 && ran.stderr.contains(needle) && ran.stderr.lines().count() == 1,
            needle,
            &ran,
        )?;
    }
    Ok(())
}
