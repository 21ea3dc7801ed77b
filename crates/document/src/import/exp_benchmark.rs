//! Runs saved by exp:benchmark, the CMS's own benchmark command (format 1,
//! `"tool": "exp:benchmark"`): micro, kernel and HTTP runs. yardstick's
//! format 1 descends from it, so most fields map one to one; its set-up
//! and settings are kept in [`Imported`], and docs/cli.md ("Imported runs")
//! lists what has no counterpart. A stored comparison is not read:
//! yardstick compares again.

use super::Imported;
use crate::environment::Environment;
use crate::figures::Figures;
use crate::row::{Page, Row, RowKind};
use crate::run::{CalibrationSummary, FORMAT, Mode, Run, ServerPair, TOOL};
use crate::settings::{HttpSettings, MicroSettings, Settings};
use serde::Deserialize;
use serde::de::{self, Deserializer};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};

/// The `tool` of an exp:benchmark run.
pub const TOOL_NAME: &str = "exp:benchmark";

/// exp:benchmark's own HTTP client, as `tool` names it.
const CLIENT: &str = "curl";

/// The one format version read.
const FORMAT_READ: u64 = 1;

/// Reads an exp:benchmark run; the error names the field that is wrong.
pub fn read(bytes: &[u8]) -> Result<Run, String> {
    // The version first: a file of another format is named so, not by the
    // first field that format changed.
    #[derive(Deserialize)]
    struct Version {
        format: Option<Value>,
    }
    let version: Version =
        serde_json::from_slice(bytes).map_err(|e| format!("not a valid exp:benchmark run: {e}"))?;
    match version.format.as_ref().and_then(Value::as_u64) {
        Some(FORMAT_READ) => {}
        _ => {
            let written = version.format.map_or("none".to_string(), |f| f.to_string());
            return Err(format!(
                "format: {} is not {FORMAT_READ} (this yardstick reads exp:benchmark format \
                 {FORMAT_READ})",
                crate::text::cleaned(&written.chars().take(20).collect::<String>())
            ));
        }
    }
    let mut json = serde_json::Deserializer::from_slice(bytes);
    let document: Document = serde_path_to_error::deserialize(&mut json).map_err(|e| {
        let path = e.path().to_string();
        format!("not a valid exp:benchmark run: {path}: {}", e.inner())
    })?;
    document.into_run()
}

/// The document as exp:benchmark writes it; keys it does not name (`tools`,
/// `comparison`, later additions) are passed over.
#[derive(Deserialize)]
struct Document {
    format: u64,
    mode: String,
    started: String,
    machine: String,
    #[serde(default)]
    php: Option<String>,
    #[serde(default)]
    exponential: Option<String>,
    #[serde(default)]
    settings: Map<String, Value>,
    environment: ExpEnvironment,
    rows: Vec<ExpRow>,
    #[serde(default)]
    /// The same summary fields as yardstick's, and the same four more.
    calibration: Option<CalibrationSummary>,
    #[serde(default)]
    pairs: Option<Vec<ServerPair>>,
}

#[derive(Deserialize)]
struct ExpEnvironment {
    date: String,
    #[serde(default)]
    os: String,
    #[serde(default)]
    arch: String,
    #[serde(default)]
    machine: String,
    #[serde(default)]
    cpus: Option<usize>,
    #[serde(default)]
    git_commit: String,
    #[serde(default)]
    ci: String,
    /// The rest (`php`, `sapi`, `engine`, `opcache`, `jit`, `xdebug`,
    /// `load`, `exponential`): kept as written.
    #[serde(flatten)]
    rest: BTreeMap<String, Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum ExpKind {
    Micro,
    Kernel,
    Http,
}

#[derive(Deserialize)]
struct ExpRow {
    key: String,
    kind: ExpKind,
    #[serde(default)]
    target: String,
    name: String,
    #[serde(default)]
    tool: Option<String>,
    n: usize,
    min: Option<f64>,
    mean: Option<f64>,
    median: Option<f64>,
    p90: Option<f64>,
    p95: Option<f64>,
    p99: Option<f64>,
    max: Option<f64>,
    stddev: Option<f64>,
    requests: u64,
    errors: u64,
    #[serde(default, deserialize_with = "php_map")]
    error_messages: BTreeMap<String, u64>,
    #[serde(default)]
    ops: Option<u64>,
    #[serde(default)]
    rps: Option<f64>,
    #[serde(default)]
    normalized: Option<f64>,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    ttfb_median: Option<f64>,
    #[serde(default, deserialize_with = "php_map")]
    status: BTreeMap<String, u64>,
    #[serde(default)]
    bytes: Option<f64>,
    #[serde(default, deserialize_with = "php_map")]
    cache: BTreeMap<String, u64>,
    #[serde(default)]
    server: Option<String>,
}

/// A map of counts as PHP writes it: an object, or `[]` when empty (PHP
/// writes an empty array as a list).
fn php_map<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, u64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Map(BTreeMap<String, u64>),
        List(Vec<Value>),
    }
    match Written::deserialize(d)? {
        Written::Map(map) => Ok(map),
        Written::List(list) if list.is_empty() => Ok(BTreeMap::new()),
        Written::List(_) => Err(de::Error::custom(
            "a list where a map of counts (or `[]`) was expected",
        )),
    }
}

