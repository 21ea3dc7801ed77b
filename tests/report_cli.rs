//! `yardstick report` end to end: two runs of this binary's probes, the
//! second slower by the scripted clock, drawn as one page whose figures
//! are the ones `show --format=json` gives, with the verdict in the
//! terminal's words; bad input refused in one line. The micro runs are
//! timed by the scripted clock; the HTTP run and the browser's check are
//! real, and assert nothing about time.

#[path = "report_cli/browser.rs"]
mod browser;
mod common;
mod http_support;
#[path = "report_cli/paired.rs"]
mod paired;

use common::{check, json, own_child, run, yardstick};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::path::Path;
// This binary's bench draws its run with --html, as a bench that links
// the report does.
use yardstick_report as _;

yardstick::probe! {
    name: drawn_sum,
    ops: 100,
    note: "100 numbers summed",
    setup: || Ok::<_, String>((1..=100u64).collect::<Vec<_>>()),
    run: |v: &Vec<u64>| v.iter().sum::<u64>(),
    check: |_, total: &u64| if *total == 5050 { Ok(()) } else { Err(format!("sum {total}")) },
}

yardstick::probe! {
    name: drawn_max,
    ops: 100,
    note: "the largest of 100 numbers",
    setup: || Ok::<_, String>((1..=100u64).collect::<Vec<_>>()),
    run: |v: &Vec<u64>| v.iter().copied().max().unwrap_or(0),
    check: |_, most: &u64| if *most == 100 { Ok(()) } else { Err(format!("max {most}")) },
}

/// A run of both probes saved to `save`, each sample of `drawn_sum`
/// taking `sum_ms` by the scripted clock.
fn saved(save: &Path, sum_ms: &str) -> Result<(), Failed> {
    let mut cmd = own_child("main", &script(sum_ms));
    cmd.args(["micro", "--repeat=5", "--warmup=1", "-q", "--no-baseline"])
        .arg(format!("--save={}", save.display()));
    let ran = run(cmd);
    check(ran.code == 0, "a run to draw", &ran)
}

/// The scripted clock: a loop of 2 ms, so that x calib and milliseconds
/// differ, and each sample of `drawn_sum` taking `sum_ms`.
fn script(sum_ms: &str) -> String {
    format!("@calibration=2; drawn_sum={sum_ms}; drawn_max=0.001")
}

/// This binary as `cargo bench` runs it, `drawn_sum` taking `sum_ms` a
/// sample, judged against `baseline` and drawing its run to `page`.
fn bench(sum_ms: &str, baseline: &Path, page: &Path) -> std::process::Command {
    let mut cmd = own_child("bench", &script(sum_ms));
    cmd.args(["--bench", "--repeat=5", "--warmup=1", "-q"])
        .arg(format!("--baseline={}", baseline.display()))
        .arg(format!("--html={}", page.display()));
    cmd
}

/// The first run committed in `folder` of the project (a count or kernel
/// baseline of the reference suite), whatever its set-up's name.
fn committed(folder: &str) -> Result<std::path::PathBuf, Failed> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut all: Vec<_> = std::fs::read_dir(root)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    all.sort();
    all.first()
        .cloned()
        .ok_or_else(|| format!("no run committed in {folder}").into())
}

/// `yardstick report RUN [EXTRA...] --html=PAGE`, which must exit 0: what
/// it printed, and the page.
pub fn drawn(run: &Path, page: &Path, extra: &[&str]) -> Result<(common::Ran, String), Failed> {
    let html = format!("--html={}", page.display());
    let mut args = vec![run.to_str().unwrap_or("")];
    args.extend(extra);
    args.push(&html);
    let ran = report(&args);
    check(ran.code == 0, "report exits 0", &ran)?;
    let text = std::fs::read_to_string(page)?;
    Ok((ran, text))
}

fn report(args: &[&str]) -> common::Ran {
    let mut cmd = yardstick();
    cmd.arg("report").args(args);
    run(cmd)
}

