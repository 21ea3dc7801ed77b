//! End-to-end tests of counted runs (`--metric=instructions` and
//! `--metric=estimated-cycles`) under valgrind, and of the count baseline
//! `cargo bench` judges by where no wall-time baseline of the machine class
//! is committed.
//!
//! Like `micro_cli`, this test binary is a yardstick binary: started with
//! `YARDSTICK_E2E_CHILD`, it behaves as a user's probe binary (`main`) or
//! bench target (`bench`). Counts are deterministic, so every figure here
//! is exact whatever the machine's load. Without valgrind the tests that
//! count are marked ignored, and fail under `.ci/run` (which installs it
//! and names it in `YARDSTICK_REQUIRE_TOOLS`).

mod common;

use common::{Ran, assert_valid_run, check, committed_dir, json, run, yardstick};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

yardstick::probe! {
    name: small_sum,
    ops: 100,
    note: "100 numbers summed",
    setup: || Ok::<_, String>((1..=100u64).collect::<Vec<_>>()),
    run: |v: &Vec<u64>| v.iter().map(|x| std::hint::black_box(*x)).sum::<u64>(),
    check: |_, total: &u64| if *total == 5050 { Ok(()) } else { Err(format!("sum {total}")) },
}

/// Elements of each input `fed_sum` makes: making one writes 20,000
/// numbers, at least 20,000 instructions.
const FED: u64 = 20_000;

yardstick::probe! {
    name: fed_sum,
    ops: 100,
    note: "100 numbers summed, of a fresh 20,000-number input each time",
    setup_each: || (0..FED).collect::<Vec<u64>>(),
    run: |v: Vec<u64>| v[..100].iter().map(|x| std::hint::black_box(*x)).sum::<u64>(),
    check: |total| if *total == 4950 { Ok(()) } else { Err(format!("sum {total}")) },
}

/// Elements of the walked data: 16 MiB of u64, twice the simulated
/// last-level cache.
const WALKED: usize = 1 << 21;

yardstick::probe! {
    name: walk,
    ops: WALKED as u64,
    note: "16 MiB read through a table of indices, in order or (WALK_SHUFFLED) in a fixed shuffle",
    setup: || Ok::<_, String>(walked(std::env::var_os("WALK_SHUFFLED").is_some())),
    run: |(data, order): &(Vec<u64>, Vec<u32>)| walk(data, order),
    check: |_, sum: &u64| {
        let expected = (WALKED as u64) * (WALKED as u64 - 1) / 2;
        if *sum == expected { Ok(()) } else { Err(format!("sum {sum}, expected {expected}")) }
    },
}

/// The data `0..WALKED` and the order to read it in. The shuffle multiplies
/// each index by an odd constant modulo the (power of two) length: a
/// permutation, fixed, and cheap to make, whose neighbours land far apart.
fn walked(shuffled: bool) -> (Vec<u64>, Vec<u32>) {
    let mut data = vec![0u64; WALKED];
    let mut order = vec![0u32; WALKED];
    let mut i = 0;
    while i < WALKED {
        data[i] = i as u64;
        let at = i as u32;
        order[i] = if shuffled {
            at.wrapping_mul(0x9e37_79b1) & (WALKED as u32 - 1)
        } else {
            at
        };
        i += 1;
    }
    (data, order)
}

/// The same instructions in either order: one index read, one data read and
/// one add an element. Raw pointers, without the calls an unoptimised build
/// makes for iterators and checked indexing, so the test stays quick under
/// valgrind.
fn walk(data: &[u64], order: &[u32]) -> u64 {
    let (values, indices) = (data.as_ptr(), order.as_ptr());
    let (mut sum, mut i, n) = (0u64, 0usize, order.len().min(data.len()));
    while i < n {
        // SAFETY: `i` is below both lengths, and `order` holds only
        // indices below `data.len()` (see `walked`).
        unsafe {
            let at = *indices.wrapping_add(i) as usize;
            sum = sum.wrapping_add(*values.wrapping_add(at));
        }
        i += 1;
    }
    sum
}

/// Steps of `two_steps`' second function: twice as many with
/// `SECOND_STEP_SLOW`, a regression in that one function.
const STEPS: u64 = 2_000;

yardstick::probe! {
    name: two_steps,
    ops: 1,
    note: "two functions of a loop each; SECOND_STEP_SLOW doubles the second's",
    setup: || Ok::<_, String>(if std::env::var_os("SECOND_STEP_SLOW").is_some() { 2 * STEPS } else { STEPS }),
    run: |second: &u64| first_step(STEPS) ^ second_step(*second),
}

