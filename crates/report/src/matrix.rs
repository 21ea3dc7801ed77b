//! A configuration matrix drawn: one line per probe, one column per
//! configuration, each cell a multiplier of the base's figure with its
//! interval, and the geometric means. The cells are the text table's
//! (`output::matrix`).

use super::Page;
use crate::document::matrix::Matrix;
use crate::output::matrix::{caption, columns, rows};

/// Draws `matrix`.
pub fn draw(page: &mut Page, matrix: &Matrix) {
    page.subheading("configurations side by side");
    page.paragraph(&caption(matrix), true);
    let columns = columns(matrix);
    let header: Vec<&str> = columns.iter().map(|(name, _)| name.as_str()).collect();
    page.table(&header, &rows(matrix), &[]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::matrix::{Cell, Line};
    use crate::document::run::Metric;
    use crate::stats::bootstrap::Interval;

    #[test]
    fn every_probe_is_a_row_and_names_are_escaped() {
        let x = Cell {
            median: Some(2.0),
            multiplier: Some(Interval {
                low: 1.9,
                estimate: 2.0,
                high: 2.1,
            }),
            sets: 10,
            failed: None,
        };
        let matrix = Matrix {
            metric: Metric::Time,
            base: "<sys>".into(),
            configurations: vec!["<sys>".into(), "jemalloc".into()],
            lines: vec![Line {
                probe: "parse".into(),
                cells: vec![
                    Cell {
                        median: Some(1.0),
                        ..Cell::default()
                    },
                    x.clone(),
                ],
            }],
            geomean: vec![Cell::default(), x],
            margin: Some(0.02),
        };
        let mut page = Page::new("t");
        draw(&mut page, &matrix);
        let html = page.render(&[]);
        assert!(
            html.contains("&lt;sys&gt; (base)") && !html.contains("<sys>"),
            "{html}"
        );
        assert!(
            html.contains("<td>2.000 [1.900, 2.100] slower</td>"),
            "{html}"
        );
        assert!(html.contains("<td>geometric mean</td>"), "{html}");
    }
}
