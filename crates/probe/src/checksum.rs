//! A probe's result, fingerprinted: one `u64` that the same result gives in
//! every run, build and process, so that two runs (or two builds) can tell
//! whether they did the same work.
//!
//! Nobody needs to write an implementation: [`probe!`](macro@crate::probe)
//! fingerprints a result that implements [`Checksum`] with it (numbers,
//! floats, text, slices, `Vec`, arrays, tuples, `Option`, `Result`, boxes,
//! ...), else one that implements [`Hash`] by hashing it with
//! [`FingerprintHasher`], else not at all. One blanket `impl<T: Hash>
//! Checksum for T` cannot exist beside `impl Checksum for f64` (std may one
//! day implement `Hash` for `f64`, so the compiler refuses both, E0119);
//! the macro picks instead, at the probe's concrete result type (see
//! `fingerprint`).
//!
//! A fingerprint is taken once per probe, untimed, of the result the check
//! sees: never inside the timed loop, where hashing a large result every
//! iteration would be timed as the probe's work.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::Arc;

/// A deterministic fingerprint of a probe's result: equal results give
/// equal figures in every run, build and process (no random seed, no
/// addresses).
///
/// Implemented for numbers, floats (by their bits), `bool`, `char`, text,
/// and, element by element, for slices, `Vec`, `VecDeque`, arrays,
/// `BTreeMap`, `BTreeSet`, tuples, `Option`, `Result` (an error counts as
/// one value, whatever it holds), references, `Box`, `Rc` and `Arc`. A
/// result type that implements [`Hash`] needs nothing: the macro hashes
/// it. Implement this trait only for a result that has neither, or whose
/// `Hash` is not deterministic (it walks a `HashMap`):
///
/// ```
/// use std::collections::HashMap;
/// use yardstick_probe::Checksum;
///
/// /// Counts by word; a `HashMap` walks in a random order.
/// struct Counts(HashMap<String, u32>);
///
/// impl Checksum for Counts {
///     fn checksum(&self) -> u64 {
///         let mut sorted: Vec<(&String, &u32)> = self.0.iter().collect();
///         sorted.sort();
///         sorted.checksum()
///     }
/// }
///
/// let a = Counts(HashMap::from([("a".into(), 1), ("b".into(), 2)]));
/// let b = Counts(HashMap::from([("b".into(), 2), ("a".into(), 1)]));
/// assert_eq!(a.checksum(), b.checksum());
/// ```
pub trait Checksum {
    /// The value's fingerprint.
    fn checksum(&self) -> u64;
}

/// A fixed, deterministic 64-bit hasher for fingerprints: no random keys,
/// integers read little-endian and `usize` as 64 bits, so a value hashes
/// the same on every machine of one target and in every process.
///
/// Not for hash tables facing untrusted keys: it is not keyed.
#[derive(Debug, Clone, Default)]
pub struct FingerprintHasher {
    state: u64,
    bytes: u64,
}

const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

impl FingerprintHasher {
    fn word(&mut self, word: u64) {
        self.state = (self.state.rotate_left(23) ^ word).wrapping_mul(MULTIPLIER);
    }
}

impl Hasher for FingerprintHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.bytes = self.bytes.wrapping_add(bytes.len() as u64);
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.word(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.bytes = self.bytes.wrapping_add(8);
        self.word(i);
    }
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    /// The state, mixed (murmur3's finaliser) so that close inputs give
    /// distant figures.
    fn finish(&self) -> u64 {
        let mut h = self.state ^ self.bytes;
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^ (h >> 33)
    }
}

/// `value` hashed with a fresh [`FingerprintHasher`].
pub(crate) fn hash_fingerprint<T: Hash + ?Sized>(value: &T) -> u64 {
    let mut hasher = FingerprintHasher::default();
    value.hash(&mut hasher);
    hasher.finish()
}

/// The fingerprint of a sequence: its length, then each element's.
fn sequence<'a, T: Checksum + 'a>(len: usize, items: impl Iterator<Item = &'a T>) -> u64 {
    let mut hasher = FingerprintHasher::default();
    hasher.write_usize(len);
    for item in items {
        hasher.write_u64(item.checksum());
    }
    hasher.finish()
}

macro_rules! checksum_as_u64 {
    ($($t:ty),*) => {$(
        impl Checksum for $t {
            fn checksum(&self) -> u64 { *self as u64 }
        }
    )*};
}
checksum_as_u64!(
    u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, bool, char
);

impl Checksum for u128 {
    fn checksum(&self) -> u64 {
        hash_fingerprint(self)
    }
}

impl Checksum for i128 {
    fn checksum(&self) -> u64 {
        hash_fingerprint(self)
    }
}

impl Checksum for f64 {
    fn checksum(&self) -> u64 {
        self.to_bits()
    }
}

impl Checksum for f32 {
    fn checksum(&self) -> u64 {
        u64::from(self.to_bits())
    }
}

impl Checksum for () {
    fn checksum(&self) -> u64 {
        0
    }
}

impl Checksum for str {
    fn checksum(&self) -> u64 {
        hash_fingerprint(self.as_bytes())
    }
}

