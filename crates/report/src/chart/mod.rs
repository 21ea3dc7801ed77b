//! Charts, drawn by plotters into SVG markup for a [`super::Page`]: one
//! file per kind of chart, sharing the size, the colours and the font.

mod change;
mod distribution;
mod flame;
mod histogram;
mod lines;
mod pairs;
mod stacked;
mod trend;

pub use change::{Change, Changes};
pub use distribution::{Distribution, Series};
pub use flame::Flame;
pub use histogram::{BINS, Histogram};
pub use lines::{Line, Lines};
pub use pairs::{PairedChange, Pairs};
pub use stacked::{Bar, PARTS, Stacked, split};
pub use trend::{Band, Trend};

use crate::error::Error;
use plotters::chart::MeshStyle;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// A chart's width in SVG units; the page scales it to its own.
const WIDTH: u32 = 800;
/// A trend's size.
const SIZE: (u32, u32) = (WIDTH, 340);
/// The one family labels ask for: every browser has one.
const FONT: &str = "sans-serif";
/// Grid lines.
const LIGHT: RGBColor = RGBColor(225, 225, 225);
/// A baseline, a band: what the run is held against.
const BLUE: RGBColor = RGBColor(31, 100, 200);
/// A regression.
const RED: RGBColor = RGBColor(200, 40, 40);
/// A change without a verdict.
const AMBER: RGBColor = RGBColor(200, 130, 0);
/// Within the threshold.
const GREY: RGBColor = RGBColor(120, 120, 120);

/// A chart of numbers against numbers, drawn into SVG.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A chart's SVG markup. Only this module makes one, from what plotters
/// drew (which escapes every text it is given), so a page can take it
/// unescaped and nothing else can pass for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Svg(String);

impl Svg {
    /// The markup.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Markup for a test of the page.
    #[cfg(test)]
    pub(crate) fn for_test(markup: &str) -> Svg {
        Svg(markup.to_string())
    }
}

/// The label of position `at` on an axis of one category a whole number
/// (0, 1, ...): `labels[at]`, or counted from the top when `top_down` (the
/// first label on the highest row); nothing between two.
fn category(labels: &[String], at: f64, top_down: bool) -> String {
    let i = at.round();
    if (at - i).abs() > 1e-6 || i < 0.0 {
        return String::new();
    }
    let index = if top_down {
        labels.len() as f64 - 1.0 - i
    } else {
        i
    };
    (index >= 0.0)
        .then(|| labels.get(index as usize))
        .flatten()
        .cloned()
        .unwrap_or_default()
}

/// The frame the charts of one bar or box a row share: a row per label,
/// the first on top, numbers from `x` along the bottom under `x_desc`,
/// labels at least `label_width` wide, and as wide as the longest needs.
fn rows_chart<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    x: std::ops::Range<f64>,
    labels: &[String],
    x_desc: &str,
    label_width: u32,
) -> Result<Chart<'a, 'b>, String> {
    let fail = |e: &dyn std::fmt::Display| e.to_string();
    let rows = labels.len() as f64;
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(34)
        .y_label_area_size(label_width.max(label_area(labels)))
        .build_cartesian_2d(x, -0.5..rows - 0.5)
        .map_err(|e| fail(&e))?;
    let label = |y: &f64| category(labels, *y, true);
    mesh(&mut chart)
        .y_labels(labels.len())
        .y_label_formatter(&label)
        .x_desc(x_desc)
        .disable_y_mesh()
        .draw()
        .map_err(|e| fail(&e))?;
    Ok(chart)
}

/// Pixels the longest of `labels` takes at the labels' 13 px sans-serif
/// (7.5 px a character is a wide letter's, so no label is cut at the
/// left), with a margin; at most half the chart, whose bars need the rest.
fn label_area(labels: &[String]) -> u32 {
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let needed = (longest as f64 * 7.5).ceil() as u32 + 16;
    needed.min(WIDTH / 2)
}

