//! What a saved run must hold before anything is judged by it: figures in
//! their ranges, one row per key. A run edited by hand, or written by a
//! broken tool, is refused naming the field, rather than judged: an all-zero
//! calibration once made every probe skip and the run PASS with no check, and
//! samples of 1e-308 made an infinite change that JSON could not hold.

use crate::figures::Figures;
use crate::histogram::Histogram;
use crate::run::{Row, Run};
use std::collections::HashSet;

/// The shortest time a sample can take, in milliseconds (a picosecond):
/// below it, the figure is not a measurement.
pub const MIN_MS: f64 = 1e-9;
/// The longest time a figure can hold, in milliseconds (about 31 years).
pub const MAX_MS: f64 = 1e12;

/// The longest key a row may have: a probe's name, or an HTTP page's
/// method and URL. Past it, a key is no name but a payload that pads
/// every table line to its width.
pub const MAX_KEY_BYTES: usize = 4096;

/// Why `run` cannot be used, naming the row and field; `None` when it can.
pub fn problem(run: &Run) -> Option<String> {
    if !run.started.is_empty() && !is_rfc3339(&run.started) {
        return Some(format!(
            "started is `{}`, not an RFC 3339 date and time (2026-12-06T05:28:05Z)",
            shortened(&run.started)
        ));
    }
    if !run.settings.fit(run.mode) {
        return Some(format!(
            "the settings are those of {}, not of a {} run",
            run.settings.kind(),
            run.mode.as_str()
        ));
    }
    if let Some(why) = run
        .calibration
        .as_ref()
        .and_then(|c| time("calibration.median", c.loops.median))
    {
        return Some(why);
    }
    let mut keys = HashSet::with_capacity(run.rows.len());
    for row in &run.rows {
        if row.key.len() > MAX_KEY_BYTES {
            return Some(format!(
                "row `{}`: a key of {} bytes, more than {MAX_KEY_BYTES}",
                shortened(&row.key),
                row.key.len()
            ));
        }
        if !keys.insert(row.key.as_str()) {
            return Some(format!("row `{}` appears twice; keys are unique", row.key));
        }
        if let Some(why) = row_problem(row) {
            return Some(format!("row `{}`: {why}", row.key));
        }
    }
    None
}

/// Why `row` cannot be part of a run, naming the field; `None` when it can.
pub fn row_problem(row: &Row) -> Option<String> {
    if row.requests > 0 && row.errors > row.requests {
        return Some(format!(
            "errors is {}, more than its {} requests",
            row.errors, row.requests
        ));
    }
    if row.requests > 0 && row.figures.n as u64 > row.requests {
        return Some(format!(
            "n is {}, more than its {} requests",
            row.figures.n, row.requests
        ));
    }
    if !row.samples.is_empty() && row.figures.n != row.samples.len() {
        return Some(format!(
            "n is {}, but it has {} samples",
            row.figures.n,
            row.samples.len()
        ));
    }
    if let Some(h) = &row.histogram
        && let Some(why) = histogram_problem(h, row)
    {
        return Some(why);
    }
    for (field, value) in [("batch", row.batch), ("ops", row.ops)] {
        if value == Some(0) {
            return Some(format!("{field} is 0; it counts iterations, at least 1"));
        }
    }
    for (field, values) in [
        ("samples", &row.samples),
        ("calibration_samples", &row.calibration_samples),
    ] {
        if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !in_range(**v)) {
            return Some(format!(
                "{field}[{i}] is {v:?}, not a time from {MIN_MS:e} to {MAX_MS:e} ms"
            ));
        }
    }
    let figures = Figures::TIMES
        .iter()
        .map(|(field, get)| (*field, get(&row.figures)))
        .chain([("ttfb_median", row.page.ttfb_median)]);
    for (field, value) in figures {
        if let Some(why) = value.and_then(|v| time(field, v)) {
            return Some(why);
        }
    }
    let spreads = Figures::SPREADS
        .iter()
        .map(|(field, get)| (*field, get(&row.figures)));
    let counts = spreads.chain([
        ("rps", row.rps),
        ("normalized", row.normalized),
        ("instructions", row.counted.instructions),
        ("bytes", row.page.bytes),
    ]);
    for (field, value) in counts {
        if let Some(v) = value.filter(|v| !v.is_finite() || *v < 0.0 || *v > 1e18) {
            return Some(format!(
                "{field} is {v}, not a finite figure from 0 to 1e18"
            ));
        }
    }
    None
}

