//! The history end to end: a run recorded as it is made reads back byte
//! for byte as saved, is kept once however often it is added, and a
//! history that cannot take it costs the record, never the saved run.
//! Timed by the scripted clock, so nothing here depends on the machine.

mod common;

use common::{check, json, own_child, run, yardstick};
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::Path;
use std::process::Command;

yardstick::probe! {
    name: recorded_sum,
    ops: 100,
    note: "100 numbers summed",
    setup: || Ok::<_, String>((1..=100u64).collect::<Vec<_>>()),
    run: |v: &Vec<u64>| v.iter().sum::<u64>(),
    check: |_, total: &u64| if *total == 5050 { Ok(()) } else { Err(format!("sum {total}")) },
}

const SCRIPT: &str = "@calibration=1; recorded_sum=0.002";

/// One quick micro run of this binary, saved to `save`.
fn micro(save: &Path, extra: &[&str]) -> Command {
    let mut cmd = own_child("main", SCRIPT);
    cmd.args(["micro", "--repeat=3", "--warmup=1", "-q"])
        .arg(format!("--save={}", save.display()))
        .args(extra);
    if !extra.iter().any(|a| a.starts_with("--baseline")) {
        cmd.arg("--no-baseline");
    }
    cmd
}

fn history(location: &Path, args: &[&str]) -> Command {
    let mut cmd = yardstick();
    cmd.arg("history")
        .args(args)
        .arg(format!("--history={}", location.display()));
    cmd
}

fn ids(location: &Path) -> Result<Vec<String>, Failed> {
    let ran = run(history(location, &["list", "--json"]));
    check(ran.code == 0, "history list exits 0", &ran)?;
    let listed = json(&ran.stdout);
    Ok(listed
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|l| l["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default())
}

fn a_recorded_run_reads_back_as_saved_and_is_kept_once() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let db = t.path().join("h/history.sqlite");
    let saved = t.path().join("run.json");
    let flag = format!("--history={}", db.display());
    let ran = run(micro(&saved, &["--record", &flag]));
    check(ran.code == 0, "the run exits 0", &ran)?;
    check(
        ran.stderr.contains("recorded in the history"),
        "a line says where it went",
        &ran,
    )?;
    let listed = ids(&db)?;
    check(listed.len() == 1, "one run kept", &ran)?;
    let shown = run(history(&db, &["show", &listed[0][..10], "--json"]));
    check(shown.code == 0, "history show exits 0", &shown)?;
    check(
        shown.stdout.as_bytes() == std::fs::read(&saved)?.as_slice(),
        "the kept run is the saved file, byte for byte",
        &shown,
    )?;
    let table = run(history(&db, &["show", &listed[0]]));
    check(
        table.code == 0 && table.stdout.contains("recorded_sum"),
        "and shows as a table",
        &table,
    )?;
    let again = run(history(&db, &["add", saved.to_str().unwrap_or("")]));
    check(
        again.code == 0 && again.stdout.contains("already there"),
        "adding the saved file again keeps nothing new",
        &again,
    )?;
    // A configured history records every run, without --record. (The
    // scripted clock would make the same run again within a second, the
    // same text and so the same run: another threshold makes another.)
    let second = t.path().join("second.json");
    let ran = run(micro(&second, &["--threshold=20"]).env("YARDSTICK_HISTORY", &db));
    check(ran.code == 0, "the second run exits 0", &ran)?;
    check(ids(&db)?.len() == 2, "YARDSTICK_HISTORY recorded it", &ran)?;
    let probe = run(history(
        &db,
        &["list", "--probe=recorded_sum", "--mode=kernel"],
    ));
    check(
        probe.stdout.contains("no run in the history matches"),
        "filters narrow the list",
        &probe,
    )?;
    Ok(())
}

fn a_history_that_cannot_take_the_run_costs_only_the_record() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let corrupt = t.path().join("corrupt.sqlite");
    let garbage = b"no database at all\n".repeat(50);
    std::fs::write(&corrupt, &garbage)?;
    let saved = t.path().join("run.json");
    let flag = format!("--history={}", corrupt.display());
    let ran = run(micro(&saved, &["--record", &flag]));
    check(ran.code == 2, "exit 2", &ran)?;
    check(
        ran.stderr.trim_end().lines().count() == 1 && ran.stderr.contains("corrupt.sqlite"),
        "one line naming the file",
        &ran,
    )?;
    check(!saved.exists(), "refused before anything is measured", &ran)?;
    check(
        std::fs::read(&corrupt)? == garbage,
        "the file is left as it was",
        &ran,
    )?;
    let url = "--history=postgres://ci:hunter2@db.invalid/perf";
    let ran = run(micro(&t.path().join("x.json"), &["--record", url]));
    check(
        ran.code == 2,
        "a password on the command line: exit 2",
        &ran,
    )?;
    check(
        !ran.stderr.contains("hunter2") && ran.stderr.contains("PGPASSWORD"),
        "refused, naming the fix, without the password",
        &ran,
    )?;
    check(
        !t.path().join("x.json").exists(),
        "refused before anything is measured",
        &ran,
    )?;
    // Nothing listens on port 1: unreachable at once.
    let saved = t.path().join("unreachable.json");
    let url = "--history=postgres://ci@127.0.0.1:1/perf";
    let ran = run(micro(&saved, &["--record", url]));
    check(ran.code == 2, "an unreachable server: exit 2", &ran)?;
    check(
        ran.stderr.trim_end().lines().count() == 1
            && ran
                .stderr
                .contains("cannot reach the history at host 127.0.0.1 port 1"),
        "one line naming the server",
        &ran,
    )?;
    check(saved.is_file(), "the run is saved all the same", &ran)?;
    Ok(())
}

