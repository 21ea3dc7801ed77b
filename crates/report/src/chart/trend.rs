//! One figure over runs, oldest first, against the band of the runs
//! before the newest.

use super::{AMBER, BLUE, SIZE, Svg, Undrawn, category, drawn, mesh, span};
use crate::error::Error;
use plotters::prelude::*;

/// The most labels an axis of runs carries before they crowd.
const MOST_LABELS: usize = 12;
/// The most runs drawn each with a marker: beyond, the line alone, which
/// keeps a chart of thousands of runs to a path (about 12 bytes a run).
const MOST_MARKERS: usize = 200;

/// Where earlier runs lay: the range and median of their figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Band {
    /// The least.
    pub low: f64,
    /// The median.
    pub median: f64,
    /// The most.
    pub high: f64,
}

/// One figure over runs, oldest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    /// What the vertical axis counts (`x-calib`, `median (ms)`).
    pub unit: String,
    /// Each run's label (a short commit) and figure.
    pub points: Vec<(String, f64)>,
    /// Shaded behind the line: the runs before the newest.
    pub band: Option<Band>,
    /// The points ringed, by index: runs made worse on purpose (an
    /// injected slowdown), which are no evidence of the code's speed.
    pub ringed: Vec<usize>,
}

impl Trend {
    /// The chart as SVG markup; `None` when there is nothing to draw (no
    /// run, or a figure that is not finite).
    pub fn svg(&self) -> Result<Option<Svg>, Error> {
        let values: Vec<f64> = self.points.iter().map(|(_, v)| *v).collect();
        if values.is_empty() || values.iter().any(|v| !v.is_finite()) {
            return Ok(None);
        }
        drawn(|svg| self.draw(svg, &values))
    }

    fn draw(&self, svg: &mut String, values: &[f64]) -> Result<(), Undrawn> {
        let fail = |e: &dyn std::fmt::Display| e.to_string();
        let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let last = (self.points.len() - 1) as f64;
        let band = self.band.into_iter().flat_map(|b| [b.low, b.high]);
        let Some((low, high)) = span(values.iter().copied().chain(band)) else {
            return Err(Undrawn::NoAxis);
        };
        let mut chart = ChartBuilder::on(&root)
            .margin(14)
            .x_label_area_size(36)
            .y_label_area_size(72)
            .build_cartesian_2d(-0.5..last + 0.5, low..high)
            .map_err(|e| fail(&e))?;
        let labels: Vec<String> = self.points.iter().map(|(l, _)| l.clone()).collect();
        let label = |x: &f64| category(&labels, *x, false);
        mesh(&mut chart)
            .x_labels(self.points.len().min(MOST_LABELS))
            .x_label_formatter(&label)
            .y_desc(self.unit.as_str())
            .disable_x_mesh()
            .draw()
            .map_err(|e| fail(&e))?;
        let blue = BLUE;
        if let Some(b) = self.band {
            let corners = [(-0.5, b.low), (last + 0.5, b.high)];
            chart
                .draw_series([Rectangle::new(corners, blue.mix(0.12).filled())])
                .map_err(|e| fail(&e))?;
            let median = [(-0.5, b.median), (last + 0.5, b.median)];
            chart
                .draw_series(LineSeries::new(median, blue.stroke_width(1)))
                .map_err(|e| fail(&e))?;
        }
        let line = values.iter().enumerate().map(|(i, v)| (i as f64, *v));
        chart
            .draw_series(LineSeries::new(line.clone(), BLACK.stroke_width(2)))
            .map_err(|e| fail(&e))?;
        if values.len() <= MOST_MARKERS {
            chart
                .draw_series(line.map(|p| Circle::new(p, 3, BLACK.filled())))
                .map_err(|e| fail(&e))?;
        }
        // At most as many rings as markers: a history of evaluation
        // sweeps, every run injected, stays a path.
        let ringed = self
            .ringed
            .iter()
            .take(MOST_MARKERS)
            .filter_map(|&i| Some((i as f64, *values.get(i)?)));
        chart
            .draw_series(ringed.map(|p| Circle::new(p, 7, AMBER.stroke_width(2))))
            .map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trend(values: &[f64]) -> Trend {
        Trend {
            unit: "x-calib".into(),
            points: values
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("c{i}"), *v))
                .collect(),
            band: None,
            ringed: Vec::new(),
        }
    }

    #[test]
    fn a_trend_draws_each_run_and_its_label() {
        let mut t = trend(&[1.0, 1.1, 0.9, 1.4]);
        t.band = Some(Band {
            low: 0.9,
            median: 1.0,
            high: 1.1,
        });
        let svg = t.svg().unwrap().unwrap().as_str().to_string();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert_eq!(svg.matches("<circle").count(), 4);
        for label in ["c0", "c3", "x-calib"] {
            assert!(svg.contains(label), "{label}");
        }
        assert!(!svg.contains("font-family=\"serif"), "{svg}");
        // A run made worse on purpose is ringed; an index past the runs
        // is no ring.
        t.ringed = vec![2, 9];
        let svg = t.svg().unwrap().unwrap().as_str().to_string();
        assert_eq!(svg.matches("<circle").count(), 5);
    }

    #[test]
    fn one_run_or_runs_alike_still_have_an_axis_and_nothing_is_no_chart() {
        for values in [&[2.0][..], &[0.0, 0.0], &[5.0, 5.0, 5.0]] {
            let svg = trend(values).svg().unwrap().unwrap().as_str().to_string();
            assert_eq!(svg.matches("<circle").count(), values.len());
        }
        assert_eq!(trend(&[]).svg().unwrap(), None);
        assert_eq!(trend(&[1.0, f64::NAN]).svg().unwrap(), None);
    }

    #[test]
    fn thousands_of_runs_are_a_line_without_markers() {
        let values: Vec<f64> = (0..10_000).map(|i| f64::from(i % 7)).collect();
        let svg = trend(&values).svg().unwrap().unwrap().as_str().to_string();
        assert_eq!(svg.matches("<circle").count(), 0);
        assert!(svg.len() < 400_000, "{} bytes", svg.len());
    }

    #[test]
    fn a_label_is_escaped_by_the_backend() {
        let mut t = trend(&[1.0]);
        t.points[0].0 = "<script>&".into();
        let svg = t.svg().unwrap().unwrap().as_str().to_string();
        assert!(!svg.contains("<script>") && svg.contains("&lt;script&gt;&amp;"));
    }
}
