//! Lines of numbers against numbers, with a legend and marked values on
//! the horizontal axis: the evaluation's plots (how far identical runs
//! drift apart, how often a known slowdown is caught), drawn by the same
//! code as the reports'.

use super::{Chart, FONT, LIGHT, Svg, Undrawn, WIDTH, drawn, mesh};
use crate::error::Error;
use plotters::prelude::*;

/// The lines' colours, in turn: a [`Line`] picks one by index, so that
/// related lines can share one.
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
];

/// One line and its name in the legend.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Its name in the legend.
    pub label: String,
    /// Its points, left to right.
    pub points: Vec<(f64, f64)>,
    /// Dashed rather than solid.
    pub dashed: bool,
    /// Its colour, an index into the palette (taken modulo its size).
    pub colour: usize,
    /// Drawn as a step function (an empirical distribution): each value
    /// holds until the next point's x.
    pub steps: bool,
}

/// Lines within fixed ranges; what lies outside is drawn on the edge.
#[derive(Debug, Clone, PartialEq)]
pub struct Lines {
    /// Above the chart.
    pub title: String,
    /// What the horizontal axis counts.
    pub x_label: String,
    /// What the vertical axis counts.
    pub y_label: String,
    /// The horizontal axis, least to most.
    pub x_range: (f64, f64),
    /// The vertical axis, least to most.
    pub y_range: (f64, f64),
    /// The lines, in the legend's order.
    pub lines: Vec<Line>,
    /// Values marked across the chart (a threshold), each with its label.
    pub marks: Vec<(f64, String)>,
}

impl Lines {
    /// The chart as SVG markup; `None` for ranges that are empty or not
    /// finite, or a mark that is not. A point that is not finite is left
    /// out of its line, as it has no place on the chart.
    pub fn svg(&self) -> Result<Option<Svg>, Error> {
        let ok = |(low, high): (f64, f64)| low.is_finite() && high.is_finite() && low < high;
        let finite = self.marks.iter().all(|(x, _)| x.is_finite());
        if !ok(self.x_range) || !ok(self.y_range) || !finite {
            return Ok(None);
        }
        drawn(|svg| self.draw(svg))
    }

    fn draw(&self, svg: &mut String) -> Result<(), Undrawn> {
        let fail = |e: &dyn std::fmt::Display| e.to_string();
        let root = SVGBackend::with_string(svg, (WIDTH, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(&e))?;
        let (x, y) = (self.x_range, self.y_range);
        let mut chart = ChartBuilder::on(&root)
            .caption(self.title.as_str(), (FONT, 16))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d(x.0..x.1, y.0..y.1)
            .map_err(|e| fail(&e))?;
        mesh(&mut chart)
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .draw()
            .map_err(|e| fail(&e))?;
        self.marks(&mut chart).map_err(|e| fail(&e))?;
        for line in &self.lines {
            self.line(&mut chart, line).map_err(|e| fail(&e))?;
        }
        if !self.lines.is_empty() {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerRight)
                .label_font((FONT, 12))
                .background_style(WHITE.mix(0.85))
                .border_style(LIGHT)
                .draw()
                .map_err(|e| fail(&e))?;
        }
        root.present().map_err(|e| fail(&e))?;
        Ok(())
    }

    /// Each mark as a dashed grey line across the chart, labelled at its
    /// top.
    fn marks(&self, chart: &mut Chart<'_, '_>) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
        let (low, high) = self.y_range;
        let grey = RGBColor(90, 90, 90);
        for (x, label) in &self.marks {
            let across = [(*x, low), (*x, high)];
            chart.draw_series(DashedLineSeries::new(across, 5, 4, grey.stroke_width(1)))?;
            let top = high - (high - low) * 0.03;
            let style = TextStyle::from((FONT, 12)).color(&grey);
            chart.draw_series([Text::new(format!(" {label}"), (*x, top), style)])?;
        }
        Ok(())
    }

    /// The points of `line` as drawn: its finite points, as steps if it is
    /// a step function, each held to the ranges (what lies beyond is drawn
    /// on the edge).
    fn held(&self, line: &Line) -> Vec<(f64, f64)> {
        let (x, y) = (self.x_range, self.y_range);
        let finite: Vec<(f64, f64)> = line
            .points
            .iter()
            .copied()
            .filter(|(a, b)| a.is_finite() && b.is_finite())
            .collect();
        let points = if line.steps { steps(&finite) } else { finite };
        let held = |(a, b): (f64, f64)| (a.clamp(x.0, x.1), b.clamp(y.0, y.1));
        points.into_iter().map(held).collect()
    }

    /// One line, held to the ranges, with its legend entry.
    fn line<'a>(
        &self,
        chart: &mut Chart<'a, 'a>,
        line: &Line,
    ) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
        let colour = PALETTE[line.colour % PALETTE.len()];
        let style = colour.stroke_width(2);
        let points = self.held(line);
        if !line.steps {
            // A curve's points are its measurements: marked, so that a
            // curve of one point shows too.
            let dots = points.iter().map(|p| Circle::new(*p, 3, colour.filled()));
            chart.draw_series(dots)?;
        }
        let drawn = if line.dashed {
            chart.draw_series(DashedLineSeries::new(points, 7, 4, style))?
        } else {
            chart.draw_series(LineSeries::new(points, style))?
        };
        // The legend's sample: two strokes, apart when the line is dashed.
        let gap = if line.dashed { 4 } else { 0 };
        drawn.label(line.label.as_str()).legend(move |at| {
            EmptyElement::at(at)
                + PathElement::new(vec![(0, 0), (9 - gap / 2, 0)], style)
                + PathElement::new(vec![(9 + gap / 2, 0), (18, 0)], style)
        });
        Ok(())
    }
}

