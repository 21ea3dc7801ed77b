//! A row of a run: one probe, or one page of one server, with its
//! figures per iteration or per request.

use crate::failures::Failures;
use crate::figures::Figures;
use crate::functions::Functions;
use crate::histogram::Histogram;
use crate::ranking::Member;
use crate::run::Metric;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use yardstick_stats::Summary;

/// The kind of thing a row measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum RowKind {
    /// A probe of micro mode.
    Probe,
    /// A page of one server in HTTP mode.
    Page,
    /// A figure of a process probe, one sample per child process:
    /// `NAME.boot`, `NAME.process` or `NAME.<label>`. Absolute times of
    /// whole processes, so micro mode's methods (which divide by the
    /// calibration loop) do not judge them.
    Process,
}

/// One measured thing: a probe in micro mode, a (server, page) in HTTP mode.
/// Times are milliseconds (per iteration, or per request).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Row {
    /// Unique within the run; rows of two runs compare by key.
    pub key: String,
    /// What the row measured.
    pub kind: RowKind,
    /// The probe or page, as shown.
    pub name: String,
    /// What the samples come to.
    #[serde(flatten)]
    pub figures: Figures,
    /// Raw per-iteration (or per-request) times, so a saved run can be
    /// analysed again: in the order measured, except HTTP's built-in
    /// client's, grouped by the worker thread that timed them.
    #[serde(default)]
    pub samples: Vec<f64>,
    /// The times counted in buckets, in place of `samples` when there were
    /// too many to keep one by one (HTTP, past 100,000 answers of a page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub histogram: Option<Histogram>,
    /// Iterations timed together in one sample (micro mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<u64>,
    /// Attempts: samples tried in micro mode, requests sent in HTTP mode.
    pub requests: u64,
    /// Failed attempts.
    pub errors: u64,
    /// Each distinct failure message and how often it occurred.
    #[serde(default)]
    pub error_messages: BTreeMap<String, u64>,
    /// Operations per iteration (micro mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ops: Option<u64>,
    /// Micro: operations per second at the median. HTTP: successful requests
    /// per second of wall time.
    pub rps: Option<f64>,
    /// Micro: the normalised figure ("x calib", see
    /// [`Row::normalized_median`]). Informational: comparisons recompute it
    /// from the samples rather than trusting a stored value.
    pub normalized: Option<f64>,
    /// Micro: the time in milliseconds of the calibration loop run just
    /// before each sample, in the order of `samples`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calibration_samples: Vec<f64>,
    #[serde(default)]
    /// What the row stands for, or why it failed.
    pub note: String,
    /// Micro: the fingerprint of one iteration's result, taken untimed when
    /// the probe was checked (see `yardstick::Checksum`). The same work
    /// gives the same figure at any batch, in any run and any build, so
    /// two variants that must agree can be told apart. Absent for a failed
    /// probe, one whose result has no fingerprint, and older runs. Saved
    /// as 16 hex digits: readers that take JSON numbers as doubles (jq,
    /// JavaScript) would round a 64-bit integer.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "checksum_hex"
    )]
    #[cfg_attr(test, schemars(schema_with = "checksum_hex::schema"))]
    pub checksum: Option<u64>,
    /// Micro: what one iteration allocated on the measuring thread, when
    /// the bench installs `yardstick::alloc::Counting`; absent without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Memory>,
    /// Micro and kernel: the group (workload) this probe is a variant of,
    /// and its role there; absent for a probe in no group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<Member>,
    /// Process rows (`NAME.process`): the children's peak resident set in
    /// bytes, the median over the children, each child's own `VmHWM`;
    /// absent where the platform does not give it (anywhere but Linux).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_rss: Option<u64>,
    /// Counted probes: what callgrind counted per iteration.
    #[serde(flatten)]
    pub counted: Counted,
    /// Counted probes: where the count went, function by function; absent
    /// in runs made before functions were kept, and in timed rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub functions: Option<Functions>,
    /// HTTP rows: what a page answered.
    #[serde(flatten)]
    pub page: Page,
}