/// Whether `text` is an RFC 3339 date and time, as runs record it:
/// `YYYY-MM-DDTHH:MM:SS`, an optional fraction, and `Z` or an offset, each
/// field in its range. Lexical order of such dates in one zone is their
/// order in time, which the history sorts by.
fn is_rfc3339(text: &str) -> bool {
    static SHAPE: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$",
        )
        .ok()
    });
    let Some(caps) = SHAPE.as_ref().and_then(|re| re.captures(text)) else {
        return false;
    };
    let field = |i: usize| {
        caps.get(i)
            .and_then(|m| m.as_str().parse::<u32>().ok())
            .unwrap_or(0)
    };
    let (month, day) = (field(2), field(3));
    (1..=12).contains(&month)
        && (1..=31).contains(&day)
        && field(4) <= 23
        && field(5) <= 59
        // A leap second is 60.
        && field(6) <= 60
        && field(7) <= 23
        && field(8) <= 59
}

/// At most 60 characters of `text`, for a message.
fn shortened(text: &str) -> String {
    let cut: String = crate::text::cleaned(text).chars().take(60).collect();
    if cut.len() < text.len() {
        format!("{cut}...")
    } else {
        cut
    }
}

/// What is wrong with a row's buckets: they stand in place of its
/// samples, so they must count its `n` times, each bucket a time (the
/// lowest may reach down to 0) above the one before.
fn histogram_problem(h: &Histogram, row: &Row) -> Option<String> {
    if !(1..=5).contains(&h.digits) {
        return Some(format!(
            "histogram.digits is {}, not 1 to 5 significant digits",
            h.digits
        ));
    }
    if !row.samples.is_empty() {
        return Some("it has both samples and a histogram, which stands in their place".into());
    }
    let mut below = -1.0;
    for (i, b) in h.buckets.iter().enumerate() {
        if !(b.ms.is_finite() && (0.0..=MAX_MS).contains(&b.ms)) || b.ms <= below {
            return Some(format!(
                "histogram.buckets[{i}].ms is {:?}, not a time from 0 to {MAX_MS:e} ms above the \
                 bucket before",
                b.ms
            ));
        }
        if b.count == 0 {
            return Some(format!(
                "histogram.buckets[{i}].count is 0; a saved bucket counts at least one time"
            ));
        }
        below = b.ms;
    }
    let count = h.count();
    (count != row.figures.n as u64).then(|| {
        format!(
            "n is {}, but its histogram counts {count} times",
            row.figures.n
        )
    })
}

fn in_range(ms: f64) -> bool {
    ms.is_finite() && (MIN_MS..=MAX_MS).contains(&ms)
}