fn a_slower_run_is_drawn_with_its_verdict_and_the_figures_show_gives() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let (base, slow) = (t.path().join("base.json"), t.path().join("slow.json"));
    saved(&base, "0.002")?;
    saved(&slow, "0.004")?;
    let page = t.path().join("out/report.html");
    let baseline = format!("--baseline={}", base.display());
    let (ran, html) = drawn(&slow, &page, &[&baseline])?;
    for part in [
        ">drawn_sum</h3>",
        ">drawn_max</h3>",
        "FAIL: slower than the baseline",
        "<td>REGRESSED</td>",
        "<td class=\"number\">+100.0 %</td>",
        "Where and how it was measured",
        "default-src 'none'",
    ] {
        check(html.contains(part), &format!("the page has {part}"), &ran)?;
    }
    // A change chart, then per probe its rounds and round by round.
    check(
        html.matches("<svg").count() == 1 + 2 * 2 && !html.contains("<script"),
        "every chart drawn, no script",
        &ran,
    )?;
    // The bench draws the same page itself, judged as it runs.
    let own = t.path().join("own.html");
    let ran = run(bench("0.004", &base, &own));
    check(ran.code == 1, "the bench regresses", &ran)?;
    let drawn = std::fs::read_to_string(&own)?;
    check(
        drawn.contains("<td>REGRESSED</td>") && drawn.contains(">drawn_sum</h3>"),
        "the bench's own page",
        &ran,
    )?;
    let shown = run(yardstick().args(["show", slow.to_str().unwrap_or(""), "--json"]));
    let doc = json(&shown.stdout);
    // Each row's figures table, cell beside its name, as show gives them.
    for row in doc["rows"].as_array().into_iter().flatten() {
        let figures = [
            "min", "mean", "median", "p90", "p95", "p99", "max", "stddev",
        ];
        for name in figures {
            let value = row[name].as_f64().unwrap_or(f64::NAN);
            let cell = format!(
                "<td>{name} (ms)</td><td class=\"number\">{}</td>",
                yardstick_output::layout::significant(value, 4)
            );
            check(
                html.contains(&cell),
                &format!("{}'s {name} as show gives it", row["key"]),
                &ran,
            )?;
        }
    }
    Ok(())
}

/// A committed count baseline of the reference suite: each probe's
/// estimated cycles split where they go, with its counts in the table.
fn a_counted_run_shows_where_its_cycles_go() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let counts = committed("baselines/micro/counts")?;
    let page = t.path().join("counts.html");
    let (ran, html) = drawn(&counts, &page, &[])?;
    let doc = json(&std::fs::read_to_string(&counts)?);
    for row in doc["rows"].as_array().into_iter().flatten() {
        let key = row["key"].as_str().unwrap_or_default();
        check(
            html.contains(&format!("{key}: where the estimated cycles go")),
            &format!("{key}'s cycles split"),
            &ran,
        )?;
        let instructions = row["instructions"].as_f64().unwrap_or(f64::NAN);
        let cell = format!(
            "<td class=\"number\">{}</td>",
            yardstick_output::layout::significant(instructions, 6)
        );
        check(html.contains(&cell), &format!("{key}'s instructions"), &ran)?;
    }
    Ok(())
}

/// The committed count baseline with template_compile's
/// `Compiler::emit_text` twice as costly, its own count, its subtree and
/// the calls into it, and the probe's count by as much: a copy the
/// compiler made would move them so. Saved to `path`.
fn copied_more(path: &Path) -> Result<(), Failed> {
    const GROWN: &str = "probes::template::compile::Compiler::emit_text";
    let mut doc = json(&std::fs::read_to_string(committed(
        "baselines/micro/counts",
    )?)?);
    let rows = doc["rows"].as_array_mut().ok_or("rows")?;
    let row = rows
        .iter_mut()
        .find(|r| r["key"] == "template_compile")
        .ok_or("template_compile")?;
    let fields = ["instructions", "estimated_cycles"];
    let functions = &mut row["functions"];
    let top = functions["top"].as_array_mut().ok_or("top")?;
    let at = top.iter().position(|f| f["name"] == GROWN).ok_or(GROWN)?;
    let mut added = [0.0; 2];
    for (i, field) in fields.iter().enumerate() {
        let inclusive = top[at]["inclusive"][field].as_f64().unwrap_or(0.0);
        added[i] = inclusive;
        top[at]["inclusive"][*field] = Value::from(2.0 * inclusive);
        let own = top[at]["self"][field].as_f64().unwrap_or(0.0);
        top[at]["self"][*field] = Value::from(own + inclusive);
    }
    for c in functions["calls"].as_array_mut().into_iter().flatten() {
        if c["callee"].as_u64() == Some(at as u64) {
            for (i, field) in fields.iter().enumerate() {
                let v = c["inclusive"][field].as_f64().unwrap_or(0.0);
                c["inclusive"][*field] = Value::from(v + added[i]);
            }
        }
    }
    for (i, field) in fields.iter().enumerate() {
        let v = row[*field].as_f64().unwrap_or(0.0);
        row[*field] = Value::from(v + added[i]);
    }
    std::fs::write(path, doc.to_string())?;
    Ok(())
}

