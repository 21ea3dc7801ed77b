//! A run's settings: the options that shaped its figures, typed per kind of
//! run so that every reader asks a field, never a string key.
//!
//! Which kind a saved run's settings are is known from their keys: `old`
//! and `new` name a comparison of two builds, `configurations` a matrix,
//! `servers` an HTTP run, and
//! the rest are probe runs (micro and kernel mode); `store::check` refuses
//! settings whose kind disagrees with the run's mode. Keys a newer build
//! wrote are kept, and every kind is saved in the order of its keys' names,
//! so that format 1 reads back and saves again byte for byte.

mod http;
mod matrix;
mod micro;
mod paired;
mod sampling;

pub use http::{HttpSettings, PagesFromSite};
pub use matrix::{ConfigurationSettings, MatrixSettings};
pub use micro::{CountSettings, MicroSettings};
pub use paired::PairedSettings;
pub use sampling::SamplingSettings;

use crate::run::Mode;
use serde::de::DeserializeOwned;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::collections::BTreeMap;

/// The settings of one run.
#[derive(Debug, Clone, PartialEq)]
pub enum Settings {
    /// Micro and kernel mode.
    Micro(MicroSettings),
    /// `compare-builds`.
    Paired(PairedSettings),
    /// HTTP mode.
    Http(HttpSettings),
    /// `matrix`.
    Matrix(MatrixSettings),
}

impl Default for Settings {
    fn default() -> Settings {
        Settings::Micro(MicroSettings::default())
    }
}

impl Settings {
    /// The settings of a micro or kernel run.
    pub fn micro(&self) -> Option<&MicroSettings> {
        match self {
            Settings::Micro(s) => Some(s),
            _ => None,
        }
    }

    /// The settings of a micro or kernel run, to change.
    pub fn micro_mut(&mut self) -> Option<&mut MicroSettings> {
        match self {
            Settings::Micro(s) => Some(s),
            _ => None,
        }
    }

    /// The settings of an HTTP run.
    pub fn http(&self) -> Option<&HttpSettings> {
        match self {
            Settings::Http(s) => Some(s),
            _ => None,
        }
    }

    /// The slowdowns injected into the run, when any: a micro or kernel
    /// run's `YARDSTICK_INJECT`, or the one `compare-builds` or `matrix`
    /// handed a build in its environment (`--env-new=YARDSTICK_INJECT=...`).
    pub fn injected(&self) -> Option<&str> {
        fn knob(e: &str) -> Option<&str> {
            e.strip_prefix("YARDSTICK_INJECT=")
        }
        match self {
            Settings::Micro(s) => s.inject.as_deref(),
            Settings::Paired(s) => s.env_new.iter().chain(&s.env_old).find_map(|e| knob(e)),
            Settings::Matrix(s) => s
                .configurations
                .iter()
                .flat_map(|c| &c.env)
                .find_map(|e| knob(e)),
            Settings::Http(_) => None,
        }
    }

    /// Whether these settings belong to a run of `mode`.
    pub fn fit(&self, mode: Mode) -> bool {
        match self {
            Settings::Micro(_) => mode.is_probes(),
            Settings::Paired(_) => mode == Mode::Micro,
            Settings::Http(_) => mode == Mode::Http,
            Settings::Matrix(_) => mode == Mode::Micro,
        }
    }

    /// What the settings are, for a message.
    pub fn kind(&self) -> &'static str {
        match self {
            Settings::Micro(_) => "a run of probes",
            Settings::Paired(_) => "a comparison of two builds",
            Settings::Http(_) => "an HTTP run",
            Settings::Matrix(_) => "a configuration matrix",
        }
    }
}

impl Serialize for Settings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let value = match self {
            Settings::Micro(s) => serde_json::to_value(s),
            Settings::Paired(s) => serde_json::to_value(s),
            Settings::Http(s) => serde_json::to_value(s),
            Settings::Matrix(s) => serde_json::to_value(s),
        }
        .map_err(S::Error::custom)?;
        let Value::Object(fields) = value else {
            return Err(S::Error::custom("settings are not a map"));
        };
        // In name order whatever map serde_json was built with.
        let sorted: BTreeMap<String, Value> = fields.into_iter().collect();
        sorted.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Settings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Settings, D::Error> {
        let fields = serde_json::Map::deserialize(deserializer)?;
        fn typed<T: DeserializeOwned, E: serde::de::Error>(
            fields: serde_json::Map<String, Value>,
        ) -> Result<T, E> {
            serde_json::from_value(Value::Object(fields))
                .map_err(|e| E::custom(format!("settings: {e}")))
        }
        if fields.contains_key("old") && fields.contains_key("new") {
            typed(fields).map(Settings::Paired)
        } else if fields.contains_key("configurations") {
            typed(fields).map(Settings::Matrix)
        } else if fields.contains_key("servers") {
            typed(fields).map(Settings::Http)
        } else {
            typed(fields).map(Settings::Micro)
        }
    }
}

