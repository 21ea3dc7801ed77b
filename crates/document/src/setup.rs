//! What a count depends on besides the code: the compiler and build that
//! made the machine code, the valgrind that counts it, the target, the
//! batch (one-off costs are spread over it, so the count per iteration
//! moves with it), the platform the child was counted on (its C library,
//! the library pin and the CPU valgrind showed it, see
//! `measure::callgrind::pin`) and, for estimated cycles, the simulated
//! cache.
//!
//! Counts of two runs judge each other only when all of these match;
//! otherwise their changes are information, and the comparison names what
//! differs. The machine is not part of it: that is what makes counts
//! portable.

use crate::environment::Environment;
use crate::platform::Platform;
use crate::run::{Metric, Run};
use std::collections::{BTreeMap, BTreeSet};

/// The set-up of a run of counts, each field as shown in messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The compiler, which decides the instructions.
    pub rustc: String,
    /// Profile, optimisation level and debug assertions.
    pub build: String,
    /// The target triple.
    pub target: String,
    /// valgrind's version, whose simulation counts.
    pub valgrind: String,
    /// The batch of every counted row (several, comma-separated, when the
    /// rows differ).
    pub batch: String,
    /// The simulated cache; `None` for instruction counts, which do not
    /// depend on it.
    pub cache: Option<String>,
    /// What the counted child ran on.
    pub platform: Platform,
}

/// A set-up value a run does not record.
const UNRECORDED: &str = "unrecorded";

impl Setup {
    /// The set-up `run` was counted with; `metric` is what will be judged
    /// (instructions do not depend on the cache).
    pub fn of(run: &Run, metric: Metric) -> Setup {
        let mut batches: Vec<u64> = run.rows.iter().filter_map(|r| r.batch).collect();
        batches.sort_unstable();
        batches.dedup();
        let counting = run.settings.micro().map(|s| &s.counting);
        let recorded =
            |value: Option<&String>| value.map_or(UNRECORDED, String::as_str).to_string();
        Setup {
            batch: if batches.is_empty() {
                UNRECORDED.to_string()
            } else {
                batches
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            },
            valgrind: recorded(counting.and_then(|c| c.valgrind.as_ref())),
            cache: (metric == Metric::EstimatedCycles)
                .then(|| recorded(counting.and_then(|c| c.cache_sim.as_ref()))),
            platform: counting
                .and_then(|c| c.count_platform.clone())
                .unwrap_or_else(unrecorded_platform),
            ..Setup::of_build(&run.environment)
        }
    }

    /// The set-up of `environment`'s build, before anything is counted.
    pub fn of_build(environment: &Environment) -> Setup {
        Setup {
            rustc: environment.rustc.clone(),
            build: format!(
                "{}, opt-level {}{}",
                environment.profile,
                environment.opt_level,
                if environment.debug_assertions {
                    ", debug assertions"
                } else {
                    ""
                }
            ),
            target: environment.target.clone(),
            valgrind: UNRECORDED.to_string(),
            batch: UNRECORDED.to_string(),
            cache: None,
            platform: unrecorded_platform(),
        }
    }

