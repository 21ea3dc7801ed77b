//! A differential flame graph of one counted probe: the run's call tree,
//! each frame as wide as its count with its callees', coloured by how it
//! moved against the baseline's: red for more, blue for fewer, grey for
//! the same.
//!
//! A counted row keeps the calls between its functions (caller → callee,
//! with what the callee cost from there), not whole stacks, so the tree is
//! unfolded from them: from the costliest function down, each callee takes
//! the share of its caller's frame that the call is of the caller's count.
//! That is exact where a function has one caller, and a proportional guess
//! where it has several, which is what callgrind's own call-graph viewers
//! assume. Both runs are unfolded alike, and a frame is compared with the
//! baseline's frame of the same path. Drawn by hand rather than through
//! plotters: a flame graph is rectangles and their names, nothing more.

use super::{Svg, WIDTH};
use crate::document::functions::Functions;
use crate::document::row::Counted;
use crate::document::run::Metric;
use crate::measure::callgrind::TOGGLE;
use crate::output::attribution::function_name;
use crate::page::escape;
use std::collections::HashMap;

/// One frame's height.
const ROW: f64 = 17.0;
/// A frame narrower than this share of the root is left out, with what it
/// calls.
const NARROWEST: f64 = 0.002;
/// The deepest a stack is unfolded.
const DEEPEST: usize = 48;
/// The most frames drawn.
const MOST: usize = 3_000;

/// A differential flame graph.
pub struct Flame<'a> {
    /// The run's functions.
    pub now: &'a Functions,
    /// The baseline's, which colour them.
    pub baseline: &'a Functions,
    /// The figure frames are as wide as.
    pub metric: Metric,
}

/// One frame unfolded: the functions from the root to it, its width and
/// where it starts, in the root's units.
#[derive(Debug, Clone, PartialEq)]
struct Frame {
    path: Vec<usize>,
    width: f64,
    x: f64,
}

impl Flame<'_> {
    /// The graph; `None` when the run's functions hold no call tree (no
    /// function with a count).
    pub fn svg(&self) -> Option<Svg> {
        let now = unfold(self.now, self.metric)?;
        let before: HashMap<String, f64> = unfold(self.baseline, self.metric)
            .unwrap_or_default()
            .iter()
            .map(|f| (key(self.baseline, &f.path), f.width))
            .collect();
        let total = now.first()?.width;
        let depth = now.iter().map(|f| f.path.len()).max().unwrap_or(1);
        let height = depth as f64 * ROW + 2.0;
        let scale = f64::from(WIDTH) / total;
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flame\" \
             viewBox=\"0 0 {WIDTH} {height}\" font-family=\"sans-serif\" font-size=\"11\">\n"
        );
        for frame in &now {
            let Some(function) = frame.path.last().and_then(|&i| self.now.at(i)) else {
                continue;
            };
            let was = before
                .get(&key(self.now, &frame.path))
                .copied()
                .unwrap_or(0.0);
            let (x, w) = (frame.x * scale, frame.width * scale);
            let y = height - frame.path.len() as f64 * ROW;
            let title = format!(
                "{}: {} before, {} now ({})",
                function_name(&function.name),
                amount(was),
                amount(frame.width),
                moved(was, frame.width)
            );
            svg.push_str(&format!(
                "<g><title>{}</title><rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{w:.2}\" \
                 height=\"{:.1}\" fill=\"{}\" stroke=\"white\" stroke-width=\"0.5\"/>",
                escape(&title),
                ROW - 1.0,
                colour(was, frame.width)
            ));
            let fits = ((w - 6.0) / 6.5).floor();
            if fits >= 4.0 {
                svg.push_str(&format!(
                    "<text x=\"{:.2}\" y=\"{:.2}\">{}</text>",
                    x + 3.0,
                    y + ROW - 5.0,
                    escape(&label(&function_name(&function.name), fits as usize))
                ));
            }
            svg.push_str("</g>\n");
        }
        svg.push_str("</svg>\n");
        Some(Svg(svg))
    }
}

