//! How samples spread, summarised into bins: a run of 20,000 requests is
//! drawn as 40 bars, never as 20,000 marks.

use super::{BLUE, Chart, Svg, Undrawn, WIDTH, drawn, mesh};
use crate::error::Error;
use plotters::prelude::*;

/// Bars a histogram is summarised into.
pub const BINS: usize = 40;

/// Samples as a histogram.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// What the samples count (`ms per request`).
    pub unit: String,
    /// The samples, any order.
    pub samples: Vec<f64>,
}

impl Histogram {
    /// How many samples fall in each of [`BINS`] equal bins from the least
    /// to the most, and the bins' edges; `None` for no sample, or one that
    /// is not finite.
    pub fn bins(&self) -> Option<(Vec<u64>, f64, f64)> {
        if self.samples.is_empty() || self.samples.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let low = self.samples.iter().copied().fold(f64::INFINITY, f64::min);
        let high = self
            .samples
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let width = if high > low {
            (high - low) / BINS as f64
        } else {
            1.0
        };
        // Samples so far apart that their range is no number have no bins.
        if !width.is_finite() || !(low + width * BINS as f64).is_finite() {
            return None;
        }
        let mut counts = vec![0u64; BINS];
        for v in &self.samples {
            let i = (((v - low) / width) as usize).min(BINS - 1);
            counts[i] += 1;
        }
        Some((counts, low, low + width * BINS as f64))
    }

    /// The chart; `None` when there are no bins.
    pub fn svg(&self) -> Result<Option<Svg>, Error> {
        let Some(bins) = self.bins() else {
            return Ok(None);
        };
        drawn(|svg| self.draw(svg, &bins))
    }

    fn draw(
        &self,
        svg: &mut String,
        (counts, low, high): &(Vec<u64>, f64, f64),
    ) -> Result<(), Undrawn> {
        let fail = |e: &dyn std::fmt::Display| e.to_string();
        let root = SVGBackend::with_string(svg, (WIDTH, 220)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let most = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(60)
            .build_cartesian_2d(*low..*high, 0.0..most * 1.08)
            .map_err(|e| fail(&e))?;
        mesh(&mut chart)
            .x_desc(self.unit.as_str())
            .y_desc("samples")
            .disable_x_mesh()
            .draw()
            .map_err(|e| fail(&e))?;
        bars(&mut chart, counts, *low, (*high - *low) / BINS as f64).map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
        Ok(())
    }
}

fn bars(
    chart: &mut Chart<'_, '_>,
    counts: &[u64],
    low: f64,
    width: f64,
) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
    let bars = counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(i, c)| {
            let from = low + width * i as f64;
            Rectangle::new(
                [(from, 0.0), (from + width, *c as f64)],
                BLUE.mix(0.6).filled(),
            )
        });
    chart.draw_series(bars)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_is_in_one_bin_and_many_stay_small() {
        let samples: Vec<f64> = (0..20_000).map(|i| f64::from(i % 997) / 10.0).collect();
        let h = Histogram {
            unit: "ms per request".into(),
            samples: samples.clone(),
        };
        let (counts, low, high) = h.bins().unwrap();
        assert_eq!(counts.iter().sum::<u64>(), 20_000);
        assert_eq!((low, counts.len()), (0.0, BINS));
        assert!(high >= 99.6);
        let svg = h.svg().unwrap().unwrap();
        assert!(svg.as_str().len() < 30_000, "{} bytes", svg.as_str().len());
        let one = Histogram {
            unit: "ms".into(),
            samples: vec![3.0, 3.0],
        };
        assert_eq!(one.bins().unwrap().0[0], 2);
        let apart = Histogram {
            unit: "ms".into(),
            samples: vec![-f64::MAX, f64::MAX],
        };
        assert_eq!(apart.svg().unwrap(), None);
        let none = Histogram {
            unit: "ms".into(),
            samples: vec![],
        };
        assert_eq!(none.svg().unwrap(), None);
    }
}
