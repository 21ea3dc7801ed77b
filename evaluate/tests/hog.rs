//! The real hog processes: pinned to the other CPU, loading it, and ended
//! by the harness.

use evaluate::hog::{Hog, HogKind, HogSpec};
use evaluate::machine::{HOG_CPU, allowed_cpus, cpus_of};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

/// User CPU time of `pid` in clock ticks, from `/proc/<pid>/stat`.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = stat.rsplit_once(')')?.1;
    after_name.split_whitespace().nth(11)?.parse().ok()
}

fn spec(kind: HogKind) -> HogSpec {
    HogSpec {
        kind,
        cpu: HOG_CPU,
        memory_mib: 16,
        burst_min: 0.2,
        burst_max: 0.4,
        seed: 5,
    }
}

#[test]
fn hogs_run_pinned_and_are_ended() {
    if !allowed_cpus().unwrap().contains(&HOG_CPU) {
        eprintln!("skipped: CPU {HOG_CPU} is not available");
        return;
    }
    let exe = Path::new(env!("CARGO_BIN_EXE_evaluate"));
    for kind in [HogKind::Cpu, HogKind::Memory, HogKind::Bursty] {
        let hog = Hog::start(exe, &spec(kind)).unwrap();
        let pid = hog.id();
        assert_eq!(cpus_of(pid), Some(BTreeSet::from([HOG_CPU])), "{kind:?}");
        let before = cpu_ticks(pid).unwrap();
        // It works: its CPU time grows (the bursty hog within its first
        // on-period or the next one).
        let deadline = Instant::now() + Duration::from_secs(20);
        while cpu_ticks(pid).unwrap() <= before {
            assert!(Instant::now() < deadline, "{kind:?} hog does no work");
            std::thread::sleep(Duration::from_millis(50));
        }
        hog.stop().unwrap();
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "{kind:?} hog still exists"
        );
    }
}

#[test]
fn the_hog_subcommand_refuses_bad_arguments() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_evaluate"))
        .args(["hog", "fan"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage: evaluate hog"));
}