impl Document {
    fn into_run(self) -> Result<Run, String> {
        let mode = match self.mode.as_str() {
            "micro" => Mode::Micro,
            "kernel" => Mode::Kernel,
            "http" => Mode::Http,
            other => {
                return Err(format!("mode: `{other}` is not micro, kernel or http"));
            }
        };
        let rows = self
            .rows
            .into_iter()
            .enumerate()
            .map(|(i, row)| row.into_row(mode).map_err(|m| format!("rows[{i}]: {m}")))
            .collect::<Result<Vec<Row>, String>>()?;
        let settings = settings(mode, &self.settings, &rows);
        let mut setup = self.environment.rest.clone();
        for (name, value) in [("php", self.php), ("exponential", self.exponential)] {
            if let Some(v) = value {
                setup.entry(name.to_string()).or_insert(Value::String(v));
            }
        }
        let machine_class = class_of(&self.environment);
        let environment = Environment {
            machine_class,
            date: self.environment.date.clone(),
            os: self.environment.os,
            arch: self.environment.arch,
            machine: self.environment.machine,
            cpus: self.environment.cpus.unwrap_or(0),
            git_commit: self.environment.git_commit,
            ci: self.environment.ci,
            imported: Some(Imported {
                tool: TOOL_NAME.to_string(),
                format: self.format,
                started: self.started,
                setup,
                settings: self.settings,
            }),
            ..Environment::default()
        };
        Ok(Run {
            tool: TOOL.to_string(),
            format: FORMAT,
            mode,
            started: self.environment.date,
            machine: self.machine,
            settings,
            environment,
            warnings: Vec::new(),
            rows,
            calibration: self.calibration,
            comparison: None,
            server_pairs: self.pairs,
            metric: Default::default(),
            ranking: None,
            matrix: None,
            thresholds: None,
            outcome: None,
            explanation: None,
        })
    }
}

/// The machine class of a run made on the machine `environment` names:
/// exp:benchmark records the host, its system, architecture and CPUs but
/// not the processor, so runs of one host (and only they) share a class,
/// which can never equal a class yardstick derives from a CPU. None for a
/// run that names no host: of unknown class.
fn class_of(environment: &ExpEnvironment) -> Option<String> {
    use sha2::{Digest, Sha256};
    if environment.machine.is_empty() {
        return None;
    }
    let described = format!(
        "{}\n{}\n{}\n{}",
        environment.machine,
        environment.os,
        environment.arch,
        environment.cpus.unwrap_or(0)
    );
    let digest = Sha256::digest(described.as_bytes());
    let short: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    Some(format!("exp-benchmark-host-{short}"))
}

