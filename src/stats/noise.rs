//! How much a figure moves between runs of the same code: what a learned
//! baseline derives each probe's threshold from.

use super::{median, percentile_sorted};

/// Each run's figure against the median of the other runs' figures, in
/// percent: the A/A changes a stored baseline made of those other runs
/// would have seen. Empty for fewer than two figures or any that is not a
/// positive finite number.
pub fn leave_one_out_changes(figures: &[f64]) -> Vec<f64> {
    if figures.len() < 2 || figures.iter().any(|f| !f.is_finite() || *f <= 0.0) {
        return Vec::new();
    }
    (0..figures.len())
        .filter_map(|i| {
            let others: Vec<f64> = figures
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, f)| *f)
                .collect();
            median(&others).map(|m| (figures[i] / m - 1.0) * 100.0)
        })
        .collect()
}

/// Q3 + 3 × IQR of `changes` (type-7 quartiles): Tukey's far-out fence,
/// above which an A/A change would be extreme. None when empty.
pub fn upper_fence(changes: &[f64]) -> Option<f64> {
    if changes.is_empty() || changes.iter().any(|c| !c.is_finite()) {
        return None;
    }
    let mut sorted = changes.to_vec();
    sorted.sort_by(f64::total_cmp);
    let q1 = percentile_sorted(&sorted, 25.0);
    let q3 = percentile_sorted(&sorted, 75.0);
    Some(q3 + 3.0 * (q3 - q1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_run_is_judged_against_the_others() {
        let c = leave_one_out_changes(&[1.0, 1.0, 1.1]);
        assert_eq!(c.len(), 3);
        // 1.0 against median(1.0, 1.1) = 1.05; 1.1 against 1.0.
        assert!((c[0] - (1.0 / 1.05 - 1.0) * 100.0).abs() < 1e-9);
        assert!((c[2] - 10.0).abs() < 1e-9);
        assert!(leave_one_out_changes(&[1.0]).is_empty());
        assert!(leave_one_out_changes(&[1.0, 0.0]).is_empty());
        assert!(leave_one_out_changes(&[1.0, f64::NAN]).is_empty());
    }

    #[test]
    fn the_fence_is_q3_plus_three_iqr() {
        // Quartiles of 1..=5 are 2 and 4.
        assert_eq!(upper_fence(&[5.0, 1.0, 3.0, 2.0, 4.0]), Some(10.0));
        assert_eq!(upper_fence(&[2.0]), Some(2.0));
        assert_eq!(upper_fence(&[]), None);
        assert_eq!(upper_fence(&[1.0, f64::INFINITY]), None);
    }
}