/// A loop of its own instructions, no call in it even unoptimised.
#[inline(never)]
fn first_step(n: u64) -> u64 {
    let (mut acc, mut i) = (0u64, 0u64);
    while i < n {
        acc ^= i << 3;
        i += 1;
    }
    acc
}

/// `first_step`'s twin, the one made slower.
#[inline(never)]
fn second_step(n: u64) -> u64 {
    let (mut acc, mut i) = (0u64, 0u64);
    while i < n {
        acc ^= i << 5;
        i += 1;
    }
    acc
}

yardstick::probe! {
    name: tunables_seen,
    ops: 1,
    note: |seen: &String| format!("GLIBC_TUNABLES={seen}"),
    setup: || Ok::<_, String>(std::env::var("GLIBC_TUNABLES").unwrap_or_else(|_| "none".into())),
    run: |seen: &String| seen.len(),
    check: |seen: &String, len: &usize| if *len == seen.len() { Ok(()) } else { Err(format!("{len}")) },
}

/// This binary as a yardstick binary.
fn child() -> Command {
    let mut cmd = Command::new(std::env::current_exe().unwrap_or_default());
    cmd.env("YARDSTICK_E2E_CHILD", "main")
        .env_remove("GLIBC_TUNABLES")
        .env_remove("COLUMNS")
        .env_remove("YARDSTICK_COUNT_PIN")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("YARDSTICK_FAKE_CLOCK")
        .env_remove("YARDSTICK_INJECT")
        .env_remove("WALK_SHUFFLED")
        .env_remove("YARDSTICK_HISTORY");
    cmd
}

fn micro(args: &[&str]) -> Command {
    let mut cmd = child();
    cmd.args(["micro", "-q"]).args(args);
    cmd
}

/// This binary as `cargo bench` runs a bench target of the package at
/// `package` (its committed baselines there, its kept runs under it), on
/// `small_sum`, with `env` set and `args` given.
fn cargo_bench(package: &Path, env: &[(&str, &str)], args: &[&str]) -> Ran {
    let mut cmd = child();
    cmd.env("YARDSTICK_E2E_CHILD", "bench")
        .env("CARGO_MANIFEST_DIR", package)
        .env("YARDSTICK_HOME", package.join("home"))
        .envs(env.iter().copied())
        .args(["--bench", "--probe=small_sum"])
        .args(args);
    run(cmd)
}

/// Counts `probe` with `metric` at `batch`, saved to `dir/name`; `env` is
/// set on the child. Returns what ran and the saved document (null when
/// nothing was saved).
fn counted(
    dir: &Path,
    name: &str,
    metric: &str,
    probe: &str,
    batch: u64,
    env: &[(&str, &str)],
) -> Result<(Ran, Value), Failed> {
    let path = dir.join(name);
    let mut cmd = micro(&[
        &format!("--metric={metric}"),
        &format!("--probe={probe}"),
        &format!("--min-batch={batch}"),
        "--save",
        path.to_str().unwrap_or(""),
    ]);
    cmd.envs(env.iter().copied());
    let ran = run(cmd);
    let doc = match std::fs::read_to_string(&path) {
        Ok(text) => json(&text),
        Err(_) => Value::Null,
    };
    Ok((ran, doc))
}

fn figure(doc: &Value, field: &str) -> f64 {
    doc["rows"][0][field].as_f64().unwrap_or(f64::NAN)
}

fn compare(baseline: &Path, run_path: &Path) -> Ran {
    run(yardstick()
        .args(["compare", "--all-checks"])
        .arg(baseline)
        .arg(run_path))
}

/// The first function named under "where ... moved" in a comparison's
/// table.
fn first_function(stdout: &str) -> Option<&str> {
    let mut lines = stdout.lines().skip_while(|l| !l.starts_with("where "));
    lines.find(|l| l.starts_with("function"))?;
    lines.next()?.split("  ").next()
}

