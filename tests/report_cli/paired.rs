//! A paired comparison (`compare-builds`) drawn: its saved rounds, the
//! chart of each round's change by worker pair, and the signed-rank test
//! in words.

use super::common::{Ran, check, json, run, yardstick};
use libtest_mimic::Failed;
use std::path::Path;

/// `compare-builds` of this binary against itself on `drawn_sum`, the new
/// build's work doubled and every sample timed by the scripted clock, saved
/// to `save` and drawn to `page`: every one of eight pairs slower.
pub fn made(save: &Path, page: &Path) -> Result<Ran, Failed> {
    let me = std::env::current_exe()?;
    let mut cmd = yardstick();
    cmd.arg("compare-builds")
        .arg(&me)
        .arg(&me)
        .args(["--rounds=8", "--repeat=3", "--probe=drawn_sum", "--seed=1"])
        .args([
            "--min-batch=200",
            "-q",
            "--env-new=YARDSTICK_INJECT=drawn_sum:100",
        ])
        .arg(format!("--save={}", save.display()))
        .arg(format!("--html={}", page.display()))
        .env("YARDSTICK_E2E_CHILD", "bench")
        .env("YARDSTICK_FAKE_CLOCK", "drawn_sum=0.004");
    let ran = run(cmd);
    check(ran.code == 1, "the doubled work regresses", &ran)?;
    Ok(ran)
}

/// A paired comparison: per probe each round's change by worker pair, and
/// the signed-rank test in words with the p-value the saved run holds.
pub fn a_paired_comparison_shows_its_rounds_and_its_test() -> Result<(), Failed> {
    let t = tempfile::tempdir()?;
    let (save, page) = (t.path().join("paired.json"), t.path().join("paired.html"));
    let ran = made(&save, &page)?;
    let html = std::fs::read_to_string(&page)?;
    let doc = json(&std::fs::read_to_string(&save)?);
    let c = &doc["comparison"]["checks"][0];
    let rounds = c["rounds"].as_array().cloned().unwrap_or_default();
    check(rounds.len() == 8, "the eight rounds are kept", &ran)?;
    let p = c["p_value"].as_f64().unwrap_or(f64::NAN);
    for part in [
        "drawn_sum: the new build against the old, round by round".to_string(),
        "Wilcoxon signed-rank test over the 8 pairs".to_string(),
        format!("gives p = {}", yardstick_output::layout::significant(p, 3)),
        "the pairs agree on a slowdown".to_string(),
        "<td>REGRESSED</td>".to_string(),
    ] {
        check(html.contains(&part), &format!("the page has {part}"), &ran)?;
    }
    // Each round a dot in the chart of rounds; the same page from the
    // saved run.
    let label = "aria-label=\"drawn_sum: the new build against the old, round by round\"";
    let chart = html
        .split_once(label)
        .map(|(_, after)| after)
        .unwrap_or_default();
    let chart = chart.split("</figure>").next().unwrap_or_default();
    check(
        chart.matches("<circle").count() == 8,
        "a dot per round",
        &ran,
    )?;
    let again = t.path().join("again.html");
    let (ran, drawn) = super::drawn(&save, &again, &[])?;
    check(
        drawn.contains("Wilcoxon signed-rank test over the 8 pairs"),
        "report draws the saved comparison alike",
        &ran,
    )
}
