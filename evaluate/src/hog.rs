//! Background load: the evaluate binary re-executed as `evaluate hog KIND`,
//! pinned to the other CPU. The harness owns each hog as a [`Hog`] and ends
//! it by its process id when the value is dropped, on success and on error
//! alike; the hog also asks the kernel to kill it if the harness dies first,
//! so no load outlives the evaluation.

use crate::Error;
use crate::machine;
use nix::sys::signal::Signal;
use nix::unistd::getppid;
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The hidden subcommand that runs a hog.
pub const SUBCOMMAND: &str = "hog";
/// The line a hog prints once its load is running.
const READY: &str = "ready";

/// What a hog does to the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HogKind {
    /// Integer arithmetic without pause: competes for the CPU package's
    /// shared resources (and for the CPU itself, if it is an SMT sibling).
    Cpu,
    /// Streams over a buffer far larger than any cache, reading and
    /// writing: competes for memory bandwidth.
    Memory,
    /// CPU load switched on and off for random periods: conditions that
    /// change during one run, as on a busy CI host.
    Bursty,
}

impl HogKind {
    pub fn as_str(self) -> &'static str {
        match self {
            HogKind::Cpu => "cpu",
            HogKind::Memory => "memory",
            HogKind::Bursty => "bursty",
        }
    }

    pub fn parse(text: &str) -> Option<HogKind> {
        [HogKind::Cpu, HogKind::Memory, HogKind::Bursty]
            .into_iter()
            .find(|k| k.as_str() == text)
    }
}

/// Everything a hog needs to know; passed on its command line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HogSpec {
    pub kind: HogKind,
    pub cpu: usize,
    /// Size of the memory hog's buffer.
    pub memory_mib: usize,
    /// Shortest and longest on or off period of the bursty hog, seconds.
    pub burst_min: f64,
    pub burst_max: f64,
    /// Seed of the bursty hog's periods: the same seed gives the same
    /// on/off pattern on every evaluation.
    pub seed: u64,
}

impl HogSpec {
    fn args(&self, parent: u32) -> Vec<String> {
        vec![
            SUBCOMMAND.to_string(),
            self.kind.as_str().to_string(),
            format!("--cpu={}", self.cpu),
            format!("--mib={}", self.memory_mib),
            format!("--burst={},{}", self.burst_min, self.burst_max),
            format!("--seed={}", self.seed),
            format!("--parent={parent}"),
        ]
    }

    /// Parses the arguments after `hog`; returns the spec and the parent's
    /// process id.
    pub fn parse(args: &[String]) -> Result<(HogSpec, u32), Error> {
        let usage = || {
            Error(
                "usage: evaluate hog cpu|memory|bursty --cpu=N --mib=M --burst=MIN,MAX --seed=S --parent=PID"
                    .to_string(),
            )
        };
        let (kind, rest) = args.split_first().ok_or_else(usage)?;
        let kind = HogKind::parse(kind).ok_or_else(usage)?;
        let mut spec = HogSpec {
            kind,
            cpu: machine::HOG_CPU,
            memory_mib: 256,
            burst_min: 0.2,
            burst_max: 5.0,
            seed: 1,
        };
        let mut parent = None;
        for arg in rest {
            let (name, value) = arg
                .strip_prefix("--")
                .and_then(|a| a.split_once('='))
                .ok_or_else(usage)?;
            let bad = || Error(format!("evaluate hog: bad value in `{arg}`"));
            match name {
                "cpu" => spec.cpu = value.parse().map_err(|_| bad())?,
                "mib" => spec.memory_mib = value.parse().map_err(|_| bad())?,
                "seed" => spec.seed = value.parse().map_err(|_| bad())?,
                "parent" => parent = Some(value.parse().map_err(|_| bad())?),
                "burst" => {
                    let (a, b) = value.split_once(',').ok_or_else(bad)?;
                    spec.burst_min = a.parse().map_err(|_| bad())?;
                    spec.burst_max = b.parse().map_err(|_| bad())?;
                }
                _ => return Err(usage()),
            }
        }
        let periods_ok = spec.burst_min.is_finite()
            && spec.burst_max.is_finite()
            && spec.burst_min > 0.0
            && spec.burst_min <= spec.burst_max;
        if !periods_ok || spec.memory_mib == 0 {
            return Err(Error(
                "evaluate hog: --burst needs 0 < MIN <= MAX and --mib at least 1".to_string(),
            ));
        }
        Ok((spec, parent.ok_or_else(usage)?))
    }
}