impl Checksum for String {
    fn checksum(&self) -> u64 {
        self.as_str().checksum()
    }
}

impl<T: Checksum> Checksum for [T] {
    fn checksum(&self) -> u64 {
        sequence(self.len(), self.iter())
    }
}

impl<T: Checksum, const N: usize> Checksum for [T; N] {
    fn checksum(&self) -> u64 {
        self.as_slice().checksum()
    }
}

impl<T: Checksum> Checksum for Vec<T> {
    fn checksum(&self) -> u64 {
        self.as_slice().checksum()
    }
}

impl<T: Checksum> Checksum for VecDeque<T> {
    fn checksum(&self) -> u64 {
        sequence(self.len(), self.iter())
    }
}

impl<T: Checksum> Checksum for BTreeSet<T> {
    fn checksum(&self) -> u64 {
        sequence(self.len(), self.iter())
    }
}

impl<K: Checksum, V: Checksum> Checksum for BTreeMap<K, V> {
    fn checksum(&self) -> u64 {
        let mut hasher = FingerprintHasher::default();
        hasher.write_usize(self.len());
        for (k, v) in self {
            hasher.write_u64(k.checksum());
            hasher.write_u64(v.checksum());
        }
        hasher.finish()
    }
}

macro_rules! checksum_through {
    ($($wrapper:ident),*) => {$(
        impl<T: Checksum + ?Sized> Checksum for $wrapper<T> {
            fn checksum(&self) -> u64 {
                (**self).checksum()
            }
        }
    )*};
}
checksum_through!(Box, Rc, Arc);

impl<T: Checksum + ?Sized> Checksum for &T {
    fn checksum(&self) -> u64 {
        (**self).checksum()
    }
}

impl<T: Checksum + ?Sized> Checksum for &mut T {
    fn checksum(&self) -> u64 {
        (**self).checksum()
    }
}

impl<T: Checksum> Checksum for Option<T> {
    fn checksum(&self) -> u64 {
        self.as_ref().map_or(u64::MAX, Checksum::checksum)
    }
}

impl<T: Checksum, E> Checksum for Result<T, E> {
    fn checksum(&self) -> u64 {
        self.as_ref().map_or(u64::MAX - 1, Checksum::checksum)
    }
}

macro_rules! checksum_tuple {
    ($($name:ident),+) => {
        impl<$($name: Checksum),+> Checksum for ($($name,)+) {
            #[allow(non_snake_case)]
            fn checksum(&self) -> u64 {
                let ($($name,)+) = self;
                let mut hasher = FingerprintHasher::default();
                $( hasher.write_u64($name.checksum()); )+
                hasher.finish()
            }
        }
    };
}
checksum_tuple!(A);
checksum_tuple!(A, B);
checksum_tuple!(A, B, C);
checksum_tuple!(A, B, C, D);
checksum_tuple!(A, B, C, D, E);
checksum_tuple!(A, B, C, D, E, F);
checksum_tuple!(A, B, C, D, E, F, G);
checksum_tuple!(A, B, C, D, E, F, G, H);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_are_fixed_figures() {
        // Pinned: a change to the hasher (or to std's `Hash` of a type)
        // changes saved fingerprints, so it must be made on purpose.
        assert_eq!(hash_fingerprint(&0u64), 0x46ab_cca5_93a3_c687);
        assert_eq!(hash_fingerprint("abc"), 0x85a9_213b_9ac1_8668);
        assert_eq!(vec![1u32, 2, 3].checksum(), 0x857c_246f_dfc9_8ecb);
        assert_eq!(String::from("abc").checksum(), "abc".checksum());
    }

    #[test]
    fn contents_and_order_count() {
        assert_ne!(vec![1u32, 2].checksum(), vec![2u32, 1].checksum());
        assert_ne!(vec![1u32, 2].checksum(), vec![1u32, 2, 0].checksum());
        assert_ne!("ab".checksum(), "ba".checksum());
        assert_ne!((1u8, 2u8).checksum(), (2u8, 1u8).checksum());
        assert_ne!(Some(0u8).checksum(), None::<u8>.checksum());
        assert_ne!(1.0f64.checksum(), (-1.0f64).checksum());
        let ok: Result<u8, String> = Ok(3);
        assert_eq!(ok.checksum(), 3);
        assert_eq!(
            Err::<u8, _>("a").checksum(),
            Err::<u8, _>("b").checksum(),
            "an error is one value"
        );
        // A `usize` hashes as 64 bits, whatever the target's width.
        assert_eq!(hash_fingerprint(&7usize), hash_fingerprint(&7u64));
    }

    #[test]
    fn tails_of_every_length_count() {
        let text = "0123456789abcdefg";
        let mut seen = BTreeSet::new();
        for end in 0..=text.len() {
            assert!(seen.insert(text[..end].checksum()), "{end}");
        }
        // Trailing zero bytes are not padding.
        assert_ne!(
            hash_fingerprint(&[1u8][..]),
            hash_fingerprint(&[1u8, 0][..])
        );
    }
}
