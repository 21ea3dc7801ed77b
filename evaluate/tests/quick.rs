//! End to end: `evaluate` in a tiny quick configuration, against a bench
//! binary that is this test binary itself.
//!
//! Started with `EVALUATE_E2E_BENCH` set, this binary is a yardstick bench
//! target with two small probes (what `evaluate` runs as `--bench-bin`), or,
//! given `compare-builds` first, the `yardstick` command (`--yardstick-bin`)
//! that compares two copies of that bench; otherwise it is the test driver. With `EVALUATE_E2E_FAIL_AFTER=FILE:N`
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
        if std::env::args().nth(1).as_deref() == Some("compare-builds") {
            std::process::exit(yardstick_cli::main());
        }
        if let Some(code) = fail_after() {
            std::process::exit(code);
        }
        std::process::exit(yardstick::run_main());
    }
    let args = Arguments::from_args();
    let trials = vec![
        Trial::test("quick_evaluation_writes_a_report", quick_evaluation),
        // The hog runs on a CPU of its own: with one CPU there is nothing
        // to check.
        Trial::test("an_error_leaves_no_hog_behind", error_leaves_no_hog)
            .with_ignored_flag(!two_cpus()),
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

/// Whether valgrind runs. Without it the instructions method is left out,
/// except where `YARDSTICK_REQUIRE_TOOLS` names valgrind (as `.ci/run`
/// does): there its absence fails the test instead of passing it unrun.
fn valgrind() -> bool {
    let found = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let required = std::env::var("YARDSTICK_REQUIRE_TOOLS")
        .is_ok_and(|list| list.split([' ', ',']).any(|t| t == "valgrind"));
    assert!(
        found || !required,
        "valgrind is required here (YARDSTICK_REQUIRE_TOOLS) but not installed"
    );
    found
}

fn evaluate(out: &Path, conditions: &str, methods: &str, extra: &[(&str, String)]) -> Command {
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
        .arg(format!("--methods={methods}"))
        // One probe counted: valgrind's start-up is most of a count.
        .arg("--count-probes=tiny_sum")
        .arg("--bench-bin")
        .arg(&me)
        .arg("--yardstick-bin")
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
    let counted = valgrind();
    let methods = if counted {
        "stored-baseline,confirmed,paired,instructions"
    } else {
        eprintln!(
            "quick_evaluation: valgrind is not installed: the instructions method is skipped"
        );
        "stored-baseline,confirmed,paired"
    };
    let blocks = conditions.split(',').count() * methods.split(',').count();
    let child = evaluate(&out, conditions, methods, &[]).spawn()?;
    let pid = child.id();
    let output = child.wait_with_output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("evaluate failed: {stderr}").into());
    }
    if !hogs_of(pid).is_empty() {
        return Err("a hog outlived the evaluation".into());
    }
    for needle in [
        "estimate: quiet / stored-baseline+confirmed",
        "timing a paired comparison",
    ] {
        if !stderr.contains(needle) {
            return Err(format!("evaluate's output lacks `{needle}`:\n{stderr}").into());
        }
    }
    let report = std::fs::read_to_string(out.join("report.md"))?;
    let mut needles = vec![
        "--quick",
        "| quiet | stored-baseline | 15 % |",
        "| quiet | confirmed | 15 % |",
        "| quiet | paired | 3 % |",
        "| 3 † | ",
        "| tiny_sum |",
        "power at 40 %",
        "Not headline figures",
        "SMT siblings",
        "## Against the targets",
        "compare-builds",
    ];
    if counted {
        needles.extend([
            "| quiet | instructions | 1 % |",
            "--metric=instructions --min-batch=50 --baseline=",
            "--probe=tiny_sum",
        ]);
    }
    for needle in needles {
        if !report.contains(needle) {
            return Err(format!("report.md lacks `{needle}`:\n{report}").into());
        }
    }
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json"))?)?;
    let trials = results["trials"].as_array().cloned().unwrap_or_default();
    if trials.len() != blocks * (3 + 2) {
        return Err(format!("{} trials recorded, expected {}", trials.len(), blocks * 5).into());
    }
    if results["blocks"].as_array().map_or(0, Vec::len) != blocks {
        return Err(format!("one block per condition and method expected ({blocks})").into());
    }
    // Every method judged every probe of every trial: each outcome has the
    // change its comparison computed.
    for t in &trials {
        let outcomes = t["outcomes"].as_array().cloned().unwrap_or_default();
        let probes = if t["method"] == "instructions" { 1 } else { 2 };
        if outcomes.len() != probes || outcomes.iter().any(|o| o["judged_pct"].is_null()) {
            return Err(format!("a trial without a judged change: {t}").into());
        }
    }
    let baseline =
        yardstick::document::store::load(&out.join("baseline.json")).map_err(|e| e.to_string())?;
    let keys: Vec<&str> = baseline.rows.iter().map(|r| r.key.as_str()).collect();
    if keys != ["tiny_sort", "tiny_sum"] {
        return Err(format!("baseline rows {keys:?}").into());
    }
    // Quick pools two quiet runs, each kept beside the pooled baseline.
    let one = yardstick::document::store::load(&out.join("baseline-runs").join("run-2.json"))
        .map_err(|e| e.to_string())?;
    if baseline.settings.micro().and_then(|s| s.pooled_runs) != Some(2)
        || baseline.rows[0].samples.len() != 2 * one.rows[0].samples.len()
    {
        return Err("the baseline does not pool the two quiet runs".into());
    }
    if counted {
        counts_are_exact(&out, &results)?;
    }
    for svg in [
        "aa-change.svg",
        "power.svg",
        "power-quiet-stored-baseline.svg",
        "power-quiet-confirmed.svg",
        "power-quiet-paired.svg",
    ] {
        if !std::fs::read_to_string(out.join(svg))?.contains("</svg>") {
            return Err(format!("{svg} is not a finished SVG").into());
        }
    }
    Ok(())
}

/// Instruction counts do not move between identical runs, and 40 % more
/// iterations is far above their 1 % threshold: no false alarm, every
/// probe caught.
fn counts_are_exact(out: &Path, results: &serde_json::Value) -> Result<(), Failed> {
    let counts = yardstick::document::store::load(&out.join("baseline-instructions.json"))
        .map_err(|e| e.to_string())?;
    if counts.rows.iter().any(|r| r.counted.instructions.is_none()) {
        return Err("the counts baseline has a probe without a count".into());
    }
    let block = results["blocks"]
        .as_array()
        .and_then(|b| {
            b.iter()
                .find(|b| b["method"] == "instructions" && b["condition"] == "quiet")
        })
        .ok_or("no quiet instructions block")?;
    if block["aa"]["suite"]["events"] != 0 {
        return Err(format!("identical counts raised an alarm: {}", block["aa"]).into());
    }
    let at_40 = block["power"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["slowdown"] == 40.0))
        .ok_or("no power at 40 %")?;
    if at_40["pooled"]["rate"] != 1.0 {
        return Err(format!("40 % more work was missed: {at_40}").into());
    }
    Ok(())
}

fn error_leaves_no_hog() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let counter = t.path().join("count");
    // Runs 1 and 2 are the discarded run and the baseline; run 4 fails
    // while the CPU hog runs.
    let fail = format!("{}:4", counter.display());
    let child = evaluate(
        &t.path().join("results"),
        "cpu",
        "stored-baseline",
        &[(FAIL_AFTER, fail)],
    )
    .spawn()?;
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
