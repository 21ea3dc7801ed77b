//! A probe on one configuration as the measurement goes: what its first
//! worker offered, whether it has failed, and the [`Series`] it gave. They
//! become the saved run's rows, and what the judges take.

use crate::document::run::{Row, RowKind};
use crate::judge::paired::Series;
use crate::worker::protocol::{Greeting, Offer};
use std::collections::BTreeMap;

/// One configuration's entries, by probe name: every probe its first worker
/// offered.
pub(crate) type Entries = BTreeMap<String, Entry>;

/// A probe on one configuration.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    /// What the probe says it measures, as offered.
    note: String,
    /// Operations one iteration stands for.
    ops: u64,
    /// The fingerprint of the probe's result, as the first worker
    /// reported it.
    pub(crate) checksum: Option<u64>,
    /// Why the probe failed on this configuration; once it has, it is not asked
    /// again.
    failure: Option<String>,
    /// What the configuration gave for the probe.
    pub(crate) series: Series,
}

/// Every probe a configuration's first worker offered; one it cannot time has
/// failed from the start.
pub(crate) fn entries(greeting: &Greeting) -> Entries {
    greeting
        .probes
        .iter()
        .map(|offer| {
            let mut entry = Entry::offered(offer);
            // A fingerprint that is not 16 hex digits is no fingerprint.
            entry.checksum = greeting
                .checksums
                .get(&offer.name)
                .filter(|hex| hex.len() == 16)
                .and_then(|hex| u64::from_str_radix(hex, 16).ok());
            (offer.name.clone(), entry)
        })
        .collect()
}

/// A later worker that cannot time a probe (it failed there, or is not
/// offered at all) fails it on its configuration for the samples left.
pub(crate) fn fail_unoffered(entries: &mut Entries, greeting: &Greeting) {
    for (name, entry) in entries.iter_mut().filter(|(_, e)| !e.failed()) {
        match greeting.probes.iter().find(|offer| &offer.name == name) {
            Some(Offer {
                error: Some(message),
                ..
            }) => entry.fail(message.clone()),
            Some(_) => {}
            None => entry.fail("not offered by a later worker".to_string()),
        }
    }
}

impl Entry {
    /// A probe as a worker offered it.
    fn offered(offer: &Offer) -> Entry {
        let mut entry = Entry {
            note: offer.note.clone(),
            ops: offer.ops,
            checksum: None,
            failure: None,
            series: Series::default(),
        };
        if let Some(message) = &offer.error {
            entry.fail(message.clone());
        }
        entry
    }

    /// True once the probe failed on this configuration.
    pub(crate) fn failed(&self) -> bool {
        self.failure.is_some()
    }

    /// Why the probe failed on this configuration, once it has.
    pub(crate) fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Fails the probe for every sample it has not taken; the failure
    /// names the row.
    pub(crate) fn fail(&mut self, message: String) {
        self.failure = Some(message);
    }

    /// Counts the failed samples once the comparison is over and `asked`,
    /// the samples it asked of the probe on each configuration, is final
    /// (the first set sizes the rounds after a probe may have failed): taken
    /// and failed samples add up to it.
    pub(crate) fn settle(&mut self, asked: u64) {
        if self.failed() {
            self.series.errors = asked.saturating_sub(self.series.samples.len() as u64);
        }
    }

    /// The probe's row in the saved run, `batch` iterations a sample.
    pub(crate) fn into_row(self, key: String, batch: Option<u64>) -> Row {
        let errors = self.series.errors;
        let mut row = Row::with_samples(key.clone(), RowKind::Probe, key, self.series.samples);
        row.batch = batch;
        row.requests = row.figures.n as u64 + errors;
        row.errors = errors;
        row.ops = Some(self.ops);
        row.checksum = self.checksum;
        row.rps = row.ops_per_second();
        row.note = match &self.failure {
            Some(message) => format!("failed: {message}"),
            None => self.note,
        };
        row.error_messages = self.failure.into_iter().map(|m| (m, errors)).collect();
        row
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(name: &str, error: Option<&str>) -> Offer {
        Offer {
            name: name.into(),
            ops: 1,
            note: "counts".into(),
            batch: error.is_none().then_some(1),
            error: error.map(str::to_string),
        }
    }

    #[test]
    fn failed_samples_follow_the_sized_rounds() {
        // A probe that fails on one build in the first pair's warm-up,
        // before the other build's sizing sample set its samples a round.
        let mut entry = Entry::offered(&offer("a", None));
        entry.series.samples = vec![1.0; 2];
        entry.fail("timed out".into());
        entry.settle(300);
        assert_eq!(entry.series.errors, 298);
        let row = entry.into_row("a".into(), Some(1));
        assert_eq!(row.error_messages["timed out"], 298);
        assert_eq!((row.figures.n, row.requests), (2, 300));
        assert_eq!(row.note, "failed: timed out");
    }

    #[test]
    fn a_probe_that_never_failed_has_no_errors() {
        let mut entry = Entry::offered(&offer("a", None));
        entry.series.samples = vec![1.0; 3];
        entry.settle(10);
        assert_eq!(entry.series.errors, 0);
        let row = entry.into_row("a".into(), Some(5));
        assert!(row.error_messages.is_empty());
        assert_eq!(
            (row.note.as_str(), row.batch, row.requests),
            ("counts", Some(5), 3)
        );
    }

    #[test]
    fn the_first_workers_fingerprints_reach_the_rows() {
        let greeting = Greeting {
            probes: vec![offer("a", None), offer("b", None), offer("c", None)],
            checksums: [
                ("a", "00000000000013ba"),
                ("b", "not hex digits!!"),
                ("c", "12"),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        };
        let rows: Vec<_> = entries(&greeting)
            .into_iter()
            .map(|(name, entry)| entry.into_row(name, None).checksum)
            .collect();
        assert_eq!(rows, [Some(0x13ba), None, None]);
    }

    #[test]
    fn a_probe_a_later_worker_cannot_time_fails_for_the_samples_left() {
        let first = Greeting {
            probes: vec![offer("a", None), offer("b", None), offer("c", None)],
            ..Greeting::default()
        };
        let mut entries = entries(&first);
        for entry in entries.values_mut() {
            entry.series.samples = vec![1.0; 4];
        }
        let later = Greeting {
            probes: vec![offer("a", None), offer("b", Some("set-up failed"))],
            ..Greeting::default()
        };
        fail_unoffered(&mut entries, &later);
        assert!(!entries["a"].failed());
        for name in ["b", "c"] {
            let entry = entries.get_mut(name).unwrap();
            entry.settle(10);
            assert!(entry.failed(), "{name}");
            // Taken and failed samples add up to every sample asked for.
            assert_eq!(
                entry.series.samples.len() as u64 + entry.series.errors,
                10,
                "{name}"
            );
        }
        let note = |name: &str| entries[name].clone().into_row(name.into(), None).note;
        assert!(note("b").contains("set-up failed"));
        assert!(note("c").contains("not offered"));
    }
}