/// A running hog process, ended when dropped.
#[derive(Debug)]
pub struct Hog {
    child: Child,
    kind: HogKind,
}

impl Hog {
    /// Starts `exe hog ...` and waits until its load runs (its memory is
    /// allocated and it is pinned).
    pub fn start(exe: &Path, spec: &HogSpec) -> Result<Hog, Error> {
        let mut command = Command::new(exe);
        command.args(spec.args(std::process::id()));
        Hog::spawn(command, spec.kind).map_err(|e| Error(format!("{}: {}", exe.display(), e.0)))
    }

    /// Starts `command` as a hog of `kind` and waits for its ready line.
    fn spawn(mut command: Command, kind: HogKind) -> Result<Hog, Error> {
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| Error(format!("cannot start the {} hog: {e}", kind.as_str())))?;
        // Owned before anything else can fail, so an error below ends it.
        let mut hog = Hog { child, kind };
        let mut line = String::new();
        if let Some(out) = hog.child.stdout.take() {
            let _ = BufReader::new(out).read_line(&mut line);
        }
        if line.trim() != READY {
            return Err(Error(format!(
                "the {} hog (process {}) did not start",
                kind.as_str(),
                hog.id()
            )));
        }
        Ok(hog)
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Ends the hog. A hog that had already exited is an error: its
    /// condition did not hold for the whole measurement.
    pub fn stop(mut self) -> Result<(), Error> {
        match self.child.try_wait() {
            Ok(Some(status)) => Err(Error(format!(
                "the {} hog (process {}) ended early: {status}",
                self.kind.as_str(),
                self.id()
            ))),
            _ => Ok(()),
        }
        // Drop kills and reaps it.
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The hog's side: `evaluate hog KIND ...`. Never returns while the load
/// runs; returns an error when it cannot start.
pub fn main(args: &[String]) -> Result<(), Error> {
    let (spec, parent) = HogSpec::parse(args)?;
    nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(|e| {
        Error(format!(
            "evaluate hog: cannot tie itself to its parent: {e}"
        ))
    })?;
    // The parent may have died before the line above took effect.
    if getppid().as_raw() as u32 != parent {
        return Err(Error("evaluate hog: its parent is gone".to_string()));
    }
    machine::pin(spec.cpu)?;
    let mut buffer = match spec.kind {
        HogKind::Memory => vec![1u64; spec.memory_mib * (1 << 20) / 8],
        HogKind::Cpu | HogKind::Bursty => Vec::new(),
    };
    let mut stdout = std::io::stdout();
    writeln!(stdout, "{READY}")
        .and_then(|()| stdout.flush())
        .map_err(|e| Error(format!("evaluate hog: cannot report readiness: {e}")))?;
    match spec.kind {
        HogKind::Cpu => loop {
            spin(Duration::from_secs(3600));
        },
        HogKind::Memory => loop {
            stream(&mut buffer);
        },
        HogKind::Bursty => {
            let mut rng = fastrand::Rng::with_seed(spec.seed);
            loop {
                spin(period(&mut rng, &spec));
                std::thread::sleep(period(&mut rng, &spec));
            }
        }
    }
}

/// A period between `burst_min` and `burst_max`, uniformly.
fn period(rng: &mut fastrand::Rng, spec: &HogSpec) -> Duration {
    Duration::from_secs_f64(spec.burst_min + rng.f64() * (spec.burst_max - spec.burst_min))
}

/// Integer work for `length`, checking the clock only now and then.
fn spin(length: Duration) {
    let end = Instant::now() + length;
    let mut x = 0x2545_f491_4f6c_dd1du64;
    while Instant::now() < end {
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
        x = black_box(x);
    }
}

/// One pass over the buffer, reading and writing every word.
fn stream(buffer: &mut [u64]) {
    for w in buffer.iter_mut() {
        *w = w.wrapping_mul(3).wrapping_add(1);
    }
    black_box(&mut *buffer);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(kind: HogKind) -> HogSpec {
        HogSpec {
            kind,
            cpu: 1,
            memory_mib: 64,
            burst_min: 0.5,
            burst_max: 2.0,
            seed: 7,
        }
    }

    #[test]
    fn arguments_round_trip() {
        for kind in [HogKind::Cpu, HogKind::Memory, HogKind::Bursty] {
            let s = spec(kind);
            let args = s.args(42);
            assert_eq!(args[0], SUBCOMMAND);
            assert_eq!(HogSpec::parse(&args[1..]).unwrap(), (s, 42));
        }
    }

    #[test]
    fn bad_arguments_are_refused() {
        let bad: &[&[&str]] = &[
            &[],
            &["fan"],
            &["cpu"],
            &["cpu", "--parent=x"],
            &["cpu", "--parent=1", "--cpu=-1"],
            &["cpu", "--parent=1", "--burst=3,1"],
            &["cpu", "--parent=1", "--burst=0,1"],
            &["cpu", "--parent=1", "--mib=0"],
            &["cpu", "--parent=1", "--colour=red"],
            &["cpu", "parent=1"],
        ];
        for args in bad {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            assert!(HogSpec::parse(&args).is_err(), "{args:?}");
        }
    }

    #[test]
    fn periods_stay_in_range_and_repeat_with_the_seed() {
        let s = spec(HogKind::Bursty);
        let draw = |seed| {
            let mut rng = fastrand::Rng::with_seed(seed);
            (0..200).map(|_| period(&mut rng, &s)).collect::<Vec<_>>()
        };
        let a = draw(7);
        assert_eq!(a, draw(7));
        assert_ne!(a, draw(8));
        assert!(a.iter().all(|p| (0.5..=2.0).contains(&p.as_secs_f64())));
    }

    #[test]
    fn streaming_touches_every_word() {
        let mut buffer = vec![1u64; 1000];
        stream(&mut buffer);
        assert!(buffer.iter().all(|w| *w == 4));
    }

    fn alive(pid: u32) -> bool {
        // Signal 0 only checks that the process exists; a reaped child
        // does not.
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), None).is_ok()
    }