/// Settings are told apart by their keys, as `Deserialize` reads them:
/// `old` and `new` for a comparison of builds, `configurations` for a
/// matrix, `servers` for HTTP, and otherwise a run of probes.
#[cfg(test)]
impl schemars::JsonSchema for Settings {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Settings".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "The run's options, secrets hidden, each under its name. Which \
                kind they are is told by their keys: `old` and `new` for a comparison of \
                builds, `configurations` for a matrix, `servers` for HTTP, and otherwise a \
                run of probes. Readers ignore names they do not know.",
            "anyOf": [
                generator.subschema_for::<PairedSettings>(),
                generator.subschema_for::<MatrixSettings>(),
                generator.subschema_for::<HttpSettings>(),
                generator.subschema_for::<MicroSettings>(),
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store;

    /// Settings as a build writes them, one of each kind, with a key from a
    /// newer build in each.
    const MICRO: &str = r#"{"confirm":true,"exact":false,"filters":[],"later":{"x":1},"min_batch":null,"params":{"node":"57"},"pooled_runs":3,"probe_timeout":60.0,"probes":["a"],"repeat":30,"warmup":3}"#;
    const COUNTED: &str = r#"{"cache_sim":"I1=32768,8,64","count_platform":{"cpu":"c","libc":"l","pin":"held","tunables":"none"},"exact":false,"filters":[],"metric":"estimated-cycles","min_batch":5,"probe_timeout":60.0,"probes":[],"repeat":30,"valgrind":"valgrind-3.19.0","warmup":3}"#;
    const PAIRED: &str = r#"{"cpu":1,"env_new":[],"env_old":["A=1"],"later":2,"min_batch":null,"new":"b/new","old":"b/old","pairs":8,"probes":[],"repeat":5,"round_ms":20,"rounds":30,"samples_per_round":{"fine_sum":25},"seed":1,"threshold":10.0,"warmup":3}"#;
    const MATRIX: &str = r#"{"configurations":[{"args":["--node=5"],"bench":"b/bench","env":[],"name":"base"},{"args":[],"bench":"b/bench","env":["YARDSTICK_ALLOC=off"],"name":"off"}],"cpu":null,"later":[],"metric":"time","min_batch":null,"probes":[],"repeat":1,"round_ms":20,"rounds":30,"samples_per_round":{"a":4},"seed":3,"sets":10,"warmup":3}"#;
    const HTTP: &str = r#"{"cache_header":"x-cache","cold":false,"concurrency":4,"encoding":"gzip","force":false,"http":"negotiated","insecure":false,"keepalive":true,"later":"z","pages":["/"],"requests":100,"rounds":2,"servers":["http://127.0.0.1:8080"],"timeout":30.0,"tool":"builtin","tools_found":["ab"],"warmup":5,"warmup_effective":8}"#;

    fn read(text: &str) -> Settings {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_slowdown_handed_to_a_build_is_the_run_s() {
        assert_eq!(read(PAIRED).injected(), None);
        let paired = PAIRED.replace(r#""env_new":[]"#, r#""env_new":["YARDSTICK_INJECT=*:5"]"#);
        assert_eq!(read(&paired).injected(), Some("*:5"));
        assert_eq!(read(MATRIX).injected(), None);
        let matrix = MATRIX.replace("YARDSTICK_ALLOC=off", "YARDSTICK_INJECT=a:20");
        assert_eq!(read(&matrix).injected(), Some("a:20"));
    }

    #[test]
    fn every_kind_reads_back_and_saves_byte_for_byte() {
        for text in [MICRO, COUNTED, PAIRED, MATRIX, HTTP] {
            let settings = read(text);
            assert_eq!(serde_json::to_string(&settings).unwrap(), text);
        }
    }

    #[test]
    fn the_kind_is_known_from_the_keys_and_each_field_is_typed() {
        let micro = read(MICRO);
        let s = micro.micro().unwrap();
        assert_eq!(
            (s.confirm, s.runs(), s.params["node"].as_str()),
            (true, 3, "57")
        );
        assert_eq!(s.other["later"], serde_json::json!({"x": 1}));
        let counted = read(COUNTED);
        let c = &counted.micro().unwrap().counting;
        assert_eq!(c.metric, Some(crate::run::Metric::EstimatedCycles));
        assert_eq!(c.count_platform.as_ref().unwrap().pin, "held");
        assert!(matches!(read(PAIRED), Settings::Paired(ref p) if p.sampling.seed == 1));
        assert!(
            matches!(read(MATRIX), Settings::Matrix(ref m) if m.configurations[1].name == "off")
        );
        assert_eq!(read(HTTP).http().unwrap().warmup_effective, 8);
        // A run saved before a field existed still reads, with its default.
        assert_eq!(read("{}"), Settings::default());
        assert_eq!(
            read(r#"{"servers":[]}"#).http().map(|h| h.keepalive),
            Some(true)
        );
    }

    #[test]
    fn a_field_of_the_wrong_type_or_settings_of_another_mode_are_refused() {
        let bad = serde_json::from_str::<Settings>(r#"{"repeat":"thirty"}"#).unwrap_err();
        assert!(
            bad.to_string().starts_with("settings: invalid type"),
            "{bad}"
        );
        let run = |mode: &str, settings: &str| {
            let mut run =
                serde_json::to_value(crate::run::test_micro_run(Vec::new(), None)).unwrap();
            run["mode"] = mode.into();
            run["settings"] = serde_json::from_str(settings).unwrap();
            store::parse(&run.to_string())
        };
        assert!(run("micro", "{}").is_ok());
        for (mode, settings) in [("micro", HTTP), ("kernel", PAIRED), ("http", MICRO)] {
            let e = run(mode, settings).unwrap_err();
            assert!(e.contains("settings are those of"), "{mode}: {e}");
        }
    }
}
