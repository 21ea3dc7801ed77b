//! The parts of a maximal run: every field of every type set, written as
//! whole struct literals, so that a field added to a type does not compile
//! here until it is given a value, and the value it is given is written
//! (the guard in `mod.rs` refuses this file's code any empty value).

use crate::check::{Basis, Threshold};
use crate::comparison::{
    CalibrationRatio, Check, Comparison, EnvironmentDifference, Figure, Judged, MachineMismatch,
    Method, PairedRound, Reason, ToolMismatch, Verdict,
};
use crate::environment::{Cpu, Environment};
use crate::explanation::Explanation;
use crate::failures::Failures;
use crate::figures::Figures;
use crate::functions::{Attribution, Call, Function, Functions, Moved, Unkept};
use crate::histogram::{Bucket, Histogram};
use crate::import::Imported;
use crate::matrix::{Cell, Line, Matrix};
use crate::outcome::RunOutcome;
use crate::platform::Platform;
use crate::ranking::{Entry, Group, Member, Outcome, Ranking, Standing};
use crate::row::{Counted, Memory, Page};
use crate::run::{CalibrationSummary, FORMAT, Metric, Mode, Row, RowKind, Run, ServerPair, TOOL};
use crate::settings::{
    CountSettings, HttpSettings, MicroSettings, PagesFromSite, PairedSettings, SamplingSettings,
    Settings,
};
use crate::thresholds::Thresholds;
use serde_json::Value;
use std::collections::BTreeMap;
use yardstick_probe::Role;
use yardstick_stats::Summary;
use yardstick_stats::bootstrap::Interval;

/// A run of `mode` and `metric` with every field set, `rows` and
/// `comparison` given.
pub(super) fn run(
    (mode, metric): (Mode, Metric),
    settings: Settings,
    rows: Vec<Row>,
    comparison: Comparison,
) -> Run {
    Run {
        tool: TOOL.to_string(),
        format: FORMAT,
        mode,
        started: "2026-01-02T03:04:05Z".to_string(),
        machine: "bench-host".to_string(),
        settings,
        environment: environment(),
        warnings: vec!["a warning that qualifies every figure".to_string()],
        rows,
        calibration: Some(calibration()),
        explanation: Some(Explanation::Counts {
            comparison: Box::new(super::maximal::comparison(
                Method::EstimatedCycles,
                Judged::No,
                vec![check(
                    "fine_sum",
                    Figure::EstimatedCycles,
                    Verdict::Regressed,
                )],
            )),
        }),
        comparison: Some(comparison),
        server_pairs: Some(vec![pair()]),
        metric,
        ranking: Some(ranking()),
        matrix: Some(matrix()),
        thresholds: Some(Thresholds {
            runs: 41,
            probes: [("fine_sum".to_string(), 9.1)].into_iter().collect(),
        }),
        outcome: Some(RunOutcome {
            exit_code: 1,
            broken: true,
            lines: vec![
                "FAIL: probe fine_sum failed its check".to_string(),
                "FAIL: slower than the baseline".to_string(),
            ],
        }),
    }
}

/// A matrix with every field set, every cell a failed one with its
/// figures (the schema takes each field apart from the others).
fn matrix() -> Matrix {
    let cell = Cell {
        median: Some(0.5),
        multiplier: Some(Interval {
            low: 1.01,
            estimate: 1.04,
            high: 1.07,
        }),
        sets: 10,
        failed: Some("result differs from base".to_string()),
    };
    Matrix {
        metric: Metric::Time,
        base: "base".to_string(),
        configurations: vec!["base".to_string(), "a".to_string()],
        lines: vec![Line {
            probe: "fine_sum".to_string(),
            cells: vec![cell.clone(), cell.clone()],
        }],
        geomean: vec![cell.clone(), cell],
        margin: Some(0.02),
    }
}

/// A ranking with every field set: one group won, one tied.
fn ranking() -> Ranking {
    let interval = Interval {
        low: 0.9,
        estimate: 1.0,
        high: 1.1,
    };
    let entry = |variant: &str, role, failed: &str| Entry {
        variant: variant.to_string(),
        key: format!("load_{variant}"),
        role,
        median: Some(interval),
        ratio: Some(interval),
        memory: Some(memory()),
        failed: Some(failed.to_string()),
    };
    let group = |name: &str, outcome| Group {
        name: name.to_string(),
        reference: "ours".to_string(),
        variants: vec![
            entry("ours", Role::Reference, "its probe failed"),
            entry("theirs", Role::Contender, "result differs from ours"),
            entry("scan", Role::Floor, "its check failed"),
        ],
        outcome,
    };
    Ranking {
        groups: vec![
            group("load", Outcome::Winner("ours".to_string())),
            group(
                "save",
                Outcome::Tie(vec!["ours".to_string(), "theirs".to_string()]),
            ),
            group("none", Outcome::Unranked),
        ],
        standings: vec![Standing {
            variant: "ours".to_string(),
            groups: 3,
            wins: 1,
            ties: 1,
            failed: 0,
            geomean_ratio: Some(1.0),
        }],
        margin: Some(0.02),
    }
}