/// A count that moved: the page draws where it moved as a flame graph
/// against the baseline's, the grown function red and the rest grey.
fn a_count_that_moved_is_drawn_as_a_differential_flame_graph() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let now = t.path().join("now.json");
    copied_more(&now)?;
    let base = committed("baselines/micro/counts")?;
    let page = t.path().join("flame.html");
    let baseline = format!("--baseline={}", base.display());
    let (ran, html) = drawn(&now, &page, &[&baseline])?;
    check(
        html.contains("template_compile: where the count moved")
            && html.contains("red grew against the baseline")
            && html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flame\"")
            && !html.contains("ini_parse: where the count moved"),
        "the moved probe alone has a flame graph",
        &ran,
    )?;
    check(
        html.contains("Where template_compile moved")
            && html.contains("<td>probes::template::compile::Compiler::emit_text</td>"),
        "the page names the function that moved, in a table",
        &ran,
    )?;
    let frame = |name: &str| {
        html.split("<g><title>")
            .find(|g| g.starts_with(name))
            .unwrap_or_default()
            .to_string()
    };
    check(
        frame("probes::template::compile::Compiler::emit_text").contains("fill=\"rgb(200,40,40)\"")
            && frame("probes::template::parser::parse").contains("fill=\"rgb(215,215,215)\""),
        "the grown function is red, a function that did not move grey",
        &ran,
    )?;
    Ok(())
}

/// A timed regression explained by counts (`--explain`): the page says
/// what the counts found, or why nothing was counted.
fn an_explained_regression_shows_its_counts() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let (base, slow) = (t.path().join("base.json"), t.path().join("slow.json"));
    saved(&base, "0.002")?;
    saved(&slow, "0.004")?;
    // The explanation: the counts of the grown copy against the committed
    // ones, as `compare` judges them.
    let moved = t.path().join("moved.json");
    copied_more(&moved)?;
    let counts = committed("baselines/micro/counts")?;
    let judged = run(yardstick()
        .args(["compare", "--format=json"])
        .arg(&counts)
        .arg(&moved));
    check(judged.code == 1, "the counts moved", &judged)?;
    let baseline = format!("--baseline={}", base.display());
    for (explanation, said) in [
        (
            serde_json::json!({"by": "counts", "comparison": json(&judged.stdout)}),
            "Where template_compile moved",
        ),
        (
            serde_json::json!({"by": "uncounted", "why": "no count baseline is committed in x"}),
            "Not explained by counts: no count baseline is committed in x.",
        ),
    ] {
        let mut doc = json(&std::fs::read_to_string(&slow)?);
        doc["explanation"] = explanation;
        let explained = t.path().join("explained.json");
        std::fs::write(&explained, doc.to_string())?;
        let (ran, html) = drawn(&explained, &t.path().join("explained.html"), &[&baseline])?;
        check(
            html.contains("Explained by counts") && html.contains(said),
            &format!("the page says {said}"),
            &ran,
        )?;
    }
    Ok(())
}

