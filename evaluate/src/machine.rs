//! The machine the evaluation ran on, and pinning processes to CPUs.
//!
//! A hog on "the other core" only means something when the two CPUs really
//! are different cores: SMT siblings share execution units, so a hog on the
//! sibling slows the benchmark far more than one on another core. The report
//! therefore states which it was.

use crate::Error;
use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
use nix::unistd::Pid;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// The CPU the benchmark runs on.
pub const BENCH_CPU: usize = 0;
/// The CPU every hog runs on.
pub const HOG_CPU: usize = 1;

/// Facts about the machine that qualify every figure of the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    pub host: String,
    pub cpu_model: String,
    /// CPUs this process may run on.
    pub cpus: Vec<usize>,
    pub kernel: String,
    /// The hypervisor `lscpu` names, if any.
    pub hypervisor: Option<String>,
    /// `thread_siblings_list` of the benchmark's CPU, as the kernel wrote it.
    pub bench_cpu_siblings: Option<String>,
    /// Whether the benchmark's CPU and the hog's CPU share a core; `None`
    /// when the kernel does not say.
    pub smt_siblings: Option<bool>,
    /// `Thread(s) per core` from `lscpu`.
    pub threads_per_core: Option<String>,
}

impl Machine {
    pub fn current() -> Machine {
        let read = |p: &str| {
            std::fs::read_to_string(Path::new(p))
                .ok()
                .map(|s| s.trim().to_string())
        };
        let lscpu = std::process::Command::new("lscpu")
            .env("LC_ALL", "C")
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let siblings = read(&format!(
            "/sys/devices/system/cpu/cpu{BENCH_CPU}/topology/thread_siblings_list"
        ));
        Machine {
            host: read("/proc/sys/kernel/hostname").unwrap_or_default(),
            cpu_model: lscpu_field(&lscpu, "Model name").unwrap_or_else(|| "unknown".to_string()),
            cpus: allowed_cpus().unwrap_or_default(),
            kernel: read("/proc/sys/kernel/osrelease").unwrap_or_default(),
            hypervisor: lscpu_field(&lscpu, "Hypervisor vendor"),
            smt_siblings: siblings
                .as_deref()
                .and_then(cpu_list)
                .map(|set| set.contains(&HOG_CPU)),
            bench_cpu_siblings: siblings,
            threads_per_core: lscpu_field(&lscpu, "Thread(s) per core"),
        }
    }
}

/// The value of `field` in `lscpu`'s `Field: value` output.
pub fn lscpu_field(text: &str, field: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        (name.trim() == field)
            .then(|| value.trim().to_string())
            .filter(|v| !v.is_empty())
    })
}

/// Parses the kernel's CPU list syntax (`0-3,8,10-11`); `None` when any
/// part is not a number or a range.
pub fn cpu_list(text: &str) -> Option<BTreeSet<usize>> {
    let mut set = BTreeSet::new();
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                if b < a || b - a > 4096 {
                    return None;
                }
                set.extend(a..=b);
            }
            None => {
                set.insert(part.trim().parse().ok()?);
            }
        }
    }
    Some(set)
}

/// The 1-minute load average, from `/proc/loadavg`: how busy the machine
/// was, whatever the harness itself started.
pub fn load_average() -> Option<f64> {
    parse_load(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

/// The first field of `/proc/loadavg`'s text.
pub fn parse_load(text: &str) -> Option<f64> {
    text.split_whitespace()
        .next()?
        .parse()
        .ok()
        .filter(|l: &f64| l.is_finite() && *l >= 0.0)
}

/// Pins the calling process (and the children it starts later) to `cpu`.
pub fn pin(cpu: usize) -> Result<(), Error> {
    let mut set = CpuSet::new();
    set.set(cpu)
        .map_err(|e| Error(format!("CPU {cpu}: cannot be named: {e}")))?;
    sched_setaffinity(Pid::from_raw(0), &set)
        .map_err(|e| Error(format!("cannot pin this process to CPU {cpu}: {e}")))
}

/// The CPUs this process may run on.
pub fn allowed_cpus() -> Result<Vec<usize>, Error> {
    let set = sched_getaffinity(Pid::from_raw(0))
        .map_err(|e| Error(format!("cannot read this process's CPU affinity: {e}")))?;
    Ok((0..CpuSet::count())
        .filter(|&c| set.is_set(c).unwrap_or(false))
        .collect())
}

/// The CPUs `pid` may run on, from `/proc/<pid>/status`.
pub fn cpus_of(pid: u32) -> Option<BTreeSet<usize>> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .and_then(cpu_list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_parse() {
        assert_eq!(cpu_list("0").unwrap(), BTreeSet::from([0]));
        assert_eq!(cpu_list("0,2").unwrap(), BTreeSet::from([0, 2]));
        assert_eq!(
            cpu_list("0-3,8\n").unwrap(),
            BTreeSet::from([0, 1, 2, 3, 8])
        );
        assert!(cpu_list("a").is_none());
        assert!(cpu_list("3-1").is_none());
        assert!(cpu_list("0-").is_none());
    }

    #[test]
    fn load_averages_parse() {
        assert_eq!(parse_load("7.21 7.12 6.24 3/512 12345\n"), Some(7.21));
        assert_eq!(parse_load(""), None);
        assert_eq!(parse_load("x 1 2"), None);
        assert_eq!(parse_load("-1 1 2"), None);
    }

    #[test]
    fn lscpu_fields() {
        let text = "Architecture:   x86_64\nThread(s) per core:  2\nModel name:  Some CPU @ 2.1GHz\nFlags:\n";
        assert_eq!(
            lscpu_field(text, "Thread(s) per core").as_deref(),
            Some("2")
        );
        assert_eq!(
            lscpu_field(text, "Model name").as_deref(),
            Some("Some CPU @ 2.1GHz")
        );
        assert_eq!(lscpu_field(text, "Flags"), None);
        assert_eq!(lscpu_field(text, "Missing"), None);
    }

    #[test]
    fn this_process_has_an_affinity() {
        let cpus = allowed_cpus().unwrap();
        assert!(!cpus.is_empty());
        let from_proc = cpus_of(std::process::id()).unwrap();
        assert_eq!(cpus.into_iter().collect::<BTreeSet<_>>(), from_proc);
    }
}

#[cfg(test)]
mod properties {
    use super::{cpu_list, lscpu_field, parse_load};
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn parsers_never_panic(text in ".{0,80}") {
            let _ = cpu_list(&text);
            let _ = lscpu_field(&text, "Model name");
            let _ = parse_load(&text);
        }
    }
}