fn bad_input_to_history_commands_exits_2_with_one_line() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let db = t.path().join("h.sqlite");
    let not_a_run = t.path().join("notes.json");
    std::fs::write(&not_a_run, "{\"hello\": 1}")?;
    let good = t.path().join("good.json");
    let ran = run(micro(&good, &[]));
    check(ran.code == 0, "a run to add", &ran)?;
    let missing = run(history(&db, &["list"]));
    check(
        missing.code == 2 && missing.stderr.contains("no history there") && !db.exists(),
        "a history that is not there is an error, and is not made",
        &missing,
    )?;
    let cases: [&[&str]; 6] = [
        &[
            "add",
            good.to_str().unwrap_or(""),
            not_a_run.to_str().unwrap_or(""),
        ],
        &["add"],
        &["show", "zz"],
        &["show", "abcdef"],
        &["list", "--since=last week"],
        &["list", "--mode=fast"],
    ];
    for args in cases {
        let ran = run(history(&db, args));
        check(ran.code == 2, &format!("{args:?} exits 2"), &ran)?;
        check(
            ran.stderr.trim_end().lines().count() == 1,
            &format!("{args:?}: one line"),
            &ran,
        )?;
    }
    if db.exists() {
        return Err("a bad file among good ones made the history".into());
    }
    Ok(())
}

fn a_trend_follows_the_judged_figure_run_by_run() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let db = t.path().join("h.sqlite");
    let flag = format!("--history={}", db.display());
    // Scripted times, so x calib is exactly the probe's time per loop.
    for (i, ms) in ["0.002", "0.003", "0.0015"].iter().enumerate() {
        let save = t.path().join(format!("{i}.json"));
        let mut cmd = micro(
            &save,
            &["--record", &flag, &format!("--threshold={}", 10 + i)],
        );
        cmd.env(
            "YARDSTICK_FAKE_CLOCK",
            format!("@calibration=1; recorded_sum={ms}"),
        );
        if i == 0 {
            // Made with the slowdown knob (here of 0 %, so that the figures
            // stay the script's): the trend marks it.
            cmd.env("YARDSTICK_INJECT", "recorded_sum:0");
        }
        let ran = run(cmd);
        check(ran.code == 0, "the run exits 0", &ran)?;
        // No pause: runs that start in the same second keep the order
        // they were recorded in.
    }
    let ran = run(history(
        &db,
        &["trend", "recorded_sum", "--class=test-cpu-2cpu-00000000"],
    ));
    check(ran.code == 0, "trend exits 0", &ran)?;
    check(
        ran.stdout.contains("no kept run has it"),
        "another class's runs are not followed",
        &ran,
    )?;
    let ran = run(history(&db, &["trend", "recorded_sum", "--json"]));
    check(ran.code == 0, "trend exits 0", &ran)?;
    let doc = json(&ran.stdout);
    let values: Vec<f64> = doc["runs"]
        .as_array()
        .map(|a| a.iter().filter_map(|p| p["value"].as_f64()).collect())
        .unwrap_or_default();
    check(
        doc["figure"] == "x-calib",
        "x calib for a timed micro run",
        &ran,
    )?;
    check(
        values == [0.002, 0.003, 0.0015],
        "oldest first, every run",
        &ran,
    )?;
    check(
        doc["runs"][0]["injected"] == "recorded_sum:0" && doc["runs"][1]["injected"] == "",
        "the run made worse on purpose is said",
        &ran,
    )?;
    let ran = run(history(&db, &["trend", "recorded_sum"]));
    check(
        ran.stdout.contains("0.002000 *") && ran.stdout.contains("*: made with an injected"),
        "the table marks it",
        &ran,
    )?;
    let ran = run(history(&db, &["trend", "recorded_sum", "--limit=2"]));
    check(
        !ran.stdout.contains("0.002000 ") && ran.stdout.contains("0.001500  -50.0 %"),
        "the newest two, the second with its change",
        &ran,
    )?;
    check(
        ran.stdout
            .contains("the newest 0.001500 (-50.0 % from their median)"),
        "the newest against the ones before it",
        &ran,
    )?;
    // A name no kept run has is a typo: exit 2, naming it.
    let ran = run(history(&db, &["trend", "recorded_summ"]));
    check(
        ran.code == 2
            && ran
                .stderr
                .contains("no kept run has a probe or page `recorded_summ`"),
        "a mistyped probe is an error",
        &ran,
    )?;
    a_trend_is_drawn_as_a_page(&db, t.path())
}