/// An HTTP run of two servers: their side-by-side table, and per page and
/// server a histogram of 40 bars however many requests, and the status
/// counted.
fn an_http_run_shows_each_page_of_each_server() -> Result<(), Failed> {
    let (a, b) = (http_support::start(), http_support::start());
    let t = tempfile::tempdir()?;
    let save = t.path().join("http.json");
    let mut cmd = yardstick();
    cmd.args([
        "http",
        &format!("--compare={},{}", a.base(), b.base()),
        "--url=/",
        "--requests=40",
        "--concurrency=2",
        "-q",
        &format!("--save={}", save.display()),
    ]);
    let ran = run(cmd);
    check(ran.code == 0, "an HTTP run to draw", &ran)?;
    let page = t.path().join("http.html");
    let (ran, html) = drawn(&save, &page, &[])?;
    check(
        html.contains("Servers side by side") && html.contains("<td>status</td>"),
        "the servers' table and the status counted",
        &ran,
    )?;
    let doc = json(&std::fs::read_to_string(&save)?);
    let rows = doc["rows"].as_array().cloned().unwrap_or_default();
    check(rows.len() == 2, "a row per server", &ran)?;
    for row in &rows {
        let key = row["key"].as_str().unwrap_or_default();
        let label = format!("aria-label=\"{key}: every request&#39;s time\"");
        check(
            html.contains(&label),
            &format!("{key} has its histogram"),
            &ran,
        )?;
    }
    // A row of more requests than it keeps one by one has buckets in
    // place of samples: it is drawn from them.
    let mut bucketed = doc.clone();
    let row = &mut bucketed["rows"][0];
    let key = row["key"].as_str().unwrap_or_default().to_string();
    row["samples"] = serde_json::json!([]);
    // The buckets count every answer, as the row's n says.
    row["n"] = serde_json::json!(200000);
    row["requests"] = serde_json::json!(200000 + row["errors"].as_u64().unwrap_or(0));
    row["histogram"] = serde_json::json!({
        "digits": 3,
        "buckets": [{"ms": 0.5, "count": 150000}, {"ms": 2.0, "count": 50000}],
    });
    let bucketed_run = t.path().join("bucketed.json");
    std::fs::write(&bucketed_run, bucketed.to_string())?;
    let (ran, html) = drawn(&bucketed_run, &t.path().join("bucketed.html"), &[])?;
    let label = format!("aria-label=\"{key}: every request&#39;s time, from its buckets\"");
    check(
        html.contains(&label),
        "a bucketed row is drawn from its buckets",
        &ran,
    )?;
    Ok(())
}

/// The committed kernel baseline: its in-process probes as a micro run's,
/// and every figure of the process probes beside the empty child's.
fn a_kernel_run_shows_its_processes_against_their_floor() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let kernel = committed("baselines/kernel")?;
    let page = t.path().join("kernel.html");
    let (ran, html) = drawn(&kernel, &page, &[])?;
    check(
        html.contains("Whole processes, against their floor"),
        "the processes have their section",
        &ran,
    )?;
    let doc = json(&std::fs::read_to_string(&kernel)?);
    for row in doc["rows"].as_array().into_iter().flatten() {
        let key = row["key"].as_str().unwrap_or_default();
        let shown = if row["kind"] == "process" {
            format!("<td>{key}</td>")
        } else {
            format!(">{key}</h3>")
        };
        check(html.contains(&shown), &format!("{key} is drawn"), &ran)?;
        if let Some((_, figure)) = key.split_once('.') {
            check(
                html.contains(&format!("aria-label=\"process figure {figure}\"")),
                &format!("{figure} has its chart"),
                &ran,
            )?;
        }
    }
    Ok(())
}

fn bad_input_is_one_line_and_exit_2() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let good = t.path().join("good.json");
    saved(&good, "0.002")?;
    let not_a_run = t.path().join("notes.json");
    std::fs::write(&not_a_run, "{\"hello\": 1}")?;
    let blocked = t.path().join("not-a-folder");
    std::fs::write(&blocked, "")?;
    let page = format!("--html={}", t.path().join("r.html").display());
    let cases: [(Vec<String>, &str); 4] = [
        (
            vec![
                good.display().to_string(),
                format!("--html={}", good.display()),
            ],
            "which it would replace",
        ),
        (vec![good.display().to_string()], "usage: yardstick report"),
        (
            vec![not_a_run.display().to_string(), page.clone()],
            "notes.json",
        ),
        (
            vec![
                good.display().to_string(),
                format!("--html={}", blocked.join("r.html").display()),
            ],
            "not-a-folder",
        ),
    ];
    for (args, says) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let ran = report(&args);
        check(
            ran.code == 2
                && ran.stderr.trim_end().lines().count() == 1
                && ran.stderr.contains(says),
            &format!("{args:?}: exit 2, one line naming {says}"),
            &ran,
        )?;
    }
    check(
        std::fs::read_to_string(&good)?.starts_with('{'),
        "the run named as the page is left as it was",
        &report(&[]),
    )?;
    // A bench recording into the history YARDSTICK_HISTORY names may not
    // draw its page over it, nor over the baseline it judges by.
    let history = t.path().join("h.sqlite");
    for (page, env) in [(&history, true), (&good, false)] {
        let mut cmd = bench("0.002", &good, page);
        if env {
            cmd.env("YARDSTICK_HISTORY", &history);
        }
        let ran = run(cmd);
        check(
            ran.code == 2 && ran.stderr.contains("--html") && ran.stderr.contains("replace"),
            &format!("{}: refused before measuring", page.display()),
            &ran,
        )?;
    }
    check(!history.exists(), "no history was made", &report(&[]))?;
    check(
        !t.path().join("r.html").exists(),
        "nothing is written for a refused run",
        &report(&[]),
    )
}