/// A count that moved in one function names that function, first, with
/// nearly all the change; the slowdown knob names itself.
fn a_regression_names_the_function_that_moved() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let (ran, _) = counted(t.path(), "a.json", "instructions", "two_steps", 5, &[])?;
    check(ran.code == 0, "counted", &ran)?;
    let slow = [("SECOND_STEP_SLOW", "1")];
    let (ran, _) = counted(t.path(), "slow.json", "instructions", "two_steps", 5, &slow)?;
    check(ran.code == 0, "counted, slower", &ran)?;
    let ran = compare(&t.path().join("a.json"), &t.path().join("slow.json"));
    check(
        ran.code == 1
            && first_function(&ran.stdout).is_some_and(|f| f.ends_with("counts_cli::second_step")),
        "the regression names second_step first",
        &ran,
    )?;
    // In the comparison's document too, with its share of the change.
    let judged = run(yardstick()
        .args(["compare", "--format=json"])
        .arg(t.path().join("a.json"))
        .arg(t.path().join("slow.json")));
    let doc = json(&judged.stdout);
    let moved = &doc["checks"][0]["attribution"]["moved"][0];
    check(
        moved["name"]
            .as_str()
            .is_some_and(|n| n.ends_with("second_step"))
            && moved["share_pct"].as_f64().is_some_and(|s| s > 90.0),
        "the document names it with more than 90 % of the change",
        &judged,
    )?;
    // The knob's extra iterations are a function of their own.
    let inject = [("YARDSTICK_INJECT", "two_steps:20")];
    let (ran, _) = counted(
        t.path(),
        "knob.json",
        "instructions",
        "two_steps",
        5,
        &inject,
    )?;
    check(ran.code == 0, "counted with the knob", &ran)?;
    let ran = compare(&t.path().join("a.json"), &t.path().join("knob.json"));
    check(
        ran.code == 1
            && first_function(&ran.stdout) == Some("yardstick::inject (YARDSTICK_INJECT)"),
        "the knob is named as what moved",
        &ran,
    )?;
    Ok(())
}

/// `--explain` on a timed regression: the slowdown comes from the fake
/// clock, the counts from the code, so each case is exact.
fn explain_counts_a_timed_regression_and_says_where() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let dir = committed_dir(t.path())?;
    // The class baseline: timed, of this machine's class, at 1 ms.
    let ran = run(micro(&["--probe=two_steps", "--no-baseline", "--json"]));
    let class = json(&ran.stdout)["environment"]["machine_class"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    check(!class.is_empty(), "this machine has a class", &ran)?;
    let mut made = micro(&[
        "--probe=two_steps",
        "--repeat=5",
        "--warmup=1",
        "--no-baseline",
    ]);
    made.arg(format!(
        "--save={}",
        dir.join(format!("{class}.json")).display()
    ))
    .env("YARDSTICK_FAKE_CLOCK", "@calibration=1; two_steps=1");
    let ran = run(made);
    check(ran.code == 0, "the class baseline is made", &ran)?;
    // Twice as slow, with or without the counts moving; in GitHub
    // Actions, so that the annotation and the summary say it too.
    let summary = t.path().join("summary.md");
    let bench = |env: &[(&str, &str)]| {
        let mut cmd = child();
        cmd.env("YARDSTICK_E2E_CHILD", "bench")
            .env("CARGO_MANIFEST_DIR", t.path())
            .env("YARDSTICK_HOME", t.path().join("home"))
            .env("YARDSTICK_FAKE_CLOCK", "@calibration=1; two_steps=2")
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_STEP_SUMMARY", &summary)
            .envs(env.iter().copied())
            .args([
                "--bench",
                "--probe=two_steps",
                "--repeat=5",
                "--warmup=1",
                "--explain",
            ]);
        run(cmd)
    };
    let ran = bench(&[]);
    check(
        ran.code == 1
            && ran
                .stdout
                .contains("not explained by counts: no count baseline is committed")
            && ran.stdout.contains("FAIL: slower than the baseline"),
        "no count baseline: said, and the verdict stands",
        &ran,
    )?;
    let counts = dir.join("counts");
    std::fs::create_dir_all(&counts)?;
    let (ran, _) = counted(
        &counts,
        "set-up.json",
        "estimated-cycles",
        "two_steps",
        5,
        &[],
    )?;
    check(ran.code == 0, "the count baseline is made", &ran)?;
    let ran = bench(&[]);
    check(
        ran.code == 1
            && ran
                .stdout
                .contains("the regressed probes counted (estimated-cycles)")
            && ran.stdout.contains("two_steps: the counts did not move")
            && ran.stdout.lines().any(|l| {
                // +0.0 or -0.0: estimated cycles move by a cycle with the
                // cache's state.
                l.starts_with("::warning") && l.contains(".0 %25: not in the work done")
            }),
        "the same code: the counts did not move, and the log and annotation say so",
        &ran,
    )?;
    let ran = bench(&[("SECOND_STEP_SLOW", "1")]);
    let written = std::fs::read_to_string(&summary).unwrap_or_default();
    check(
        ran.code == 1
            && first_function(&ran.stdout).is_some_and(|f| f.ends_with("counts_cli::second_step"))
            && written.contains("Explained by counts")
            // The summary escapes Markdown: `counts\_cli::second\_step`.
            // Estimated cycles move by a cycle with the cache's state, so
            // the figure itself is not matched.
            && written.contains("in counts\\_cli::second\\_step +"),
        "more work: the function that moved is named, in the log and the summary",
        &ran,
    )?;
    // A counted run is judged by counts already.
    let ran = run(micro(&[
        "--probe=two_steps",
        "--metric=instructions",
        "--explain",
    ]));
    check(
        ran.code == 2 && ran.stderr.contains("--explain explains a timed run"),
        "a counted run refuses --explain",
        &ran,
    )?;
    Ok(())
}

