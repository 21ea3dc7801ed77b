//! The glibc loader's `--list-diagnostics` (glibc 2.33 and later): one
//! `key=value` a line, numbers in hexadecimal, strings quoted.

use super::glibc_number;
use std::collections::BTreeMap;

/// The lines read, by key.
pub(crate) struct Diagnostics {
    values: BTreeMap<String, String>,
}

/// `features[i]` of glibc's `cpu_features`: which CPUID leaf each index is.
const LEAF_1: u8 = 0;
const LEAF_7: u8 = 1;
const LEAF_80000001: u8 = 2;

/// The features code dispatches on, as (name, CPUID index, register, bit):
/// what picks glibc's string routines, memchr's and std's fast paths.
/// RDRAND and RDSEED are left out: valgrind passes them through from the
/// host, and no copy or search routine depends on them.
const FEATURES: [(&str, u8, usize, u32); 24] = [
    ("sse2", LEAF_1, 3, 26),
    ("sse3", LEAF_1, 2, 0),
    ("pclmulqdq", LEAF_1, 2, 1),
    ("ssse3", LEAF_1, 2, 9),
    ("fma", LEAF_1, 2, 12),
    ("sse4.1", LEAF_1, 2, 19),
    ("sse4.2", LEAF_1, 2, 20),
    ("movbe", LEAF_1, 2, 22),
    ("popcnt", LEAF_1, 2, 23),
    ("aes", LEAF_1, 2, 25),
    ("avx", LEAF_1, 2, 28),
    ("f16c", LEAF_1, 2, 29),
    ("bmi1", LEAF_7, 1, 3),
    ("avx2", LEAF_7, 1, 5),
    ("bmi2", LEAF_7, 1, 8),
    ("erms", LEAF_7, 1, 9),
    ("avx512f", LEAF_7, 1, 16),
    ("adx", LEAF_7, 1, 19),
    ("sha", LEAF_7, 1, 29),
    ("avx512bw", LEAF_7, 1, 30),
    ("avx512vl", LEAF_7, 1, 31),
    ("vaes", LEAF_7, 2, 9),
    ("fsrm", LEAF_7, 3, 4),
    ("lzcnt", LEAF_80000001, 2, 5),
];

impl Diagnostics {
    /// Reads `text`; lines that are not `key=value` are skipped.
    pub fn parse(text: &str) -> Diagnostics {
        let values = text
            .lines()
            .filter_map(|line| line.split_once('='))
            .map(|(k, v)| (k.trim().to_string(), v.trim().trim_matches('"').to_string()))
            .collect();
        Diagnostics { values }
    }

    /// The value of `key`, unquoted.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    /// The number at `key` (`0x1f`).
    fn number(&self, key: &str) -> Option<u64> {
        glibc_number(self.get(key)?)
    }

    /// One bit of glibc's `cpu_features.features[index]`: `cpuid` (what
    /// the CPU reports) or `active` (what glibc uses, after tunables).
    fn bit(&self, kind: &str, index: u8, register: usize, bit: u32) -> Option<bool> {
        let key = format!("x86.cpu_features.features[{index:#x}].{kind}[{register:#x}]");
        self.number(&key).map(|word| (word >> bit) & 1 == 1)
    }

    /// Whether the pin held: glibc uses no feature of `off` (as `ERMS`),
    /// and each of `thresholds` (name, value) reads back as pinned; else
    /// why not (`not held: ...`, or `not read back: ...`).
    pub fn check_pin(&self, off: &[&str], thresholds: &[(&str, u64)]) -> Result<(), String> {
        if self.get("x86.cpu_features.basic.kind").is_none() {
            return Err(
                "not read back: no x86 CPU features in the loader's diagnostics".to_string(),
            );
        }
        let mut wrong = Vec::new();
        for name in off {
            let feature = FEATURES
                .iter()
                .find(|(known, ..)| known.eq_ignore_ascii_case(name));
            let used = feature
                .and_then(|(_, index, register, bit)| self.bit("active", *index, *register, *bit));
            match used {
                Some(false) => {}
                Some(true) => wrong.push(format!("{name} still in use")),
                None => wrong.push(format!("{name} unread")),
            }
        }
        for (name, want) in thresholds {
            let key = format!("x86.cpu_features.{name}");
            match self.number(&key) {
                Some(got) if got == *want => {}
                Some(got) => wrong.push(format!("{name} {got:#x}, not {want:#x}")),
                None => wrong.push(format!("{name} unread")),
            }
        }
        if wrong.is_empty() {
            Ok(())
        } else {
            Err(format!("not held: {}", wrong.join(", ")))
        }
    }

    /// The CPU as the child sees it: `kind 1 family 0x6 model 0x3c stepping
    /// 0x3: sse2 sse3 ...`, or `unread` without x86 features.
    pub fn cpu(&self) -> String {
        let basic = ["kind", "family", "model", "stepping"]
            .map(|f| (f, self.get(&format!("x86.cpu_features.basic.{f}"))));
        if basic.iter().any(|(_, v)| v.is_none()) {
            return "unread".to_string();
        }
        let head = basic
            .iter()
            .map(|(f, v)| format!("{f} {}", v.unwrap_or("")))
            .collect::<Vec<_>>()
            .join(" ");
        let features: Vec<&str> = FEATURES
            .iter()
            .filter(|(_, index, register, bit)| {
                self.bit("cpuid", *index, *register, *bit) == Some(true)
            })
            .map(|(name, ..)| *name)
            .collect();
        format!("{head}: {}", features.join(" "))
    }
}