/// A page of every kind, and a trend of the history, in a real browser.
fn every_kind_of_page_loads_in_a_real_browser() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let dir = t.path();
    let (base, slow) = (dir.join("base.json"), dir.join("slow.json"));
    saved(&base, "0.002")?;
    saved(&slow, "0.004")?;
    let page = |name: &str| dir.join(format!("{name}.html"));
    let html = |name: &str| format!("--html={}", page(name).display());
    let path = |p: &Path| p.display().to_string();
    let baseline = format!("--baseline={}", base.display());
    browser::made(&["report", &path(&slow), &baseline, &html("micro")])?;
    browser::made(&[
        "report",
        &path(&committed("baselines/micro/counts")?),
        &html("counts"),
    ])?;
    browser::made(&[
        "report",
        &path(&committed("baselines/kernel")?),
        &html("kernel"),
    ])?;
    let server = http_support::start();
    let url = format!("--url={}", server.url("/"));
    browser::made(&["http", &url, "--requests=20", "-q", &html("http")])?;
    let history = format!("--history={}", dir.join("h.sqlite").display());
    browser::made(&["history", "add", &path(&base), &path(&slow), &history])?;
    browser::made(&["history", "trend", "drawn_sum", &history, &html("trend")])?;
    paired::made(&dir.join("paired.json"), &page("paired"))?;
    let moved = dir.join("moved.json");
    copied_more(&moved)?;
    let counts = format!(
        "--baseline={}",
        committed("baselines/micro/counts")?.display()
    );
    browser::made(&["report", &path(&moved), &counts, &html("flame")])?;
    const REPORT: browser::Wanted = &["h1", "figure.chart svg", "h3", "table"];
    browser::pages_load_cleanly(&[
        (
            page("micro"),
            &["h1", "figure.chart svg", "h3", "table", "td.number"],
        ),
        (page("counts"), REPORT),
        (page("kernel"), REPORT),
        (page("http"), REPORT),
        (page("trend"), &["h1", "figure.chart svg", "table"]),
        (page("paired"), &["h1", "figure.chart svg", "h3", "table"]),
        (
            page("flame"),
            &["h1", "figure.chart svg rect", "h3", "table"],
        ),
    ])
}

fn main() {
    match std::env::var("YARDSTICK_E2E_CHILD").as_deref() {
        Ok("main") => std::process::exit(yardstick_cli::main()),
        Ok("bench") => std::process::exit(yardstick::run_main()),
        _ => {}
    }
    let trials = vec![
        Trial::test(
            "a_slower_run_is_drawn_with_its_verdict_and_the_figures_show_gives",
            a_slower_run_is_drawn_with_its_verdict_and_the_figures_show_gives,
        ),
        Trial::test(
            "a_counted_run_shows_where_its_cycles_go",
            a_counted_run_shows_where_its_cycles_go,
        ),
        Trial::test(
            "a_count_that_moved_is_drawn_as_a_differential_flame_graph",
            a_count_that_moved_is_drawn_as_a_differential_flame_graph,
        ),
        Trial::test(
            "an_explained_regression_shows_its_counts",
            an_explained_regression_shows_its_counts,
        ),
        Trial::test(
            "a_paired_comparison_shows_its_rounds_and_its_test",
            paired::a_paired_comparison_shows_its_rounds_and_its_test,
        ),
        Trial::test(
            "a_kernel_run_shows_its_processes_against_their_floor",
            a_kernel_run_shows_its_processes_against_their_floor,
        ),
        Trial::test(
            "an_http_run_shows_each_page_of_each_server",
            an_http_run_shows_each_page_of_each_server,
        ),
        common::needing(
            "chromium",
            browser::chromium().is_some(),
            "every_kind_of_page_loads_in_a_real_browser",
            every_kind_of_page_loads_in_a_real_browser,
        ),
        Trial::test(
            "bad_input_is_one_line_and_exit_2",
            bad_input_is_one_line_and_exit_2,
        ),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}
