//! The set-up a run was made on: toolchain, build profile, machine, load,
//! commit and CI. Saved with every run so a comparison can say when the
//! baseline was made on another set-up.

mod calibration_crates;
mod cpu;
mod git;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::import::Imported;
pub use cpu::Cpu;

/// The profile yardstick was built with (`debug` or `release`, from cargo's
/// `PROFILE`, which build.rs records): a scripted clock is honoured only by
/// a debug build.
pub const BUILD_PROFILE: &str = env!("YARDSTICK_BUILD_PROFILE");
pub use git::{branch_of, commit_of};

/// The set-up of one run.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Environment {
    /// When the run was made, RFC 3339 in UTC.
    pub date: String,
    /// `rustc --version` of the toolchain that built the binary.
    pub rustc: String,
    /// Cargo profile (`release`, `debug`, ...) of the build.
    pub profile: String,
    /// `opt-level` of the build.
    pub opt_level: String,
    /// Whether debug assertions were on.
    pub debug_assertions: bool,
    /// Target triple.
    pub target: String,
    /// The operating system (`linux`).
    pub os: String,
    /// The architecture (`x86_64`).
    pub arch: String,
    /// Host name.
    pub machine: String,
    /// Logical CPUs online on the machine (where the platform tells;
    /// otherwise those available to the process).
    pub cpus: usize,
    /// 1-, 5- and 15-minute load averages where the platform has them.
    pub load: Option<[f64; 3]>,
    /// The commit of the repository measured, where there is one.
    #[cfg_attr(test, schemars(extend("pattern" = "^([0-9a-f]{7,64}|)$")))]
    pub git_commit: String,
    /// `github-actions`, `ci` (any other CI) or empty.
    pub ci: String,
    /// The processor; absent in runs saved before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<Cpu>,
    /// What a wall-time figure belongs to (see [`Cpu::class`]): absent
    /// when the machine could not be identified, and in runs saved before
    /// classes were recorded. Either way, of unknown class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, schemars(extend("pattern" = "^[a-z0-9]+(-[a-z0-9]+)*-[0-9a-f]{8}$")))]
    pub machine_class: Option<String>,
    /// The versions of the crates the calibration loop runs (name →
    /// version), as the workspace's `Cargo.lock` resolved them: the loop's
    /// time, the divisor of every "x calib" figure, moves with their code
    /// (which crates, and why: `calibration_crates.rs`). Absent where no
    /// loop ran, where no lock was found or it named none of them, and in
    /// runs saved before they were recorded: unrecorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration_crates: Option<BTreeMap<String, String>>,
    /// Where a run read from another tool's file came from (see
    /// [`crate::import`]); absent in yardstick's own runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported: Option<Imported>,
}

impl Environment {
    /// Reads the set-up of this process. `repo` is where to look for `.git`
    /// (the directory and its parents).
    pub fn current(repo: &Path, date: String) -> Environment {
        let github_sha = std::env::var("GITHUB_SHA").ok();
        let cpu = Cpu::read(Path::new("/"));
        let target = env!("YARDSTICK_BUILD_TARGET");
        let machine_class = cpu.class(target);
        let cpus = cpu
            .online
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        Environment {
            date,
            rustc: env!("YARDSTICK_RUSTC_VERSION").to_string(),
            profile: BUILD_PROFILE.to_string(),
            opt_level: env!("YARDSTICK_BUILD_OPT_LEVEL").to_string(),
            debug_assertions: cfg!(debug_assertions),
            target: env!("YARDSTICK_BUILD_TARGET").to_string(),
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            machine: hostname(),
            cpus,
            load: load_average(),
            git_commit: commit_of(repo).or(github_sha).unwrap_or_default(),
            ci: ci_name(|k| std::env::var_os(k).is_some_and(|v| !v.is_empty())),
            cpu: (cpu != Cpu::default()).then_some(cpu),
            machine_class,
            calibration_crates: None,
            imported: None,
        }
    }