/// `functions`' call tree in `metric`, root first, each frame before its
/// callees; `None` without a function that costs anything. The root is
/// the measured section, under which the probe's work starts, else the
/// costliest function.
fn unfold(functions: &Functions, metric: Metric) -> Option<Vec<Frame>> {
    let figure = |c: &Counted| c.of(metric).unwrap_or(0.0).max(0.0);
    let costly = |i: &usize| figure(&functions.top[*i].inclusive) > 0.0;
    let measured = (0..functions.top.len())
        .filter(costly)
        .find(|&i| functions.top[i].name.ends_with(TOGGLE));
    let root = measured.or_else(|| {
        (0..functions.top.len()).filter(costly).max_by(|&a, &b| {
            let of = |i: usize| figure(&functions.top[i].inclusive);
            of(a).total_cmp(&of(b)).then(b.cmp(&a))
        })
    })?;
    let mut callees: HashMap<usize, Vec<(usize, f64)>> = HashMap::new();
    for call in &functions.calls {
        if functions.at(call.caller).is_some() && functions.at(call.callee).is_some() {
            callees
                .entry(call.caller)
                .or_default()
                .push((call.callee, figure(&call.inclusive)));
        }
    }
    for list in callees.values_mut() {
        list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    }
    let total = figure(&functions.top[root].inclusive);
    let mut frames = Vec::new();
    let mut pending = vec![Frame {
        path: vec![root],
        width: total,
        x: 0.0,
    }];
    while let Some(frame) = pending.pop() {
        if frames.len() == MOST {
            break;
        }
        let Some(&at) = frame.path.last() else {
            continue;
        };
        let own = figure(&functions.top[at].inclusive);
        let mut children = Vec::new();
        let mut x = frame.x;
        if frame.path.len() < DEEPEST && own > 0.0 {
            for &(callee, cost) in callees.get(&at).into_iter().flatten() {
                let width = (frame.width * cost / own).min(frame.x + frame.width - x);
                if frame.path.contains(&callee) || width < NARROWEST * total {
                    continue;
                }
                let mut path = frame.path.clone();
                path.push(callee);
                children.push(Frame { path, width, x });
                x += width;
            }
        }
        frames.push(frame);
        // Depth first, the leftmost next.
        pending.extend(children.into_iter().rev());
    }
    Some(frames)
}

/// A frame's path by its functions' names, as both runs spell it.
fn key(functions: &Functions, path: &[usize]) -> String {
    path.iter()
        .filter_map(|&i| functions.at(i).map(|f| f.name.as_str()))
        .collect::<Vec<_>>()
        .join(";")
}

/// Red for more than before, blue for fewer, the stronger the more; grey
/// within half a percent.
fn colour(before: f64, now: f64) -> String {
    let change = if before > 0.0 {
        now / before - 1.0
    } else {
        1.0
    };
    if change.abs() < 0.005 {
        return "rgb(215,215,215)".to_string();
    }
    // A quarter's change or more is the full colour.
    let t = (change.abs() / 0.25).min(1.0);
    let mix = |from: f64, to: f64| (from + (to - from) * t).round();
    let (r, g, b) = if change > 0.0 {
        (mix(245.0, 200.0), mix(200.0, 40.0), mix(200.0, 40.0))
    } else {
        (mix(200.0, 31.0), mix(215.0, 100.0), mix(245.0, 200.0))
    };
    format!("rgb({r},{g},{b})")
}

fn moved(before: f64, now: f64) -> String {
    if before > 0.0 {
        format!("{:+.1} %", (now / before - 1.0) * 100.0)
    } else {
        "new".to_string()
    }
}

fn amount(v: f64) -> String {
    crate::output::layout::thousands(v)
}

/// A function's name in `fits` characters: its type and its own name,
/// which say most (`Compiler::emit_text`; `Map::try_fold` for `<Map<I,F>
/// as Iterator>::try_fold`), cut with an ellipsis; an address as it is.
fn label(name: &str, fits: usize) -> String {
    let parts = if name.starts_with("<unknown>") {
        vec![name]
    } else {
        top_level(name)
    };
    let plain = |part: &str| -> String {
        // `<Map<I,F> as Iterator>` is Map's; `Vec<T>` is Vec.
        let part = part.trim_start_matches('<');
        let part = part.split(" as ").next().unwrap_or(part);
        let path = top_level(part);
        let last = path.last().copied().unwrap_or(part);
        last.split('<').next().unwrap_or(last).to_string()
    };
    let short = match parts.as_slice() {
        [.., owner, own] => format!("{}::{}", plain(owner), plain(own)),
        [own] => plain(own),
        [] => String::new(),
    };
    if short.chars().count() <= fits {
        return short;
    }
    let kept: String = short.chars().take(fits.saturating_sub(1)).collect();
    format!("{kept}…")
}