fn time(field: &str, ms: f64) -> Option<String> {
    (!in_range(ms))
        .then(|| format!("{field} is {ms:?}, not a time from {MIN_MS:e} to {MAX_MS:e} ms"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::{CalibrationSummary, RowKind, test_micro_run};

    fn run(samples: &[f64], loops: &[f64]) -> Run {
        let mut row = Row::with_samples("a".into(), RowKind::Probe, "a".into(), samples.to_vec());
        row.calibration_samples = loops.to_vec();
        test_micro_run(vec![row], CalibrationSummary::of(&[1.0], &[1.0], 1))
    }

    #[test]
    fn a_measured_run_passes() {
        assert_eq!(problem(&run(&[0.5, 0.6], &[1.0, 1.1])), None);
    }

    #[test]
    fn figures_out_of_range_are_named() {
        for (samples, loops, field) in [
            (vec![0.0], vec![1.0], "samples[0] is 0"),
            (vec![-1.0], vec![1.0], "samples[0] is -1"),
            (vec![1e-308], vec![1.0], "samples[0] is 1e-308"),
            (vec![1e308], vec![1.0], "samples[0] is 1"),
            (vec![1.0], vec![0.0], "calibration_samples[0] is 0"),
        ] {
            let why = problem(&run(&samples, &loops)).unwrap_or_default();
            assert!(why.starts_with("row `a`: ") && why.contains(field), "{why}");
        }
        let mut bad = run(&[1.0], &[1.0]);
        if let Some(c) = bad.calibration.as_mut() {
            c.loops.median = 0.0;
        }
        assert!(
            problem(&bad)
                .unwrap_or_default()
                .starts_with("calibration.median is 0")
        );
        let mut bad = run(&[1.0], &[1.0]);
        bad.rows[0].counted.instructions = Some(f64::NAN);
        assert!(
            problem(&bad)
                .unwrap_or_default()
                .contains("instructions is NaN")
        );
    }

    #[test]
    fn buckets_must_count_the_row_s_times_in_ascending_order() {
        use crate::histogram::Bucket;
        let bucketed = |buckets: &[(f64, u64)], n: usize| {
            let mut r = run(&[1.0], &[1.0]);
            let row = &mut r.rows[0];
            row.samples.clear();
            row.figures.n = n;
            row.histogram = Some(Histogram {
                digits: 3,
                buckets: buckets
                    .iter()
                    .map(|&(ms, count)| Bucket { ms, count })
                    .collect(),
            });
            r
        };
        assert_eq!(problem(&bucketed(&[(0.0, 1), (1.5, 2), (2.0, 3)], 6)), None);
        for (buckets, n, why) in [
            (
                vec![(1.0, 2)],
                3,
                "n is 3, but its histogram counts 2 times",
            ),
            (vec![(2.0, 1), (1.0, 1)], 2, "buckets[1].ms is 1.0"),
            (vec![(1.0, 1), (1.0, 1)], 2, "buckets[1].ms is 1.0"),
            (vec![(f64::NAN, 1)], 1, "buckets[0].ms is NaN"),
            (vec![(-1.0, 1)], 1, "buckets[0].ms is -1.0"),
            (vec![(1.0, 0)], 0, "buckets[0].count is 0"),
        ] {
            let got = problem(&bucketed(&buckets, n)).unwrap_or_default();
            assert!(got.contains(why), "{buckets:?}: {got}");
        }
        let mut r = bucketed(&[(1.0, 1)], 1);
        if let Some(h) = r.rows[0].histogram.as_mut() {
            h.digits = 9;
        }
        assert!(problem(&r).unwrap_or_default().contains("digits is 9"));
        let mut r = bucketed(&[(1.0, 1)], 1);
        r.rows[0].samples = vec![1.0];
        assert!(
            problem(&r)
                .unwrap_or_default()
                .contains("both samples and a histogram")
        );
    }

    #[test]
    fn dates_counts_and_keys_a_run_cannot_hold_are_named() {
        for good in [
            "2026-12-06T05:28:05Z",
            "2026-10-05T19:33:47-07:00",
            "2026-12-06T05:28:05.123456789Z",
            "",
        ] {
            let mut r = run(&[1.0], &[1.0]);
            r.started = good.into();
            assert_eq!(problem(&r), None, "{good}");
        }
        for bad in [
            "yesterday",
            "zzzz-garbage",
            "2026-13-01T00:00:00Z",
            "2026-12-06 05:28:05",
            "2026-12-06T25:00:00Z",
            "2026-12-06T05:28:05+1:00",
        ] {
            let mut r = run(&[1.0], &[1.0]);
            r.started = bad.into();
            let why = problem(&r).unwrap_or_default();
            assert!(
                why.starts_with("started is `") && why.contains("RFC 3339"),
                "{bad}: {why}"
            );
        }
        let mut r = run(&[1.0, 2.0], &[1.0, 1.0]);
        r.rows[0].figures.n = 5;
        assert_eq!(
            problem(&r).as_deref(),
            Some("row `a`: n is 5, but it has 2 samples")
        );
        let mut r = run(&[1.0], &[1.0]);
        (r.rows[0].requests, r.rows[0].errors) = (10, 57);
        assert_eq!(
            problem(&r).as_deref(),
            Some("row `a`: errors is 57, more than its 10 requests")
        );
        let mut r = run(&[1.0, 1.0, 1.0], &[1.0, 1.0, 1.0]);
        r.rows[0].requests = 2;
        assert_eq!(
            problem(&r).as_deref(),
            Some("row `a`: n is 3, more than its 2 requests")
        );
        for zero in ["batch", "ops"] {
            let mut r = run(&[1.0], &[1.0]);
            if zero == "batch" {
                r.rows[0].batch = Some(0);
            } else {
                r.rows[0].ops = Some(0);
            }
            let why = problem(&r).unwrap_or_default();
            assert!(why.contains(&format!("{zero} is 0")), "{why}");
        }
        let mut r = run(&[1.0], &[1.0]);
        r.rows[0].key = "k".repeat(MAX_KEY_BYTES + 1);
        let why = problem(&r).unwrap_or_default();
        assert!(
            why.contains("a key of 4097 bytes") && why.len() < 200,
            "{why}"
        );
    }

    #[test]
    fn a_key_twice_is_refused() {
        let mut twice = run(&[1.0], &[1.0]);
        twice.rows.push(twice.rows[0].clone());
        assert_eq!(
            problem(&twice).as_deref(),
            Some("row `a` appears twice; keys are unique")
        );
    }
}
