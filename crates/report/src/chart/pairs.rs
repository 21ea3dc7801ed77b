//! A paired comparison's evidence for one probe: each round's change of
//! the new build against the old, grouped by the pair of workers that ran
//! it, and each pair's median, which is the one figure of that pair the
//! signed-rank test takes.

use super::{BLUE, Chart, GREY, RED, SIZE, Svg, Undrawn, drawn, mesh, span};
use crate::error::Error;
use crate::stats::median;
use plotters::prelude::*;

/// The most rounds named on the axis before the labels crowd.
const MOST_LABELS: usize = 16;

/// One round: which pair ran it, its number, and its change in percent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedChange {
    /// The worker pair, from 0.
    pub pair: usize,
    /// The round's number in the comparison.
    pub round: usize,
    /// `new / old - 1`, in percent; positive is slower.
    pub pct: f64,
}

/// The rounds of one probe, in the order they ran, against a threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct Pairs {
    /// Slower by more than this many percent can regress; a dashed line.
    pub threshold_pct: f64,
    /// Every round both builds measured.
    pub rounds: Vec<PairedChange>,
}

impl Pairs {
    /// The chart as SVG markup; `None` for no round, or a change that is
    /// not finite.
    pub fn svg(&self) -> Result<Option<Svg>, Error> {
        let finite = self.rounds.iter().all(|r| r.pct.is_finite());
        if self.rounds.is_empty() || !finite || !self.threshold_pct.is_finite() {
            return Ok(None);
        }
        drawn(|svg| self.draw(svg))
    }

    /// Each pair's rounds: their positions on the axis and changes.
    fn by_pair(&self) -> Vec<Vec<(f64, f64)>> {
        let mut pairs: Vec<(usize, Vec<(f64, f64)>)> = Vec::new();
        for (i, r) in self.rounds.iter().enumerate() {
            match pairs.iter_mut().find(|(p, _)| *p == r.pair) {
                Some((_, points)) => points.push((i as f64, r.pct)),
                None => pairs.push((r.pair, vec![(i as f64, r.pct)])),
            }
        }
        pairs.into_iter().map(|(_, points)| points).collect()
    }

    fn draw(&self, svg: &mut String) -> Result<(), Undrawn> {
        let fail = |e: &dyn std::fmt::Display| e.to_string();
        let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let t = self.threshold_pct;
        let values = self.rounds.iter().map(|r| r.pct);
        let Some((low, high)) = span(values.chain([0.0, t])) else {
            return Err(Undrawn::NoAxis);
        };
        let last = self.rounds.len() as f64 - 0.5;
        let mut chart = ChartBuilder::on(&root)
            .margin(14)
            .x_label_area_size(36)
            .y_label_area_size(72)
            .build_cartesian_2d(-0.5..last, low..high)
            .map_err(|e| fail(&e))?;
        let numbers: Vec<String> = self.rounds.iter().map(|r| r.round.to_string()).collect();
        let label = |x: &f64| super::category(&numbers, *x, false);
        mesh(&mut chart)
            .x_labels(self.rounds.len().min(MOST_LABELS))
            .x_label_formatter(&label)
            .x_desc("round")
            .y_desc("new vs old (%), slower up")
            .disable_x_mesh()
            .draw()
            .map_err(|e| fail(&e))?;
        self.marks(&mut chart, last).map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
        Ok(())
    }

    /// No change, the threshold, every round as a dot in its pair's colour
    /// (the pairs alternate), and each pair's median as a bar across its
    /// rounds.
    fn marks(
        &self,
        chart: &mut Chart<'_, '_>,
        last: f64,
    ) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
        let t = self.threshold_pct;
        chart.draw_series(LineSeries::new([(-0.5, 0.0), (last, 0.0)], BLACK))?;
        let threshold = [(-0.5, t), (last, t)];
        chart.draw_series(DashedLineSeries::new(threshold, 6, 4, RED.stroke_width(1)))?;
        for (i, points) in self.by_pair().iter().enumerate() {
            let colour = if i % 2 == 0 { BLUE } else { GREY };
            let dots = points.iter().map(|p| Circle::new(*p, 3, colour.filled()));
            chart.draw_series(dots)?;
            let changes: Vec<f64> = points.iter().map(|(_, pct)| *pct).collect();
            let xs = points.iter().map(|(x, _)| *x);
            let (from, to) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
            if let Some(m) = median(&changes) {
                let bar = [(from - 0.35, m), (to + 0.35, m)];
                chart.draw_series(LineSeries::new(bar, colour.stroke_width(3)))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pair_has_its_dots_and_its_median() {
        let rounds = (0..6)
            .map(|i| PairedChange {
                pair: i / 3,
                round: i + 1,
                pct: if i < 3 { 5.0 } else { -1.0 },
            })
            .collect();
        let pairs = Pairs {
            threshold_pct: 3.0,
            rounds,
        };
        assert_eq!(pairs.by_pair().len(), 2);
        let svg = pairs.svg().unwrap().unwrap().as_str().to_string();
        assert_eq!(svg.matches("<circle").count(), 6, "{svg}");
        // Both pairs' colours, and the threshold's.
        for colour in ["#1F64C8", "#787878", "#C82828"] {
            assert!(svg.contains(colour), "{colour}");
        }
        let none = Pairs {
            threshold_pct: 3.0,
            rounds: vec![],
        };
        assert_eq!(none.svg().unwrap(), None);
    }
}