    /// This set-up with the versions of the calibration loop's crates, read
    /// from the first `Cargo.lock` in `package` (the directory the bench
    /// runs for) or above it; for runs in which the loop ran.
    pub fn with_calibration_crates(self, package: &Path) -> Environment {
        Environment {
            calibration_crates: calibration_crates::calibration_crates(package),
            ..self
        }
    }

    /// The machine class, or `unknown` for a run without one.
    pub fn class_name(&self) -> &str {
        self.machine_class.as_deref().unwrap_or("unknown")
    }

    /// The processor in a few words, or the host name when unknown.
    pub fn cpu_name(&self) -> String {
        match &self.cpu {
            Some(cpu) => cpu.describe(),
            None if self.machine.is_empty() => "an unrecorded CPU".to_string(),
            None => format!("an unrecorded CPU (host {})", self.machine),
        }
    }

    /// True when the build's times say little about a release build: debug
    /// assertions on, or no optimisation.
    pub fn is_debug_build(&self) -> bool {
        self.debug_assertions || self.opt_level == "0"
    }

    /// The set-up fields that move numbers and differ between `self` (the
    /// baseline) and `other`: (field, baseline, current).
    pub fn differences(&self, other: &Environment) -> Vec<(String, String, String)> {
        let mut out = Vec::new();
        let mut differ = |field: &str, a: String, b: String| {
            if a != b {
                out.push((field.to_string(), a, b));
            }
        };
        match (&self.imported, &other.imported) {
            (None, None) => {
                differ("rustc", rustc_minor(&self.rustc), rustc_minor(&other.rustc));
                differ("profile", self.profile.clone(), other.profile.clone());
                differ("opt-level", self.opt_level.clone(), other.opt_level.clone());
                differ(
                    "debug assertions",
                    self.debug_assertions.to_string(),
                    other.debug_assertions.to_string(),
                );
                differ("target", self.target.clone(), other.target.clone());
            }
            // Two imported runs: what their tool recorded of its set-up.
            (Some(a), Some(b)) => {
                for (field, x, y) in a.setup_differences(b) {
                    differ(&field, x, y);
                }
            }
            // Runs of two tools: the comparison says so once, by itself.
            _ => {}
        }
        out
    }

    /// The calibration loop's crates whose versions both runs recorded and
    /// differ between `self` (the baseline) and `other`: (field, baseline,
    /// current). The loop's checksum still guards its work, so a change
    /// here is a note on the speed factor, not a refusal.
    pub fn calibration_crate_differences(
        &self,
        other: &Environment,
    ) -> Vec<(String, String, String)> {
        let (Some(base), Some(now)) = (&self.calibration_crates, &other.calibration_crates) else {
            return Vec::new();
        };
        base.iter()
            .filter_map(|(name, b)| {
                let n = now.get(name).filter(|n| *n != b)?;
                Some((format!("calibration loop's {name}"), b.clone(), n.clone()))
            })
            .collect()
    }
}

/// This machine's class (see [`Cpu::class`]), before anything is measured.
pub fn current_class() -> Option<String> {
    Cpu::read(Path::new("/")).class(env!("YARDSTICK_BUILD_TARGET"))
}

/// Where to look for `.git` and `baselines/`: the package cargo runs us for,
/// else the working directory.
pub fn repository_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| Path::new(".").to_path_buf())
}

/// The current time, RFC 3339 in UTC, to the second.
pub fn now() -> String {
    crate::timestamp::rfc3339_seconds(std::time::SystemTime::now())
}

/// "rustc 1.95.0 (59807616e 2026-04-14)" → "1.95": patch releases do not
/// change code generation enough to mention.
fn rustc_minor(version: &str) -> String {
    let number = version.split_whitespace().nth(1).unwrap_or(version);
    let mut parts = number.split('.');
    match (parts.next(), parts.next()) {
        (Some(major), Some(minor)) => format!("{major}.{minor}"),
        _ => number.to_string(),
    }
}

fn ci_name(is_set: impl Fn(&str) -> bool) -> String {
    if is_set("GITHUB_ACTIONS") {
        "github-actions".to_string()
    } else if is_set("CI") {
        "ci".to_string()
    } else {
        String::new()
    }
}

