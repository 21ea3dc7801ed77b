//! Where estimated cycles go: bars split into the cost of accesses served
//! by L1, by the last-level cache and by RAM, one bar a run.

use super::{BLUE, Chart, RED, Svg, Undrawn, WIDTH, drawn, rows_chart, span};
use crate::error::Error;
use plotters::prelude::*;

/// One bar: its name and its parts, in the order of [`PARTS`].
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// Its name on the axis (`baseline`, `this run`).
    pub label: String,
    /// The cost of L1 hits, last-level hits and RAM accesses, per
    /// iteration.
    pub parts: [f64; 3],
}

/// What each part is, for the key beneath the chart; the weights are
/// [`split`]'s.
pub const PARTS: [&str; 3] = ["L1 hits", "last-level hits", "RAM accesses"];

/// Bars one above another, each split into its parts.
#[derive(Debug, Clone, PartialEq)]
pub struct Stacked {
    /// What the bars count.
    pub unit: String,
    /// Top to bottom.
    pub bars: Vec<Bar>,
}

impl Stacked {
    /// The chart; `None` for no bar, or a part that is negative or not
    /// finite (figures that do not add up).
    pub fn svg(&self) -> Result<Option<Svg>, Error> {
        let sound = self
            .bars
            .iter()
            .all(|b| b.parts.iter().all(|p| p.is_finite() && *p >= 0.0));
        if self.bars.is_empty() || !sound {
            return Ok(None);
        }
        drawn(|svg| self.draw(svg))
    }

    fn draw(&self, svg: &mut String) -> Result<(), Undrawn> {
        let fail = |e: &dyn std::fmt::Display| e.to_string();
        let height = 70 + 40 * self.bars.len() as u32;
        let root = SVGBackend::with_string(svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let totals = self.bars.iter().map(|b| b.parts.iter().sum::<f64>());
        let Some((_, high)) = span(totals.chain([0.0])) else {
            return Err(Undrawn::NoAxis);
        };
        let labels: Vec<String> = self.bars.iter().map(|b| b.label.clone()).collect();
        let mut chart = rows_chart(&root, 0.0..high, &labels, &self.unit, 110)?;
        self.segments(&mut chart).map_err(|e| fail(&e))?;
        root.present().map_err(|e| fail(&e))?;
        Ok(())
    }

    fn segments(
        &self,
        chart: &mut Chart<'_, '_>,
    ) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
        let colours = [
            BLUE.mix(0.35),
            RGBColor(230, 150, 30).mix(0.8),
            RED.mix(0.85),
        ];
        let rows = self.bars.len() as f64;
        for (i, bar) in self.bars.iter().enumerate() {
            let y = rows - 1.0 - i as f64;
            let mut from = 0.0;
            for (part, colour) in bar.parts.iter().zip(colours) {
                let corners = [(from, y - 0.3), (from + part, y + 0.3)];
                chart.draw_series([Rectangle::new(corners, colour.filled())])?;
                from += part;
            }
        }
        Ok(())
    }
}

/// The parts of `cycles` estimated cycles per iteration made of
/// `l1_misses` and `ll_misses` (RAM accesses): L1 hits at 1, last-level
/// hits at `ll_weight`, RAM accesses at `ram_weight`.
pub fn split(cycles: f64, l1_misses: f64, ll_misses: f64, weights: (f64, f64)) -> [f64; 3] {
    let (ll_weight, ram_weight) = weights;
    let ll = (l1_misses - ll_misses) * ll_weight;
    let ram = ll_misses * ram_weight;
    [cycles - ll - ram, ll, ram]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_add_up_to_the_cycles_and_each_is_a_rectangle() {
        let parts = split(1000.0, 20.0, 5.0, (5.0, 35.0));
        assert_eq!(parts, [1000.0 - 75.0 - 175.0, 75.0, 175.0]);
        let s = Stacked {
            unit: "estimated cycles per iteration".into(),
            bars: vec![
                Bar {
                    label: "baseline".into(),
                    parts,
                },
                Bar {
                    label: "this run".into(),
                    parts: split(1200.0, 30.0, 5.0, (5.0, 35.0)),
                },
            ],
        };
        let svg = s.svg().unwrap().unwrap().as_str().to_string();
        assert!(svg.contains("baseline") && svg.contains("this run"));
        assert!(svg.matches("<rect").count() >= 6, "{svg}");
        let unsound = Stacked {
            unit: String::new(),
            bars: vec![Bar {
                label: "x".into(),
                parts: split(10.0, 20.0, 5.0, (5.0, 35.0)),
            }],
        };
        assert_eq!(unsound.svg().unwrap(), None);
    }
}
