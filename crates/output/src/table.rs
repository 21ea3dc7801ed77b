//! The aligned table a person reads in a terminal or a CI log.

use super::layout::{Align, Table, change, check_value, ms, significant, thousands};
use super::{Render, header};
use crate::document::check::Basis;
use crate::document::comparison::{CalibrationRatio, Check, Comparison, Figure, Method};
use crate::document::row::Memory;
use crate::document::run::{Metric, Mode, Row, RowKind, Run};
use crate::judge::memory;
use crate::text::clean;

pub(crate) struct TableFormat {
    pub all_checks: bool,
}

impl Render for TableFormat {
    fn run(&self, run: &Run) -> String {
        let mut out = String::new();
        out.push_str(&header(run));
        out.push('\n');
        for w in &run.warnings {
            out.push_str(&format!("warning: {}\n", clean(w)));
        }
        if let Some(c) = &run.calibration {
            out.push_str(&format!(
                "calibration loop: median {} ms (n {}), before {} ms, after {} ms, drift {:+.1} %\n",
                ms(Some(c.loops.median)),
                c.loops.n,
                ms(Some(c.before_median)),
                ms(Some(c.after_median)),
                c.drift_pct
            ));
        }
        out.push('\n');
        match run.mode {
            Mode::Micro | Mode::Kernel => out.push_str(&micro_rows(run)),
            Mode::Http => out.push_str(&super::http_table::render(run)),
        }
        if let Some(ranking) = &run.ranking {
            out.push('\n');
            out.push_str(&super::ranking::render(ranking, run.metric));
        }
        if let Some(matrix) = &run.matrix {
            out.push('\n');
            out.push_str(&super::matrix::render(matrix));
        }
        if let Some(c) = &run.comparison {
            out.push('\n');
            out.push_str(&self.comparison(c));
        }
        if let Some(e) = &run.explanation {
            out.push_str(&super::attribution::explanation(e));
        }
        out
    }

    fn comparison(&self, c: &Comparison) -> String {
        comparison_text(c, self.all_checks)
    }
}

/// Micro rows of a run of counts: instructions, and with a simulated cache
/// its misses and the estimated cycles.
fn count_rows(run: &Run) -> String {
    let cache = run.metric == Metric::EstimatedCycles;
    let mut t = Table::new(&count_columns(cache)).droppable(&[
        "note",
        "batch",
        "L1 misses",
        "LL misses",
        "ops",
        "per op",
    ]);
    for r in &run.rows {
        t.push(count_cells(r, cache));
    }
    let mut out = if cache {
        format!(
            "counted by callgrind in the measured iterations, with a simulated cache ({}); \
             estimated cycles = L1 hits + 5 x LL hits + 35 x RAM\n",
            clean(
                run.settings
                    .micro()
                    .and_then(|s| s.counting.cache_sim.as_deref())
                    .unwrap_or("unrecorded")
            )
        )
    } else {
        "instructions counted by callgrind in the measured iterations\n".to_string()
    };
    out.push_str(&t.render());
    out
}

/// The columns of a table of counts, with the cache's when simulated.
fn count_columns(cache: bool) -> Vec<(&'static str, Align)> {
    let mut columns = vec![
        ("probe", Align::Left),
        ("ops", Align::Right),
        ("batch", Align::Right),
        ("instructions/iter", Align::Right),
    ];
    if cache {
        columns.extend([
            ("L1 misses", Align::Right),
            ("LL misses", Align::Right),
            ("est. cycles/iter", Align::Right),
        ]);
    }
    columns.extend([
        ("per op", Align::Right),
        ("err", Align::Right),
        ("note", Align::Left),
    ]);
    columns
}

/// One row of a table of counts; per op is of the figure judged.
fn count_cells(r: &Row, cache: bool) -> Vec<String> {
    let count = |x: Option<f64>| x.map(thousands).unwrap_or_else(|| "-".into());
    let judged = if cache {
        r.counted.estimated_cycles
    } else {
        r.counted.instructions
    };
    let per_op = judged
        .zip(r.ops.filter(|o| *o > 0))
        .map(|(i, o)| i / o as f64);
    let mut cells = vec![
        r.name.clone(),
        r.ops.map(|o| o.to_string()).unwrap_or_default(),
        r.batch.map(|b| b.to_string()).unwrap_or_default(),
        count(r.counted.instructions),
    ];
    if cache {
        cells.extend([
            count(r.counted.l1_misses),
            count(r.counted.ll_misses),
            count(r.counted.estimated_cycles),
        ]);
    }
    cells.extend([count(per_op), r.errors.to_string(), r.note.clone()]);
    cells
}