/// The machine's name, from gethostname(2); empty where there is none.
fn hostname() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: gethostname writes at most `buf.len()` bytes into the
        // buffer it is given, which lives for the call.
        let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
        if r == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            return String::from_utf8_lossy(&buf[..end]).into_owned();
        }
    }
    String::new()
}

/// The load averages from `/proc/loadavg`; `None` where there is no such
/// file (other platforms), since a missing figure beats a wrong one.
fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut fields = text.split_whitespace().map(|f| f.parse::<f64>().ok());
    Some([fields.next()??, fields.next()??, fields.next()??])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rustc_minor_version() {
        assert_eq!(rustc_minor("rustc 1.95.0 (59807616e 2026-04-14)"), "1.95");
        assert_eq!(rustc_minor("rustc 1.94.1"), "1.94");
        assert_eq!(rustc_minor(""), "");
    }

    #[test]
    fn ci_detection() {
        assert_eq!(
            ci_name(|k| k == "GITHUB_ACTIONS" || k == "CI"),
            "github-actions"
        );
        assert_eq!(ci_name(|k| k == "CI"), "ci");
        assert_eq!(ci_name(|_| false), "");
    }

    #[test]
    fn differences_name_what_moves_numbers() {
        let base = Environment {
            rustc: "rustc 1.94.0 (x)".into(),
            profile: "release".into(),
            opt_level: "3".into(),
            ..Environment::default()
        };
        let mut now = base.clone();
        now.rustc = "rustc 1.94.2 (y)".into();
        assert!(base.differences(&now).is_empty());
        now.rustc = "rustc 1.95.0 (z)".into();
        now.machine = "elsewhere".into();
        let d = base.differences(&now);
        assert_eq!(
            d,
            vec![("rustc".to_string(), "1.94".to_string(), "1.95".to_string())]
        );
    }

    #[test]
    fn calibration_crates_differ_only_where_both_runs_recorded_them() {
        let with = |pairs: &[(&str, &str)]| Environment {
            calibration_crates: Some(
                pairs
                    .iter()
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .collect(),
            ),
            ..Environment::default()
        };
        let base = with(&[("regex", "1.10.0"), ("sha2", "0.10.9")]);
        assert!(base.calibration_crate_differences(&base.clone()).is_empty());
        let unrecorded = Environment::default();
        assert!(base.calibration_crate_differences(&unrecorded).is_empty());
        assert!(unrecorded.calibration_crate_differences(&base).is_empty());
        let now = with(&[("regex", "1.13.2"), ("memchr", "2.7.6")]);
        assert_eq!(
            base.calibration_crate_differences(&now),
            vec![(
                "calibration loop's regex".to_string(),
                "1.10.0".to_string(),
                "1.13.2".to_string()
            )]
        );
        // Not a set-up difference of every method: only the normalised one
        // divides by the loop.
        assert!(base.differences(&now).is_empty());
    }

    #[test]
    fn a_run_without_calibration_crates_saves_as_it_was_read() {
        let old = serde_json::to_string(&Environment::default()).unwrap();
        assert!(!old.contains("calibration_crates"), "{old}");
        let read: Environment = serde_json::from_str(&old).unwrap();
        assert_eq!(serde_json::to_string(&read).unwrap(), old);
        let recorded = Environment {
            calibration_crates: Some(BTreeMap::from([("sha2".into(), "0.10.9".into())])),
            ..Environment::default()
        };
        let text = serde_json::to_string(&recorded).unwrap();
        assert!(
            text.ends_with(r#""calibration_crates":{"sha2":"0.10.9"}}"#),
            "{text}"
        );
        let read: Environment = serde_json::from_str(&text).unwrap();
        assert_eq!(read, recorded);
    }

    #[test]
    fn debug_build_detection() {
        let mut e = Environment {
            opt_level: "3".into(),
            ..Environment::default()
        };
        assert!(!e.is_debug_build());
        e.opt_level = "0".into();
        assert!(e.is_debug_build());
    }
}
