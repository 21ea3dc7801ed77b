//! Sets of samples side by side: where they lie, and every one of them.

use super::{BLUE, Chart, Svg, Undrawn, WIDTH, drawn, rows_chart, span};
use crate::error::Error;
use crate::stats::Summary;
use plotters::prelude::*;

/// The most samples drawn each as a dot: beyond, the box alone, so that a
/// run of many thousand requests stays a small page.
const MOST_DOTS: usize = 500;

/// One set of samples and its name.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Its name on the axis (`baseline`, `this run`).
    pub label: String,
    /// The samples, in the order taken.
    pub samples: Vec<f64>,
    /// Drawn in the baseline's colour.
    pub baseline: bool,
}

/// Series one above another, each a box from the first to the third
/// quartile with its median a line, whiskers to the least and the most,
/// and each sample a dot, so that one outlier and a shifted distribution
/// look different.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// What the values count (`x calib`, `ms`).
    pub unit: String,
    /// Top to bottom.
    pub series: Vec<Series>,
}

impl Distribution {
    /// The chart as SVG markup; `None` when no series has a sample, or a
    /// sample is not finite.
    pub fn svg(&self) -> Result<Option<Svg>, Error> {
        let drawable: Vec<(&Series, Summary)> = self
            .series
            .iter()
            .filter_map(|s| Summary::of(&s.samples).map(|sum| (s, sum)))
            .collect();
        // A series without a sample (a row that failed) is left out; the
        // others are still drawn.
        if drawable.is_empty() {
            return Ok(None);
        }
        drawn(|svg| self.draw(svg, &drawable))
    }

    fn draw(&self, svg: &mut String, series: &[(&Series, Summary)]) -> Result<(), Undrawn> {
        let fail = |e: &dyn std::fmt::Display| e.to_string();
        let height = 70 + 56 * series.len() as u32;
        let root = SVGBackend::with_string(svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let values = series.iter().flat_map(|(s, _)| s.samples.iter().copied());
        let Some((low, high)) = span(values) else {
            return Err(Undrawn::NoAxis);
        };
        let rows = series.len() as f64;
        let labels: Vec<String> = series.iter().map(|(s, _)| s.label.clone()).collect();
        let mut chart = rows_chart(&root, low..high, &labels, &self.unit, 110)?;
        for (i, (s, sum)) in series.iter().enumerate() {
            let y = rows - 1.0 - i as f64;
            let colour = if s.baseline { BLUE } else { BLACK };
            box_of(&mut chart, y, s, sum, colour).map_err(|e| fail(&e))?;
        }
        root.present().map_err(|e| fail(&e))?;
        Ok(())
    }
}

/// One series at height `y`: its box, median, whiskers and dots.
fn box_of(
    chart: &mut Chart<'_, '_>,
    y: f64,
    series: &Series,
    sum: &Summary,
    colour: RGBColor,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let q1 = crate::stats::percentile(&series.samples, 25.0).unwrap_or(sum.median);
    let q3 = crate::stats::percentile(&series.samples, 75.0).unwrap_or(sum.median);
    let half = 0.22;
    chart.draw_series([Rectangle::new(
        [(q1, y - half), (q3, y + half)],
        colour.mix(0.15).filled(),
    )])?;
    chart.draw_series([Rectangle::new(
        [(q1, y - half), (q3, y + half)],
        colour.stroke_width(1),
    )])?;
    let lines = [
        [(sum.median, y - half), (sum.median, y + half)],
        [(sum.min, y), (q1, y)],
        [(q3, y), (sum.max, y)],
    ];
    for (k, line) in lines.into_iter().enumerate() {
        let width = if k == 0 { 3 } else { 1 };
        chart.draw_series([PathElement::new(line, colour.stroke_width(width))])?;
    }
    if series.samples.len() <= MOST_DOTS {
        // Spread up and down by a fixed pattern, so dots of equal value
        // stay apart and the same run draws the same picture.
        let dots = series.samples.iter().enumerate().map(|(k, v)| {
            let jitter = ((k as f64 * 0.618_033_988_7).fract() - 0.5) * 0.36;
            Circle::new((*v, y + jitter), 2, colour.mix(0.7).filled())
        });
        chart.draw_series(dots)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(label: &str, samples: Vec<f64>) -> Series {
        Series {
            label: label.into(),
            samples,
            baseline: label == "baseline",
        }
    }

    #[test]
    fn each_sample_is_a_dot_under_its_series_name() {
        let d = Distribution {
            unit: "x calib".into(),
            series: vec![
                series("baseline", vec![1.0, 1.1, 0.9]),
                series("this run", vec![1.4, 1.5, 1.3, 9.0]),
            ],
        };
        let svg = d.svg().unwrap().unwrap().as_str().to_string();
        assert_eq!(svg.matches("<circle").count(), 7);
        assert!(svg.contains("baseline") && svg.contains("this run"));
    }

    #[test]
    fn many_samples_are_a_box_alone_and_nothing_is_no_chart() {
        let many: Vec<f64> = (0..20_000).map(|i| f64::from(i % 100)).collect();
        let d = Distribution {
            unit: "ms".into(),
            series: vec![series("a", many)],
        };
        let svg = d.svg().unwrap().unwrap().as_str().to_string();
        assert_eq!(svg.matches("<circle").count(), 0);
        assert!(svg.len() < 20_000, "{} bytes", svg.len());
        let empty = Distribution {
            unit: "ms".into(),
            series: vec![series("a", vec![])],
        };
        assert_eq!(empty.svg().unwrap(), None);
    }
}
