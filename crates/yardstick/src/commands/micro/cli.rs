//! Micro mode's command line, defined once: every option's name, value,
//! help and what it sets in [`MicroOptions`]. The parser takes options by
//! it and `--help` is made from it (see [`crate::commands::flags`]).

use super::options::{MAX_BATCH, MicroOptions, PROBE_TIMEOUT, metric};
use crate::commands::common::{self, Common};
use crate::commands::flags::{self, Def, Entry, Options, Preset, Section, Set, Spec};
use crate::document::comparison::Method;
use crate::judge::{DEFAULT_MAX_MACHINE_SLOWDOWN, default_min_delta, default_threshold};

/// Kernel mode's `--min-delta` default, as the judge states it.
const KERNEL_MIN_DELTA: f64 = match default_min_delta(&Method::Absolute) {
    Some(ms) => ms,
    None => panic!("kernel mode judges absolute medians, which take a minimum delta"),
};

/// Micro mode's command line: what `cargo bench -- --help` and
/// `yardstick micro --help` print, and what the parser takes.
pub static SPEC: Spec<MicroOptions> = Spec {
    command: "micro",
    usage: "usage: cargo bench [--bench NAME] -- [OPTIONS] [FILTER...]
       yardstick micro [OPTIONS] [FILTER...]   (a binary that links probes)",
    about: "Measures the registered probes in rounds, each sample right after a
calibration loop, and judges the run against a baseline: by default, for
cargo bench, the committed baselines/<bench>/<class>.json of this machine
class, else the committed count baseline of this set-up
(baselines/<bench>/counts/, where valgrind is installed), else the last run
kept on this class (information only).",
    sections: &[
        Section {
            title: Some("Which probes"),
            entries: &[
                Entry::Positional(
                    "FILTER...",
                    "probes (and process probes) whose name contains a FILTER",
                ),
                Entry::Own(Def {
                    long: "exact",
                    short: None,
                    value: None,
                    help: "a FILTER must equal the name",
                    set: Set::Switch(|o| o.exact = true),
                }),
                Entry::Own(Def {
                    long: "skip",
                    short: None,
                    value: Some("FILTER"),
                    help: "leave out probes whose name contains FILTER (repeatable; with --exact, equals it)",
                    set: Set::Text(|o, v, _| {
                        o.skip.push(v.to_string());
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "probe",
                    short: None,
                    value: Some("NAME"),
                    help: "only this probe, or every variant of this group (repeatable; an unknown name is an error)",
                    set: Set::Text(|o, v, _| {
                        o.probes.push(v.to_string());
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "list",
                    short: None,
                    value: None,
                    help: "list the probes (process probes too) and exit",
                    set: Set::Switch(|o| o.list = true),
                }),
                Entry::Own(Def {
                    long: "suite",
                    short: None,
                    value: Some("NAME"),
                    help: "the probes of this suite (default: the bench's, as its \
                           yardstick::main! names it, else micro); kernel runs in kernel mode",
                    set: Set::Text(|o, v, _| {
                        o.suite = v.to_string();
                        Ok(())
                    }),
                }),
            ],
        },
        Section {
            title: Some("How to measure"),
            entries: &[
                Entry::Own(Def {
                    long: "repeat",
                    short: None,
                    value: Some("N"),
                    help: "measured rounds",
                    set: Set::Number(MicroOptions::REPEAT, |o, n, _| o.repeat = n as _),
                }),
                Entry::Own(Def {
                    long: "warmup",
                    short: None,
                    value: Some("N"),
                    help: "unmeasured rounds first",
                    set: Set::Number(MicroOptions::WARMUP, |o, n, _| o.warmup = n as _),
                }),
                Entry::Own(Def {
                    long: "min-batch",
                    short: None,
                    value: Some("K"),
                    help: "iterations per sample (default: the fewest that last about 1 ms, \
                           5 when counted; 1 to 1000000000)",
                    set: Set::Text(|o, v, option| {
                        o.min_batch = Some(flags::bounded(v, option, 1, MAX_BATCH)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "probe-timeout",
                    short: None,
                    value: Some("SECONDS"),
                    help: "stop the run (exit 2) when one probe takes longer; a process \
                           probe's child is killed and the probe fails",
                    set: Set::Seconds(PROBE_TIMEOUT, |o, d| o.probe_timeout = d),
                }),
                Entry::Own(Def {
                    long: "boot-repeat",
                    short: None,
                    value: Some("N"),
                    help: "children started per process probe",
                    set: Set::Number(MicroOptions::BOOT_REPEAT, |o, n, _| o.boot_repeat = n as _),
                }),
                Entry::Own(Def {
                    long: "metric",
                    short: None,
                    value: Some("METRIC"),
                    help: "time, instructions or estimated-cycles (default time; the counts \
                           run under valgrind's callgrind)",
                    set: Set::Text(|o, v, _| {
                        o.metric = Some(metric(v)?);
                        Ok(())
                    }),
                }),
                Entry::Own(Def {
                    long: "no-calibration",
                    short: None,
                    value: None,
                    help: "no calibration loop (the run cannot be judged by normalised medians)",
                    set: Set::Switch(|o| o.calibrate = false),
                }),
            ],
        },
        Section {
            title: Some("How to judge"),
            entries: &[
                Entry::Shared(&common::BASELINE),
                Entry::Shared(&common::NO_BASELINE),
                Entry::Own(Def {
                    long: "count-check",
                    short: None,
                    value: None,
                    help: "count, and judge by the committed count baseline of this set-up \
                           (baselines/<bench>/counts/); a count that moved past the threshold \
                           either way fails (refresh the file); none matching: a note, exit 0",
                    set: Set::Switch(|o| o.count_check = true),
                }),
                Entry::Stating(
                    &common::THRESHOLD,
                    "how much slower regresses",
                    &[
                        Preset::always(default_threshold(&Method::Normalized)),
                        Preset::when("counts", default_threshold(&Method::EstimatedCycles)),
                        Preset::when("kernel mode", default_threshold(&Method::Absolute)),
                    ],
                ),
                Entry::Stating(
                    &common::MIN_DELTA,
                    "kernel mode: a slowdown must also add MS milliseconds to the median",
                    &[Preset::always(KERNEL_MIN_DELTA)],
                ),
                Entry::Stating(
                    &common::MAX_MACHINE_SLOWDOWN,
                    common::MAX_MACHINE_SLOWDOWN.help,
                    &[Preset::always(DEFAULT_MAX_MACHINE_SLOWDOWN)],
                ),
                Entry::Own(Def {
                    long: "no-confirm",
                    short: None,
                    value: None,
                    help: "do not measure flagged probes again before the verdict",
                    set: Set::Switch(|o| o.confirm = false),
                }),
                Entry::Own(Def {
                    long: "explain",
                    short: None,
                    value: None,
                    help: "cargo bench, timed: count the probes that regressed under valgrind and \
                           judge them by the committed count baseline of this set-up, naming \
                           the functions that moved, or saying that the counts did not",
                    set: Set::Switch(|o| o.explain = true),
                }),
                Entry::Shared(&common::CROSS_MACHINE),
                Entry::Shared(&common::CROSS_TOOL),
                Entry::Shared(&common::ALL_CHECKS),
            ],
        },
        Section {
            title: Some("Output"),
            entries: &[
                Entry::SharedGroup(common::OUTPUT),
                Entry::Shared(&common::SAVE),
                Entry::Shared(&common::SAVE_BASELINE),
                Entry::Shared(&common::EXPORT_MARKDOWN),
                Entry::Shared(&common::RECORD),
                Entry::Shared(&common::HISTORY),
                Entry::Shared(&common::HTML),
            ],
        },
        // Plumbing and cargo's flags: taken, named in the notes.
        Section {
            title: None,
            entries: &[
                Entry::Own(Def {
                    long: "worker",
                    short: None,
                    value: None,
                    help: "",
                    set: Set::Switch(|o| o.worker = true),
                }),
                // Routed before any option is parsed (a process probe's
                // child does nothing else); here so that the table is the
                // whole command line.
                Entry::Own(Def {
                    long: "process-child",
                    short: None,
                    value: Some("NAME"),
                    help: "",
                    set: Set::Text(|_, _, _| Ok(())),
                }),
                Entry::Own(Def::ignored("bench")),
                Entry::Own(Def::ignored("nocapture")),
                Entry::Own(Def::ignored("show-output")),
            ],
        },
    ],
    notes: "Internal: --worker serves samples to compare-builds on stdin and stdout;
--process-child=NAME runs one process probe's child.
cargo's --bench, --nocapture and --show-output are accepted and ignored.
Environment: YARDSTICK_INJECT=NAME:PCT makes probes slower (for evaluating
a check); YARDSTICK_HOME moves the kept runs (default target/yardstick).
",
    exit: common::EXIT_CODES,
    refuses: &[],
};

impl Options for MicroOptions {
    fn common(&mut self) -> Option<&mut Common> {
        Some(&mut self.common)
    }
}
