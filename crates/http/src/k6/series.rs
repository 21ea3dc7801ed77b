//! What k6's output says, once read: each series' samples (a page on a
//! server in a round), the iterations dropped, and each instance's end
//! mark. Outputs of several instances merge by pooling, never averaging.

use std::collections::{BTreeMap, BTreeSet};

/// Where a request was measured: the tags the script gives every request.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SeriesKey {
    /// The page's key (k6's `name` tag, so `--cold`'s unique URLs are one
    /// series).
    pub page: String,
    /// The server's place in the run (from 0), as the script tags it.
    pub server: String,
    /// The round, from 1.
    pub round: u32,
}

/// What the requests of one series gave. Times in milliseconds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Samples {
    /// The duration of each successful request.
    pub durations: Vec<f64>,
    /// The time to the first byte of each successful request.
    pub waiting: Vec<f64>,
    /// Requests that succeeded.
    pub succeeded: u64,
    /// Requests that failed, by status (`HTTP 503`) or error.
    pub failures: BTreeMap<String, u64>,
    /// Every request by its status (`failed` for no answer).
    pub status: BTreeMap<String, u64>,
    /// The protocols the answers came in (`HTTP/1.1`, `HTTP/2.0`).
    pub protocols: BTreeSet<String>,
    /// The first and last time a request was counted, in seconds since
    /// the Unix epoch.
    pub span: Option<(f64, f64)>,
    /// Requests by the execution segment they were made in (empty
    /// without segments).
    pub segments: BTreeMap<String, u64>,
}

impl Samples {
    /// Requests counted, succeeded and failed.
    pub fn requests(&self) -> u64 {
        self.succeeded + self.failures.values().sum::<u64>()
    }

    /// Adds `other`'s requests, as one instance's samples merge with
    /// another's: counts add, and the values are pooled, never averaged.
    pub fn merge(&mut self, other: Samples) {
        self.durations.extend(other.durations);
        self.waiting.extend(other.waiting);
        self.succeeded += other.succeeded;
        for (why, n) in other.failures {
            *self.failures.entry(why).or_default() += n;
        }
        for (status, n) in other.status {
            *self.status.entry(status).or_default() += n;
        }
        self.protocols.extend(other.protocols);
        self.span = match (self.span, other.span) {
            (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
            (span, None) | (None, span) => span,
        };
        for (segment, n) in other.segments {
            *self.segments.entry(segment).or_default() += n;
        }
    }
}

/// Everything read from one output, or from several merged.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Output {
    /// Each series' samples.
    pub series: BTreeMap<SeriesKey, Samples>,
    /// Iterations an arrival-rate scenario could not start (no virtual
    /// user was free), by scenario.
    pub dropped: BTreeMap<String, u64>,
    /// Each instance's end mark, by its segment (`""` without segments):
    /// the iterations it completed.
    pub ended: BTreeMap<String, u64>,
}

impl Output {
    /// Adds `other`'s requests: counts add, values are pooled.
    pub fn merge(&mut self, other: Output) {
        for (key, samples) in other.series {
            self.series.entry(key).or_default().merge(samples);
        }
        for (scenario, n) in other.dropped {
            let count = self.dropped.entry(scenario).or_default();
            *count = count.saturating_add(n);
        }
        for (segment, n) in other.ended {
            let count = self.ended.entry(segment).or_default();
            *count = count.saturating_add(n);
        }
    }

    /// Measured requests of `segment` (`""`: of every segment).
    pub fn requests_of(&self, segment: &str) -> u64 {
        self.series
            .values()
            .map(|s| match segment {
                "" => s.requests(),
                _ => s.segments.get(segment).copied().unwrap_or(0),
            })
            .fold(0, u64::saturating_add)
    }

    /// Refuses the output of a timed run that is not whole: `segments`
    /// (`[""]` without segments) must each have written their end mark,
    /// and at least one measured request for every iteration it completed.
    pub fn check_ended(&self, segments: &[String]) -> Result<(), String> {
        for segment in segments {
            let of = if segment.is_empty() {
                "k6's output".to_string()
            } else {
                format!("the output of segment {segment}")
            };
            let Some(&completed) = self.ended.get(segment) else {
                return Err(format!(
                    "{of} has no end mark: it was cut short, k6 stopped before its test ended, or \
                     its script predates the mark (make the manifest again)"
                ));
            };
            let made = self.requests_of(segment);
            if made < completed {
                return Err(format!(
                    "{of} holds {made} measured requests, and k6 completed {completed} \
                     iterations of one each: its start is missing (a log rotated?)"
                ));
            }
        }
        Ok(())
    }
}
