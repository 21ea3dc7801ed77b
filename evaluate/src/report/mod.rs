//! `report.md`: the headline table first (what a reader needs to trust or
//! distrust the check), then the spreads, the per-probe figures, the plots,
//! and how the figures were made.

use crate::plan::Method;
use crate::results::{Block, Results};
use crate::stats::{Rate, Spread};
use crate::targets;
use std::fmt::Write;

mod setup;

use setup::setup;

/// Fewer A/A runs than this cannot bound a false-alarm rate near 1 %.
pub const HEADLINE_RUNS: usize = 300;

/// A rate as `1.33 % [0.28, 3.86]` (95 % interval), or `n/a`.
pub fn rate(r: &Rate) -> String {
    match (r.rate, r.low, r.high) {
        (Some(p), Some(lo), Some(hi)) => {
            format!("{:.2} % [{:.2}, {:.2}]", p * 100.0, lo * 100.0, hi * 100.0)
        }
        _ => "n/a".to_string(),
    }
}

/// A rate as a share with its count, `18/20 (90 %)`, for power.
pub fn share(r: &Rate) -> String {
    match r.rate {
        Some(p) => format!("{}/{} ({:.0} %)", r.events, r.trials, p * 100.0),
        None => "n/a".to_string(),
    }
}

fn spread_cells(s: &Option<Spread>, unit: &str) -> String {
    match s {
        Some(s) => format!(
            "{:.2}{unit} | {:.2}{unit} | {:.2}{unit} | {:.2}{unit}",
            s.p50, s.p95, s.p99, s.max
        ),
        None => "n/a | n/a | n/a | n/a".to_string(),
    }
}

fn p95(s: &Option<Spread>) -> String {
    s.map_or("n/a".to_string(), |s| format!("{:.2}", s.p95))
}

/// The load the block ran under, as a sentence.
fn load(b: &Block) -> String {
    match (b.mean_load, b.max_load) {
        (Some(mean), Some(max)) => format!(
            "1-minute load average before the runs: mean {mean:.2}, highest {max:.2} (the harness's own bench adds about 1, a hog another 1)."
        ),
        _ => "Load average unknown.".to_string(),
    }
}

fn block_name(b: &Block) -> String {
    format!("{} / {}", b.condition.as_str(), b.method.as_str())
}

/// What the method's verdict judges: the "judged" figure of the spreads.
pub fn judged_figure(m: Method) -> &'static str {
    match m {
        Method::StoredBaseline | Method::Confirmed => "normalised median",
        Method::Paired => "median paired ratio",
        Method::Instructions => "instruction count",
    }
}

/// `†` after a count too small for a headline figure.
fn runs_cell(runs: usize) -> String {
    if runs < HEADLINE_RUNS {
        format!("{runs} †")
    } else {
        runs.to_string()
    }
}

/// Every slowdown any block measured, ascending.
fn slowdowns(r: &Results) -> Vec<f64> {
    let mut all: Vec<f64> = r
        .blocks
        .iter()
        .flat_map(|b| b.power.iter().map(|p| p.slowdown))
        .collect();
    all.sort_by(f64::total_cmp);
    all.dedup();
    all
}

/// Renders the whole report.
pub fn render(r: &Results, plots: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Verdict quality, {}\n", r.started);
    let _ = writeln!(s, "Command:\n\n```\n{}\n```\n", r.command);
    let _ = writeln!(
        s,
        "Took {:.1} min (expected {:.1} min at the start). Every verdict is yardstick's own; the harness only counts them.\n",
        r.seconds / 60.0,
        r.estimate_seconds / 60.0,
    );
    parts(&mut s, r);
    if r.blocks.iter().any(|b| b.aa.runs < HEADLINE_RUNS) {
        let _ = writeln!(
            s,
            "**Not headline figures** where marked †: fewer than {HEADLINE_RUNS} A/A runs, so the intervals are correspondingly wide (0 alarms in n runs still allows up to 1 - 0.025^(1/n): 16.8 % at 20, 1.2 % at 300).\n"
        );
    }
    headline(&mut s, r);
    targets(&mut s, r);
    spreads(&mut s, r);
    for b in &r.blocks {
        per_probe(&mut s, b);
    }
    if !plots.is_empty() {
        let _ = writeln!(s, "## Plots\n");
        for p in plots {
            let _ = writeln!(s, "![{p}]({p})\n");
        }
    }
    timing(&mut s, r);
    setup(&mut s, r);
    s
}

