//! The Wilcoxon signed-rank test, exact, one-sided: are paired differences
//! shifted above zero? Used by paired comparisons, where each pair of worker
//! processes gives one new/old ratio and the pairs, not the rounds or the
//! samples, are the evidence.
//!
//! Exact rather than the normal approximation because a paired comparison
//! has ten or so pairs, where the approximation is poor in the tail that
//! decides the verdict.

/// The one-sided p-value of the hypothesis that the differences are centred
/// above zero: the probability, under symmetry about zero, of a signed-rank
/// sum at least as large as the one observed. Zeros are dropped; tied
/// magnitudes get their average rank. `None` when nothing is left.
pub fn p_greater(differences: &[f64]) -> Option<f64> {
    let mut values: Vec<f64> = differences
        .iter()
        .copied()
        .filter(|d| d.is_finite() && *d != 0.0)
        .collect();
    if values.is_empty() {
        return None;
    }
    values.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
    // Doubled ranks keep average ranks of ties whole numbers.
    let n = values.len();
    let mut doubled = vec![0usize; n];
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && values[j + 1].abs() == values[i].abs() {
            j += 1;
        }
        // Ranks i+1 ..= j+1 share their mean, (i + j + 2) / 2; doubled: i + j + 2.
        for rank in doubled.iter_mut().take(j + 1).skip(i) {
            *rank = i + j + 2;
        }
        i = j + 1;
    }
    let observed: usize = values
        .iter()
        .zip(&doubled)
        .filter(|(v, _)| **v > 0.0)
        .map(|(_, r)| r)
        .sum();
    // ways[s]: sign assignments whose positive doubled ranks sum to s.
    let total: usize = doubled.iter().sum();
    let mut ways = vec![0f64; total + 1];
    ways[0] = 1.0;
    let mut reach = 0;
    for &r in &doubled {
        for s in (0..=reach).rev() {
            if ways[s] > 0.0 {
                ways[s + r] += ways[s];
            }
        }
        reach += r;
    }
    let at_least: f64 = ways[observed..].iter().sum();
    Some(at_least / 2f64.powi(n as i32))
}

#[cfg(test)]
mod tests {
    use super::p_greater;

    /// Every sign assignment, counted directly.
    fn brute(xs: &[f64]) -> f64 {
        let mut v: Vec<f64> = xs.iter().copied().filter(|x| *x != 0.0).collect();
        v.sort_by(|a, b| a.abs().total_cmp(&b.abs()));
        let n = v.len();
        let ranks: Vec<f64> = (0..n)
            .map(|i| {
                let same: Vec<usize> = (0..n).filter(|&j| v[j].abs() == v[i].abs()).collect();
                same.iter().map(|j| (j + 1) as f64).sum::<f64>() / same.len() as f64
            })
            .collect();
        let observed: f64 = (0..n).filter(|&i| v[i] > 0.0).map(|i| ranks[i]).sum();
        let mut count = 0u32;
        for mask in 0..(1u32 << n) {
            let s: f64 = (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| ranks[i])
                .sum();
            if s >= observed - 1e-9 {
                count += 1;
            }
        }
        count as f64 / (1u64 << n) as f64
    }

    #[test]
    fn all_positive_is_one_in_two_to_the_n() {
        let xs = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
        assert_eq!(p_greater(&xs), Some(1.0 / 1024.0));
        let neg: Vec<f64> = xs.iter().map(|x| -x).collect();
        assert_eq!(p_greater(&neg), Some(1.0));
    }

    #[test]
    fn matches_counting_every_sign_assignment() {
        for xs in [
            vec![1.0, 2.0, 3.0, -4.0],
            vec![0.5, -0.5, 1.0, 2.0, -3.0, 0.0, 4.0],
            vec![1.0, 1.0, -1.0, 2.0, 2.0, -2.0, 3.0],
            vec![-0.01, 0.02, 0.03, -0.04, 0.05, 0.06, 0.07, -0.08, 0.09],
        ] {
            let p = p_greater(&xs).unwrap();
            assert!(
                (p - brute(&xs)).abs() < 1e-12,
                "{xs:?}: {p} vs {}",
                brute(&xs)
            );
        }
    }

    #[test]
    fn nothing_left_gives_nothing() {
        assert_eq!(p_greater(&[]), None);
        assert_eq!(p_greater(&[0.0, 0.0]), None);
        assert_eq!(p_greater(&[f64::NAN]), None);
    }
}
