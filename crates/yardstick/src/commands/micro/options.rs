//! Micro mode's options: libtest-style, so `cargo bench -- FILTER` and the
//! flags cargo passes work as a Rust developer expects.

use crate::commands::common::Common;
use crate::commands::flags::{self, Flag, Number, Seconds};
use crate::document::run::{Metric, Mode};
use crate::error::Error;
use crate::probe::{DEFAULT_SUITE, KERNEL_SUITE, Param, Probe, ProcessProbe};
use lexopt::Parser;
use std::time::Duration;

/// Everything `cargo bench` / `yardstick micro` accepts.
#[derive(Debug, Clone, PartialEq)]
pub struct MicroOptions {
    pub(crate) common: Common,
    pub(crate) repeat: usize,
    pub(crate) warmup: usize,
    /// `--probe=NAME`, repeatable: exactly these probes, or a group's
    /// variants (an unknown name is a usage error).
    pub(crate) probes: Vec<String>,
    /// Positional filters: probes whose name contains one (or equals one with
    /// `--exact`).
    pub(crate) filters: Vec<String>,
    /// `--skip`: probes whose name contains one (or equals one with
    /// `--exact`) are left out, as libtest leaves out tests.
    pub(crate) skip: Vec<String>,
    pub(crate) exact: bool,
    pub(crate) list: bool,
    pub(crate) min_batch: Option<u64>,
    pub(crate) probe_timeout: Duration,
    /// What to measure (`--metric`): wall time, instructions or estimated
    /// cycles. Unset, a run is timed, except that `cargo bench` may count
    /// when only a count baseline can judge (see `baseline::counts::usable`).
    pub(crate) metric: Option<Metric>,
    /// Time the calibration loop (off with `--no-calibration`, for runs that
    /// are never compared by normalised medians, such as the child copies
    /// that count instructions).
    pub(crate) calibrate: bool,
    /// Re-measure flagged probes interleaved with the calibration loop
    /// before the verdict (off with `--no-confirm`).
    pub(crate) confirm: bool,
    /// Serve single samples to `compare-builds` over stdin and stdout
    /// (`--worker`; see `worker`).
    pub(crate) worker: bool,
    /// Children started per process probe (`--boot-repeat`).
    pub(crate) boot_repeat: usize,
    /// The suite whose probes run: the bench's (see `yardstick::main!`),
    /// or `--suite`. The `kernel` suite runs in kernel mode.
    pub(crate) suite: String,
    /// The bench's own parameters given (`--node=57`), by declared name
    /// (`node`), in the order given; see [`crate::probe::param`].
    pub(crate) params: Vec<(String, String)>,
    /// `--count-check`: judge by the committed count baseline of this
    /// set-up, a count that moved either way failing (see `stale`).
    pub(crate) count_check: bool,
    /// `--explain`: count a timed run's regressed probes and say where
    /// the counts moved (see `explain`).
    pub(crate) explain: bool,
}

impl Default for MicroOptions {
    fn default() -> Self {
        MicroOptions {
            common: Common::default(),
            repeat: MicroOptions::REPEAT.default_usize(),
            warmup: MicroOptions::WARMUP.default_usize(),
            probes: Vec::new(),
            filters: Vec::new(),
            skip: Vec::new(),
            exact: false,
            list: false,
            min_batch: None,
            probe_timeout: PROBE_TIMEOUT.default_duration(),
            metric: None,
            calibrate: true,
            confirm: true,
            explain: false,
            worker: false,
            boot_repeat: MicroOptions::BOOT_REPEAT.default_usize(),
            suite: DEFAULT_SUITE.to_string(),
            params: Vec::new(),
            count_check: false,
        }
    }
}

/// The most samples `--repeat` or `--warmup` asks for: far beyond any useful
/// run, well below what would exhaust memory.
pub const MAX_SAMPLES: u64 = 1_000_000;

/// `--probe-timeout`: how long one probe may take, its set-up or one
/// sample, in a bench and in the worker that `compare-builds` and
/// `matrix` wait on.
pub const PROBE_TIMEOUT: Seconds = Seconds {
    default: 120,
    max: Seconds::DAY,
};

/// The largest batch `--min-batch` asks for: a billion iterations of the
/// shortest probe already take seconds a sample; past it, a typo would
/// stall the run until the probe timeout, which names no option.
pub const MAX_BATCH: u64 = 1_000_000_000;