/// Where a combined evaluation's trials came from.
fn parts(s: &mut String, r: &Results) {
    if r.parts.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "Combined from {} evaluations made the same way, each with its own seed; every figure below is over the union of their trials:\n\n| part | started | commit | seed | trials | took |\n|---|---|---|---:|---:|---:|",
        r.parts.len()
    );
    for p in &r.parts {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} | {:.1} min |",
            p.folder,
            p.started,
            p.commit
                .as_deref()
                .map_or("unknown", |c| c.get(..12).unwrap_or(c)),
            p.seed,
            p.trials,
            p.seconds / 60.0
        );
    }
    s.push('\n');
    for p in &r.parts {
        let _ = writeln!(s, "- `{}`: `{}`", p.folder, p.command);
    }
    s.push('\n');
}

fn headline(s: &mut String, r: &Results) {
    let _ = writeln!(s, "## Headline\n");
    let _ = writeln!(
        s,
        "Suite false alarms: share of A/A runs in which any probe was flagged, with its 95 % Clopper-Pearson interval. \
         Power: share of (probe, run) pairs flagged with the slowdown injected into every probe (an inconclusive verdict is a miss). \
         Mean load: the 1-minute load average before each run, averaged.\n"
    );
    let all = slowdowns(r);
    let mut head = "| condition | method | threshold | mean load | A/A runs | suite false alarms |"
        .to_string();
    let mut rule = "|---|---|---:|---:|---:|---|".to_string();
    for pct in &all {
        let _ = write!(head, " power at {pct} % |");
        rule.push_str("---|");
    }
    let _ = writeln!(s, "{head}\n{rule}");
    for b in &r.blocks {
        let _ = write!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            b.condition.as_str(),
            b.method.as_str(),
            b.threshold.map_or("n/a".to_string(), |t| format!("{t} %")),
            b.mean_load.map_or("n/a".to_string(), |l| format!("{l:.2}")),
            runs_cell(b.aa.runs),
            rate(&b.aa.suite)
        );
        for pct in &all {
            let cell = b
                .power
                .iter()
                .find(|p| p.slowdown == *pct)
                .map_or("–".to_string(), |p| share(&p.pooled));
            let _ = write!(s, " {cell} |");
        }
        s.push('\n');
    }
    s.push('\n');
}

fn targets(s: &mut String, r: &Results) {
    let _ = writeln!(s, "## Against the targets\n");
    let _ = writeln!(
        s,
        "| method | condition | target | measured | 95 % interval | met |\n|---|---|---|---|---|---|"
    );
    for v in targets::check_all(r) {
        let t = v.target;
        let (measured, interval) = match v.measured {
            Some(m) => (
                format!(
                    "{}/{} ({:.2} %)",
                    m.events,
                    m.trials,
                    m.rate.unwrap_or(0.0) * 100.0
                ),
                match (m.low, m.high) {
                    (Some(lo), Some(hi)) => format!("[{:.2}, {:.2}]", lo * 100.0, hi * 100.0),
                    _ => "n/a".to_string(),
                },
            ),
            None => ("not measured".to_string(), String::new()),
        };
        let few = match (t.goal, v.measured) {
            (targets::Goal::FalseAlarms { .. }, Some(m)) if m.trials < HEADLINE_RUNS as u64 => " †",
            _ => "",
        };
        let met = match v.met {
            Some(true) => format!("yes{few}"),
            Some(false) => format!("no, by {:.2} points{few}", v.gap_points),
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {measured} | {interval} | {met} |",
            t.method.as_str(),
            t.condition.as_str(),
            t.describe()
        );
    }
    s.push('\n');
}

fn spreads(s: &mut String, r: &Results) {
    let _ = writeln!(s, "## A/A |change| (percent)\n");
    let _ = writeln!(
        s,
        "Every probe of every A/A run. *raw*: the median in milliseconds (paired: the new build's median of its round medians against the old build's). \
         *judged*: the figure the verdict judges: the median of the per-sample ratios to the calibration loop timed just before each sample (stored-baseline, confirmed), \
         the median of the per-round new/old ratios (paired), the instruction count (instructions).\n"
    );
    let _ = writeln!(
        s,
        "| condition | method | figure | p50 | p95 | p99 | max |\n|---|---|---|---:|---:|---:|---:|"
    );
    for b in &r.blocks {
        let judged = format!("judged ({})", judged_figure(b.method));
        for (name, spread) in [("raw", &b.aa.raw), (judged.as_str(), &b.aa.judged)] {
            let _ = writeln!(
                s,
                "| {} | {} | {name} | {} |",
                b.condition.as_str(),
                b.method.as_str(),
                spread_cells(spread, "")
            );
        }
    }
    s.push('\n');
}

