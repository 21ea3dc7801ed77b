//! The report's plots: how far identical runs drift apart (A/A |change|,
//! raw against normalised), and how often a known slowdown is caught.

use crate::Error;
use crate::results::{Block, Record, Results};
use crate::verdict::ProbeOutcome;
use yardstick_report::chart::{Line as Series, Lines as Chart};

/// The file names of the plots and their SVG text; a plot whose ranges
/// hold nothing to draw is left out.
pub fn all(results: &Results) -> Result<Vec<(String, String)>, Error> {
    let mut charts = vec![
        ("aa-change.svg".to_string(), aa_change(results)),
        ("power.svg".to_string(), power(results)),
    ];
    for block in &results.blocks {
        charts.push((
            format!(
                "power-{}-{}.svg",
                block.condition.as_str(),
                block.method.as_str()
            ),
            power_per_probe(block, block.threshold.unwrap_or(results.setup.threshold)),
        ));
    }
    let mut out = Vec::new();
    for (name, chart) in charts {
        let drawn = chart.svg().map_err(|e| Error(format!("{name}: {e}")))?;
        out.extend(drawn.map(|svg| (name, svg.as_str().to_string())));
    }
    Ok(out)
}

fn label(block: &Block, multiple_methods: bool) -> String {
    if multiple_methods {
        format!("{} {}", block.condition.as_str(), block.method.as_str())
    } else {
        block.condition.as_str().to_string()
    }
}

fn multiple_methods(results: &Results) -> bool {
    results.plan.methods().len() > 1
}

/// Every threshold a block was judged with, as marks on a chart.
fn threshold_marks(results: &Results) -> Vec<(f64, String)> {
    let mut all: Vec<f64> = results.blocks.iter().filter_map(|b| b.threshold).collect();
    if all.is_empty() {
        all.push(results.setup.threshold);
    }
    all.sort_by(f64::total_cmp);
    all.dedup();
    all.into_iter()
        .map(|t| (t, format!("threshold {t} %")))
        .collect()
}

/// The empirical distribution of |change| in A/A runs, per block: solid for
/// the judged (normalised) figure, dashed for the raw median.
pub fn aa_change(results: &Results) -> Chart {
    let marks = threshold_marks(results);
    let threshold = marks.iter().map(|m| m.0).fold(0.0, f64::max);
    let mut series = Vec::new();
    let mut p99_max: f64 = 0.0;
    for (i, block) in results.blocks.iter().enumerate() {
        let name = label(block, multiple_methods(results));
        let trials: Vec<&Record> = results
            .trials
            .iter()
            .filter(|r| r.condition == block.condition && r.method == block.method)
            .filter(|r| r.trial.slowdown.is_none())
            .collect();
        for (pick, kind, dashed) in [
            (judged as fn(&ProbeOutcome) -> Option<f64>, "judged", false),
            (raw, "raw ms", true),
        ] {
            let values: Vec<f64> = trials
                .iter()
                .flat_map(|r| &r.trial.outcomes)
                .filter_map(pick)
                .collect();
            if let Some(s) = crate::stats::Spread::of_abs(&values) {
                p99_max = p99_max.max(s.p99);
            }
            series.push(Series {
                label: format!("{name}, {kind}"),
                points: ecdf(&values),
                dashed,
                colour: i,
                steps: true,
            });
        }
    }
    let x_max = (p99_max * 1.2).max(threshold * 1.5).max(1.0).ceil();
    Chart {
        title: "A/A: |change| against the baseline (x clipped at 1.2 x p99)".to_string(),
        x_label: "|change| %".to_string(),
        y_label: "share of probe runs at or below".to_string(),
        x_range: (0.0, x_max),
        y_range: (0.0, 1.0),
        lines: series,
        marks,
    }
}

fn judged(o: &ProbeOutcome) -> Option<f64> {
    o.judged_pct
}

fn raw(o: &ProbeOutcome) -> Option<f64> {
    o.raw_pct
}

