//! A small line chart as SVG: axes with round ticks, one polyline per
//! series, vertical marker lines, a legend. Enough for the report's plots
//! without a plotting library and its font and image dependencies.

use std::fmt::Write;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 55.0;
const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];

/// One line of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub dashed: bool,
    /// Index into the palette, so related series can share a colour.
    pub colour: usize,
    /// Draws a step function (an empirical distribution) instead of
    /// straight segments.
    pub steps: bool,
}

/// A chart: axes ranges are given, points outside them are clipped.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    pub series: Vec<Series>,
    /// Vertical lines at an x value, with a label (a threshold).
    pub marks: Vec<(f64, String)>,
}

/// Escapes text for SVG content and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Round tick values covering `lo..=hi`, about `count` of them (steps of 1,
/// 2 or 5 times a power of ten).
pub fn ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo || count == 0 {
        return Vec::new();
    }
    let range = hi - lo;
    let power = 10f64.powf((range / count as f64).log10().floor());
    // The round step whose number of intervals is closest to `count`.
    let intervals = |step: f64| range / step;
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .min_by(|a, b| {
            let off = |s: f64| (intervals(s) - count as f64).abs();
            off(*a).total_cmp(&off(*b))
        })
        .unwrap_or(power);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

fn number(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// Where the chart's data land on the canvas: the plot area inside the
/// margins, and the axes' ranges mapped onto it.
struct Frame {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    width: f64,
    height: f64,
}

impl Frame {
    fn of(chart: &Chart) -> Frame {
        let (x0, x1) = chart.x_range;
        let (y0, y1) = chart.y_range;
        Frame {
            x0,
            x1,
            y0,
            y1,
            width: WIDTH - LEFT - RIGHT,
            height: HEIGHT - TOP - BOTTOM,
        }
    }

    /// An empty range maps as a range of one, so nothing divides by zero.
    fn span(a: f64, b: f64) -> f64 {
        if b > a { b - a } else { 1.0 }
    }

    fn x(&self, x: f64) -> f64 {
        LEFT + (x - self.x0) / Frame::span(self.x0, self.x1) * self.width
    }

    fn y(&self, y: f64) -> f64 {
        TOP + self.height - (y - self.y0) / Frame::span(self.y0, self.y1) * self.height
    }

    /// Points outside the ranges get no marker: the clip path hides the
    /// line there, and a marker would sit on the frame.
    fn contains(&self, x: f64, y: f64) -> bool {
        x.is_finite()
            && y.is_finite()
            && (self.x0..=self.x1).contains(&x)
            && (self.y0..=self.y1).contains(&y)
    }
}

impl Chart {
    pub fn render(&self) -> String {
        let frame = Frame::of(self);
        let mut s = String::new();
        self.canvas(&mut s, &frame);
        self.grid(&mut s, &frame);
        self.axes(&mut s, &frame);
        self.mark_lines(&mut s, &frame);
        for (i, series) in self.series.iter().enumerate() {
            series.draw(&mut s, &frame, i);
        }
        s.push_str("</svg>\n");
        s
    }

    /// The document's head: size, white background, the plot's clip path
    /// and the title.
    fn canvas(&self, s: &mut String, f: &Frame) {
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<clipPath id="plot"><rect x="{LEFT}" y="{TOP}" width="{}" height="{}"/></clipPath>"#,
            f.width, f.height
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
            LEFT + f.width / 2.0,
            escape(&self.title)
        );
    }

    /// Grid lines at round values of both axes, each with its label.
    fn grid(&self, s: &mut String, f: &Frame) {
        for t in ticks(f.x0, f.x1, 8) {
            let x = f.x(t);
            let _ = writeln!(
                s,
                r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#e5e5e5"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
                TOP + f.height,
                TOP + f.height + 16.0,
                number(t)
            );
        }
        for t in ticks(f.y0, f.y1, 6) {
            let y = f.y(t);
            let _ = writeln!(
                s,
                r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e5e5e5"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                LEFT + f.width,
                LEFT - 6.0,
                y + 4.0,
                number(t)
            );
        }
    }

    /// The plot's frame and the axes' labels.
    fn axes(&self, s: &mut String, f: &Frame) {
        let _ = writeln!(
            s,
            r#"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="none" stroke="black"/>"#,
            f.width, f.height
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            LEFT + f.width / 2.0,
            HEIGHT - 14.0,
            escape(&self.x_label)
        );
        let _ = writeln!(
            s,
            r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
            TOP + f.height / 2.0,
            escape(&self.y_label)
        );
    }

    /// The vertical lines at the marks (thresholds), labelled at the top.
    fn mark_lines(&self, s: &mut String, f: &Frame) {
        for (x, label) in &self.marks {
            let px = f.x(*x);
            let _ = writeln!(
                s,
                r##"<line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{:.1}" stroke="#555" stroke-dasharray="2 3" clip-path="url(#plot)"/><text x="{:.1}" y="{:.1}" fill="#555">{}</text>"##,
                TOP + f.height,
                px + 4.0,
                TOP + 14.0,
                escape(label)
            );
        }
    }
}