/// What callgrind counted per iteration of a probe (`--metric=instructions`
/// and `--metric=estimated-cycles`); all absent in a timed row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(default)]
pub struct Counted {
    /// Instructions per iteration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<f64>,
    /// L1 misses per iteration, instruction and data, in the simulated
    /// cache (`--metric=estimated-cycles`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1_misses: Option<f64>,
    /// Last-level misses (RAM accesses) per iteration, in the simulated
    /// cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ll_misses: Option<f64>,
    /// L1 hits + 5 × last-level hits + 35 × RAM accesses, per iteration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_cycles: Option<f64>,
}

/// What a page of one server answered, beside its times; all absent in a
/// probe's row.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(default)]
pub struct Page {
    /// The server's name or base URL, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The page URL requested (credentials hidden).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Median time to first byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttfb_median: Option<f64>,
    /// Status code (or `failed`) and how often it was answered.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub status: BTreeMap<String, u64>,
    /// Mean bytes per response as transferred.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<f64>,
    /// The cache header's answer (HIT, MISS, ...) and how often.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cache: BTreeMap<String, u64>,
    /// The most frequent `Server` header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    /// The tool that measured the row (`builtin`, `ab`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The failed requests by kind, where the measurer tells kinds apart
    /// (the built-in client does); absent when none failed, and in runs
    /// made before kinds were counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failures: Option<Failures>,
    /// More of the page's requests failed than the run allows
    /// (`--max-failures`): its figures say what the server sustained, and
    /// no comparison judges them as a speed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub overloaded: bool,
}

/// What one iteration of a probe allocated, counted by
/// `yardstick::alloc::Counting` on the thread that ran it. Counts, so the
/// same work gives the same figures on any machine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Memory {
    /// Fresh allocations.
    pub allocs: u64,
    /// Reallocations.
    pub reallocs: u64,
    /// Bytes asked for: allocations' sizes plus what reallocations grew by.
    pub bytes: u64,
    /// The most bytes live at once above the level before the iteration.
    pub peak: u64,
}

impl Row {
    /// The row's figure per iteration in `metric`, when it has one: its
    /// median time, or its count.
    pub fn figure(&self, metric: Metric) -> Option<f64> {
        match metric {
            Metric::Time => self.figures.median,
            Metric::Instructions | Metric::EstimatedCycles => self.counted.of(metric),
        }
    }

    /// A row whose statistics are those of `samples` (none when empty).
    pub fn with_samples(key: String, kind: RowKind, name: String, samples: Vec<f64>) -> Row {
        Row {
            key,
            kind,
            name,
            figures: Figures::of(Summary::of(&samples).as_ref()),
            samples,
            histogram: None,
            batch: None,
            requests: 0,
            errors: 0,
            error_messages: BTreeMap::new(),
            ops: None,
            rps: None,
            normalized: None,
            calibration_samples: Vec::new(),
            note: String::new(),
            checksum: None,
            memory: None,
            variant: None,
            peak_rss: None,
            counted: Counted::default(),
            functions: None,
            page: Page::default(),
        }
    }

    /// Operations per second at the median time per iteration (`ops` per
    /// iteration); none without ops or a positive median.
    pub fn ops_per_second(&self) -> Option<f64> {
        let (ops, median) = (self.ops?, self.figures.median?);
        (median > 0.0).then(|| ops as f64 * 1000.0 / median)
    }

    /// Whether each sample has the calibration loop timed just before it.
    fn has_paired_loops(&self) -> bool {
        !self.calibration_samples.is_empty() && self.calibration_samples.len() == self.samples.len()
    }