    /// A short name of the whole set-up (12 hex digits of a hash over every
    /// field): two runs of counts with one key were counted alike, so a
    /// history selects a count baseline by it.
    pub fn key(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut hash = Sha256::new();
        let p = &self.platform;
        for field in [
            &self.rustc,
            &self.build,
            &self.target,
            &self.valgrind,
            &self.batch,
            self.cache.as_deref().unwrap_or("-"),
            &p.libc,
            &p.tunables,
            &p.pin,
            &p.cpu,
        ] {
            hash.update(field.as_bytes());
            hash.update([0]);
        }
        hash.finalize()[..6]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// The fields known before anything is counted (compiler, build,
    /// target) that differ: (field, in `self`, in `other`).
    pub fn build_differences(&self, other: &Setup) -> Vec<(String, String, String)> {
        [
            ("rustc", &self.rustc, &other.rustc),
            ("build", &self.build, &other.build),
            ("target", &self.target, &other.target),
        ]
        .into_iter()
        .filter(|(_, a, b)| a != b)
        .map(|(f, a, b)| (f.to_string(), a.clone(), b.clone()))
        .collect()
    }

    /// The fields that differ: (field, in `self`, in `other`).
    pub fn differences(&self, other: &Setup) -> Vec<(String, String, String)> {
        let mut pairs = vec![
            ("valgrind", &self.valgrind, &other.valgrind),
            ("batch", &self.batch, &other.batch),
        ];
        let (a, b) = (&self.platform, &other.platform);
        let unrecorded = unrecorded_platform();
        let (old, recorded) = (UNRECORDED.to_string(), "recorded".to_string());
        match (*a == unrecorded, *b == unrecorded) {
            // A run saved before the platform was recorded: one note.
            (true, false) => pairs.push((PLATFORM_FIELD, &old, &recorded)),
            (false, true) => pairs.push((PLATFORM_FIELD, &recorded, &old)),
            _ => pairs.extend([
                ("libc", &a.libc, &b.libc),
                ("GLIBC_TUNABLES", &a.tunables, &b.tunables),
                ("library pin", &a.pin, &b.pin),
                ("CPU under valgrind", &a.cpu, &b.cpu),
            ]),
        }
        let mut out = self.build_differences(other);
        out.extend(
            pairs
                .into_iter()
                .filter(|(_, a, b)| a != b)
                .map(|(f, a, b)| (f.to_string(), a.clone(), b.clone())),
        );
        if let (Some(a), Some(b)) = (&self.cache, &other.cache)
            && a != b
        {
            out.push(("cache".to_string(), a.clone(), b.clone()));
        }
        out
    }
}

/// The difference named when one run predates the recorded platform.
const PLATFORM_FIELD: &str = "count platform (C library, pin, CPU)";

/// The platform of a run saved before it was recorded: every field
/// differs from a recorded one, so such a baseline gives information.
fn unrecorded_platform() -> Platform {
    Platform {
        tunables: UNRECORDED.to_string(),
        pin: UNRECORDED.to_string(),
        cpu: UNRECORDED.to_string(),
        libc: UNRECORDED.to_string(),
    }
}

/// The bench parameters (`--node=57`) whose values differ between
/// `baseline` and `run`, as (option, baseline's, run's); a parameter not
/// given is `default`. Runs of other parameters did other work: their
/// changes are information (see `yardstick_probe::param`).
pub fn param_differences<'a>(baseline: &'a Run, run: &'a Run) -> Vec<(String, String, String)> {
    let none = BTreeMap::new();
    let params = |r: &'a Run| r.settings.micro().map_or(&none, |s| &s.params);
    let (b, n) = (params(baseline), params(run));
    let names: BTreeSet<&String> = b.keys().chain(n.keys()).collect();
    let value = |m: &BTreeMap<String, String>, k: &str| {
        m.get(k).cloned().unwrap_or_else(|| "default".to_string())
    };
    names
        .into_iter()
        .filter(|k| b.get(*k) != n.get(*k))
        .map(|k| {
            (
                format!("--{}", k.replace('_', "-")),
                value(b, k),
                value(n, k),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comparison::describe_differences;
    use crate::run::{Row, RowKind, test_micro_run};
    use crate::settings::CountSettings;

    fn counted(batch: u64, valgrind: &str) -> Run {
        let mut row = Row::with_samples("p".into(), RowKind::Probe, "p".into(), Vec::new());
        row.batch = Some(batch);
        row.counted.instructions = Some(100.0);
        let mut run = test_micro_run(vec![row], None);
        run.metric = Metric::EstimatedCycles;
        run.environment.rustc = "rustc 1.95.0 (59807616e 2026-04-14)".into();
        let counting = counting(&mut run);
        counting.valgrind = Some(valgrind.into());
        counting.cache_sim = Some("I1=32768,8,64 D1=32768,8,64 LL=8388608,16,64".to_string());
        run
    }

    fn counting(run: &mut Run) -> &mut CountSettings {
        &mut run.settings.micro_mut().unwrap().counting
    }

    #[test]
    fn parameters_differ_by_value_and_by_being_given() {
        let with = |params: &[(&str, &str)]| {
            let mut run = test_micro_run(Vec::new(), None);
            run.settings.micro_mut().unwrap().params = params
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            run
        };
        let plain = test_micro_run(Vec::new(), None);
        let node = with(&[("node", "57")]);
        assert!(param_differences(&plain, &plain).is_empty());
        assert!(param_differences(&node, &node).is_empty());
        assert_eq!(
            param_differences(&plain, &with(&[("node", "57"), ("content_size", "20")])),
            [
                ("--content-size".into(), "default".into(), "20".into()),
                ("--node".into(), "default".into(), "57".into()),
            ]
        );
        assert_eq!(
            param_differences(&node, &with(&[("node", "3")])),
            [("--node".to_string(), "57".to_string(), "3".to_string())]
        );
    }

    #[test]
    fn equal_set_ups_have_no_differences() {
        let a = counted(5, "valgrind-3.19.0");
        let setup = Setup::of(&a, Metric::EstimatedCycles);
        assert!(setup.differences(&setup.clone()).is_empty());
        assert_eq!(setup.batch, "5");
        assert_eq!(setup.valgrind, "valgrind-3.19.0");
    }

    #[test]
    fn every_field_that_moves_a_count_is_named() {
        let a = counted(5, "valgrind-3.19.0");
        let mut b = counted(50, "valgrind-3.22.0");
        b.environment.rustc = "rustc 1.96.0 (x)".into();
        b.environment.target = "aarch64-unknown-linux-gnu".into();
        b.environment.opt_level = "2".into();
        counting(&mut b).cache_sim = Some("LL=1024,2,64".into());
        let d = Setup::of(&a, Metric::EstimatedCycles)
            .differences(&Setup::of(&b, Metric::EstimatedCycles));
        let fields: Vec<&str> = d.iter().map(|(f, _, _)| f.as_str()).collect();
        assert_eq!(
            fields,
            ["rustc", "build", "target", "valgrind", "batch", "cache"]
        );
        assert!(
            describe_differences(&d).contains("batch 5 in the baseline, 50 now"),
            "{}",
            describe_differences(&d)
        );
    }

    #[test]
    fn instructions_do_not_depend_on_the_cache_and_unrecorded_values_differ() {
        let a = counted(5, "valgrind-3.19.0");
        let mut b = a.clone();
        counting(&mut b).cache_sim = Some("LL=1024,2,64".into());
        assert!(
            Setup::of(&a, Metric::Instructions)
                .differences(&Setup::of(&b, Metric::Instructions))
                .is_empty()
        );
        // A run saved before valgrind's version was recorded.
        counting(&mut b).valgrind = None;
        let d =
            Setup::of(&a, Metric::Instructions).differences(&Setup::of(&b, Metric::Instructions));
        assert_eq!(
            d,
            vec![(
                "valgrind".into(),
                "valgrind-3.19.0".into(),
                UNRECORDED.into()
            )]
        );
    }

    fn on(run: &mut Run, libc: &str, pin: &str) {
        let platform = Platform {
            tunables: "glibc.cpu.hwcaps=-AVX2_Usable".to_string(),
            pin: pin.into(),
            cpu: "kind 0x1 family 0x6 model 0x3c stepping 0x3: sse2 avx2".into(),
            libc: libc.into(),
        };
        counting(run).count_platform = Some(platform);
    }

    #[test]
    fn the_platform_judges_when_equal_and_names_what_differs() {
        let setup = |r: &Run| Setup::of(r, Metric::Instructions);
        let mut a = counted(5, "valgrind-3.19.0");
        on(&mut a, "glibc 2.36, build-id ab", "held");
        let same = a.clone();
        assert!(setup(&a).differences(&setup(&same)).is_empty());
        let mut other = a.clone();
        on(
            &mut other,
            "glibc 2.39, build-id cd",
            "not held: ERMS still in use",
        );
        let fields: Vec<String> = setup(&a)
            .differences(&setup(&other))
            .into_iter()
            .map(|(f, _, _)| f)
            .collect();
        assert_eq!(fields, ["libc", "library pin"]);
        // A baseline saved before the platform was recorded: one note.
        let old = counted(5, "valgrind-3.19.0");
        let d = setup(&old).differences(&setup(&a));
        assert_eq!(
            d,
            [(PLATFORM_FIELD.into(), UNRECORDED.into(), "recorded".into())]
        );
        assert!(describe_differences(&d).contains("unrecorded in the baseline"));
    }

    #[test]
    fn rows_of_several_batches_are_all_named() {
        let mut a = counted(5, "v");
        let mut second = a.rows[0].clone();
        second.key = "q".into();
        second.batch = Some(50);
        a.rows.push(second);
        assert_eq!(Setup::of(&a, Metric::Instructions).batch, "5, 50");
    }
}