/// The corners of a step function through `points`: each value holds
/// until the next point's x, then rises (or falls) to it.
fn steps(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(points.len() * 2);
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            out.push((p.0, points[i - 1].1));
        }
        out.push(*p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(label: &str, points: &[(f64, f64)], colour: usize) -> Line {
        Line {
            label: label.into(),
            points: points.to_vec(),
            dashed: colour == 1,
            colour,
            steps: colour == 1,
        }
    }

    fn chart(lines: Vec<Line>) -> Lines {
        Lines {
            title: "Power & <more>".into(),
            x_label: "slowdown %".into(),
            y_label: "share flagged".into(),
            x_range: (0.0, 50.0),
            y_range: (0.0, 1.0),
            lines,
            marks: vec![(30.0, "threshold 30 %".into())],
        }
    }

    #[test]
    fn each_line_is_drawn_in_its_colour_and_named_in_the_legend() {
        let svg = chart(vec![
            line("quiet", &[(0.0, 0.0), (25.0, 0.5), (50.0, 1.0)], 0),
            line("loaded, raw", &[(0.0, 0.0), (80.0, 1.0)], 1),
        ])
        .svg()
        .unwrap()
        .unwrap()
        .as_str()
        .to_string();
        for part in [
            "quiet",
            "loaded, raw",
            "threshold 30 %",
            "#1F77B4",
            "#D62728",
        ] {
            assert!(svg.contains(part), "{part}: {svg}");
        }
        assert!(svg.contains("Power &amp; &lt;more&gt;"), "{svg}");
    }

    #[test]
    fn what_lies_beyond_the_ranges_is_drawn_on_their_edge() {
        let c = chart(vec![]);
        let far = line("far", &[(-5.0, 0.5), (80.0, 1.5), (f64::NAN, 0.5)], 0);
        assert_eq!(c.held(&far), [(0.0, 0.5), (50.0, 1.0)]);
        // A step function steps before it is held.
        let ecdf = line("ecdf", &[(0.0, 0.0), (80.0, 1.0)], 1);
        assert_eq!(c.held(&ecdf), [(0.0, 0.0), (50.0, 0.0), (50.0, 1.0)]);
    }

    #[test]
    fn a_chart_of_no_line_still_has_its_axes_and_bad_ranges_have_none() {
        assert!(chart(vec![]).svg().unwrap().is_some());
        let mut empty = chart(vec![]);
        empty.x_range = (1.0, 1.0);
        assert_eq!(empty.svg().unwrap(), None);
        let mut nan = chart(vec![]);
        nan.marks[0].0 = f64::NAN;
        assert_eq!(nan.svg().unwrap(), None);
    }

    #[test]
    fn a_point_that_is_not_finite_leaves_its_line_drawn() {
        let gap = line("gap", &[(0.0, 0.0), (f64::NAN, 0.5), (25.0, 0.5)], 0);
        let svg = chart(vec![gap])
            .svg()
            .unwrap()
            .unwrap()
            .as_str()
            .to_string();
        assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
    }

    #[test]
    fn steps_hold_each_value_until_the_next_point() {
        assert_eq!(
            steps(&[(0.0, 0.0), (1.0, 0.5), (2.0, 1.0)]),
            [(0.0, 0.0), (1.0, 0.0), (1.0, 0.5), (2.0, 0.5), (2.0, 1.0)]
        );
        assert!(steps(&[]).is_empty());
    }
}
