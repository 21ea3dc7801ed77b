//! How a comparison's time is laid out: how many rounds each worker pair
//! runs, and how many samples a probe takes on each build in a round.

use crate::judge::paired::Round;

/// The rounds of a comparison, spread over its worker pairs.
pub(super) struct Schedule {
    /// How many rounds each pair runs, in order.
    per_pair: Vec<usize>,
}

impl Schedule {
    /// `rounds` spread over `pairs` worker pairs as evenly as can be, the
    /// first pairs taking one more; never more pairs than rounds, never
    /// none.
    pub(super) fn new(rounds: usize, pairs: usize) -> Schedule {
        let pairs = pairs.clamp(1, rounds.max(1));
        let per_pair = (0..pairs)
            .map(|k| rounds / pairs + usize::from(k < rounds % pairs))
            .collect();
        Schedule { per_pair }
    }

    /// How many worker pairs run the rounds.
    pub(super) fn pairs(&self) -> usize {
        self.per_pair.len()
    }

    /// The rounds of each pair in order, numbered from 1 across the whole
    /// comparison.
    pub(super) fn rounds(&self) -> Vec<Vec<Round>> {
        let mut next = 1;
        let mut pairs = Vec::new();
        for (pair, count) in self.per_pair.iter().enumerate() {
            pairs.push(
                (next..next + count)
                    .map(|number| Round { pair, number })
                    .collect(),
            );
            next += count;
        }
        pairs
    }

    /// The steps a comparison of `probes` probes reports: each probe's
    /// warm-up in every pair, and every round.
    pub(super) fn steps(&self, probes: usize) -> usize {
        self.pairs() * probes + self.per_pair.iter().sum::<usize>()
    }
}

/// The most samples a round takes of one probe on one build, however short
/// its sample: beyond this the median no longer gets steadier.
pub(super) const MAX_PER_ROUND: usize = 100;

/// Samples per probe per build in each round: at least `repeat`, and as
/// many as fill `round_ms` at the length of the sizing sample (the shorter
/// of the two builds'), up to [`MAX_PER_ROUND`]. Without a sizing sample
/// (the probe failed), `repeat`.
pub(super) fn samples_per_round(repeat: usize, round_ms: u64, sample_ms: Option<f64>) -> usize {
    let Some(ms) = sample_ms else { return repeat };
    let fill = if ms > 0.0 {
        (round_ms as f64 / ms).ceil().min(MAX_PER_ROUND as f64) as usize
    } else {
        MAX_PER_ROUND
    };
    fill.max(repeat)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rounds_per_pair(rounds: usize, pairs: usize) -> Vec<usize> {
        Schedule::new(rounds, pairs)
            .rounds()
            .iter()
            .map(Vec::len)
            .collect()
    }

    #[test]
    fn rounds_spread_as_evenly_as_can_be() {
        assert_eq!(rounds_per_pair(30, 10), [3; 10]);
        assert_eq!(rounds_per_pair(15, 10), [2, 2, 2, 2, 2, 1, 1, 1, 1, 1]);
        // Never more pairs than rounds, never none.
        assert_eq!(rounds_per_pair(7, 10), [1; 7]);
        assert_eq!(rounds_per_pair(5, 0), [5]);
    }

    #[test]
    fn rounds_are_numbered_across_the_pairs() {
        let schedule = Schedule::new(5, 2);
        let numbers: Vec<Vec<(usize, usize)>> = schedule
            .rounds()
            .iter()
            .map(|pair| pair.iter().map(|r| (r.pair, r.number)).collect())
            .collect();
        assert_eq!(
            numbers,
            [vec![(0, 1), (0, 2), (0, 3)], vec![(1, 4), (1, 5)]]
        );
        // Two probes warmed up in each of two pairs, and five rounds.
        assert_eq!(schedule.steps(2), 9);
    }

    #[test]
    fn short_samples_fill_the_round_time() {
        // A 1 ms sample: twenty fill 20 ms; a long one keeps the floor.
        assert_eq!(samples_per_round(1, 20, Some(1.0)), 20);
        assert_eq!(samples_per_round(1, 20, Some(0.3)), 67);
        assert_eq!(samples_per_round(3, 20, Some(214.0)), 3);
        assert_eq!(samples_per_round(1, 20, Some(16.8)), 2);
        // Too short to see, or shorter than the cap allows: the cap.
        assert_eq!(samples_per_round(1, 20, Some(0.0)), MAX_PER_ROUND);
        assert_eq!(samples_per_round(1, 20, Some(0.001)), MAX_PER_ROUND);
        // --round-time=0 turns it off; no sizing sample keeps the floor.
        assert_eq!(samples_per_round(2, 0, Some(1.0)), 2);
        assert_eq!(samples_per_round(4, 20, None), 4);
    }
}