/// `trend --html`: one page, fetching nothing, with a point per run and
/// the figures the table gives; a file it cannot write is refused first.
fn a_trend_is_drawn_as_a_page(db: &Path, dir: &Path) -> Result<(), Failed> {
    let page = dir.join("report/trend.html");
    let flag = format!("--html={}", page.display());
    let ran = run(history(db, &["trend", "recorded_sum", &flag]));
    check(ran.code == 0, "trend --html exits 0", &ran)?;
    let html = std::fs::read_to_string(&page)?;
    for part in [
        "<h1>recorded_sum: x-calib over the runs of",
        "<svg",
        "the newest 0.001500 (-40.0 % from their median)",
        "<td class=\"number\">0.001500</td>",
        "default-src 'none'",
    ] {
        check(html.contains(part), &format!("the page has {part}"), &ran)?;
    }
    check(
        html.matches("<circle").count() == 3 + 1 && !html.contains("<script"),
        "a point per run, the injected one ringed, and no script",
        &ran,
    )?;
    check(
        html.contains("Ringed in amber in the chart, marked * in the table"),
        "the ring is explained",
        &ran,
    )?;
    let ran = run(history(
        db,
        &["trend", "recorded_sum", &format!("--html={}", db.display())],
    ));
    check(
        ran.code == 2 && ran.stderr.contains("which it would replace"),
        "the history is never replaced by its page",
        &ran,
    )?;
    let listed = run(history(db, &["list"]));
    check(listed.code == 0, "the history is still read", &listed)?;
    // A page named by bytes that are no text is written all the same.
    let mut bytes = b"--html=".to_vec();
    bytes.extend_from_slice(dir.as_os_str().as_encoded_bytes());
    bytes.extend_from_slice(b"/odd-\xff.html");
    let odd: std::ffi::OsString = std::os::unix::ffi::OsStringExt::from_vec(bytes);
    let mut cmd = history(db, &["trend", "recorded_sum"]);
    cmd.arg(&odd);
    let ran = run(cmd);
    check(ran.code == 0, "a page named by bytes", &ran)?;
    let blocked = dir.join("not-a-folder");
    std::fs::write(&blocked, "")?;
    let flag = format!("--html={}", blocked.join("t.html").display());
    let ran = run(history(db, &["trend", "recorded_sum", &flag]));
    check(
        ran.code == 2 && ran.stderr.trim_end().lines().count() == 1 && ran.stdout.is_empty(),
        "an unwritable page is refused, in one line, before anything is printed",
        &ran,
    )
}

