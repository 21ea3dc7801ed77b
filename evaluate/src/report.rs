//! `report.md`: the headline table first (what a reader needs to trust or
//! distrust the check), then the spreads, the per-probe figures, the plots,
//! and how the figures were made.

use crate::results::{Block, Results};
use crate::stats::{Rate, Spread};
use std::fmt::Write;

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

/// Renders the whole report.
pub fn render(r: &Results, plots: &[String]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Verdict quality, {}\n", r.started);
    let _ = writeln!(s, "Command:\n\n```\n{}\n```\n", r.command);
    let _ = writeln!(
        s,
        "Took {:.1} min (expected {:.1} min at the start). Threshold {} %, yardstick's own comparison rules.\n",
        r.seconds / 60.0,
        r.estimate_seconds / 60.0,
        r.setup.threshold
    );
    if r.plan.aa_runs < HEADLINE_RUNS {
        let _ = writeln!(
            s,
            "**Not headline figures:** {} A/A runs per condition, fewer than {HEADLINE_RUNS}; the intervals below are correspondingly wide.\n",
            r.plan.aa_runs
        );
    }
    headline(&mut s, r);
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
    setup(&mut s, r);
    s
}

fn headline(s: &mut String, r: &Results) {
    let _ = writeln!(s, "## Headline\n");
    let _ = writeln!(
        s,
        "Suite false alarms: share of A/A runs in which any probe was flagged, with its 95 % Clopper-Pearson interval. \
         Power: share of (probe, run) pairs flagged with the slowdown injected into every probe. \
         Mean load: the 1-minute load average before each run, averaged.\n"
    );
    let mut head = "| condition | method | mean load | A/A runs | suite false alarms |".to_string();
    let mut rule = "|---|---|---:|---:|---|".to_string();
    for pct in &r.plan.slowdowns {
        let _ = write!(head, " power at {pct} % |");
        rule.push_str("---|");
    }
    let _ = writeln!(s, "{head}\n{rule}");
    for b in &r.blocks {
        let _ = write!(
            s,
            "| {} | {} | {} | {} | {} |",
            b.condition.as_str(),
            b.method.as_str(),
            b.mean_load.map_or("n/a".to_string(), |l| format!("{l:.2}")),
            b.aa.runs,
            rate(&b.aa.suite)
        );
        for p in &b.power {
            let _ = write!(s, " {} |", share(&p.pooled));
        }
        s.push('\n');
    }
    s.push('\n');
}