fn making_inputs_is_not_counted() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let (ran, fed) = counted(t.path(), "fed.json", "instructions", "fed_sum", 5, &[])?;
    check(ran.code == 0, "exit 0", &ran)?;
    let (_, small) = counted(t.path(), "small.json", "instructions", "small_sum", 5, &[])?;
    // The same sum of 100 numbers, plus freeing the input; making
    // the input would add 20,000 instructions and more.
    let (fed, small) = (figure(&fed, "instructions"), figure(&small, "instructions"));
    check(
        fed < small + 2_000.0,
        &format!("{fed} instructions an iteration, against {small} without an input"),
        &ran,
    )?;
    Ok(())
}

fn counts_repeat_exactly_and_catch_a_two_percent_slowdown() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    for (metric, field) in [
        ("instructions", "instructions"),
        ("estimated-cycles", "estimated_cycles"),
    ] {
        let (ran, a) = counted(t.path(), "a.json", metric, "small_sum", 50, &[])?;
        check(ran.code == 0, "exit 0", &ran)?;
        assert_valid_run(&a);
        check(
            a["metric"] == metric
                && a.get("calibration").is_none()
                && a["settings"]["valgrind"]
                    .as_str()
                    .is_some_and(|v| v.starts_with("valgrind")),
            "a run of counts that records valgrind's version",
            &ran,
        )?;
        let (_, b) = counted(t.path(), "b.json", metric, "small_sum", 50, &[])?;
        check(figure(&a, field) > 100.0, "counted something", &ran)?;
        let spread = (figure(&b, field) / figure(&a, field) - 1.0).abs();
        check(
            spread < 0.001,
            &format!("{metric} repeat within 0.1 % (spread {spread})"),
            &ran,
        )?;
        let inject = [("YARDSTICK_INJECT", "small_sum:2")];
        let (_, slow) = counted(t.path(), "slow.json", metric, "small_sum", 50, &inject)?;
        let ratio = figure(&slow, field) / figure(&a, field);
        check(
            (1.01..1.03).contains(&ratio),
            &format!("2 % injected reads as 2 % ({ratio})"),
            &ran,
        )?;
        let ran = compare(&t.path().join("a.json"), &t.path().join("slow.json"));
        check(
            ran.code == 1 && ran.stdout.contains(metric),
            "a 2 % slowdown fails at 1 %",
            &ran,
        )?;
        let ran = compare(&t.path().join("a.json"), &t.path().join("b.json"));
        check(ran.code == 0, "identical counts pass", &ran)?;
    }
    Ok(())
}

fn estimated_cycles_catch_a_shuffled_walk_that_instructions_miss() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let shuffled = [("WALK_SHUFFLED", "1")];
    let (ran, ordered) = counted(t.path(), "ordered.json", "estimated-cycles", "walk", 1, &[])?;
    check(ran.code == 0, "the ordered walk is counted", &ran)?;
    let (ran, mixed) = counted(
        t.path(),
        "shuffled.json",
        "estimated-cycles",
        "walk",
        1,
        &shuffled,
    )?;
    check(ran.code == 0, "the shuffled walk is counted", &ran)?;
    // Equal instructions by construction; far more RAM accesses.
    check(
        figure(&ordered, "instructions") == figure(&mixed, "instructions"),
        "the same instructions in either order",
        &ran,
    )?;
    check(
        figure(&mixed, "ll_misses") > 2.0 * figure(&ordered, "ll_misses"),
        "the shuffle misses the last level far more often",
        &ran,
    )?;
    let ran = compare(
        &t.path().join("ordered.json"),
        &t.path().join("shuffled.json"),
    );
    check(
        ran.code == 1
            && ran.stdout.contains("estimated-cycles")
            && ran.stdout.contains("REGRESSED"),
        "estimated cycles catch the shuffle",
        &ran,
    )?;
    // Where: the walk itself, by its misses, and the same instructions.
    check(
        first_function(&ran.stdout).is_some_and(|f| f.ends_with("counts_cli::walk"))
            && ran
                .stdout
                .contains("instructions +0.0 %: the same work met the cache worse"),
        "the cache-event diff names the walk and says its instructions did not move",
        &ran,
    )?;
    // Instructions, judged against the same baseline, do not.
    let (ran, _) = counted(
        t.path(),
        "by-instructions.json",
        "instructions",
        "walk",
        1,
        &shuffled,
    )?;
    check(ran.code == 0, "counted by instructions", &ran)?;
    let ran = compare(
        &t.path().join("ordered.json"),
        &t.path().join("by-instructions.json"),
    );
    check(
        ran.code == 0 && ran.stdout.contains("instructions") && ran.stdout.contains("PASS"),
        "instructions do not see the shuffle",
        &ran,
    )?;
    Ok(())
}

