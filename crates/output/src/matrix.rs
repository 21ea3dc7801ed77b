//! A configuration matrix as text: one line per probe, one column per
//! configuration, the base's column its figure and every other a
//! multiplier with its interval, and a last line of geometric means. The
//! text table, the job summary and the report draw the same cells.

use super::layout::{Align, Table, significant, thousands};
use crate::document::matrix::{Cell, Matrix};
use crate::document::run::Metric;
use crate::judge::equivalence::{self, Side};
use crate::text::clean;

/// The columns: the probe, then each configuration, the base first.
pub fn columns(m: &Matrix) -> Vec<(String, Align)> {
    let mut columns = vec![("probe".to_string(), Align::Left)];
    for (i, name) in m.configurations.iter().enumerate() {
        let name = clean(name);
        let head = if i == 0 {
            format!("{name} (base)")
        } else {
            format!("{name} ×")
        };
        columns.push((head, Align::Left));
    }
    columns
}

/// The matrix as a text table under its caption.
pub(crate) fn render(m: &Matrix) -> String {
    let columns = columns(m);
    let heads: Vec<(&str, Align)> = columns.iter().map(|(h, a)| (h.as_str(), *a)).collect();
    let mut t = Table::new(&heads);
    for row in rows(m) {
        t.push(row);
    }
    format!("{}\n{}", caption(m), t.render())
}

/// What the cells are, in words.
pub fn caption(m: &Matrix) -> String {
    let base = clean(&m.base);
    let (how, unit) = match m.metric {
        Metric::Time => (
            "the median of the worker sets' ratios, [a 95 % interval]",
            "median ms per iteration",
        ),
        Metric::Instructions => ("exact", "instructions per iteration"),
        Metric::EstimatedCycles => ("exact", "estimated cycles per iteration"),
    };
    let mut caption = format!(
        "matrix: each configuration's figure over {base}'s, {how}; below 1 is faster; \
         {base}'s column: {unit}"
    );
    if let Some(margin) = m.margin {
        caption.push_str(&format!(
            "; marked faster or slower where {}",
            equivalence::rule(margin)
        ));
    }
    caption
}

/// One row of cells per probe, then the geometric means.
pub fn rows(m: &Matrix) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for line in &m.lines {
        let mut row = vec![clean(&line.probe).into_owned()];
        for (i, cell) in line.cells.iter().enumerate() {
            row.push(if i == 0 {
                base_cell(cell, m.metric)
            } else {
                multiplier(cell, m.margin)
            });
        }
        rows.push(row);
    }
    let mut geomean = vec!["geometric mean".to_string()];
    for (i, cell) in m.geomean.iter().enumerate() {
        geomean.push(if i == 0 {
            String::new()
        } else {
            multiplier(cell, m.margin)
        });
    }
    rows.push(geomean);
    rows
}

/// The base's figure, or that it failed.
fn base_cell(cell: &Cell, metric: Metric) -> String {
    match (&cell.failed, cell.median) {
        (Some(_), _) => "failed".to_string(),
        (None, Some(v)) if metric == Metric::Time => significant(v, 4),
        (None, Some(v)) => thousands(v),
        (None, None) => "-".to_string(),
    }
}

/// A multiplier and its interval, marked faster or slower by `margin`;
/// `failed`, or why there is none.
fn multiplier(cell: &Cell, margin: Option<f64>) -> String {
    if cell.failed.is_some() {
        return "failed".to_string();
    }
    let Some(x) = cell.multiplier else {
        return match cell.sets {
            0 => "-".to_string(),
            sets => format!("- ({sets} sets: no interval)"),
        };
    };
    let mut text = if x.low == x.high {
        format!("{:.3}", x.estimate)
    } else {
        format!("{:.3} [{:.3}, {:.3}]", x.estimate, x.low, x.high)
    };
    match margin.map(|m| equivalence::side(x, m)) {
        Some(Side::Faster) => text.push_str(" faster"),
        Some(Side::Slower) => text.push_str(" slower"),
        Some(Side::Tie) | None => {}
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::matrix::Line;
    use crate::stats::bootstrap::Interval;

    /// A cell of ten sets whose multiplier is `estimate` in [low, high].
    fn x(estimate: f64, low: f64, high: f64) -> Cell {
        Cell {
            multiplier: Some(Interval {
                low,
                estimate,
                high,
            }),
            sets: 10,
            ..Cell::default()
        }
    }

    #[test]
    fn the_base_shows_its_figure_and_the_others_their_multipliers() {
        let m = Matrix {
            metric: Metric::Time,
            base: "sys".into(),
            configurations: vec!["sys".into(), "fast".into(), "bad".into()],
            lines: vec![Line {
                probe: "parse".into(),
                cells: vec![
                    Cell {
                        median: Some(0.012345),
                        ..Cell::default()
                    },
                    x(0.5, 0.49, 0.52),
                    Cell {
                        failed: Some("result differs".into()),
                        ..Cell::default()
                    },
                ],
            }],
            geomean: vec![Cell::default(), x(0.5, 0.49, 0.52), Cell::default()],
            margin: Some(0.02),
        };
        let text = render(&m);
        assert!(
            text.contains("sys (base)") && text.contains("fast ×"),
            "{text}"
        );
        assert!(text.contains("0.01235"), "{text}");
        assert!(text.contains("0.500 [0.490, 0.520] faster"), "{text}");
        assert!(text.contains("failed"), "{text}");
        assert!(
            text.contains("marked faster or slower where its whole 95 % interval lies beyond ±2 %"),
            "{text}"
        );
        assert!(
            text.lines().last().unwrap().starts_with("geometric mean"),
            "{text}"
        );
    }

    #[test]
    fn a_multiplier_is_marked_only_where_its_interval_clears_the_margin() {
        let cell = |low, estimate, high| x(estimate, low, high);
        let margin = Some(0.02);
        assert_eq!(
            multiplier(&cell(1.03, 1.05, 1.07), margin),
            "1.050 [1.030, 1.070] slower"
        );
        // Beyond 1, but reaching inside the margin: no side is called.
        assert_eq!(
            multiplier(&cell(1.016, 1.052, 1.081), margin),
            "1.052 [1.016, 1.081]"
        );
        assert_eq!(multiplier(&cell(0.9, 0.9, 0.9), margin), "0.900 faster");
        // A run made before the margin calls no side.
        assert_eq!(multiplier(&cell(0.5, 0.5, 0.5), None), "0.500");
    }
}
