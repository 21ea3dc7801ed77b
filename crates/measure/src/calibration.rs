//! The calibration loop: fixed, deterministic, pure-CPU work timed just
//! before every probe sample (see `rounds`). Dividing a sample by the loop
//! gives a figure ("x calib") that compares across machines of different
//! speed, and across moments of different load on one machine.
//!
//! The work mixes what real code does (integer arithmetic, allocation,
//! sorting, string building, a regex, hashing, a hash map) so that a machine
//! that is faster at only one of them does not skew the factor much.

use regex::Regex;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::hint::black_box;

/// Steps of the integer recurrence.
const RECURRENCE_STEPS: u64 = 120_000;
/// Distinct words built, sorted and joined.
const WORDS: usize = 12_000;

/// The checksum every run of the loop must produce; a test pins it, and the
/// runner refuses a calibration that disagrees (a miscompiled or altered loop
/// would make every "x calib" figure meaningless).
pub(crate) const EXPECTED_CHECKSUM: u64 = 13_951_881_221_683_714_667;

/// A compiled calibration loop. Compiling the regex is set-up, not work.
pub struct Calibration {
    pattern: Regex,
}

impl Calibration {
    /// The loop, with its inputs built (untimed).
    pub fn new() -> Calibration {
        // A fixed pattern over our own text: cannot fail.
        let pattern = Regex::new(r"\b[a-z]*q[a-z]*[0-9]+\b").unwrap_or_else(|_| unreachable!());
        Calibration { pattern }
    }

    /// Runs the loop once and returns its checksum.
    pub fn run(&self) -> u64 {
        let mut sum = recurrence(black_box(RECURRENCE_STEPS));
        let mut words = words(black_box(WORDS));
        words.sort_unstable();
        let text = words.join(" ");
        sum = fold(sum, text.len() as u64);
        sum = fold(sum, self.pattern.find_iter(&text).count() as u64);
        let mut lengths: HashMap<&str, usize> = HashMap::with_capacity(words.len());
        for w in &words {
            lengths.insert(w.as_str(), w.len());
        }
        let total: usize = words.iter().filter_map(|w| lengths.get(w.as_str())).sum();
        sum = fold(sum, total as u64);
        let digest = Sha256::digest(text.as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        sum = fold(sum, u64::from_le_bytes(first));
        let replaced = text.replace("qu", "QU");
        sum = fold(sum, replaced.bytes().filter(|b| *b == b'Q').count() as u64);
        sum
    }
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration::new()
    }
}

fn fold(sum: u64, value: u64) -> u64 {
    (sum ^ value).wrapping_mul(0x0100_0000_01b3).rotate_left(5)
}

/// A linear congruential recurrence with a data-dependent branch.
fn recurrence(steps: u64) -> u64 {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut acc: u64 = 0;
    for i in 0..steps {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        if (x >> 61) & 1 == 1 {
            acc = acc.wrapping_add(x >> 32);
        } else {
            acc ^= x.rotate_left((i % 63) as u32);
        }
    }
    acc
}

/// `count` distinct pseudo-words: a letter stem from a fixed generator and a
/// digit suffix, so the regex has something to find and no two collide.
fn words(count: usize) -> Vec<String> {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
    let mut state: u32 = 2_463_534_242;
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let len = 3 + (state % 6) as usize;
        let mut w = String::with_capacity(len + 6);
        let mut s = state;
        for _ in 0..len {
            w.push(LETTERS[(s % 26) as usize] as char);
            s /= 26;
            if s == 0 {
                s = state.rotate_left(11) | 1;
            }
        }
        w.push_str(&i.to_string());
        out.push(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_is_pinned_and_repeatable() {
        let c = Calibration::new();
        let first = c.run();
        assert_eq!(first, c.run());
        assert_eq!(
            first, EXPECTED_CHECKSUM,
            "calibration work changed: {first}"
        );
    }

    #[test]
    fn words_are_distinct_and_the_regex_finds_some() {
        let mut w = words(WORDS);
        let n = w.len();
        w.sort();
        w.dedup();
        assert_eq!(w.len(), n);
        let text = w.join(" ");
        let found = Calibration::new().pattern.find_iter(&text).count();
        assert!(found > 100 && found < WORDS, "{found}");
    }
}