fn memory() -> Memory {
    Memory {
        allocs: 2,
        reallocs: 1,
        bytes: 64,
        peak: 48,
    }
}

fn environment() -> Environment {
    Environment {
        date: "2026-01-02T03:04:05Z".to_string(),
        rustc: "rustc 1.95.0 (59807616e 2026-04-14)".to_string(),
        profile: "bench".to_string(),
        opt_level: "3".to_string(),
        debug_assertions: true,
        target: "x86_64-unknown-linux-gnu".to_string(),
        os: "linux".to_string(),
        arch: "x86_64".to_string(),
        machine: "bench-host".to_string(),
        cpus: 2,
        load: Some([0.5, 0.4, 0.3]),
        git_commit: "0123456789abcdef0123456789abcdef01234567".to_string(),
        ci: "github-actions".to_string(),
        cpu: Some(cpu()),
        machine_class: Some("amd-epyc-2cpu-e0a14fb6".to_string()),
        calibration_crates: Some([("regex".to_string(), "1.12.2".to_string())].into()),
        imported: Some(Imported {
            tool: "exp:benchmark".to_string(),
            format: 1,
            started: "2026-10-05T19:33:47-07:00".to_string(),
            setup: [("php".to_string(), Value::from("8.5.11"))].into(),
            settings: [("repeat".to_string(), Value::from(30))]
                .into_iter()
                .collect(),
        }),
    }
}

fn cpu() -> Cpu {
    Cpu {
        vendor: "AuthenticAMD".to_string(),
        model_name: "AMD EPYC 7B13".to_string(),
        id: "25/1/0".to_string(),
        l1d: Some(32 * 1024),
        l2: Some(512 * 1024),
        l3: Some(32 * 1024 * 1024),
        online: Some(2),
        smt: Some(true),
        hypervisor: Some("KVM".to_string()),
        kernel: "6.1.0-18-cloud-amd64".to_string(),
        governor: Some("performance".to_string()),
    }
}

/// A row of `kind` keyed `key`, with every field of every kind set.
pub(super) fn row(key: &str, kind: RowKind) -> Row {
    Row {
        key: key.to_string(),
        kind,
        name: key.to_string(),
        figures: Figures {
            n: 3,
            min: Some(1.0),
            mean: Some(1.5),
            median: Some(1.5),
            p90: Some(1.9),
            p95: Some(1.95),
            p99: Some(1.99),
            max: Some(2.0),
            stddev: Some(0.5),
        },
        samples: vec![1.0, 1.5, 2.0],
        histogram: Some(Histogram {
            digits: 3,
            buckets: vec![Bucket { ms: 1.0, count: 2 }, Bucket { ms: 2.0, count: 1 }],
        }),
        batch: Some(4),
        requests: 4,
        errors: 1,
        error_messages: counts("timed out"),
        ops: Some(10),
        rps: Some(6666.0),
        normalized: Some(0.15),
        calibration_samples: vec![10.0, 10.0, 10.0],
        note: "what the row stands for".to_string(),
        checksum: Some(0x00ab_cdef_0123_4567),
        memory: Some(memory()),
        variant: Some(Member {
            group: "load".to_string(),
            variant: "ours".to_string(),
            role: Role::Reference,
        }),
        peak_rss: Some(8 * 1024 * 1024),
        counted: Counted {
            instructions: Some(1200.0),
            l1_misses: Some(3.0),
            ll_misses: Some(1.0),
            estimated_cycles: Some(1250.0),
        },
        functions: Some(functions()),
        page: Page {
            target: Some("http://127.0.0.1:8080".to_string()),
            url: Some("http://127.0.0.1:8080/page".to_string()),
            ttfb_median: Some(1.2),
            status: counts("200"),
            bytes: Some(5120.0),
            cache: counts("HIT"),
            server: Some("demo-site".to_string()),
            tool: Some("builtin".to_string()),
            failures: Some(Failures {
                connect: 1,
                closed: 2,
                timeout: 3,
                http: 4,
                other: 5,
            }),
            overloaded: true,
        },
    }
}