fn git(repo: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(repo)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn bisect_and_changes_find_the_first_commit_that_moved() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let repo = t.path().join("repo");
    std::fs::create_dir_all(&repo)?;
    git(&repo, &["init", "-q", "-b", "main"]);
    let db = t.path().join("h.sqlite");
    let flag = format!("--history={}", db.display());
    let mut commits = Vec::new();
    // Seven commits at 2 µs, then two at 4 µs: the eighth moved.
    for i in 0..9 {
        git(
            &repo,
            &["commit", "-q", "--allow-empty", "-m", &format!("c{i}")],
        );
        commits.push(git(&repo, &["rev-parse", "HEAD"]));
        let ms = if i < 7 { "0.002" } else { "0.004" };
        let mut cmd = micro(&t.path().join(format!("{i}.json")), &["--record", &flag]);
        cmd.current_dir(&repo).env_remove("CARGO_MANIFEST_DIR").env(
            "YARDSTICK_FAKE_CLOCK",
            format!("@calibration=1; recorded_sum={ms}"),
        );
        let ran = run(cmd);
        check(ran.code == 0, "the run exits 0", &ran)?;
    }
    let mut bisect = history(&db, &["bisect", "recorded_sum"]);
    bisect.current_dir(&repo);
    let ran = run(bisect);
    check(ran.code == 0, "bisect exits 0", &ran)?;
    check(
        ran.stdout.contains(&format!(
            "first bad commit: {} (last good: {})",
            commits[7], commits[6]
        )) && ran.stdout.contains("+100.0 %"),
        "the first slow commit, not the one after it, and its step",
        &ran,
    )?;
    let mut as_json = history(&db, &["bisect", "recorded_sum", "--json"]);
    as_json.current_dir(&repo);
    let ran = run(as_json);
    let doc: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap_or_default();
    check(
        ran.code == 0
            && doc["first_standing"]["first_bad"] == commits[7].as_str()
            && doc["first_standing"]["last_good"] == commits[6].as_str()
            && doc["changes"] == 1,
        "the same commit as JSON",
        &ran,
    )?;
    let mut early = history(&db, &["bisect", "recorded_sum", "--rev=HEAD~2"]);
    early.current_dir(&repo);
    let ran = run(early);
    check(
        ran.code == 0 && ran.stdout.contains("no change found"),
        "before it, nothing moved",
        &ran,
    )?;
    // The change points: the same step, between the seventh and eighth
    // commits, twice as slow, too recent to call held.
    let mut changes = history(&db, &["changes", "recorded_sum"]);
    changes.current_dir(&repo);
    let ran = run(changes);
    let row = ran
        .stdout
        .lines()
        .find(|l| l.starts_with("recorded_sum"))
        .unwrap_or_default()
        .to_string();
    check(
        ran.code == 0
            && row.contains(&commits[6][..12])
            && row.contains(&commits[7][..12])
            && row.contains("+100.0 %")
            && row.contains("too recent to tell")
            && ran
                .stdout
                .lines()
                .filter(|l| l.starts_with("recorded_sum"))
                .count()
                == 1,
        "one change: last good, first bad, its size, and that it is too recent",
        &ran,
    )?;
    // Without a probe, every row of the newest run; as JSON too.
    let mut all = history(&db, &["changes", "--json"]);
    all.current_dir(&repo);
    let ran = run(all);
    let doc: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap_or_default();
    let sum = doc
        .as_array()
        .and_then(|p| p.iter().find(|p| p["key"] == "recorded_sum"))
        .cloned()
        .unwrap_or_default();
    check(
        ran.code == 0
            && sum["commits"] == 9
            && sum["changes"][0]["first_bad"] == commits[7].as_str()
            && sum["changes"][0]["held"] == "too recent",
        "every probe of the newest run, as JSON",
        &ran,
    )?;
    // Before the step, nothing moved.
    let mut early = history(&db, &["changes", "recorded_sum", "--rev=HEAD~2"]);
    early.current_dir(&repo);
    let ran = run(early);
    check(
        ran.code == 0 && ran.stdout.contains("no change found"),
        "before it, no change",
        &ran,
    )?;
    Ok(())
}