/// Micro rows: times in ms per iteration.
pub(crate) fn micro_rows(run: &Run) -> String {
    if run.metric.is_count() {
        return count_rows(run);
    }
    if run.rows.iter().all(|r| r.kind == RowKind::Process) {
        // Process probes alone: only their table.
        return process_rows(run).trim_start().to_string();
    }
    // compare-builds measures no memory: its runs leave the columns out.
    // A micro run shows them, `-` without the counting allocator.
    let paired = run
        .comparison
        .as_ref()
        .is_some_and(|c| c.method == Method::Paired);
    let with_memory = run.rows.iter().any(|r| r.memory.is_some()) || !paired;
    let mut t = Table::new(&micro_columns(with_memory)).droppable(&[
        "note", "peak", "bytes", "sd", "max", "min", "p99", "ops/s", "ops", "p90", "n", "allocs",
    ]);
    for r in run.rows.iter().filter(|r| r.kind != RowKind::Process) {
        let mut cells = vec![
            r.name.clone(),
            r.figures.n.to_string(),
            r.ops.map(|o| o.to_string()).unwrap_or_default(),
            ms(r.figures.min),
            ms(r.figures.median),
            ms(r.figures.p90),
            ms(r.figures.p99),
            ms(r.figures.max),
            ms(r.figures.stddev),
            r.rps.map(thousands).unwrap_or_else(|| "-".into()),
            run.x_calib(r)
                .map(|x| significant(x, 4))
                .unwrap_or_else(|| "-".into()),
        ];
        if with_memory {
            cells.extend(memory_cells(r.memory.as_ref()));
        }
        cells.extend([r.errors.to_string(), r.note.clone()]);
        t.push(cells);
    }
    let mut out = "times in ms per iteration".to_string();
    if run.rows.iter().any(|r| r.memory.is_some()) {
        out.push_str("; allocs, bytes and peak bytes per iteration");
    }
    out.push('\n');
    out.push_str(&t.render());
    out.push_str(&process_rows(run));
    out
}

/// The micro table's columns, with or without the memory ones.
fn micro_columns(with_memory: bool) -> Vec<(&'static str, Align)> {
    let mut columns = vec![
        ("probe", Align::Left),
        ("n", Align::Right),
        ("ops", Align::Right),
        ("min", Align::Right),
        ("median", Align::Right),
        ("p90", Align::Right),
        ("p99", Align::Right),
        ("max", Align::Right),
        ("sd", Align::Right),
        ("ops/s", Align::Right),
        ("x calib", Align::Right),
    ];
    if with_memory {
        columns.extend([
            ("allocs", Align::Right),
            ("bytes", Align::Right),
            ("peak", Align::Right),
        ]);
    }
    columns.extend([("err", Align::Right), ("note", Align::Left)]);
    columns
}

/// A row's allocs, bytes and peak; `-` without the counting allocator.
fn memory_cells(memory: Option<&Memory>) -> [String; 3] {
    match memory {
        Some(m) => [m.allocs, m.bytes, m.peak].map(|x| thousands(x as f64)),
        None => ["-", "-", "-"].map(String::from),
    }
}

/// The rows of process probes, if any: one sample per child, absolute
/// milliseconds (no "x calib": a whole process is not divided by the loop).
fn process_rows(run: &Run) -> String {
    let mut t = Table::new(&[
        ("row", Align::Left),
        ("n", Align::Right),
        ("min", Align::Right),
        ("median", Align::Right),
        ("max", Align::Right),
        ("peak RSS", Align::Right),
        ("err", Align::Right),
        ("note", Align::Left),
    ])
    .droppable(&["note", "peak RSS", "min", "max", "n"]);
    for r in run.rows.iter().filter(|r| r.kind == RowKind::Process) {
        t.push(vec![
            r.name.clone(),
            r.figures.n.to_string(),
            ms(r.figures.min),
            ms(r.figures.median),
            ms(r.figures.max),
            r.peak_rss.map(mebibytes).unwrap_or_default(),
            r.errors.to_string(),
            r.note.clone(),
        ]);
    }
    if t.is_empty() {
        return String::new();
    }
    format!(
        "\nprocess probes, ms per child (empty: the floor, a child that is ready at once)\n{}",
        t.render()
    )
}