fn per_probe(s: &mut String, b: &Block) {
    let _ = writeln!(s, "## {}\n", block_name(b));
    if let Some(secs) = b.mean_run_seconds {
        let _ = writeln!(s, "Mean trial: {secs:.2} s. {}\n", load(b));
    }
    let _ = writeln!(
        s,
        "| probe | A/A false alarms | judged p95 % | raw p95 % | raw change in ms, absolute: p50 / p95 / p99 / max |\n|---|---|---:|---:|---|"
    );
    for p in &b.aa.probes {
        let ms = p.raw_ms.map_or("n/a".to_string(), |m| {
            format!("{:.4} / {:.4} / {:.4} / {:.4}", m.p50, m.p95, m.p99, m.max)
        });
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {ms} |",
            p.probe,
            rate(&p.alarms),
            p95(&p.judged),
            p95(&p.raw)
        );
    }
    s.push('\n');
    if b.power.is_empty() {
        return;
    }
    let mut head = "| probe |".to_string();
    let mut rule = "|---|".to_string();
    for p in &b.power {
        let _ = write!(head, " {} % |", p.slowdown);
        rule.push_str("---|");
    }
    let _ = writeln!(s, "Power per probe:\n\n{head}\n{rule}");
    let names: Vec<&str> = b.aa.probes.iter().map(|p| p.probe.as_str()).collect();
    for name in names {
        let _ = write!(s, "| {name} |");
        for p in &b.power {
            let cell = p
                .probes
                .iter()
                .find(|x| x.probe == name)
                .map_or("n/a".to_string(), |x| share(&x.detected));
            let _ = write!(s, " {cell} |");
        }
        s.push('\n');
    }
    s.push('\n');
}

