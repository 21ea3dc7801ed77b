//! End to end: `evaluate` in a tiny quick configuration, against a bench
//! binary that is this test binary itself.
//!
//! Started with `EVALUATE_E2E_BENCH` set, this binary is a yardstick bench
//! target with two small probes (what `evaluate` runs as `--bench-bin`);
//! otherwise it is the test driver. With `EVALUATE_E2E_FAIL_AFTER=FILE:N`
//! the bench fails from its N-th run on, to check that an evaluation that
//! stops on an error leaves no hog behind.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

yardstick::probe! {
    name: tiny_sum,
    ops: 1000,
    note: "1000 numbers summed",
    setup: || Ok::<_, String>((1..=1000u64).collect::<Vec<_>>()),
    run: |v: &Vec<u64>| v.iter().sum::<u64>(),
    check: |_, total: &u64| if *total == 500_500 { Ok(()) } else { Err(format!("sum {total}")) },
}

yardstick::probe! {
    name: tiny_sort,
    ops: 1,
    note: "200 numbers sorted",
    setup: || Ok::<_, String>((0..200u64).rev().collect::<Vec<_>>()),
    run: |v: &Vec<u64>| { let mut w = v.clone(); w.sort_unstable(); w[0] },
    check: |_, first: &u64| if *first == 0 { Ok(()) } else { Err(format!("first {first}")) },
}

const BENCH: &str = "EVALUATE_E2E_BENCH";
const FAIL_AFTER: &str = "EVALUATE_E2E_FAIL_AFTER";

fn main() {
    if std::env::var_os(BENCH).is_some() {
        if let Some(code) = fail_after() {
            std::process::exit(code);
        }
        std::process::exit(yardstick::run_main());
    }
    let args = Arguments::from_args();
    let trials = vec![
        Trial::test("quick_evaluation_writes_a_report", quick_evaluation),
        Trial::test("an_error_leaves_no_hog_behind", error_leaves_no_hog),
    ];
    libtest_mimic::run(&args, trials).exit();
}

/// Counts runs in a file; from the N-th on, the bench fails.
fn fail_after() -> Option<i32> {
    let spec = std::env::var(FAIL_AFTER).ok()?;
    let (file, n) = spec.rsplit_once(':')?;
    let n: usize = n.parse().ok()?;
    let count = std::fs::read_to_string(file).map_or(0, |s| s.len()) + 1;
    std::fs::write(file, "x".repeat(count)).ok()?;
    (count >= n).then(|| {
        eprintln!("failing on purpose (run {count})");
        3
    })
}

fn two_cpus() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .is_some_and(|l| {
                let l = l.trim();
                l.contains('-') || l.contains(',')
            })
    })
}

fn evaluate(out: &Path, conditions: &str, extra: &[(&str, String)]) -> Command {
    let me = std::env::current_exe().expect("the test binary has a path");
    let mut c = Command::new(env!("CARGO_BIN_EXE_evaluate"));
    c.args(["--quick", "--runs=3", "--power-runs=1", "--slowdowns=10,40"])
        .args([
            "--repeat=2",
            "--warmup=0",
            "--min-batch=20",
            "--memory-mib=16",
        ])
        .arg(format!("--conditions={conditions}"))
        .arg("--bench-bin")
        .arg(&me)
        .arg("--workspace")
        .arg(env!("CARGO_MANIFEST_DIR"))
        .arg("--out")
        .arg(out)
        .env(BENCH, "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in extra {
        c.env(k, v);
    }
    c
}

/// Processes whose command line names `--parent=<pid>`: hogs of that
/// evaluation.
fn hogs_of(pid: u32) -> Vec<PathBuf> {
    let needle = format!("--parent={pid}");
    std::fs::read_dir("/proc")
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    std::fs::read(p.join("cmdline"))
                        .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&needle))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn quick_evaluation() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let out = t.path().join("results");
    let conditions = if two_cpus() { "quiet,cpu" } else { "quiet" };
    let blocks = conditions.split(',').count();
    let child = evaluate(&out, conditions, &[]).spawn()?;
    let pid = child.id();
    let output = child.wait_with_output()?;
    if !output.status.success() {
        return Err(format!(
            "evaluate failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    if !hogs_of(pid).is_empty() {
        return Err("a hog outlived the evaluation".into());
    }
    let report = std::fs::read_to_string(out.join("report.md"))?;
    for needle in [
        "--quick",
        "| quiet | stored-baseline |",
        "| 3 | ",
        "| tiny_sum |",
        "power at 40 %",
        "Not headline figures",
        "SMT siblings",
    ] {
        if !report.contains(needle) {
            return Err(format!("report.md lacks `{needle}`:\n{report}").into());
        }
    }
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json"))?)?;
    let trials = results["trials"].as_array().map_or(0, Vec::len);
    if trials != blocks * (3 + 2) {
        return Err(format!("{trials} trials recorded, expected {}", blocks * 5).into());
    }
    if results["blocks"].as_array().map_or(0, Vec::len) != blocks {
        return Err("one block per condition expected".into());
    }
    let baseline = yardstick::store::load(&out.join("baseline.json")).map_err(|e| e.to_string())?;
    let keys: Vec<&str> = baseline.rows.iter().map(|r| r.key.as_str()).collect();
    if keys != ["tiny_sort", "tiny_sum"] {
        return Err(format!("baseline rows {keys:?}").into());
    }
    for svg in [
        "aa-change.svg",
        "power.svg",
        "power-quiet-stored-baseline.svg",
    ] {
        if !std::fs::read_to_string(out.join(svg))?.contains("</svg>") {
            return Err(format!("{svg} is not a finished SVG").into());
        }
    }
    Ok(())
}

fn error_leaves_no_hog() -> Result<(), Failed> {
    if !two_cpus() {
        return Ok(());
    }
    let t = tempfile::tempdir()?;
    let counter = t.path().join("count");
    // Runs 1 and 2 are the discarded run and the baseline; run 4 fails
    // while the CPU hog runs.
    let fail = format!("{}:4", counter.display());
    let child = evaluate(&t.path().join("results"), "cpu", &[(FAIL_AFTER, fail)]).spawn()?;
    let pid = child.id();
    let output = child.wait_with_output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() != Some(2) || !stderr.contains("failing on purpose") {
        return Err(format!(
            "expected a failed evaluation, got {}: {stderr}",
            output.status
        )
        .into());
    }
    if !hogs_of(pid).is_empty() {
        return Err("the hog outlived the failed evaluation".into());
    }
    Ok(())
}