/// Two functions, one calling the other, and the rest.
fn functions() -> Functions {
    let cost = |instructions: f64| Counted {
        instructions: Some(instructions),
        l1_misses: Some(1.0),
        ll_misses: Some(0.5),
        estimated_cycles: Some(instructions + 20.0),
    };
    Functions {
        top: vec![
            Function {
                name: "probes::template::compile".to_string(),
                own: cost(600.0),
                inclusive: cost(1100.0),
            },
            Function {
                name: "0x000000000012abcd".to_string(),
                own: cost(500.0),
                inclusive: cost(500.0),
            },
        ],
        other: cost(100.0),
        calls: vec![Call {
            caller: 0,
            callee: 1,
            inclusive: cost(500.0),
        }],
    }
}

fn counts(what: &str) -> BTreeMap<String, u64> {
    BTreeMap::from([(what.to_string(), 1)])
}

fn calibration() -> CalibrationSummary {
    CalibrationSummary {
        loops: Summary::of(&[9.0, 10.0, 11.0]).expect("three samples summarise"),
        before_median: 9.5,
        after_median: 10.5,
        drift_pct: 10.5,
        checksum: 42,
    }
}

fn pair() -> ServerPair {
    ServerPair {
        name: "/page".to_string(),
        base: "http://127.0.0.1:8080".to_string(),
        other: "http://127.0.0.1:8081".to_string(),
        base_median: Some(1.5),
        other_median: Some(1.8),
        median_ratio: Some(1.2),
        base_rps: Some(600.0),
        other_rps: Some(500.0),
        rps_ratio: Some(0.83),
    }
}

/// A comparison by `method` with every field set, machines of other
/// classes `judged` so, and `checks`.
pub(super) fn comparison(method: Method, judged: Judged, checks: Vec<Check>) -> Comparison {
    Comparison {
        baseline: "baseline.json".to_string(),
        method,
        threshold: 30.0,
        min_delta: Some(0.5),
        checks,
        missing: vec!["gone".to_string()],
        new: vec!["added".to_string()],
        environment_differences: vec![difference("rustc")],
        calibration: Some(CalibrationRatio {
            baseline: 10.0,
            current: 11.0,
            speed: 0.91,
            max_slowdown: Some(100.0),
        }),
        machines: Some(MachineMismatch {
            baseline_class: "intel-xeon-2cpu-0badc0de".to_string(),
            current_class: "amd-epyc-2cpu-e0a14fb6".to_string(),
            baseline_cpu: "Intel Xeon".to_string(),
            current_cpu: "AMD EPYC 7B13".to_string(),
            judged,
        }),
        tools: Some(ToolMismatch {
            baseline_tool: "exp:benchmark".to_string(),
            current_tool: "yardstick".to_string(),
            judged: true,
        }),
        basis: Some("the committed baseline of this machine class".to_string()),
        setup_differences: vec![difference("valgrind")],
        param_differences: vec![difference("node")],
        informational: true,
    }
}

fn difference(field: &str) -> EnvironmentDifference {
    EnvironmentDifference {
        field: field.to_string(),
        baseline: "before".to_string(),
        current: "after".to_string(),
    }
}

/// A check of `metric` with `verdict`, with the figures a saved check of
/// that verdict can carry: a check inconclusive for the machine carries
/// neither a p-value nor a confirmation (they would name another reason),
/// one whose pairs disagree no confirmation; the others both.
pub(super) fn check(key: &str, metric: Figure, verdict: Verdict) -> Check {
    let machine = verdict == Verdict::Inconclusive(Reason::Machine);
    let pairs = verdict == Verdict::Inconclusive(Reason::PairsDisagree);
    Check {
        key: key.to_string(),
        metric,
        baseline: 1.0,
        current: 1.5,
        change_pct: 50.0,
        verdict,
        p_value: (!machine).then_some(0.2),
        confirmation_pct: (!machine && !pairs).then_some(2.0),
        rounds: vec![PairedRound {
            pair: 1,
            round: 4,
            baseline: 1.0,
            current: 1.5,
        }],
        threshold: Some(Threshold {
            percent: 9.1,
            basis: Basis::Learned { runs: 41 },
        }),
        // Both shapes, one on the checks that passed, one on the others.
        attribution: Some(match verdict {
            Verdict::Ok => Attribution::Unkept {
                side: Unkept::Baseline,
            },
            _ => Attribution::Functions {
                moved: vec![Moved {
                    name: "probes::template::compile".to_string(),
                    baseline: 600.0,
                    current: 900.0,
                    share_pct: 96.0,
                    instructions_change: Some(1.0),
                    via: Some("probes::template::parse".to_string()),
                }],
                within: Some(Moved {
                    name: "probes::template::compile::Compiler::emit_text".to_string(),
                    baseline: 900.0,
                    current: 1_200.0,
                    share_pct: 97.0,
                    instructions_change: Some(280.0),
                    via: Some("probes::template::compile::Compiler::node".to_string()),
                }),
                instructions_pct: Some(0.1),
            },
        }),
    }
}

