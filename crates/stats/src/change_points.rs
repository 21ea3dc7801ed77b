//! Change points in a series: where its level steps, found by PELT
//! (pruned exact linear time; Killick, Fearnhead and Eckley, 2012).
//!
//! PELT finds the segmentation that minimises the segments' costs plus a
//! penalty per change, exactly, and prunes the candidates that can never
//! start the last segment again, so it runs in about linear time. The
//! cost of a segment is the squared distance of its values from their
//! mean, in units of the series' noise: a step is kept only where it
//! explains more than the penalty's worth of the spread.
//!
//! What the series are: a figure per commit, its runs' median. Their
//! changes are ratios, so the work is done on logarithms, and their noise
//! is heavy-tailed (a run on a busy machine), so before the segmentation:
//!
//! - the noise is estimated from the differences of neighbours (1.4826 ×
//!   their MAD / √2), which a few steps and wild points do not move;
//! - each value of wall time is clipped to within [`CLIP`] noise of the
//!   median of the five around it. A median of five keeps a step of three
//!   or more points where it is, and a lone wild point no longer pulls a
//!   segment. Counts are exact and have no wild values: they are not.
//!
//! The penalty and the shortest segment were chosen on synthetic series
//! with steps inserted at known places (`evaluate changes`, and
//! docs/evaluation.md, "Change points").

use super::median;

/// How many noise units a value may lie from its neighbours' median.
pub const CLIP: f64 = 2.0;

/// How a series is cut.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rule {
    /// The penalty per change, as a multiple of ln(n) in noise units
    /// squared (2 is the Schwarz criterion's).
    pub penalty: f64,
    /// The fewest values a segment holds.
    pub min_len: usize,
    /// The least noise assumed, as a fraction of the level (0 for exact
    /// counts): a series that barely moves is not cut at every wobble.
    pub floor: f64,
    /// Whether wild values are clipped first: a count has none.
    pub clip: bool,
}

impl Rule {
    /// Wall time: its noise is never taken as under 0.5 %.
    pub const TIME: Rule = Rule {
        penalty: 4.0,
        min_len: 2,
        floor: 0.005,
        clip: true,
    };
    /// Counts are exact: any step of a count is a change, however small.
    pub const COUNTS: Rule = Rule {
        penalty: 4.0,
        min_len: 1,
        floor: 1e-9,
        clip: false,
    };
}

/// The indexes where a new segment starts (the first value of each
/// segment after the first), in order. Values that are not finite and
/// positive are not a series: none, then.
pub fn find(values: &[f64], rule: Rule) -> Vec<usize> {
    if values.len() < 2 || values.iter().any(|v| !v.is_finite() || *v <= 0.0) {
        return Vec::new();
    }
    // Centred, so that the prefix sums of squares keep the precision a
    // step of one count in a million needs.
    let logs: Vec<f64> = values.iter().map(|v| v.ln()).collect();
    let centre = median(&logs).unwrap_or(0.0);
    let logs: Vec<f64> = logs.iter().map(|v| v - centre).collect();
    let noise = noise(&logs).max(rule.floor);
    let clipped = if rule.clip { clip(&logs, noise) } else { logs };
    pelt(&clipped, noise, rule)
}

/// The noise of a series of logarithms: the spread of neighbours'
/// differences, scaled to one value's standard deviation.
pub fn noise(logs: &[f64]) -> f64 {
    let diffs: Vec<f64> = logs.windows(2).map(|w| w[1] - w[0]).collect();
    let Some(centre) = median(&diffs) else {
        return 0.0;
    };
    let deviations: Vec<f64> = diffs.iter().map(|d| (d - centre).abs()).collect();
    median(&deviations).unwrap_or(0.0) * 1.4826 / std::f64::consts::SQRT_2
}

/// Each value within `CLIP` noise of the median of the five around it
/// (of the three, or itself alone, at the ends: a window centred on the
/// value, so that a step stays where it is).
fn clip(logs: &[f64], noise: f64) -> Vec<f64> {
    let bound = CLIP * noise;
    let n = logs.len();
    (0..n)
        .map(|i| {
            let radius = 2.min(i).min(n - 1 - i);
            let window = &logs[i - radius..=i + radius];
            let centre = median(window).unwrap_or(logs[i]);
            logs[i].clamp(centre - bound, centre + bound)
        })
        .collect()
}

/// The optimal partition of `y` under `rule`, each segment costing its
/// squared deviations over `noise`², plus the penalty per change.
fn pelt(y: &[f64], noise: f64, rule: Rule) -> Vec<usize> {
    let n = y.len();
    let min_len = rule.min_len.max(1);
    let beta = rule.penalty * (n as f64).ln();
    let scale = noise * noise;
    // Prefix sums make a segment's cost O(1).
    let mut sum = vec![0.0; n + 1];
    let mut squares = vec![0.0; n + 1];
    for (i, v) in y.iter().enumerate() {
        sum[i + 1] = sum[i] + v;
        squares[i + 1] = squares[i] + v * v;
    }
    let cost = |a: usize, b: usize| {
        let m = (b - a) as f64;
        let s = sum[b] - sum[a];
        ((squares[b] - squares[a]) - s * s / m).max(0.0) / scale
    };
    let mut best = vec![f64::INFINITY; n + 1];
    let mut last = vec![0usize; n + 1];
    best[0] = -beta;
    let mut candidates = vec![0usize];
    for t in min_len..=n {
        let mut here = f64::INFINITY;
        let mut from = 0;
        for &tau in candidates.iter().filter(|&&tau| t - tau >= min_len) {
            let v = best[tau] + cost(tau, t) + beta;
            if v < here {
                here = v;
                from = tau;
            }
        }
        best[t] = here;
        last[t] = from;
        // A candidate that cannot beat `here` now never will (the cost
        // of a segment only grows as it is cut less).
        candidates.retain(|&tau| t - tau < min_len || best[tau] + cost(tau, t) <= here);
        if here.is_finite() {
            candidates.push(t);
        }
    }
    let mut starts = Vec::new();
    let mut t = n;
    while t > 0 {
        let tau = last[t];
        if tau > 0 {
            starts.push(tau);
        }
        t = tau;
    }
    starts.reverse();
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_step_is_found_where_it_is() {
        let mut values = vec![1.0; 30];
        values.extend(vec![1.1; 30]);
        assert_eq!(find(&values, Rule::TIME), vec![30]);
        assert_eq!(find(&values, Rule::COUNTS), vec![30]);
    }

    #[test]
    fn a_flat_series_and_a_lone_wild_point_have_none() {
        let wobble = |i: usize| 1.0 + ((i * 7) % 11) as f64 / 10.0 * 0.02 - 0.01;
        let mut values: Vec<f64> = (0..60).map(wobble).collect();
        assert_eq!(find(&values, Rule::TIME), Vec::<usize>::new());
        values[30] = 1.5;
        assert_eq!(find(&values, Rule::TIME), Vec::<usize>::new());
    }

    #[test]
    fn a_count_that_moves_by_one_is_a_change() {
        let mut values = vec![1_000_000.0; 10];
        values.extend(vec![1_000_001.0; 10]);
        assert_eq!(find(&values, Rule::COUNTS), vec![10]);
    }

    #[test]
    fn what_is_no_series_gives_none() {
        assert!(find(&[], Rule::TIME).is_empty());
        assert!(find(&[1.0], Rule::TIME).is_empty());
        assert!(find(&[1.0, f64::NAN, 2.0], Rule::TIME).is_empty());
        assert!(find(&[1.0, 0.0, 2.0], Rule::TIME).is_empty());
    }
}