fn the_knob_adds_iterations_to_counts_and_refuses_what_a_batch_cannot_carry() -> Result<(), Failed>
{
    let t = tempfile::tempdir()?;
    let (_, base) = counted(t.path(), "base.json", "instructions", "small_sum", 20, &[])?;
    for pct in [5.0, 10.0, 40.0] {
        let rule = format!("small_sum:{pct}");
        let (ran, slow) = counted(
            t.path(),
            "slow.json",
            "instructions",
            "small_sum",
            20,
            &[("YARDSTICK_INJECT", rule.as_str())],
        )?;
        let read = (figure(&slow, "instructions") / figure(&base, "instructions") - 1.0) * 100.0;
        check(
            (read - pct).abs() <= 1.0,
            &format!("{pct} % injected at a batch of 20 reads as {read:.2} %"),
            &ran,
        )?;
        check(
            slow["warnings"].to_string().contains("slowdown injected"),
            "the run says it was injected",
            &ran,
        )?;
    }
    // At a batch of 1 or 2, rounding would inject 0 % or 50 %.
    for batch in [1, 2] {
        let (ran, doc) = counted(
            t.path(),
            "refused.json",
            "instructions",
            "small_sum",
            batch,
            &[("YARDSTICK_INJECT", "small_sum:10")],
        )?;
        check(
            ran.code == 2
                && ran.stderr.contains("YARDSTICK_INJECT")
                && ran.stderr.contains("--min-batch=50")
                && doc.is_null(),
            "refused, naming the batch it needs, with nothing saved",
            &ran,
        )?;
    }
    Ok(())
}

fn counts_of_another_set_up_are_information_naming_what_differs() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let (_, mut base) = counted(t.path(), "base.json", "instructions", "small_sum", 20, &[])?;
    let (_, _) = counted(
        t.path(),
        "slow.json",
        "instructions",
        "small_sum",
        20,
        &[("YARDSTICK_INJECT", "small_sum:40")],
    )?;
    base["settings"]["valgrind"] = Value::from("valgrind-0.0.1");
    let other = t.path().join("other.json");
    std::fs::write(&other, base.to_string())?;
    let ran = compare(&other, &t.path().join("slow.json"));
    check(
        ran.code == 0
            && ran.stdout.contains("REGRESSED")
            && ran
                .stdout
                .contains("valgrind valgrind-0.0.1 in the baseline")
            && ran.stdout.contains("NO VERDICT"),
        "shown, not judged, with the difference named",
        &ran,
    )?;
    // A run saved with such a comparison records the
    // differences, in the published format.
    let path = t.path().join("judged.json");
    let ran = run(micro(&[
        "--metric=instructions",
        "--probe=small_sum",
        "--min-batch=20",
        &format!("--baseline={}", other.display()),
        &format!("--save={}", path.display()),
    ]));
    let saved = json(&std::fs::read_to_string(&path)?);
    assert_valid_run(&saved);
    check(
        ran.code == 0
            && saved["comparison"]["setup_differences"][0]["field"] == "valgrind"
            && saved["comparison"]["informational"] == true,
        "the saved comparison names the difference",
        &ran,
    )?;
    // Another batch is another set-up too.
    let (_, _) = counted(t.path(), "fifty.json", "instructions", "small_sum", 50, &[])?;
    let ran = compare(&t.path().join("base.json"), &t.path().join("fifty.json"));
    check(
        ran.code == 0 && ran.stdout.contains("batch 20 in the baseline, 50 now"),
        "a batch mismatch is named",
        &ran,
    )?;
    Ok(())
}