impl Series {
    /// The series' line, its point markers and its legend entry (the
    /// `index`-th row of the legend).
    fn draw(&self, s: &mut String, f: &Frame, index: usize) {
        let colour = COLOURS[self.colour % COLOURS.len()];
        let dash = if self.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.8"{dash} clip-path="url(#plot)"/>"#,
            self.path(f).trim_end()
        );
        if !self.steps {
            for (x, y) in self.points.iter().filter(|(x, y)| f.contains(*x, *y)) {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}"/>"#,
                    f.x(*x),
                    f.y(*y)
                );
            }
        }
        let ly = TOP + 10.0 + index as f64 * 18.0;
        let lx = LEFT + f.width + 12.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="1.8"{dash}/><text x="{:.1}" y="{:.1}">{}</text>"#,
            lx + 24.0,
            lx + 30.0,
            ly + 4.0,
            escape(&self.label)
        );
    }

    /// The polyline's vertices: a step series holds each value until the
    /// next point, so it gets a corner before every point after the first.
    /// Points that are not finite are left out (an SVG with NaN is broken).
    fn path(&self, f: &Frame) -> String {
        let mut path = String::new();
        let finite = self
            .points
            .iter()
            .filter(|(x, y)| x.is_finite() && y.is_finite());
        let mut last_y: Option<f64> = None;
        for (x, y) in finite {
            if let (true, Some(prev)) = (self.steps, last_y) {
                let _ = write!(path, "{:.1},{:.1} ", f.x(*x), f.y(prev));
            }
            let _ = write!(path, "{:.1},{:.1} ", f.x(*x), f.y(*y));
            last_y = Some(*y);
        }
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round() {
        assert_eq!(
            ticks(0.0, 1.0, 5),
            [0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
        );
        assert_eq!(
            ticks(0.0, 40.0, 8),
            [0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0]
        );
        assert_eq!(ticks(3.0, 97.0, 4), [20.0, 40.0, 60.0, 80.0]);
        assert!(ticks(1.0, 1.0, 4).is_empty());
        assert!(ticks(0.0, f64::NAN, 4).is_empty());
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\"\u{7}"), "a&lt;b &amp; &quot;c&quot;");
    }

    fn chart(series: Vec<Series>) -> Chart {
        Chart {
            title: "Power <quiet>".into(),
            x_label: "slowdown %".into(),
            y_label: "share flagged".into(),
            x_range: (0.0, 40.0),
            y_range: (0.0, 1.0),
            series,
            marks: vec![(15.0, "threshold 15 %".into())],
        }
    }

    #[test]
    fn a_chart_has_a_line_per_series_and_a_legend() {
        let svg = chart(vec![
            Series {
                label: "quiet".into(),
                points: vec![(5.0, 0.1), (40.0, 1.0)],
                dashed: false,
                colour: 0,
                steps: false,
            },
            Series {
                label: "cpu & raw".into(),
                points: vec![(0.0, 0.0), (10.0, 0.5), (20.0, 1.0), (f64::NAN, 1.0)],
                dashed: true,
                colour: 1,
                steps: true,
            },
        ])
        .render();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("Power &lt;quiet&gt;") && svg.contains("cpu &amp; raw"));
        assert!(svg.contains("threshold 15 %"));
        // Points of a line series are marked; a step series has two
        // vertices per point after the first, and no NaN reaches the file.
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(!svg.contains("NaN"));
        let steps = svg
            .lines()
            .find(|l| l.contains("stroke-dasharray=\"6 4\"") && l.starts_with("<polyline"))
            .unwrap();
        let points = steps
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert_eq!(points.split(' ').count(), 5);
    }

    #[test]
    fn an_empty_chart_still_renders() {
        let svg = chart(Vec::new()).render();
        assert!(svg.contains("</svg>"));
    }
}