    fn shell(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    /// The lifecycle with a stand-in process: started, alive while owned,
    /// ended and reaped by its id when dropped.
    #[test]
    fn a_hog_is_ended_when_dropped() {
        let hog = Hog::spawn(shell("echo ready; exec sleep 30"), HogKind::Cpu).unwrap();
        let pid = hog.id();
        assert!(alive(pid));
        hog.stop().unwrap();
        assert!(!alive(pid));
    }

    #[test]
    fn a_hog_that_does_not_start_is_ended() {
        let started = Instant::now();
        let e = Hog::spawn(shell("echo not-ready; exec sleep 30"), HogKind::Memory).unwrap_err();
        assert!(
            e.to_string().contains("memory hog") && e.to_string().contains("did not start"),
            "{e}"
        );
        let pid: u32 = e
            .to_string()
            .split("process ")
            .nth(1)
            .and_then(|t| t.split(')').next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(!alive(pid));
        assert!(started.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn a_hog_that_ended_early_is_an_error() {
        let hog = Hog::spawn(shell("echo ready"), HogKind::Bursty).unwrap();
        // Until it is a zombie: exited, not yet reaped.
        let stat = format!("/proc/{}/stat", hog.id());
        let deadline = Instant::now() + Duration::from_secs(30);
        while !std::fs::read_to_string(&stat).is_ok_and(|s| s.contains(") Z ")) {
            assert!(Instant::now() < deadline, "the stand-in never exited");
            std::thread::sleep(Duration::from_millis(10));
        }
        let e = hog.stop().unwrap_err().to_string();
        assert!(e.contains("ended early"), "{e}");
    }
}

#[cfg(test)]
mod properties {
    use super::HogSpec;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn parsing_never_panics(args in proptest::collection::vec("(--?[a-z]{0,6}(=[^\u{0}]{0,8})?|[a-z]{0,6})", 0..6)) {
            let _ = HogSpec::parse(&args);
        }
    }
}