fn cargo_bench_counts_where_only_a_count_baseline_can_judge() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let bench_dir = committed_dir(t.path())?.join("counts");
    std::fs::create_dir_all(&bench_dir)?;
    let (ran, mut baseline) = counted(
        &bench_dir,
        "this-set-up.json",
        "estimated-cycles",
        "small_sum",
        5,
        &[],
    )?;
    check(ran.code == 0, "the count baseline is made", &ran)?;
    let bench = |env: &[(&str, &str)], extra: &[&str]| {
        let args = [&["--repeat=3", "--warmup=1"], extra].concat();
        cargo_bench(t.path(), env, &args)
    };
    let ran = bench(&[], &[]);
    check(
        ran.code == 0
            && ran
                .stdout
                .contains("the committed count baseline of this set-up, estimated-cycles")
            && ran.stdout.contains("est. cycles/iter")
            && ran.stdout.contains("PASS"),
        "no class baseline: the counts judge",
        &ran,
    )?;
    // In GitHub Actions, the annotation and the job summary
    // name the metric that judged.
    let summary = t.path().join("summary.md");
    let summary_env = summary.to_str().unwrap_or("");
    let ran = bench(
        &[
            ("YARDSTICK_INJECT", "small_sum:40"),
            ("GITHUB_ACTIONS", "true"),
            ("GITHUB_STEP_SUMMARY", summary_env),
        ],
        &[],
    );
    let written = std::fs::read_to_string(&summary).unwrap_or_default();
    check(
        ran.code == 1
            && ran.stdout.contains("FAIL")
            && ran.stdout.lines().any(|l| {
                l.starts_with("::warning") && l.contains("small_sum estimated-cycles changed +")
            })
            && written.contains("by estimated cycles"),
        "more work fails, and the annotation and summary name the metric",
        &ran,
    )?;
    // --metric=time asks for time, and --no-baseline for no
    // judgement, whatever is committed.
    for asked in ["--metric=time", "--no-baseline"] {
        let ran = bench(&[], &[asked, "--json"]);
        check(
            ran.code == 0 && json(&ran.stdout).get("metric").is_none(),
            &format!("timed with {asked}"),
            &ran,
        )?;
    }
    // A count baseline of another set-up cannot judge: the run
    // is timed, and says why.
    baseline["settings"]["valgrind"] = Value::from("valgrind-0.0.1");
    std::fs::write(bench_dir.join("this-set-up.json"), baseline.to_string())?;
    let ran = bench(&[], &[]);
    check(
        ran.code == 0
            && ran.stdout.contains("times in ms per iteration")
            && ran.stdout.contains("matches this set-up")
            && ran
                .stdout
                .contains("valgrind valgrind-0.0.1 in the baseline"),
        "another set-up: timed, and said why",
        &ran,
    )?;
    Ok(())
}

fn counts_without_valgrind_are_refused_naming_it() -> Result<(), Failed> {
    let empty = tempfile::tempdir()?;
    for metric in ["instructions", "estimated-cycles"] {
        let ran =
            run(micro(&[&format!("--metric={metric}"), "--probe=small_sum"])
                .env("PATH", empty.path()));
        check(
            ran.code == 2 && ran.stderr.contains("valgrind") && ran.stderr.contains(metric),
            "refused",
            &ran,
        )?;
    }
    Ok(())
}

/// `yardstick matrix --metric=instructions` of this binary: one counted
/// run per configuration, every multiplier exact.
fn a_counted_matrix_gives_exact_multipliers() -> Result<(), Failed> {
    let me = std::env::current_exe()?;
    let ran = run(yardstick()
        .arg("matrix")
        .arg(format!("--bench={}", me.display()))
        .args([
            "--config=base:",
            "--config=more:YARDSTICK_INJECT=small_sum:50",
            "--config=same:",
            "--metric=instructions",
            "--probe=small_sum",
            "--min-batch=10",
            "--json",
            "-q",
        ])
        .env("YARDSTICK_E2E_CHILD", "bench")
        .env_remove("GLIBC_TUNABLES")
        .env_remove("YARDSTICK_COUNT_PIN")
        .env_remove("YARDSTICK_INJECT"));
    check(ran.code == 0, "exit 0", &ran)?;
    let doc = json(&ran.stdout);
    assert_valid_run(&doc);
    let cells = &doc["matrix"]["lines"][0]["cells"];
    let x = |c: usize, f: &str| cells[c]["multiplier"][f].as_f64().unwrap_or(f64::NAN);
    // Half as many iterations again: half as many instructions again, but
    // for what a sample costs beside its iterations.
    check(
        x(1, "low") == x(1, "high") && (x(1, "estimate") - 1.5).abs() < 0.05,
        "more is about 1.5 times the base, exactly",
        &ran,
    )?;
    check(
        x(2, "estimate") == 1.0 && x(2, "low") == 1.0 && cells[2]["sets"] == 0,
        "the same configuration counts the same",
        &ran,
    )?;
    check(
        doc["settings"]["metric"] == "instructions" && doc["settings"]["sets"] == 0,
        "the settings say it was counted",
        &ran,
    )?;
    Ok(())
}