/// Points of the empirical distribution of |values|: (x, share <= x),
/// starting at (0, 0).
pub fn ecdf(values: &[f64]) -> Vec<(f64, f64)> {
    let mut abs: Vec<f64> = values
        .iter()
        .filter(|v| v.is_finite())
        .map(|v| v.abs())
        .collect();
    abs.sort_by(f64::total_cmp);
    let n = abs.len() as f64;
    std::iter::once((0.0, 0.0))
        .chain(
            abs.iter()
                .enumerate()
                .map(|(i, x)| (*x, (i + 1) as f64 / n)),
        )
        .collect()
}

/// Share of (probe, run) pairs flagged per injected slowdown, per block.
pub fn power(results: &Results) -> Chart {
    let series = results
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| Series {
            label: label(b, multiple_methods(results)),
            points: b
                .power
                .iter()
                .filter_map(|p| p.pooled.rate.map(|r| (p.slowdown, r)))
                .collect(),
            dashed: false,
            colour: i,
            steps: false,
        })
        .collect();
    let mut slowdowns: Vec<f64> = results
        .blocks
        .iter()
        .flat_map(|b| b.power.iter().map(|p| p.slowdown))
        .collect();
    slowdowns.sort_by(f64::total_cmp);
    slowdowns.dedup();
    power_chart(
        "Power: share of probe runs flagged".to_string(),
        threshold_marks(results),
        &slowdowns,
        series,
    )
}

/// Power of each probe in one block.
pub fn power_per_probe(block: &Block, threshold: f64) -> Chart {
    let names: Vec<&str> = block
        .power
        .first()
        .map(|p| p.probes.iter().map(|x| x.probe.as_str()).collect())
        .unwrap_or_default();
    let series = names
        .iter()
        .enumerate()
        .map(|(i, name)| Series {
            label: name.to_string(),
            points: block
                .power
                .iter()
                .filter_map(|p| {
                    p.probes
                        .iter()
                        .find(|x| x.probe == *name)
                        .and_then(|x| x.detected.rate)
                        .map(|r| (p.slowdown, r))
                })
                .collect(),
            dashed: false,
            colour: i,
            steps: false,
        })
        .collect();
    let slowdowns: Vec<f64> = block.power.iter().map(|p| p.slowdown).collect();
    power_chart(
        format!(
            "Power per probe: {} ({})",
            block.condition.as_str(),
            block.method.as_str()
        ),
        vec![(threshold, format!("threshold {threshold} %"))],
        &slowdowns,
        series,
    )
}

fn power_chart(
    title: String,
    marks: Vec<(f64, String)>,
    slowdowns: &[f64],
    series: Vec<Series>,
) -> Chart {
    let x_max = slowdowns
        .iter()
        .copied()
        .chain(marks.iter().map(|m| m.0))
        .fold(1.0, f64::max);
    Chart {
        title,
        x_label: "injected slowdown %".to_string(),
        y_label: "share flagged".to_string(),
        x_range: (0.0, (x_max * 1.1).ceil()),
        y_range: (0.0, 1.0),
        lines: series,
        marks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample_results;

    #[test]
    fn ecdf_steps_up_to_one() {
        assert_eq!(
            ecdf(&[-2.0, 1.0, f64::NAN]),
            [(0.0, 0.0), (1.0, 0.5), (2.0, 1.0)]
        );
        assert_eq!(ecdf(&[]), [(0.0, 0.0)]);
    }

    #[test]
    fn every_block_gets_its_lines() {
        let results = sample_results();
        let files = all(&results).unwrap();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "aa-change.svg",
                "power.svg",
                "power-quiet-stored-baseline.svg",
                "power-quiet-paired.svg",
                "power-cpu-stored-baseline.svg"
            ]
        );
        let aa = aa_change(&results);
        // Three blocks, each judged and raw, marked at both thresholds.
        assert_eq!(aa.lines.len(), 6);
        assert_eq!(aa.lines[0].label, "quiet stored-baseline, judged");
        assert_eq!(aa.lines[0].points.last(), Some(&(4.0, 1.0)));
        assert_eq!(aa.marks.len(), 2);
        let p = power(&results);
        assert_eq!(p.lines.len(), 3);
        assert_eq!(p.lines[0].points, [(25.0, 0.5)]);
        assert_eq!(power_per_probe(&results.blocks[1], 3.0).marks[0].0, 3.0);
        assert!(files.iter().all(|(_, svg)| svg.contains("</svg>")));
    }
}
