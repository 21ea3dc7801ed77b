//! The report's last section, "How it was measured": everything a reader
//! needs to make the figures again or to doubt them (the machine, the
//! commands, the baselines, the plan, the conditions).

use crate::plan::Method;
use crate::results::Results;
use std::fmt::Write;

/// Writes the section.
pub fn setup(s: &mut String, r: &Results) {
    let _ = writeln!(s, "## How it was measured\n");
    machine(s, r);
    trials(s, r);
    baselines(s, r);
    methods_run(s, r);
    plan(s, r);
}

/// The machine, the commit, and where the benchmark and the hogs ran: a
/// hog on an SMT sibling competes for the benchmark's own core.
fn machine(s: &mut String, r: &Results) {
    let m = &r.machine;
    let u = &r.setup;
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
    if let Some(c) = &r.commit {
        let _ = writeln!(s, "- Workspace at commit {c}.");
    }
    let _ = writeln!(
        s,
        "- Benchmark pinned to CPU {}, hogs to CPU {}. SMT siblings: {smt} (CPU {} thread siblings: {}).",
        u.bench_cpu,
        u.hog_cpu,
        u.bench_cpu,
        m.bench_cpu_siblings.as_deref().unwrap_or("unknown")
    );
}

/// What one trial of each method ran, and how a slowdown was injected.
fn trials(s: &mut String, r: &Results) {
    let u = &r.setup;
    for c in &u.commands {
        let _ = writeln!(
            s,
            "- One A/A trial of `{}`: `{}`",
            c.method.as_str(),
            c.command
        );
    }
    let _ = writeln!(
        s,
        "- Power trials set `YARDSTICK_INJECT='*:X'` (paired: on the new side only, `--env-new`): every sample of every probe runs round(k x (1 + X/100)) iterations and is still divided by the batch k ({} for timed runs and the paired comparison, {} for counts).",
        u.sampling.min_batch, u.counts.batch
    );
    let threshold = if u.own_thresholds {
        "each probe's own, from the stored baseline (30 % for a probe without one)".to_string()
    } else {
        format!("{} %", u.threshold)
    };
    let _ = writeln!(
        s,
        "- Timed runs: {} measured samples after {} warm-up per probe, batch fixed at {} iterations for the baseline and every run. Stored-baseline and confirmed threshold: {threshold}.",
        u.sampling.repeat, u.sampling.warmup, u.sampling.min_batch
    );
}

/// The timed baseline: a combined evaluation's trials were judged against
/// each part's own.
fn baselines(s: &mut String, r: &Results) {
    let u = &r.setup;
    if !r.parts.is_empty() {
        let _ = writeln!(
            s,
            "- Baselines: each part made its own ({} run(s), pooled when more than one) and judged its trials against it; they are in the parts' folders.",
            u.baseline_runs
        );
    } else if u.baseline_runs > 1 {
        let _ = writeln!(
            s,
            "- Baseline: `{}`, {} timed runs made one after another under quiet conditions at the start ({:.2} s each; kept in `baseline-runs/`), after one run that was not kept, pooled as `yardstick baseline` pools them: every sample of every run, each beside its calibration loop.",
            u.baseline, u.baseline_runs, u.baseline_seconds
        );
    } else {
        let _ = writeln!(
            s,
            "- Baseline: `{}`, one timed run made under quiet conditions at the start ({:.2} s), after one run that was not kept.",
            u.baseline, u.baseline_seconds
        );
    }
}

/// How the methods that ran shared or made their runs.
fn methods_run(s: &mut String, r: &Results) {
    let u = &r.setup;
    let methods = r.plan.methods();
    if methods.contains(&Method::StoredBaseline) && methods.contains(&Method::Confirmed) {
        let _ = writeln!(
            s,
            "- Where stored-baseline and confirmed have the same counts they share each run: the bench is given the baseline, measures, compares itself and confirms (the confirmed verdict); its rows, measured before any confirmation, are judged again by yardstick's `compare` alone (the stored-baseline verdict). The two rates therefore differ only by what confirmation changed."
        );
    }
    if methods.contains(&Method::Paired) {
        let _ = writeln!(
            s,
            "- Paired: {} rounds on {} fresh pair(s) of worker processes, each round timing every probe in one block of samples per build (old and new, in random order): at least {} sample(s), as many as fill compare-builds' round time (`samples_per_round` in each trial's settings), after {} warm-up per probe and pair, no calibration; each trial has its own seed for the round order.",
            u.paired.rounds,
            u.paired.pairs.min(u.paired.rounds),
            u.paired.repeat,
            u.paired.warmup
        );
    }
    if let Some(name) = u.count_baseline.as_ref().filter(|_| r.parts.is_empty()) {
        let _ = writeln!(
            s,
            "- Instructions: counts baseline `{name}` made at the start ({:.1} s); {} iterations counted per probe{}; up to {} trials at once where no hog runs (counts do not depend on the load). \
             Counts are deterministic, so few runs are made: the A/A |change| shows the determinism directly, while the Clopper-Pearson interval of a rate over so few runs stays wide (0 of 20 allows up to 16.8 %).",
            u.count_baseline_seconds.unwrap_or(0.0),
            u.counts.batch,
            if u.counts.probes.is_empty() {
                " (every probe)".to_string()
            } else {
                format!(" (only {})", u.counts.probes.join(", "))
            },
            u.count_workers
        );
    }
}

/// The runs of each cell, the conditions and the methods, described.
fn plan(s: &mut String, r: &Results) {
    let u = &r.setup;
    let seed = if !r.parts.is_empty() {
        "each part's seed, in the table of parts".to_string()
    } else {
        format!("seed {}", r.plan.seed)
    };
    let _ = writeln!(
        s,
        "- Runs of each job in a seeded random order ({seed}); per method and condition:"
    );
    for c in &r.plan.cells {
        let _ = writeln!(
            s,
            "  - {} / {}: {} A/A, {} per slowdown ({})",
            c.condition.as_str(),
            c.method.as_str(),
            c.aa_runs,
            c.power_runs,
            c.slowdowns
                .iter()
                .map(|p| format!("{p} %"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for c in r.plan.conditions() {
        let _ = writeln!(s, "- Condition `{}`: {}.", c.as_str(), c.describe());
    }
    let _ = writeln!(
        s,
        "- Memory hog buffer {} MiB; bursty hog periods {}-{} s on and off.",
        u.memory_mib, u.burst_min, u.burst_max
    );
    for meth in &r.plan.methods() {
        let _ = writeln!(s, "- Method `{}`: {}.", meth.as_str(), meth.describe());
    }
    let _ = writeln!(
        s,
        "- An inconclusive verdict counts as no alarm in A/A and as a miss in power. Every trial is in `results.json`."
    );
}