/// `name` split at its `::` outside brackets: `<A as B>::f` is `<A as
/// B>` and `f`.
fn top_level(name: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'<' | b'(' | b'[' | b'{' => depth += 1,
            b'>' | b')' | b']' | b'}' => depth -= 1,
            b':' if depth == 0 && bytes.get(i + 1) == Some(&b':') => {
                parts.push(&name[start..i]);
                start = i + 2;
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    parts.push(&name[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::functions::{Call, Function};

    fn cost(v: f64) -> Counted {
        Counted {
            instructions: Some(v),
            ..Counted::default()
        }
    }

    /// `main` (10 of its own) calls `parse` (60) and `emit` (30 + the
    /// copy it makes through `memcpy`).
    fn functions(copied: f64) -> Functions {
        let f = |name: &str, own: f64, inclusive: f64| Function {
            name: name.to_string(),
            own: cost(own),
            inclusive: cost(inclusive),
        };
        let call = |caller, callee, v| Call {
            caller,
            callee,
            inclusive: cost(v),
        };
        Functions {
            top: vec![
                f("main", 10.0, 100.0 + copied),
                f("parse", 60.0, 60.0),
                f("emit", 30.0, 30.0 + copied),
                f("memcpy", copied, copied),
            ],
            other: Counted::default(),
            calls: vec![
                call(0, 1, 60.0),
                call(0, 2, 30.0 + copied),
                call(2, 3, copied),
            ],
        }
    }

    #[test]
    fn the_tree_unfolds_from_the_costliest_function_each_callee_in_its_share() {
        let frames = unfold(&functions(20.0), Metric::Instructions).expect("a tree");
        let named: Vec<(Vec<usize>, f64, f64)> = frames
            .iter()
            .map(|f| (f.path.clone(), f.width, f.x))
            .collect();
        assert_eq!(
            named,
            [
                (vec![0], 120.0, 0.0),
                (vec![0, 1], 60.0, 0.0),
                (vec![0, 2], 50.0, 60.0),
                (vec![0, 2, 3], 20.0, 60.0),
            ]
        );
    }

    #[test]
    fn frames_that_grew_are_red_those_that_shrank_blue_the_rest_grey() {
        let svg = Flame {
            now: &functions(20.0),
            baseline: &functions(2.0),
            metric: Metric::Instructions,
        }
        .svg()
        .expect("drawn");
        let text = svg.as_str();
        // `parse` did not move; `memcpy` grew tenfold; `emit` by 50 %.
        assert!(text.contains("parse: 60 before, 60 now (+0.0 %)"), "{text}");
        assert!(text.contains("memcpy: 2 before, 20 now (+900.0 %)"));
        assert!(text.contains("fill=\"rgb(215,215,215)\""));
        assert!(text.contains("fill=\"rgb(200,40,40)\""));
        let shrank = Flame {
            now: &functions(2.0),
            baseline: &functions(20.0),
            metric: Metric::Instructions,
        }
        .svg()
        .expect("drawn");
        assert!(shrank.as_str().contains("fill=\"rgb(31,100,200)\""));
    }

    #[test]
    fn names_are_escaped_and_cut_to_fit_and_nothing_is_drawn_of_nothing() {
        let mut f = functions(20.0);
        f.top[1].name = "<impl Parse for T>::parse\"x".to_string();
        let svg = Flame {
            now: &f,
            baseline: &f,
            metric: Metric::Instructions,
        }
        .svg()
        .expect("drawn");
        assert!(!svg.as_str().contains("<impl") && svg.as_str().contains("&lt;impl"));
        assert_eq!(
            label("a::b::Compiler::emit_text", 40),
            "Compiler::emit_text"
        );
        assert_eq!(label("a::b::Compiler::emit_text", 8), "Compile…");
        assert_eq!(
            label(
                "<core::iter::Map<I,F> as core::iter::Iterator>::try_fold",
                40
            ),
            "Map::try_fold"
        );
        assert_eq!(label("alloc::vec::Vec<T,A>::push", 40), "Vec::push");
        assert_eq!(label("malloc", 40), "malloc");
        let empty = Functions::default();
        assert!(
            Flame {
                now: &empty,
                baseline: &empty,
                metric: Metric::Instructions
            }
            .svg()
            .is_none()
        );
    }

    proptest::proptest! {
        /// Any name from a file is labelled without a panic, within its room.
        #[test]
        fn any_name_is_labelled(name in "\\PC{0,60}", fits in 0usize..30) {
            let said = label(&name, fits);
            proptest::prop_assert!(said.chars().count() <= fits.max(1));
        }
    }
}