/// A test of this file: its name and its function.
type Named = (&'static str, fn() -> Result<(), Failed>);

fn tests() -> Vec<Trial> {
    // These count under valgrind: without it they are ignored, not passed
    // unrun; where CI requires valgrind, they fail instead (`common::needing`).
    let counting: [Named; 11] = [
        (
            "explain_counts_a_timed_regression_and_says_where",
            explain_counts_a_timed_regression_and_says_where,
        ),
        (
            "a_regression_names_the_function_that_moved",
            a_regression_names_the_function_that_moved,
        ),
        ("making_inputs_is_not_counted", making_inputs_is_not_counted),
        (
            "counts_repeat_exactly_and_catch_a_two_percent_slowdown",
            counts_repeat_exactly_and_catch_a_two_percent_slowdown,
        ),
        (
            "estimated_cycles_catch_a_shuffled_walk_that_instructions_miss",
            estimated_cycles_catch_a_shuffled_walk_that_instructions_miss,
        ),
        (
            "the_knob_adds_iterations_to_counts_and_refuses_what_a_batch_cannot_carry",
            the_knob_adds_iterations_to_counts_and_refuses_what_a_batch_cannot_carry,
        ),
        (
            "counts_of_another_set_up_are_information_naming_what_differs",
            counts_of_another_set_up_are_information_naming_what_differs,
        ),
        (
            "cargo_bench_counts_where_only_a_count_baseline_can_judge",
            cargo_bench_counts_where_only_a_count_baseline_can_judge,
        ),
        (
            "the_pin_reaches_the_counted_child_only_and_is_read_back",
            the_pin_reaches_the_counted_child_only_and_is_read_back,
        ),
        (
            "the_count_check_fails_on_a_count_moved_either_way",
            the_count_check_fails_on_a_count_moved_either_way,
        ),
        (
            "a_counted_matrix_gives_exact_multipliers",
            a_counted_matrix_gives_exact_multipliers,
        ),
    ];
    let found = Command::new("valgrind").arg("--version").output().is_ok();
    let mut trials: Vec<Trial> = counting
        .into_iter()
        .map(|(name, test)| common::needing("valgrind", found, name, test))
        .collect();
    trials.push(Trial::test(
        "counts_without_valgrind_are_refused_naming_it",
        counts_without_valgrind_are_refused_naming_it,
    ));
    trials
}

/// The note `tunables_seen` left: what its process's `GLIBC_TUNABLES` was.
fn seen(doc: &Value) -> String {
    doc["rows"][0]["note"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The library pin goes to the counted child alone, after the user's own
/// tunables, and the run records what glibc made of it.
fn the_pin_reaches_the_counted_child_only_and_is_read_back() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let (ran, doc) = counted(t.path(), "a.json", "instructions", "tunables_seen", 5, &[])?;
    let platform = &doc["settings"]["count_platform"];
    check(
        ran.code == 0
            && seen(&doc).contains("glibc.cpu.hwcaps=-ERMS")
            && platform["tunables"].as_str() == seen(&doc).strip_prefix("GLIBC_TUNABLES="),
        "the counted child got the pin, and the run records it whole",
        &ran,
    )?;
    if cfg!(target_env = "gnu") {
        check(
            platform["pin"] == "held"
                && platform["libc"]
                    .as_str()
                    .is_some_and(|l| l.contains("build-id"))
                && platform["cpu"].as_str().is_some_and(|c| c.contains("sse2")),
            "glibc took the pin, read back; the C library and CPU are recorded",
            &ran,
        )?;
    }
    let user = [("GLIBC_TUNABLES", "glibc.malloc.perturb=0")];
    let (ran, doc) = counted(
        t.path(),
        "b.json",
        "instructions",
        "tunables_seen",
        5,
        &user,
    )?;
    check(
        seen(&doc).starts_with("GLIBC_TUNABLES=glibc.malloc.perturb=0:glibc.cpu.hwcaps=-ERMS"),
        "the user's own tunables come first, the pin after them",
        &ran,
    )?;
    if cfg!(target_env = "gnu") {
        // A tunable glibc does not know is ignored by it without a word:
        // the run says so.
        let typo = [("GLIBC_TUNABLES", "glibc.malloc.perturbb=1")];
        let (ran, doc) = counted(
            t.path(),
            "d.json",
            "instructions",
            "tunables_seen",
            5,
            &typo,
        )?;
        check(
            doc["warnings"]
                .to_string()
                .contains("glibc.malloc.perturbb is unknown to this glibc"),
            "a user's tunable glibc ignored is named in the run's warnings",
            &ran,
        )?;
    }
    let off = [("YARDSTICK_COUNT_PIN", "off")];
    let (ran, doc) = counted(t.path(), "c.json", "instructions", "tunables_seen", 5, &off)?;
    check(
        seen(&doc) == "GLIBC_TUNABLES=none" && doc["settings"]["count_platform"]["pin"] == "off",
        "YARDSTICK_COUNT_PIN=off counts without it, and says so",
        &ran,
    )?;
    let path = t.path().join("timed.json");
    let ran = run(micro(&[
        "--probe=tunables_seen",
        "--repeat=2",
        "--warmup=0",
        &format!("--save={}", path.display()),
    ]));
    let timed = json(&std::fs::read_to_string(&path).unwrap_or_default());
    check(
        ran.code == 0 && seen(&timed) == "GLIBC_TUNABLES=none",
        "a timed run sees the machine's own library",
        &ran,
    )
}

/// `--count-check`, as `.ci/run` runs it: a count that moved past the
/// threshold either way fails until the committed file is refreshed; a
/// file of another set-up, or none, gives a note and exit 0.
fn the_count_check_fails_on_a_count_moved_either_way() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let counts = committed_dir(t.path())?.join("counts");
    let gate = |env: &[(&str, &str)]| cargo_bench(t.path(), env, &["--count-check"]);
    let ran = gate(&[]);
    check(
        ran.code == 0 && ran.stdout.contains("no count baseline is committed"),
        "nothing committed: a note, exit 0",
        &ran,
    )?;
    std::fs::create_dir_all(&counts)?;
    let (ran, mut baseline) = counted(
        &counts,
        "here.json",
        "estimated-cycles",
        "small_sum",
        5,
        &[],
    )?;
    check(ran.code == 0, "the count baseline is made", &ran)?;
    let ran = gate(&[]);
    check(
        ran.code == 0 && ran.stdout.contains("PASS"),
        "unchanged: pass",
        &ran,
    )?;
    let empty = tempfile::tempdir()?;
    let ran = gate(&[("PATH", empty.path().to_str().unwrap_or(""))]);
    check(
        ran.code == 0 && ran.stdout.contains("valgrind is not installed"),
        "without valgrind: a note, exit 0, never a FAIL",
        &ran,
    )?;
    let ran = gate(&[("YARDSTICK_INJECT", "small_sum:40")]);
    check(
        ran.code == 1 && ran.stdout.contains("REGRESSED"),
        "more work fails",
        &ran,
    )?;
    // The committed counts 50 % above this build's: this build's count
    // fell 33 %, and the file no longer describes the code.
    for field in ["instructions", "estimated_cycles"] {
        let inflated = baseline["rows"][0][field].as_f64().unwrap_or(0.0) * 1.5;
        baseline["rows"][0][field] = Value::from(inflated);
    }
    std::fs::write(counts.join("here.json"), baseline.to_string())?;
    let ran = gate(&[]);
    check(
        ran.code == 1 && ran.stdout.contains("is stale") && ran.stderr.contains("refresh"),
        "less work without a refreshed baseline fails too",
        &ran,
    )?;
    baseline["settings"]["valgrind"] = Value::from("valgrind-0.0.1");
    std::fs::write(counts.join("here.json"), baseline.to_string())?;
    let ran = gate(&[("YARDSTICK_INJECT", "small_sum:40")]);
    check(
        ran.code == 0
            && ran.stdout.contains("matches this set-up")
            && ran
                .stdout
                .contains("valgrind valgrind-0.0.1 in the baseline"),
        "another set-up: a note naming the difference, exit 0",
        &ran,
    )
}

fn main() {
    match std::env::var("YARDSTICK_E2E_CHILD").as_deref() {
        Ok("main") => std::process::exit(yardstick_cli::main()),
        Ok("bench") => std::process::exit(yardstick::run_main()),
        _ => libtest_mimic::run(&Arguments::from_args(), tests()).exit(),
    }
}