fn timing(s: &mut String, r: &Results) {
    if r.jobs.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "## Time per job\n\nA job is the runs of one method under one condition; stored-baseline and confirmed share theirs when their counts agree.\n\n| condition | methods | runs | expected | took |\n|---|---|---:|---:|---:|"
    );
    for j in &r.jobs {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.1} min | {:.1} min |",
            j.condition.as_str(),
            j.methods,
            j.runs,
            j.estimate_seconds / 60.0,
            j.seconds / 60.0
        );
    }
    s.push('\n');
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bench::{CountSampling, PairedSampling, Sampling};
    use crate::machine::Machine;
    use crate::plan::{Cell, Condition, Method, Plan};
    use crate::results::{JobTime, MethodCommand, Record, Setup, summarise, tests::trial};
    use crate::verdict::Verdict::*;

    /// Stored baseline quiet and under a CPU hog, paired quiet.
    pub fn sample_results() -> Results {
        let probes = vec!["a".to_string(), "b".to_string()];
        let cell = |condition, method| Cell {
            condition,
            method,
            aa_runs: 2,
            power_runs: 1,
            slowdowns: vec![25.0],
        };
        let plan = Plan::new(
            vec![
                cell(Condition::Quiet, Method::StoredBaseline),
                cell(Condition::Cpu, Method::StoredBaseline),
                cell(Condition::Quiet, Method::Paired),
            ],
            3,
        );
        let mut records = Vec::new();
        let mut blocks = Vec::new();
        for c in &plan.cells {
            let mut trials = vec![
                trial(None, &[("a", Pass, 1.0), ("b", Pass, -2.0)]),
                trial(None, &[("a", Regressed, 4.0), ("b", Pass, 0.5)]),
                trial(Some(25.0), &[("a", Regressed, 24.0), ("b", Pass, 12.0)]),
            ];
            if c.method == Method::Paired {
                for t in &mut trials {
                    t.threshold = Some(3.0);
                }
            }
            blocks.push(summarise(
                c.condition,
                c.method,
                &trials,
                &probes,
                &c.slowdowns,
            ));
            records.extend(trials.into_iter().map(|t| Record {
                condition: c.condition,
                method: c.method,
                trial: t,
            }));
        }
        Results {
            command: "evaluate --quick".into(),
            started: "2030-01-02T03:04:05Z".into(),
            seconds: 90.0,
            estimate_seconds: 80.0,
            machine: Machine {
                host: "box".into(),
                cpu_model: "Some CPU".into(),
                cpus: vec![0, 1],
                kernel: "6.1".into(),
                hypervisor: None,
                bench_cpu_siblings: Some("0".into()),
                smt_siblings: Some(false),
                threads_per_core: Some("1".into()),
            },
            setup: Setup {
                sampling: Sampling {
                    repeat: 3,
                    warmup: 1,
                    min_batch: 20,
                },
                threshold: 15.0,
                own_thresholds: false,
                paired: PairedSampling {
                    rounds: 8,
                    pairs: 8,
                    repeat: 1,
                    warmup: 0,
                },
                counts: CountSampling {
                    batch: 50,
                    probes: Vec::new(),
                },
                commands: vec![
                    MethodCommand {
                        method: Method::StoredBaseline,
                        command: "/b/micro --bench --no-baseline".into(),
                    },
                    MethodCommand {
                        method: Method::Paired,
                        command: "/t/yardstick compare-builds /b/micro /b/micro".into(),
                    },
                ],
                baseline: "baseline.json".into(),
                baseline_seconds: 1.8,
                baseline_runs: 3,
                count_baseline: None,
                count_baseline_seconds: None,
                count_workers: 1,
                bench_cpu: 0,
                hog_cpu: 1,
                memory_mib: 256,
                burst_min: 0.2,
                burst_max: 5.0,
            },
            jobs: vec![JobTime {
                condition: Condition::Quiet,
                methods: "stored-baseline".into(),
                runs: 3,
                estimate_seconds: 6.0,
                seconds: 6.6,
            }],
            plan,
            probes,
            blocks,
            trials: records,
            commit: Some("0123abc".into()),
            parts: Vec::new(),
        }
    }

    #[test]
    fn rates_render_as_percent_with_interval() {
        assert_eq!(rate(&Rate::new(0, 300)), "0.00 % [0.00, 1.22]");
        assert_eq!(rate(&Rate::new(3, 300)), "1.00 % [0.21, 2.89]");
        assert_eq!(rate(&Rate::new(0, 0)), "n/a");
        assert_eq!(share(&Rate::new(18, 20)), "18/20 (90 %)");
    }

    #[test]
    fn the_report_holds_every_section() {
        let r = sample_results();
        let text = render(&r, &["power.svg".to_string()]);
        assert!(text.starts_with("# Verdict quality, 2030-01-02T03:04:05Z"));
        assert!(text.contains("evaluate --quick"));
        assert!(text.contains("**Not headline figures** where marked †"));
        // One run of two flagged a probe: 50 %.
        assert!(
            text.contains(
                "| quiet | stored-baseline | 15 % | 1.67 | 2 † | 50.00 % [1.26, 98.74] | 1/2 (50 %) |"
            ),
            "{text}"
        );
        assert!(
            text.contains("| quiet | paired | 3 % | 1.67 | 2 † |"),
            "{text}"
        );
        assert!(
            text.contains("| cpu | stored-baseline | judged (normalised median) | 1.50 | 3.70 | ")
        );
        assert!(text.contains("| quiet | paired | judged (median paired ratio) |"));
        assert!(text.contains("| a | 50.00 % [1.26, 98.74] |"));
        assert!(text.contains("Power per probe:\n\n| probe | 25 % |"));
        assert!(text.contains("| b | 0/1 (0 %) |"));
        assert!(text.contains("![power.svg](power.svg)"));
        assert!(text.contains("SMT siblings: no: they are separate cores"));
        assert!(text.contains("- Workspace at commit 0123abc."));
        assert!(!text.contains("Combined from"));
        assert!(text.contains("3 measured samples after 1 warm-up"));
        assert!(text.contains("load average before the runs: mean 1.67, highest 3.00"));
        assert!(text.contains("One A/A trial of `paired`: `/t/yardstick compare-builds"));
        assert!(text.contains("Paired: 8 rounds"));
        assert!(text.contains("| quiet | stored-baseline | 3 | 0.1 min | 0.1 min |"));
        // The targets: measured where a block exists, else said so.
        assert!(text.contains(
            "| stored-baseline | quiet | suite false alarms ≤ 1 % | 1/2 (50.00 %) | [1.26, 98.74] | no, by 49.00 points † |"
        ), "{text}");
        assert!(text.contains("| confirmed | quiet | suite false alarms ≤ 1 % | not measured |"));
        assert!(text.contains(
            "| stored-baseline | cpu | power ≥ 95 % at 25 % | 1/2 (50.00 %) | [1.26, 98.74] | no, by 45.00 points |"
        ));
        // No stray pipe splits a table row.
        for line in text.lines().filter(|l| l.starts_with("| probe |")) {
            assert_eq!(
                line.matches('|').count(),
                line.matches(" | ").count() + 2,
                "{line}"
            );
        }
        assert!(text.contains("Condition `cpu`"));
        assert!(text.contains("Method `stored-baseline`"));
        assert!(text.contains("3 timed runs made one after another"));
        assert!(text.contains("  - quiet / paired: 2 A/A, 1 per slowdown (25 %)"));
    }

    #[test]
    fn enough_runs_drop_the_caveat() {
        let mut r = sample_results();
        for b in &mut r.blocks {
            b.aa.runs = HEADLINE_RUNS;
            b.aa.suite = Rate::new(1, HEADLINE_RUNS as u64);
        }
        let text = render(&r, &[]);
        assert!(!text.contains("Not headline"));
        assert!(!text.contains('†'));
    }
}