/// What yardstick's settings can say of exp:benchmark's: the repeat,
/// warm-up and probes of a micro or kernel run, the servers and pages of
/// an HTTP run (the whole is in [`Imported::settings`]).
fn settings(mode: Mode, exp: &Map<String, Value>, rows: &[Row]) -> Settings {
    let count = |name: &str| {
        exp.get(name)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0)
    };
    match mode {
        Mode::Micro | Mode::Kernel => Settings::Micro(MicroSettings {
            repeat: count("repeat"),
            warmup: count("warmup"),
            probes: exp
                .get("probes")
                .and_then(Value::as_array)
                .map(|p| {
                    p.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default(),
            ..MicroSettings::default()
        }),
        Mode::Http => {
            let (mut servers, mut pages) = (Vec::new(), Vec::new());
            let (mut seen_servers, mut seen_pages) = (HashSet::new(), HashSet::new());
            for row in rows {
                let target = row.page.target.clone().unwrap_or_default();
                if seen_servers.insert(target.clone()) {
                    servers.push(target);
                }
                if seen_pages.insert(row.name.clone()) {
                    pages.push(row.name.clone());
                }
            }
            let number = |name: &str| exp.get(name).and_then(Value::as_u64).unwrap_or(0);
            let switch = |name: &str, default: bool| {
                exp.get(name).and_then(Value::as_bool).unwrap_or(default)
            };
            Settings::Http(HttpSettings {
                servers,
                pages,
                requests: number("requests"),
                warmup: number("warmup"),
                warmup_effective: number("warmup"),
                concurrency: number("concurrency"),
                cold: switch("cold", false),
                keepalive: switch("keepalive", true),
                tool: rows
                    .first()
                    .and_then(|r| r.page.tool.clone())
                    .unwrap_or_else(|| CLIENT.to_string()),
                ..HttpSettings::default()
            })
        }
    }
}

impl ExpRow {
    fn into_row(self, mode: Mode) -> Result<Row, String> {
        let (kind, key) = match (mode, &self.kind) {
            (Mode::Micro, ExpKind::Micro) | (Mode::Kernel, ExpKind::Kernel) => {
                // yardstick's probe rows are keyed by the probe's name, so a
                // PHP probe meets the Rust probe of its name (`--cross-tool`).
                (RowKind::Probe, self.name.clone())
            }
            (Mode::Http, ExpKind::Http) => (RowKind::Page, self.key.clone()),
            _ => {
                return Err(format!(
                    "kind: a row of another mode than the run's ({})",
                    mode.as_str()
                ));
            }
        };
        let mut row = Row::with_samples(key, kind, self.name, Vec::new());
        row.figures = Figures {
            n: self.n,
            min: self.min,
            mean: self.mean,
            median: self.median,
            p90: self.p90,
            p95: self.p95,
            p99: self.p99,
            max: self.max,
            stddev: self.stddev,
        };
        row.requests = self.requests;
        row.errors = self.errors;
        row.error_messages = self.error_messages;
        row.ops = self.ops;
        row.rps = self.rps;
        row.normalized = self.normalized;
        row.note = self.note.unwrap_or_default();
        if kind == RowKind::Page {
            row.page = Page {
                target: Some(self.target),
                ttfb_median: self.ttfb_median,
                status: self.status,
                bytes: self.bytes,
                cache: self.cache,
                server: self.server,
                // curl is exp:benchmark's own client, as the built-in one is
                // yardstick's: its rows have cache answers and TTFB.
                tool: self.tool.filter(|t| t != CLIENT),
                ..Page::default()
            };
        }
        Ok(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fixture(name: &str) -> Vec<u8> {
        let path = crate::repository()
            .join("tests/fixtures/exp-benchmark")
            .join(name);
        std::fs::read(path).unwrap()
    }

    #[test]
    fn the_format_document_s_example_reads_back_with_its_figures_unchanged() {
        let run = read(&fixture("micro.json")).unwrap();
        assert_eq!(
            (run.mode, run.machine.as_str()),
            (Mode::Micro, "web.example.com")
        );
        assert_eq!(run.started, "2026-10-06T02:33:47Z");
        let row = &run.rows[0];
        assert_eq!((row.key.as_str(), row.kind), ("ini_parse", RowKind::Probe));
        let f = row.figures;
        assert_eq!(
            (
                f.n, f.min, f.mean, f.median, f.p90, f.p95, f.p99, f.max, f.stddev
            ),
            (
                30,
                Some(4.32),
                Some(5.28),
                Some(5.23),
                Some(5.87),
                Some(6.04),
                Some(6.13),
                Some(6.16),
                Some(0.47)
            )
        );
        assert_eq!(
            (row.ops, row.rps, row.normalized, row.note.as_str()),
            (Some(7), Some(1337.3), Some(0.559), "7 files of settings/")
        );
        assert!(row.samples.is_empty() && row.error_messages.is_empty());
        let failed = &run.rows[2];
        assert_eq!((failed.figures.median, failed.errors), (None, 30));
        assert_eq!(failed.error_messages["Class loader failed"], 30);
        let c = run.calibration.as_ref().unwrap();
        assert_eq!(
            (c.loops.median, c.drift_pct, c.checksum),
            (9.36, -7.8, 629486)
        );
        let imported = run.environment.imported.as_ref().unwrap();
        assert_eq!((imported.tool.as_str(), imported.format), (TOOL_NAME, 1));
        assert_eq!(imported.started, "2026-10-05T19:33:47-07:00");
        assert_eq!(imported.setup["php"], "8.5.11");
        assert_eq!(imported.setup["load"], 5.55);
        assert_eq!(imported.settings["repeat"], 30);
        // One host, one class, never a CPU's.
        let class = run.environment.machine_class.as_deref().unwrap();
        assert!(class.starts_with("exp-benchmark-host-"), "{class}");
        let other = edited(|v| v["environment"]["machine"] = "ci-7.example.com".into()).unwrap();
        assert_ne!(other.environment.machine_class.as_deref(), Some(class));
        let none = edited(|v| v["environment"]["machine"] = "".into()).unwrap();
        assert_eq!(none.environment.machine_class, None);
        let settings = run.settings.micro().unwrap();
        assert_eq!((settings.repeat, settings.warmup), (30, 3));
    }

    #[test]
    fn http_rows_keep_their_pages_statuses_and_cache_answers() {
        let run = read(&fixture("http.json")).unwrap();
        assert_eq!(run.mode, Mode::Http);
        let (home, news) = (&run.rows[0], &run.rows[1]);
        assert_eq!(
            (home.key.as_str(), home.kind),
            ("https://site.example /", RowKind::Page)
        );
        assert_eq!(home.page.cache["HIT"], 19);
        assert_eq!(
            (home.page.ttfb_median, home.page.tool.as_deref()),
            (Some(11.8), None)
        );
        assert_eq!(news.page.status["502"], 2);
        assert!(news.page.cache.is_empty());
        let settings = run.settings.http().unwrap();
        assert_eq!(settings.pages, ["/", "/news"]);
        assert_eq!(settings.servers, ["https://site.example"]);
        assert_eq!((settings.requests, settings.concurrency), (20, 1));
        assert_eq!(run.environment.git_commit, "a1b2c3d");
    }

    #[test]
    fn an_imported_run_saves_as_yardstick_s_and_reads_back_the_same() {
        for name in ["micro.json", "http.json", "kernel.json"] {
            let run = read(&fixture(name)).unwrap();
            let saved = crate::store::to_json(&run);
            assert!(saved.contains("\"tool\": \"yardstick\""), "{saved}");
            let back = crate::store::parse(&saved).unwrap();
            assert_eq!(back, run, "{name}");
            // Read through the store, as `show` and `compare` do.
            assert_eq!(
                crate::store::parse(std::str::from_utf8(&fixture(name)).unwrap()).unwrap(),
                run
            );
        }
    }

    /// The example with `edit` applied to its JSON.
    fn edited(edit: impl FnOnce(&mut Value)) -> Result<Run, String> {
        let mut value: Value = serde_json::from_slice(&fixture("micro.json")).unwrap();
        edit(&mut value);
        read(&serde_json::to_vec(&value).unwrap())
    }

    #[test]
    fn a_field_of_the_wrong_type_another_mode_or_format_is_named_in_one_line() {
        type Edit = Box<dyn FnOnce(&mut Value)>;
        let cases: [(Edit, &str); 6] = [
            (
                Box::new(|v| v["rows"][1]["median"] = "fast".into()),
                "rows[1].median",
            ),
            (
                Box::new(|v| v["rows"][0]["error_messages"] = Value::from(vec![1])),
                "rows[0].error_messages",
            ),
            (Box::new(|v| v["mode"] = "stress".into()), "mode: `stress`"),
            (Box::new(|v| v["format"] = 2.into()), "format: 2 is not 1"),
            (
                Box::new(|v| v["calibration"]["checksum"] = (-1).into()),
                "calibration.checksum",
            ),
            (
                Box::new(|v| v["rows"][0]["kind"] = "http".into()),
                "rows[0]: kind",
            ),
        ];
        for (edit, named) in cases {
            let e = edited(edit).unwrap_err();
            assert!(e.contains(named), "{named}: {e}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
        let e = edited(|v| {
            v.as_object_mut().unwrap().remove("rows");
        })
        .unwrap_err();
        assert!(e.contains("rows"), "{e}");
    }

    proptest! {
        #[test]
        fn no_bytes_make_the_reader_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = read(&bytes);
        }

        #[test]
        fn no_edit_of_a_row_makes_the_reader_panic(
            field in prop_oneof![Just("n"), Just("median"), Just("ops"), Just("status"), Just("cache"), Just("kind")],
            value in prop_oneof![Just(Value::Null), Just(Value::from(-1)), Just(Value::from("x")), Just(Value::from(1e308)), Just(Value::from(Vec::<Value>::new()))],
        ) {
            let _ = edited(|v| v["rows"][0][field] = value);
        }
    }
}