fn a_baseline_pools_the_last_kept_runs_of_this_class() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let db = t.path().join("h.sqlite");
    let flag = format!("--history={}", db.display());
    // Measured, not scripted: a baseline of scripted runs is refused.
    let measured = |i: usize, extra: &[&str]| {
        let mut cmd = micro(&t.path().join(format!("{i}.json")), extra);
        cmd.env_remove("YARDSTICK_FAKE_CLOCK");
        run(cmd)
    };
    for i in 0..2 {
        let ran = measured(i, &["--record", &flag, &format!("--threshold={}", 20 + i)]);
        check(ran.code == 0, "a run to keep", &ran)?;
    }
    let ran = measured(9, &["--baseline=history:3", &flag]);
    check(
        ran.code == 0
            && ran
                .stdout
                .contains("--baseline=history: 2 of the 3 micro runs of time"),
        "too few runs: says so, and judges nothing",
        &ran,
    )?;
    let ran = measured(2, &["--record", &flag, "--threshold=22"]);
    check(ran.code == 0, "a third run to keep", &ran)?;
    let ran = measured(10, &["--baseline=history:3", &flag]);
    check(
        ran.stdout
            .contains("baseline: history:3 (pooled from the last 3 micro runs of time, class"),
        "three runs of this class pooled",
        &ran,
    )?;
    // The verdict is the machine's; only that the pooled baseline judged
    // is certain: a pass, a regression, or (on a loaded machine, whose
    // loop ran too slow against the baseline's) inconclusive, exit 3.
    check(matches!(ran.code, 0 | 1 | 3), "judged", &ran)?;
    let ran = measured(11, &["--baseline=history:0", &flag]);
    check(ran.code == 2, "history:0 is refused", &ran)?;
    Ok(())
}

fn other_tools_runs_are_added_and_kept_as_read() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let db = t.path().join("h.sqlite");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let exp = ["micro", "kernel", "http"].map(|m| fixtures.join(format!("exp-benchmark/{m}.json")));
    let criterion = fixtures.join("criterion/0.8.2/tiny");
    let named_baseline = format!("{}@fast", criterion.display());
    let mut add = history(&db, &["add"]);
    add.args(&exp).arg(&criterion).arg(&named_baseline);
    let ran = run(add);
    check(
        ran.code == 0 && ran.stdout.matches("added").count() == 5,
        "all five added",
        &ran,
    )?;
    let listed = run(history(&db, &["list", "--csv"]));
    let tools: Vec<&str> = listed
        .stdout
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(2))
        .collect();
    check(
        tools.iter().filter(|t| **t == "exp:benchmark").count() == 3
            && tools.iter().filter(|t| **t == "criterion").count() == 2,
        "each kept under its own tool",
        &listed,
    )?;
    for file in &exp {
        let id = run(history(&db, &["add", file.to_str().unwrap_or("")]));
        let short = id
            .stdout
            .trim()
            .rsplit(' ')
            .next()
            .unwrap_or_default()
            .to_string();
        let shown = run(history(&db, &["show", &short, "--json"]));
        check(
            shown.stdout.as_bytes() == std::fs::read(file)?.as_slice(),
            "an imported file reads back as it was",
            &shown,
        )?;
    }
    Ok(())
}

type Named = (&'static str, fn() -> Result<(), Failed>);

fn main() {
    if std::env::var("YARDSTICK_E2E_CHILD").as_deref() == Ok("main") {
        std::process::exit(yardstick_cli::main());
    }
    let named: [Named; 7] = [
        (
            "other_tools_runs_are_added_and_kept_as_read",
            other_tools_runs_are_added_and_kept_as_read,
        ),
        (
            "a_baseline_pools_the_last_kept_runs_of_this_class",
            a_baseline_pools_the_last_kept_runs_of_this_class,
        ),
        (
            "bisect_and_changes_find_the_first_commit_that_moved",
            bisect_and_changes_find_the_first_commit_that_moved,
        ),
        (
            "a_trend_follows_the_judged_figure_run_by_run",
            a_trend_follows_the_judged_figure_run_by_run,
        ),
        (
            "a_recorded_run_reads_back_as_saved_and_is_kept_once",
            a_recorded_run_reads_back_as_saved_and_is_kept_once,
        ),
        (
            "a_history_that_cannot_take_the_run_costs_only_the_record",
            a_history_that_cannot_take_the_run_costs_only_the_record,
        ),
        (
            "bad_input_to_history_commands_exits_2_with_one_line",
            bad_input_to_history_commands_exits_2_with_one_line,
        ),
    ];
    // Wall time is judged only within a class: where this machine's is
    // unknown, there is nothing to pool, and that test is reported ignored.
    let unknown = run(yardstick().args(["machine", "--class"])).stdout.trim() == "unknown";
    let trials = named
        .into_iter()
        .map(|(name, f)| {
            let pools = name == "a_baseline_pools_the_last_kept_runs_of_this_class";
            match Trial::test(name, f) {
                t if pools && unknown => t
                    .with_ignored_flag(true)
                    .with_kind("needs a known machine class"),
                t => t,
            }
        })
        .collect();
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}