/// The settings of a micro or kernel run, counted ones' included.
pub(super) fn micro_settings() -> Settings {
    Settings::Micro(MicroSettings {
        inject: Some("fine_sum:15".to_string()),
        fake_clock: Some("fine_sum=1".to_string()),
        repeat: 30,
        warmup: 3,
        min_batch: Some(5),
        probe_timeout: 60.0,
        probes: vec!["fine_sum".to_string()],
        filters: vec!["fine".to_string()],
        exact: true,
        threshold: Some(10.0),
        boot_repeat: Some(5),
        params: [("node".to_string(), "57".to_string())].into(),
        confirm: true,
        pooled_runs: Some(5),
        counting: CountSettings {
            metric: Some(Metric::EstimatedCycles),
            valgrind: Some("valgrind-3.19.0".to_string()),
            cache_sim: Some("I1=32768,8,64 D1=32768,8,64 LL=8388608,16,64".to_string()),
            count_platform: Some(Platform {
                tunables: "glibc.cpu.x86_rep_movsb_threshold=4096".to_string(),
                pin: "held".to_string(),
                cpu: "kind 0x1 family 0x19 model 0x1 stepping 0x1: sse2 avx2".to_string(),
                libc: "glibc 2.36, build-id 0123".to_string(),
            }),
        },
        other: super::no_unknown_keys(),
    })
}

/// The settings of a comparison of two builds.
pub(super) fn paired_settings() -> Settings {
    Settings::Paired(PairedSettings {
        old: "target/old/micro".to_string(),
        new: "target/release/deps/micro".to_string(),
        rounds: 30,
        pairs: 8,
        sampling: SamplingSettings {
            repeat: 5,
            round_ms: 20,
            fake_clock: Some("fine_sum=1".to_string()),
            samples_per_round: [("fine_sum".to_string(), 25)].into(),
            warmup: 3,
            min_batch: Some(5),
            probes: vec!["fine_sum".to_string()],
            seed: 1,
            cpu: Some(1),
        },
        threshold: 5.0,
        env_old: vec!["A=1".to_string()],
        env_new: vec!["A=2".to_string()],
        other: super::no_unknown_keys(),
    })
}

/// The settings of an HTTP run.
pub(super) fn http_settings() -> Settings {
    Settings::Http(HttpSettings {
        servers: vec!["http://127.0.0.1:8080".to_string()],
        pages: vec!["/page".to_string()],
        pages_from_site: Some(PagesFromSite {
            sitemap: "http://127.0.0.1:8080/sitemap.xml".to_string(),
            menu_pages: 3,
            search: Some("news".to_string()),
            login: true,
            other: super::no_unknown_keys(),
        }),
        compare: Some(vec!["http://127.0.0.1:8080".to_string()]),
        requests: 100,
        warmup: 5,
        warmup_effective: 8,
        concurrency: 4,
        threads: Some(1),
        rounds: 2,
        cold: true,
        cold_clear: true,
        cache_header: "x-cache".to_string(),
        keepalive: true,
        http: "negotiated".to_string(),
        encoding: "gzip".to_string(),
        timeout: 30.0,
        headers: vec!["X-Trace: 1".to_string()],
        cookie: Some("(hidden)".to_string()),
        auth: Some("(hidden)".to_string()),
        resolve: vec!["h:80:127.0.0.1".to_string()],
        insecure: true,
        tool: "wrk".to_string(),
        duration: Some(10),
        rate: Some(50.0),
        segments: Some(3),
        force: true,
        threshold: Some(20.0),
        min_delta: Some(3.0),
        max_failures: Some(1.5),
        tools_found: vec!["ab".to_string()],
        other: super::no_unknown_keys(),
    })
}