/// Bytes as MiB with one decimal: `12.5 MiB`.
fn mebibytes(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

/// The comparison as text: the figures that explain the verdict, then the
/// checks (only the regressions unless `all`).
pub fn comparison_text(c: &Comparison, all: bool) -> String {
    let mut out = comparison_notes(c);
    let shown: Vec<&Check> = c
        .checks
        .iter()
        .filter(|k| all || k.regressed() || k.inconclusive())
        .collect();
    if !shown.is_empty() {
        out.push_str(&checks_table(&shown));
    }
    out.push_str(&super::attribution::text(c));
    if !c.missing.is_empty() {
        out.push_str(&format!("not measured: {}\n", clean(&c.missing.join(", "))));
    }
    if !c.new.is_empty() {
        out.push_str(&format!("new: {}\n", clean(&c.new.join(", "))));
    }
    out
}

/// The lines above the checks: the baseline, the count of regressions, the
/// machine's speed and every note on what the verdict rests on.
pub fn comparison_notes(c: &Comparison) -> String {
    let mut out = match &c.basis {
        Some(basis) => format!("baseline: {} ({})\n", clean(&c.baseline), clean(basis)),
        None => format!("baseline: {}\n", clean(&c.baseline)),
    };
    out.push_str(&format!(
        "{} regression{} at {}{}\n",
        c.regressions(),
        if c.regressions() == 1 { "" } else { "s" },
        thresholds_said(c),
        c.min_delta
            .filter(|d| *d > 0.0)
            .map(|d| format!(" and {d} ms"))
            .unwrap_or_default()
    ));
    if c.checks.iter().any(|k| k.metric == Figure::Allocs) {
        out.push_str(&format!("allocations judged at {}\n", memory::rule()));
    }
    if let Some(cal) = &c.calibration {
        out.push_str(&speed_line(cal));
        out.push('\n');
    }
    if let Some(note) = c.too_slow_note() {
        out.push_str(&format!("warning: {}\n", clean(&note)));
    }
    for note in c.notes() {
        out.push_str(&format!("note: {}\n", clean(&note)));
    }
    for d in &c.environment_differences {
        out.push_str(&format!(
            "note: the baseline was made with another set-up, {}: {} -> {}\n",
            clean(&d.field),
            clean(&d.baseline),
            clean(&d.current)
        ));
    }
    out
}

/// The thresholds a comparison judged by, in words: `threshold 30 %`, or
/// where probes had their own, how many and from how many runs.
pub(crate) fn thresholds_said(c: &Comparison) -> String {
    let own: Vec<(f64, usize)> = c
        .checks
        .iter()
        .filter_map(|k| match k.threshold?.basis {
            Basis::Learned { runs } => Some((k.threshold?.percent, runs)),
            _ => None,
        })
        .collect();
    let Some(&(_, runs)) = own.first() else {
        // The default for every probe: say from how few runs, where the
        // baseline says.
        let default = c.checks.iter().find_map(|k| k.threshold);
        return match default {
            Some(t) if t.basis != Basis::Given => format!("threshold {t}"),
            _ => format!("threshold {} %", c.threshold),
        };
    };
    let (low, high) = own.iter().fold((f64::INFINITY, 0.0f64), |(l, h), (t, _)| {
        (l.min(*t), h.max(*t))
    });
    let others = c.checks.iter().filter(|k| k.threshold.is_some()).count() - own.len();
    let rest = match others {
        0 => String::new(),
        n => format!(
            "; {} % for {n} other{}",
            c.threshold,
            if n == 1 { "" } else { "s" }
        ),
    };
    format!(
        "each probe's own threshold ({low:.1} to {high:.1} %, learned from {runs} runs of this \
         class{rest})"
    )
}

/// The checks shown, with a p-value column when any has one.
pub(crate) fn checks_table(checks: &[&Check]) -> String {
    let paired = checks.iter().any(|k| k.p_value.is_some());
    let mut columns = vec![
        ("row", Align::Left),
        ("metric", Align::Left),
        ("baseline", Align::Right),
        ("now", Align::Right),
        ("change", Align::Right),
    ];
    if paired {
        columns.push(("p", Align::Right));
    }
    let own = checks.iter().any(|k| k.threshold.is_some());
    if own {
        columns.push(("threshold", Align::Left));
    }
    columns.push(("verdict", Align::Left));
    let mut t = Table::new(&columns).droppable(&["metric", "baseline", "p"]);
    for k in checks {
        let mut cells = vec![
            k.key.clone(),
            k.metric.to_string(),
            check_value(&k.metric, k.baseline),
            check_value(&k.metric, k.current),
            change(k.change_pct),
        ];
        if paired {
            cells.push(k.p_value.map(|p| format!("{p:.4}")).unwrap_or_default());
        }
        if own {
            cells.push(k.threshold.map(|t| t.to_string()).unwrap_or_default());
        }
        cells.push(k.verdict.word().to_string());
        t.push(cells);
    }
    t.render()
}

/// `calibration loop: baseline 9.36 ms, now 11.12 ms (this machine x0.84
/// the speed of the baseline's)`.
pub(crate) fn speed_line(cal: &CalibrationRatio) -> String {
    format!(
        "calibration loop: baseline {} ms, now {} ms (this machine x{:.2} the speed of the baseline's)",
        ms(Some(cal.baseline)),
        ms(Some(cal.current)),
        cal.speed
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::run::{CalibrationSummary, RowKind, test_micro_run};

    #[test]
    fn x_calib_is_what_the_judge_reads_not_what_the_file_says() {
        let mut row = Row::with_samples("p".into(), RowKind::Probe, "p".into(), vec![2.0]);
        // An edited file: the stored figure disagrees with the samples.
        row.normalized = Some(1000.0);
        let loops = [4.0; 5];
        let run = test_micro_run(vec![row], CalibrationSummary::of(&loops, &loops, 1));
        assert_eq!(run.x_calib(&run.rows[0]), Some(0.5));
        let text = micro_rows(&run);
        assert!(
            text.contains(" 0.5000 ") && !text.contains("1000"),
            "{text}"
        );
    }
}