    /// Each sample relative to the calibration loop, in the order taken:
    /// to the loop timed just before it when each has one, else to the
    /// run's loop median `calibration`. Pairs that give no ratio (a loop
    /// of no time) are left out; [`Row::normalized_median`] is their
    /// median.
    pub fn x_calib_samples(&self, calibration: f64) -> Vec<f64> {
        if self.has_paired_loops() {
            yardstick_stats::ratios(&self.samples, &self.calibration_samples)
        } else {
            yardstick_stats::ratios(&self.samples, &vec![calibration; self.samples.len()])
        }
    }

    /// The probe's time relative to the calibration loop. With a loop
    /// timed just before each sample, the median of the per-sample ratios:
    /// each ratio divides by the speed of the same moment. Without (runs
    /// made before interleaving, or pairs that do not line up), the median
    /// over the run's calibration median `calibration`.
    pub fn normalized_median(&self, calibration: f64) -> Option<f64> {
        if self.has_paired_loops() {
            return yardstick_stats::median(&self.x_calib_samples(calibration));
        }
        self.figures
            .median
            .filter(|m| m.is_finite() && calibration.is_finite() && calibration > 0.0)
            .map(|m| m / calibration)
    }
}

/// A fingerprint as 16 lowercase hex digits, for `serde(with)`.
pub mod checksum_hex {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Writes `Some` as its digits (`None` is skipped by the field).
    pub fn serialize<S: Serializer>(value: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_str(&format!("{v:016x}")),
            None => s.serialize_none(),
        }
    }

    /// Reads 16 hex digits, or null.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        let Some(text) = Option::<String>::deserialize(d)? else {
            return Ok(None);
        };
        if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(D::Error::custom(format!(
                "checksum `{text}` is not 16 hex digits"
            )));
        }
        u64::from_str_radix(&text, 16)
            .map(Some)
            .map_err(D::Error::custom)
    }

    /// 16 hex digits, or null.
    #[cfg(test)]
    pub(crate) fn schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": ["string", "null"], "pattern": "^[0-9a-f]{16}$" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(samples: &[f64], loops: &[f64]) -> Row {
        let mut r = Row::with_samples("p".into(), RowKind::Probe, "p".into(), samples.to_vec());
        r.calibration_samples = loops.to_vec();
        r
    }

    #[test]
    fn a_checksum_is_saved_as_hex_digits_and_read_back() {
        let mut r = row(&[1.0], &[]);
        r.checksum = Some(0x00ab_cdef_0123_4567);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["checksum"], "00abcdef01234567");
        let back: Row = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, r);
        // A row without one (older runs) reads as none, and is written
        // without the field.
        let mut old = json.clone();
        old.as_object_mut().unwrap().remove("checksum");
        let back: Row = serde_json::from_value(old).unwrap();
        assert_eq!(back.checksum, None);
        assert!(
            serde_json::to_value(&back)
                .unwrap()
                .get("checksum")
                .is_none()
        );
        for bad in [
            serde_json::json!(5),
            serde_json::json!("abc"),
            serde_json::json!("zzzzzzzzzzzzzzzz"),
        ] {
            let mut doc = json.clone();
            doc["checksum"] = bad;
            assert!(serde_json::from_value::<Row>(doc).is_err());
        }
    }

    #[test]
    fn interleaved_loops_give_the_median_of_the_ratios() {
        // The machine halves its speed for the last two samples: the ratios
        // stay 0.1 while the plain median moves.
        let r = row(&[1.0, 1.0, 1.0, 2.0, 2.0], &[10.0, 10.0, 10.0, 20.0, 20.0]);
        assert_eq!(r.normalized_median(12.0), Some(0.1));
    }

    #[test]
    fn without_paired_loops_the_run_median_divides() {
        assert_eq!(row(&[1.0, 2.0, 3.0], &[]).normalized_median(4.0), Some(0.5));
        // Pairs that do not line up are not trusted either.
        assert_eq!(
            row(&[1.0, 2.0, 3.0], &[1.0]).normalized_median(4.0),
            Some(0.5)
        );
        assert_eq!(row(&[], &[]).normalized_median(4.0), None);
        assert_eq!(row(&[1.0], &[]).normalized_median(0.0), None);
    }
}
