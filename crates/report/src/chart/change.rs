//! The changes of a comparison, one bar a row: how far, how sure, and
//! where the threshold lies.

use super::{AMBER, Chart, GREY, RED, Svg, Undrawn, WIDTH, drawn, rows_chart, span};
use crate::document::check::Verdict;
use crate::error::Error;
use plotters::prelude::*;

/// One row's change.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The row's name on the axis.
    pub label: String,
    /// The change in percent; positive is worse.
    pub pct: f64,
    /// Its 95 % interval, when the samples of both runs give one.
    pub interval: Option<(f64, f64)>,
    /// Its verdict, which colours the bar.
    pub verdict: Verdict,
}

/// Rows of changes against a threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct Changes {
    /// Worse by more than this many percent regresses; a dashed line.
    pub threshold_pct: f64,
    /// Top to bottom.
    pub rows: Vec<Change>,
}

impl Changes {
    /// The chart as SVG markup; `None` for no row, or a change that is not
    /// finite.
    pub fn svg(&self) -> Result<Option<Svg>, Error> {
        let finite = self.rows.iter().all(|c| {
            c.pct.is_finite()
                && c.interval
                    .is_none_or(|(l, h)| l.is_finite() && h.is_finite())
        });
        if self.rows.is_empty() || !finite || !self.threshold_pct.is_finite() {
            return Ok(None);
        }
        drawn(|svg| self.draw(svg))
    }

    fn draw(&self, svg: &mut String) -> Result<(), Undrawn> {
        let fail = |e: &dyn std::fmt::Display| e.to_string();
        let height = 70 + 30 * self.rows.len() as u32;
        let root = SVGBackend::with_string(svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let ends = self.rows.iter().flat_map(|c| {
            let (l, h) = c.interval.unwrap_or((c.pct, c.pct));
            [c.pct, l, h]
        });
        let t = self.threshold_pct;
        let Some((low, high)) = span(ends.chain([0.0, t, -t])) else {
            return Err(Undrawn::NoAxis);
        };
        let labels: Vec<String> = self.rows.iter().map(|c| c.label.clone()).collect();
        let x_desc = "change (%), worse to the right";
        let mut chart = rows_chart(&root, low..high, &labels, x_desc, 180)?;
        self.lines(&mut chart).map_err(|e| fail(&e))?;
        self.bars(&mut chart).map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
        Ok(())
    }

    /// No change (solid) and the threshold (dashed, red).
    fn lines(&self, chart: &mut Chart<'_, '_>) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
        let top = self.rows.len() as f64 - 0.5;
        let zero = [(0.0, -0.5), (0.0, top)];
        chart.draw_series(LineSeries::new(zero, BLACK.stroke_width(1)))?;
        let t = self.threshold_pct;
        let threshold = [(t, -0.5), (t, top)];
        chart.draw_series(DashedLineSeries::new(threshold, 6, 4, RED.stroke_width(1)))?;
        Ok(())
    }

    /// Each row's bar, coloured by its verdict, and its interval.
    fn bars(&self, chart: &mut Chart<'_, '_>) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
        let rows = self.rows.len() as f64;
        for (i, c) in self.rows.iter().enumerate() {
            let y = rows - 1.0 - i as f64;
            let colour = match c.verdict {
                Verdict::Regressed => RED,
                Verdict::Inconclusive(_) => AMBER,
                Verdict::Ok => GREY,
            };
            let corners = [(0.0, y - 0.28), (c.pct, y + 0.28)];
            chart.draw_series([Rectangle::new(corners, colour.mix(0.8).filled())])?;
            if let Some((l, h)) = c.interval {
                let whisker = [
                    vec![(l, y), (h, y)],
                    vec![(l, y - 0.15), (l, y + 0.15)],
                    vec![(h, y - 0.15), (h, y + 0.15)],
                ];
                let style = BLACK.stroke_width(1);
                chart.draw_series(whisker.into_iter().map(|p| PathElement::new(p, style)))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::check::Reason;

    #[test]
    fn each_row_is_a_bar_coloured_by_its_verdict() {
        let row = |label: &str, pct: f64, verdict| Change {
            label: label.into(),
            pct,
            interval: Some((pct - 2.0, pct + 2.0)),
            verdict,
        };
        let changes = Changes {
            threshold_pct: 15.0,
            rows: vec![
                row("parse", 34.0, Verdict::Regressed),
                row("render", 20.0, Verdict::Inconclusive(Reason::Unconfirmed)),
                row("route", -3.0, Verdict::Ok),
            ],
        };
        let svg = changes.svg().unwrap().unwrap().as_str().to_string();
        for label in ["parse", "render", "route", "#C82828", "#C88200", "#787878"] {
            assert!(svg.contains(label), "{label}");
        }
        let none = Changes {
            threshold_pct: 15.0,
            rows: vec![],
        };
        assert_eq!(none.svg().unwrap(), None);
    }
}
