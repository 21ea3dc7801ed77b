//! How a measurement's time is laid out: how many rounds each worker set
//! runs, and how many samples a probe takes on each configuration in a
//! round.

use crate::judge::paired::Round;

/// The rounds of a measurement, spread over its worker sets.
pub(crate) struct Schedule {
    /// How many rounds each set runs, in order.
    per_set: Vec<usize>,
}

impl Schedule {
    /// `rounds` spread over `sets` worker sets as evenly as can be, the
    /// first sets taking one more; never more sets than rounds, never
    /// none.
    pub(crate) fn new(rounds: usize, sets: usize) -> Schedule {
        let sets = sets.clamp(1, rounds.max(1));
        let per_set = (0..sets)
            .map(|k| rounds / sets + usize::from(k < rounds % sets))
            .collect();
        Schedule { per_set }
    }

    /// How many worker sets run the rounds.
    pub(crate) fn sets(&self) -> usize {
        self.per_set.len()
    }

    /// The rounds of each set in order, numbered from 1 across the whole
    /// measurement.
    pub(crate) fn rounds(&self) -> Vec<Vec<Round>> {
        let mut next = 1;
        let mut sets = Vec::new();
        for (set, count) in self.per_set.iter().enumerate() {
            sets.push(
                (next..next + count)
                    .map(|number| Round { set, number })
                    .collect(),
            );
            next += count;
        }
        sets
    }

    /// The steps a measurement of `probes` probes reports: each probe's
    /// warm-up in every set, and every round.
    pub(crate) fn steps(&self, probes: usize) -> usize {
        self.sets() * probes + self.per_set.iter().sum::<usize>()
    }
}

/// The most samples a round takes of one probe on one configuration, however short
/// its sample: beyond this the median no longer gets steadier.
pub(crate) const MAX_PER_ROUND: usize = 100;

/// Samples per probe per configuration in each round: at least `repeat`, and as
/// many as fill `round_ms` at the length of the sizing sample (the shorter
/// of the configurations'), up to [`MAX_PER_ROUND`]. Without a sizing sample
/// (the probe failed), or with no time to fill (`--round-time=0`), `repeat`.
pub(crate) fn samples_per_round(repeat: usize, round_ms: u64, sample_ms: Option<f64>) -> usize {
    let Some(ms) = sample_ms.filter(|_| round_ms > 0) else {
        return repeat;
    };
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

    fn rounds_per_set(rounds: usize, sets: usize) -> Vec<usize> {
        Schedule::new(rounds, sets)
            .rounds()
            .iter()
            .map(Vec::len)
            .collect()
    }

    #[test]
    fn rounds_spread_as_evenly_as_can_be() {
        assert_eq!(rounds_per_set(30, 10), [3; 10]);
        assert_eq!(rounds_per_set(15, 10), [2, 2, 2, 2, 2, 1, 1, 1, 1, 1]);
        // Never more sets than rounds, never none.
        assert_eq!(rounds_per_set(7, 10), [1; 7]);
        assert_eq!(rounds_per_set(5, 0), [5]);
    }

    #[test]
    fn rounds_are_numbered_across_the_sets() {
        let schedule = Schedule::new(5, 2);
        let numbers: Vec<Vec<(usize, usize)>> = schedule
            .rounds()
            .iter()
            .map(|set| set.iter().map(|r| (r.set, r.number)).collect())
            .collect();
        assert_eq!(
            numbers,
            [vec![(0, 1), (0, 2), (0, 3)], vec![(1, 4), (1, 5)]]
        );
        // Two probes warmed up in each of two sets, and five rounds.
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
        // No time to fill takes `repeat`, however short the sample.
        assert_eq!(samples_per_round(2, 0, Some(0.0)), 2);
        assert_eq!(samples_per_round(4, 20, None), 4);
    }
}
