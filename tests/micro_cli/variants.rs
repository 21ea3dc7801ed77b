//! Variants of one workload ranked against their reference, and one that
//! gives another result failed rather than called fast.

use crate::common::{Ran, assert_valid_run, check, json, run};
use crate::{FAKE_CLOCK, child};
use libtest_mimic::Failed;
use serde_json::Value;

/// The workload: the sum of 1..=N.
const N: u64 = 1000;
const SUM: u64 = N * (N + 1) / 2;

fn is_sum(total: &u64) -> Result<(), String> {
    if *total == SUM {
        Ok(())
    } else {
        Err(format!("sum {total}"))
    }
}

yardstick::probe! {
    name: sum_range_iterate,
    group: sum_range,
    variant: iterate,
    role: reference,
    run: || (1..=std::hint::black_box(N)).sum::<u64>(),
    check: is_sum,
}

yardstick::probe! {
    name: sum_range_formula,
    group: sum_range,
    variant: formula,
    run: || {
        let n = std::hint::black_box(N);
        n * (n + 1) / 2
    },
    check: is_sum,
}

// Its own check passes: only the comparison with the reference shows that
// it leaves out the last term.
yardstick::probe! {
    name: sum_range_off_by_one,
    group: sum_range,
    variant: off_by_one,
    run: || (1..std::hint::black_box(N)).sum::<u64>(),
    check: |total: &u64| if *total > 0 { Ok(()) } else { Err("no sum".into()) },
}

yardstick::probe! {
    name: sum_range_bound,
    group: sum_range,
    variant: bound,
    role: floor,
    run: || std::hint::black_box(N),
    check: |n: &u64| if *n == N { Ok(()) } else { Err(format!("bound {n}")) },
}

/// Each variant's milliseconds per iteration: every figure of the ranking
/// follows from them.
const SCRIPT: &str = "@calibration=1; sum_range_iterate=0.02; sum_range_formula=0.01; \
                      sum_range_off_by_one=0.001; sum_range_bound=0.0005";

fn ranked(probes: &[&str], save: &std::path::Path) -> Ran {
    let mut cmd = child();
    cmd.env(FAKE_CLOCK, SCRIPT)
        .args(["micro", "--repeat=8", "--warmup=1", "-q", "--save"])
        .arg(save)
        .args(probes.iter().map(|p| format!("--probe={p}")));
    run(cmd)
}

fn entry<'a>(group: &'a Value, variant: &str) -> &'a Value {
    group["variants"]
        .as_array()
        .and_then(|v| v.iter().find(|e| e["variant"] == variant))
        .unwrap_or(&Value::Null)
}

pub fn variants_are_ranked_and_one_that_disagrees_fails() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let path = t.path().join("all.json");
    let ran = ranked(&["sum_range"], &path);
    check(
        ran.code == 1,
        "a variant that disagrees fails the run",
        &ran,
    )?;
    check(
        ran.stdout
            .contains("FAIL: variant off_by_one of group sum_range: result differs from iterate"),
        "the failure names the variant and its reference",
        &ran,
    )?;
    check(
        ran.stdout.contains("formula: wins 1 of 1 group"),
        "the standings",
        &ran,
    )?;
    let doc = json(&std::fs::read_to_string(&path)?);
    assert_valid_run(&doc);
    let group = &doc["ranking"]["groups"][0];
    check(group["name"] == "sum_range", "one group", &ran)?;
    check(
        group["outcome"]["winner"] == "formula",
        "the faster variant wins",
        &ran,
    )?;
    // Every round took 0.01 ms against 0.02: a ratio of one half, exactly.
    check(
        entry(group, "formula")["ratio"]["estimate"] == 0.5,
        "the paired ratio",
        &ran,
    )?;
    let wrong = entry(group, "off_by_one");
    check(
        wrong["failed"] == "result differs from iterate" && wrong["ratio"].is_null(),
        "a disagreeing variant is never ranked, however fast",
        &ran,
    )?;
    let floor = entry(group, "bound");
    check(
        floor["failed"].is_null() && floor["ratio"]["estimate"] == 0.025,
        "a floor need not agree, and gets its ratio",
        &ran,
    )?;
    check(
        doc["rows"][0]["variant"]["group"] == "sum_range",
        "each row names its group",
        &ran,
    )?;
    // `cargo test`, which runs each probe once, catches it too.
    let tested = |name: &str| {
        let mut cmd = std::process::Command::new(std::env::current_exe()?);
        cmd.env("YARDSTICK_E2E_CHILD", "bench")
            .args([name, "--exact"]);
        Ok::<_, std::io::Error>(run(cmd))
    };
    let wrong = tested("sum_range_off_by_one")?;
    check(
        wrong.code == 101 && wrong.stdout.contains("result differs from iterate"),
        "cargo test fails a disagreeing variant",
        &wrong,
    )?;
    let right = tested("sum_range_formula")?;
    check(
        right.code == 0 && right.stdout.contains("1 passed"),
        "cargo test passes an agreeing one",
        &right,
    )?;
    let agreeing = ranked(&["sum_range_iterate", "sum_range_formula"], &path);
    check(agreeing.code == 0, "variants that agree pass", &agreeing)?;
    check(
        agreeing.stdout.contains("groups: each variant against"),
        "the table shows the groups",
        &agreeing,
    )?;
    Ok(())
}