fn spreads(s: &mut String, r: &Results) {
    let _ = writeln!(s, "## A/A |change| against the baseline (percent)\n");
    let _ = writeln!(
        s,
        "Every probe of every A/A run. *raw*: the median in milliseconds; *normalised*: the median divided by the run's calibration median (the figure the verdict judges).\n"
    );
    let _ = writeln!(
        s,
        "| condition | method | figure | p50 | p95 | p99 | max |\n|---|---|---|---:|---:|---:|---:|"
    );
    for b in &r.blocks {
        for (name, spread) in [("raw", &b.aa.raw), ("normalised", &b.aa.judged)] {
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
        let _ = writeln!(s, "Mean bench run: {secs:.2} s. {}\n", load(b));
    }
    let _ = writeln!(
        s,
        "| probe | A/A false alarms | normalised p95 % | raw p95 % | raw change in ms, absolute: p50 / p95 / p99 / max |\n|---|---|---:|---:|---|"
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

fn setup(s: &mut String, r: &Results) {
    let m = &r.machine;
    let u = &r.setup;
    let _ = writeln!(s, "## How it was measured\n");
    let smt = match m.smt_siblings {
        Some(true) => "yes: they share one core, so a hog competes for its execution units",
        Some(false) => "no: they are separate cores",
        None => "unknown (the kernel does not say)",
    };
    let _ = writeln!(
        s,
        "- Machine: {} ({}), CPUs {:?}, kernel {}{}; threads per core: {}.",
        m.host,
        m.cpu_model,
        m.cpus,
        m.kernel,
        m.hypervisor
            .as_ref()
            .map_or(String::new(), |h| format!(", hypervisor {h}")),
        m.threads_per_core.as_deref().unwrap_or("unknown")
    );
    let _ = writeln!(
        s,
        "- Benchmark pinned to CPU {}, hogs to CPU {}. SMT siblings: {smt} (CPU {} thread siblings: {}).",
        u.bench_cpu,
        u.hog_cpu,
        u.bench_cpu,
        m.bench_cpu_siblings.as_deref().unwrap_or("unknown")
    );
    let _ = writeln!(s, "- One bench run (A/A): `{}`", u.bench_command);
    let _ = writeln!(
        s,
        "- Power runs set `YARDSTICK_INJECT='*:X'`: every sample of every probe runs round({} x (1 + X/100)) iterations and is still divided by {}.",
        u.sampling.min_batch, u.sampling.min_batch
    );
    let _ = writeln!(
        s,
        "- Repeats: {} measured samples after {} warm-up per probe, batch fixed at {} iterations for the baseline and every run.",
        u.sampling.repeat, u.sampling.warmup, u.sampling.min_batch
    );
    let _ = writeln!(
        s,
        "- Baseline: `{}`, one run made under quiet conditions at the start ({:.2} s).",
        u.baseline, u.baseline_seconds
    );
    let _ = writeln!(
        s,
        "- Runs per condition and method: {} A/A, {} per slowdown ({}), in a seeded random order (seed {}).",
        r.plan.aa_runs,
        r.plan.power_runs,
        r.plan
            .slowdowns
            .iter()
            .map(|p| format!("{p} %"))
            .collect::<Vec<_>>()
            .join(", "),
        r.plan.seed
    );
    for c in &r.plan.conditions {
        let _ = writeln!(s, "- Condition `{}`: {}.", c.as_str(), c.describe());
    }
    let _ = writeln!(
        s,
        "- Memory hog buffer {} MiB; bursty hog periods {}-{} s on and off.",
        u.memory_mib, u.burst_min, u.burst_max
    );
    for meth in &r.plan.methods {
        let _ = writeln!(s, "- Method `{}`: {}.", meth.as_str(), meth.describe());
    }
    let _ = writeln!(
        s,
        "- An inconclusive verdict counts as no alarm in A/A and as a miss in power. Every trial is in `results.json`."
    );
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bench::Sampling;
    use crate::machine::Machine;
    use crate::plan::{Condition, Method, Plan};
    use crate::results::{Record, Setup, summarise, tests::trial};
    use crate::verdict::Verdict::*;

    pub fn sample_results() -> Results {
        let probes = vec!["a".to_string(), "b".to_string()];
        let plan = Plan {
            conditions: vec![Condition::Quiet, Condition::Cpu],
            methods: vec![Method::StoredBaseline],
            aa_runs: 2,
            power_runs: 1,
            slowdowns: vec![25.0],
            seed: 3,
        };
        let mut records = Vec::new();
        let mut blocks = Vec::new();
        for c in &plan.conditions {
            let trials = vec![
                trial(None, &[("a", Pass, 1.0), ("b", Pass, -2.0)]),
                trial(None, &[("a", Regressed, 4.0), ("b", Pass, 0.5)]),
                trial(Some(25.0), &[("a", Regressed, 24.0), ("b", Pass, 12.0)]),
            ];
            blocks.push(summarise(
                *c,
                Method::StoredBaseline,
                &trials,
                &probes,
                &plan.slowdowns,
            ));
            records.extend(trials.into_iter().map(|t| Record {
                condition: *c,
                method: Method::StoredBaseline,
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
                bench_command: "/b/micro --bench".into(),
                baseline: "baseline.json".into(),
                baseline_seconds: 1.8,
                bench_cpu: 0,
                hog_cpu: 1,
                memory_mib: 256,
                burst_min: 0.2,
                burst_max: 5.0,
            },
            plan,
            probes,
            blocks,
            trials: records,
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
        assert!(text.contains("**Not headline figures:** 2 A/A runs"));
        // One run of two flagged a probe: 50 %.
        assert!(
            text.contains(
                "| quiet | stored-baseline | 1.67 | 2 | 50.00 % [1.26, 98.74] | 1/2 (50 %) |"
            ),
            "{text}"
        );
        assert!(text.contains("| cpu | stored-baseline | normalised | 1.50 | 3.70 | "));
        assert!(text.contains("| a | 50.00 % [1.26, 98.74] |"));
        assert!(text.contains("Power per probe:\n\n| probe | 25 % |"));
        assert!(text.contains("| b | 0/1 (0 %) |"));
        assert!(text.contains("![power.svg](power.svg)"));
        assert!(text.contains("SMT siblings: no: they are separate cores"));
        assert!(text.contains("3 measured samples after 1 warm-up"));
        assert!(text.contains("load average before the runs: mean 1.67, highest 3.00"));
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
    }

    #[test]
    fn enough_runs_drop_the_caveat() {
        let mut r = sample_results();
        r.plan.aa_runs = HEADLINE_RUNS;
        assert!(!render(&r, &[]).contains("Not headline"));
    }
}