/// The mesh every chart starts from: numbers on both axes (a chart of
/// categories names its own after), the one font, and grid lines at the
/// labelled ticks only.
fn mesh<'c, 'a, 'b>(
    chart: &'c mut Chart<'a, 'b>,
) -> MeshStyle<'a, 'c, RangedCoordf64, RangedCoordf64, SVGBackend<'b>> {
    let mut mesh = chart.configure_mesh();
    mesh.x_label_formatter(&tick)
        .y_label_formatter(&tick)
        .label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .max_light_lines(0)
        .bold_line_style(LIGHT);
    mesh
}

/// Why a chart was not drawn.
enum Undrawn {
    /// Its values span no axis (see [`span`]): no chart, not an error.
    NoAxis,
    /// plotters failed, in a line.
    Failed(String),
}

impl From<String> for Undrawn {
    fn from(e: String) -> Undrawn {
        Undrawn::Failed(e)
    }
}

/// Draws into a new SVG string: `None` for values that span no axis;
/// plotters' errors become one line.
fn drawn(draw: impl FnOnce(&mut String) -> Result<(), Undrawn>) -> Result<Option<Svg>, Error> {
    let mut svg = String::new();
    match draw(&mut svg) {
        // plotters escapes markup, not characters that reorder or hide
        // text; the markup is ASCII, so only labels can hold one.
        Ok(()) => Ok(Some(Svg(crate::text::visible(&svg).into_owned()))),
        Err(Undrawn::NoAxis) => Ok(None),
        Err(Undrawn::Failed(e)) => Err(Error::input(format!("drawing a chart: {e}"))),
    }
}

/// A number on an axis: three significant digits, large ones with a
/// suffix (`12.5M`), and no `.0` a reader must skip.
fn tick(v: &f64) -> String {
    if v.abs() >= 1e12 {
        return format!("{v:.2e}");
    }
    let (scaled, suffix) = match v.abs() {
        a if a >= 1e9 => (v / 1e9, "G"),
        a if a >= 1e6 => (v / 1e6, "M"),
        a if a >= 1e4 => (v / 1e3, "k"),
        _ => (*v, ""),
    };
    let text = crate::output::layout::significant(scaled, 3);
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    };
    format!("{text}{suffix}")
}

/// The range an axis spans: every value, with a margin, and never empty
/// (one value, or values all alike, still get a readable axis); `None`
/// when the values are not finite or so far apart that the range is not
/// (plotters would never finish placing its ticks).
fn span(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let pad = if high > low {
        (high - low) * 0.1
    } else {
        (high.abs() * 0.05).max(1e-9)
    };
    let (low, high) = (low - pad, high + pad);
    (low.is_finite() && high.is_finite() && (high - low).is_finite()).then_some((low, high))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_too_far_apart_for_an_axis_are_no_axis() {
        assert_eq!(span([0.0, f64::MAX].into_iter()), None);
        assert_eq!(span([-1e308, 1e308].into_iter()), None);
        assert_eq!(span(std::iter::empty()), None);
        assert!(span([1.0, 2.0].into_iter()).is_some());
    }

    #[test]
    fn the_label_area_fits_the_longest_label_up_to_half_the_chart() {
        let labels = |n: usize| vec!["a".to_string(), "x".repeat(n)];
        // template_page_minijinja (median/calib +23.0 %): 43 characters.
        assert_eq!(label_area(&labels(43)), 339);
        assert_eq!(label_area(&labels(2)), 31);
        assert_eq!(label_area(&labels(200)), WIDTH / 2);
        assert_eq!(label_area(&[]), 16);
    }

    #[test]
    fn a_category_is_named_at_its_whole_position_only() {
        let labels = ["a".to_string(), "b".to_string(), "c".to_string()];
        assert_eq!(category(&labels, 0.0, false), "a");
        assert_eq!(category(&labels, 0.0, true), "c");
        assert_eq!(category(&labels, 2.0, true), "a");
        for between in [0.5, -1.0, 3.0] {
            assert_eq!(category(&labels, between, true), "");
        }
    }

    #[test]
    fn ticks_are_short() {
        let shown: Vec<String> = [0.0, 2_000_000.0, 12_500_000.0, -30.0, 0.0315, 25_000.0]
            .iter()
            .map(tick)
            .collect();
        assert_eq!(shown, ["0", "2M", "12.5M", "-30", "0.0315", "25k"]);
        assert_eq!(tick(&1.7e308), "1.70e308");
    }
}