impl MicroOptions {
    /// `--repeat`: measured rounds, each a sample of every probe.
    pub(crate) const REPEAT: Number = Number {
        default: 30,
        min: 1,
        max: MAX_SAMPLES,
    };
    /// `--boot-repeat`: children started per process probe. Each is a whole
    /// process, and a thousand already make a figure far steadier than the
    /// machine.
    pub(crate) const BOOT_REPEAT: Number = Number {
        default: 5,
        min: 1,
        max: 1000,
    };
    /// `--warmup`: unmeasured rounds first.
    pub(crate) const WARMUP: Number = Number {
        default: 3,
        min: 0,
        max: MAX_SAMPLES,
    };

    /// The probes and process probes to run: `--probe` names (each must
    /// name one or the other), then the filters; at least one of either.
    pub(crate) fn select_all(
        &self,
        registered: &[&'static Probe],
        process: &[&'static ProcessProbe],
    ) -> Result<(Vec<&'static Probe>, Vec<&'static ProcessProbe>), Error> {
        let registered: Vec<&'static Probe> = registered
            .iter()
            .copied()
            .filter(|p| p.suite == self.suite)
            .collect();
        let process: Vec<&'static ProcessProbe> = process
            .iter()
            .copied()
            .filter(|p| p.suite == self.suite)
            .collect();
        // A group's name stands for all its variants.
        let group = |p: &Probe| p.variant.map(|v| v.group);
        for name in &self.probes {
            let known = registered
                .iter()
                .any(|p| p.name == name || group(p) == Some(name))
                || process.iter().any(|p| p.name == name);
            if !known {
                return Err(Error::usage(format!(
                    "--probe: unknown probe or group `{name}` (see --list)"
                )));
            }
        }
        let chosen = |name: &str, group: Option<&str>| {
            self.probes.is_empty()
                || self
                    .probes
                    .iter()
                    .any(|n| n == name || Some(n.as_str()) == group)
        };
        let selected: Vec<_> = registered
            .iter()
            .copied()
            .filter(|p| chosen(p.name, group(p)) && self.matches(p.name))
            .collect();
        let processes: Vec<_> = process
            .iter()
            .copied()
            .filter(|p| chosen(p.name, None) && self.matches(p.name))
            .collect();
        if selected.is_empty() && processes.is_empty() {
            return Err(Error::usage(
                if registered.is_empty() && process.is_empty() {
                    "no probe is registered in this binary: probes are measured by the bench \
                     binary that links them (`cargo bench`), or two such binaries by `yardstick \
                     compare-builds OLD NEW`"
                        .to_string()
                } else {
                    format!(
                        "no probe matches the filter `{}`{}",
                        self.filters.join(" "),
                        if self.skip.is_empty() {
                            String::new()
                        } else {
                            format!(" without --skip={}", self.skip.join(","))
                        }
                    )
                },
            ));
        }
        Ok((selected, processes))
    }

    /// Parses the arguments of a bench whose probes are those of `suite`,
    /// which declares `params` of its own.
    pub(crate) fn parse_for<I>(
        args: I,
        suite: &str,
        params: &[Param],
    ) -> Result<MicroOptions, Error>
    where
        I: IntoIterator,
        I::Item: Into<std::ffi::OsString>,
    {
        let mut o = MicroOptions {
            suite: suite.to_string(),
            ..MicroOptions::default()
        };
        let mut parser = Parser::from_args(args);
        loop {
            let flag = match super::cli::SPEC.next(&mut parser, &mut o) {
                Ok(Some(flag)) => flag,
                Ok(None) => break,
                Err(Error::Help(text)) => return Err(Error::Help(with_params(text, params))),
                Err(e) => return Err(e),
            };
            match &flag {
                Flag::Long(name) if o.accept_param(name, params, &mut parser)? => {}
                Flag::Value(v) => o.filters.push(v.to_string_lossy().into_owned()),
                _ => return Err(super::cli::SPEC.unexpected(&flag)),
            }
        }
        o.params_from_environment(params)?;
        o.check_mode()?;
        if o.common.max_machine_slowdown.is_some() && (o.metric().is_count() || !o.calibrate) {
            return Err(Error::usage(
                "--max-machine-slowdown needs the calibration loop of a timed run \
                 (not a counted --metric, nor --no-calibration)",
            ));
        }
        Ok(o)
    }

    /// The mode the suite runs in: `kernel` judges absolute times.
    pub(crate) fn mode(&self) -> Mode {
        if self.suite == KERNEL_SUITE {
            Mode::Kernel
        } else {
            Mode::Micro
        }
    }

    /// What one mode takes and the other does not.
    fn check_mode(&self) -> Result<(), Error> {
        match self.mode() {
            Mode::Kernel if self.metric().is_count() => Err(Error::usage(
                "--metric: kernel mode is timed (its probes hold state and whole processes); \
                 counts are micro mode's",
            )),
            Mode::Micro if self.common.min_delta.is_some() => Err(Error::usage(
                "micro mode does not take --min-delta: it applies to kernel and HTTP runs",
            )),
            _ if self.count_check
                && (self.metric.is_some()
                    || self.common.asked()? != crate::baseline::Asked::Default) =>
            {
                Err(Error::usage(
                    "--count-check counts with the metric of the committed count baseline it \
                     chooses: leave out --metric, --baseline and --no-baseline",
                ))
            }
            _ => Ok(()),
        }
    }

    /// Takes `--name` if the bench declares it as a parameter, checking its
    /// value against the parameter's type; false for anything else.
    fn accept_param(
        &mut self,
        name: &str,
        params: &[Param],
        parser: &mut Parser,
    ) -> Result<bool, Error> {
        let Some(param) = params.iter().find(|p| p.option() == format!("--{name}")) else {
            return Ok(false);
        };
        let option = param.option();
        let value = flags::string(parser, &option)?;
        (param.check)(&value).map_err(|why| Error::usage(format!("{option}={value}: {why}")))?;
        self.params.retain(|(n, _)| n != param.name);
        self.params.push((param.name.to_string(), value));
        Ok(true)
    }

    /// Takes each declared parameter the command line did not give from
    /// `YARDSTICK_PARAM_<NAME>`, checked alike, so that a value set by hand
    /// is recorded and compared as one given as an option (the probes read
    /// it either way).
    fn params_from_environment(&mut self, params: &[Param]) -> Result<(), Error> {
        for p in params {
            if self.params.iter().any(|(n, _)| n == p.name) {
                continue;
            }
            let variable = crate::probe::param::env_name(p.name);
            let Some(value) = std::env::var_os(&variable) else {
                continue;
            };
            let value = value
                .into_string()
                .map_err(|_| Error::usage(format!("{variable}: not valid UTF-8")))?;
            (p.check)(&value).map_err(|why| Error::usage(format!("{variable}={value}: {why}")))?;
            self.params.push((p.name.to_string(), value));
        }
        Ok(())
    }

    /// The metric asked for, time when none was.
    pub(crate) fn metric(&self) -> Metric {
        self.metric.unwrap_or_default()
    }

    /// True when `name` passes the positional filters.
    pub(crate) fn matches(&self, name: &str) -> bool {
        let hit = |f: &String| {
            if self.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(hit)) && !self.skip.iter().any(hit)
    }
}

/// `--help`'s text with the bench's own parameters after it.
fn with_params(help: &'static str, params: &[Param]) -> &'static str {
    if params.is_empty() {
        return help;
    }
    let mut text = help.trim_end().to_string();
    text.push_str("\n\nThis bench's own parameters (its probes read them; a run made with\nother values is compared as information, never judged):\n");
    for p in params {
        let option = format!("{}={}", p.option(), p.metavar());
        text.push_str(&crate::commands::flags::line(&option, p.help));
    }
    // Printed once, just before the process exits.
    Box::leak(text.into_boxed_str())
}

/// Reads `--metric`'s value.
pub fn metric(value: &str) -> Result<Metric, Error> {
    match value {
        "time" => Ok(Metric::Time),
        "instructions" => Ok(Metric::Instructions),
        "estimated-cycles" => Ok(Metric::EstimatedCycles),
        other => Err(Error::usage(format!(
            "--metric: unknown metric `{other}` (time, instructions or estimated-cycles)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl MicroOptions {
        /// Parses the arguments for the default suite.
        pub(crate) fn parse<I>(args: I) -> Result<MicroOptions, Error>
        where
            I: IntoIterator,
            I::Item: Into<std::ffi::OsString>,
        {
            MicroOptions::parse_for(args, DEFAULT_SUITE, &[])
        }
    }

    #[test]
    fn defaults_and_cargo_flags() {
        let o = MicroOptions::parse(["--bench"]).unwrap();
        assert_eq!((o.repeat, o.warmup), (30, 3));
        assert_eq!(o.probe_timeout, Duration::from_secs(120));
        assert!(o.matches("anything"));
    }

    #[test]
    fn options_and_filters() {
        let o = MicroOptions::parse([
            "--bench",
            "--repeat=5",
            "--warmup",
            "0",
            "--probe=a",
            "--probe",
            "b",
            "ini",
            "--exact",
            "--min-batch=20",
            "--csv",
        ])
        .unwrap();
        assert_eq!((o.repeat, o.warmup, o.min_batch), (5, 0, Some(20)));
        assert_eq!(o.probes, ["a", "b"]);
        assert!(o.exact && o.matches("ini") && !o.matches("ini_parse"));
        let loose = MicroOptions::parse(["ini"]).unwrap();
        assert!(loose.matches("ini_parse") && !loose.matches("uri_parse"));
        // --skip leaves out what it names, as libtest's does.
        let skipped = MicroOptions::parse(["--skip=parse", "--skip", "route"]).unwrap();
        assert!(!skipped.matches("ini_parse") && !skipped.matches("router"));
        assert!(skipped.matches("i18n_lookup"));
        let exact = MicroOptions::parse(["--exact", "--skip=ini"]).unwrap();
        assert!(exact.matches("ini_parse") && !exact.matches("ini"));
    }

    #[test]
    fn help_stops_the_parser_where_it_stands() {
        let help = Err(Error::Help(crate::commands::micro::cli::SPEC.help()));
        assert_eq!(MicroOptions::parse(["--help"]), help);
        let later = MicroOptions::parse(["--bench", "-h", "--frobnicate"]);
        assert_eq!(later, help);
        // An option before it is read first, and its error stands.
        let earlier = MicroOptions::parse(["--repeat=0", "-h"]);
        assert!(matches!(earlier, Err(Error::Usage(_))), "{earlier:?}");
        assert_eq!(Error::Help("").exit_code(), 0);
    }

    #[test]
    fn metrics_are_named_and_time_is_the_default() {
        let metric = |args: &[&str]| MicroOptions::parse(args).unwrap().metric;
        assert_eq!(metric(&[]), None);
        assert_eq!(MicroOptions::default().metric(), Metric::Time);
        assert_eq!(metric(&["--metric=time"]), Some(Metric::Time));
        assert_eq!(
            metric(&["--metric=instructions"]),
            Some(Metric::Instructions)
        );
        assert_eq!(
            metric(&["--metric=estimated-cycles"]),
            Some(Metric::EstimatedCycles)
        );
    }

    #[test]
    fn bad_options_are_named() {
        for (args, needle) in [
            (vec!["--repeat=0"], "--repeat"),
            (vec!["--repeat=x"], "--repeat"),
            (vec!["--frobnicate"], "--frobnicate"),
            (vec!["-z"], "-z"),
            (vec!["--probe-timeout=0"], "--probe-timeout"),
            (vec!["--probe-timeout=1e30"], "--probe-timeout"),
            (vec!["--probe-timeout=1e19"], "--probe-timeout"),
            (vec!["--repeat=99999999999999999"], "--repeat"),
            (vec!["--warmup=2000000"], "--warmup"),
            (vec!["--metric=cycles"], "--metric"),
            (
                vec!["--metric=instructions", "--max-machine-slowdown=50"],
                "--max-machine-slowdown",
            ),
            (
                vec!["--metric=estimated-cycles", "--max-machine-slowdown=50"],
                "--max-machine-slowdown",
            ),
            (
                vec!["--no-calibration", "--max-machine-slowdown=50"],
                "--max-machine-slowdown",
            ),
            (vec!["--min-delta=5"], "--min-delta"),
            (vec!["--boot-repeat=0"], "--boot-repeat"),
            (vec!["--boot-repeat=1001"], "--boot-repeat"),
            (vec!["--boot-repeat=x"], "--boot-repeat"),
            (
                vec!["--count-check", "--metric=instructions"],
                "--count-check",
            ),
            (vec!["--count-check", "--no-baseline"], "--count-check"),
            (vec!["--count-check", "--baseline=b.json"], "--count-check"),
        ] {
            let e = MicroOptions::parse(args).unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
    }
}

#[cfg(test)]
mod properties {
    use super::MicroOptions;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn parsing_never_panics(args in proptest::collection::vec("(--?[a-z-]{0,12}(=[^\u{0}]{0,8})?|[^\u{0}]{0,8})", 0..6)) {
            let _ = MicroOptions::parse(args);
        }
    }
}
