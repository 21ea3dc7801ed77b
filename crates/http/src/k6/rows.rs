//! From k6's merged series to the run's rows: one row per page and
//! server, its rounds pooled, as the built-in client makes them. A counted
//! run is checked block by block: k6 must have made exactly the requests
//! asked, or nothing is saved. A timed run is checked by each instance's
//! end mark: an output cut short, or missing its start, is refused.

use super::instances::segment;
use super::plan::Plan;
use super::script::scenario;
use super::series::{Output, Samples, SeriesKey};
use crate::document::failures::Failures;
use crate::document::failures::Kind;
use crate::document::run::Row;
use crate::error::Error;
use crate::job::{Job, Protocol};
use crate::rows::{Labels, rate};
use crate::schedule::Schedule;
use crate::stats::median;
use crate::tools::kinds;
use std::collections::BTreeMap;

/// The rows of `schedule`'s visits, in visit order, from `output`.
pub(crate) fn rows(
    plan: &Plan,
    schedule: &Schedule,
    job: &Job,
    output: Output,
) -> Result<Vec<Row>, Error> {
    check_counts(plan, schedule, &output)?;
    if !plan.executor.is_counted() {
        let segments: Vec<String> = match plan.segments {
            0 | 1 => vec![String::new()],
            n => (0..n).map(|i| segment(i, n).0).collect(),
        };
        output
            .check_ended(&segments)
            .map_err(|m| Error::Refused(format!("--tool=k6: {m}; nothing was saved")))?;
    }
    // Each visit's rounds pooled, and the seconds their requests took.
    let mut pooled: Vec<(Samples, f64)> = vec![(Samples::default(), 0.0); schedule.visits.len()];
    for (key, samples) in output.series {
        let found = schedule
            .visits
            .iter()
            .position(|v| v.page == key.page && v.server.to_string() == key.server);
        if let Some(index) = found {
            pooled[index].1 += samples.span.map_or(0.0, |(a, b)| b - a);
            pooled[index].0.merge(samples);
        }
    }
    let mut out = Vec::with_capacity(schedule.visits.len());
    for (index, (visit, (pooled, seconds))) in schedule.visits.iter().zip(pooled).enumerate() {
        if let Some(other) = pooled.protocols.iter().find(|p| !asked(job.protocol, p)) {
            return Err(Error::Refused(format!(
                "--tool=k6: {} was answered in {other}, not HTTP/{} as --http asks; nothing was \
                 saved",
                visit.url,
                job.protocol.as_str()
            )));
        }
        let dropped = dropped_of(plan, index, &output.dropped);
        out.push(row(
            Labels::of(visit, schedule),
            pooled,
            seconds,
            dropped,
            plan,
        ));
    }
    // What k6's output cannot hold (a duration of zero or 1e300, a point
    // given twice: more timed answers than requests) is refused as it is
    // read, before a run that could not be read back is shown or saved.
    for row in &out {
        if let Some(why) = crate::document::store::check::row_problem(row) {
            return Err(Error::Refused(format!(
                "--tool=k6: `{}`: its output holds what no run of k6 gives: {why}; nothing was \
                 saved",
                row.key
            )));
        }
    }
    Ok(out)
}

/// True when an answer in `proto` (k6's tag: `HTTP/1.1`, `HTTP/2.0`) is
/// in the protocol asked. k6 offers HTTP/2 over TLS whatever it is told,
/// so `--http=1.1` is checked on the answers, as `--http=2` is.
fn asked(protocol: Protocol, proto: &str) -> bool {
    match protocol {
        Protocol::Negotiated => true,
        Protocol::Http1 => proto.starts_with("HTTP/1"),
        Protocol::Http2 => proto == "HTTP/2.0",
    }
}

/// Refuses a counted run whose blocks did not get exactly their requests,
/// and output that names a page or server the plan does not have.
fn check_counts(plan: &Plan, schedule: &Schedule, output: &Output) -> Result<(), Error> {
    let key_of = |visit: usize, round: u64| {
        let v = &schedule.visits[visit];
        SeriesKey {
            page: v.page.clone(),
            server: v.server.to_string(),
            round: u32::try_from(round).unwrap_or(u32::MAX),
        }
    };
    let known: Vec<SeriesKey> = plan
        .blocks
        .iter()
        .map(|b| key_of(b.visit, b.round))
        .collect();
    if let Some(key) = output.series.keys().find(|k| !known.contains(k)) {
        return Err(Error::Refused(format!(
            "k6's output has requests of `{}` on server {} in round {}, which the run did not \
             ask for",
            key.page, key.server, key.round
        )));
    }
    if !plan.executor.is_counted() {
        return Ok(());
    }
    for (block, key) in plan.blocks.iter().zip(&known) {
        let made = output.series.get(key).map_or(0, Samples::requests);
        if made != block.count {
            let visit = &schedule.visits[block.visit];
            return Err(Error::Refused(format!(
                "k6 made {made} measured requests of {} on {} in round {}, not the {} asked; \
                 nothing was saved",
                visit.page, schedule.servers[visit.server].name, block.round, block.count
            )));
        }
    }
    Ok(())
}

/// Iterations an arrival-rate run could not start for `visit`, from those
/// dropped by scenario.
fn dropped_of(plan: &Plan, visit: usize, dropped: &BTreeMap<String, u64>) -> u64 {
    plan.blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| b.visit == visit)
        .filter_map(|(k, _)| dropped.get(&scenario(k)))
        .fold(0u64, |sum, n| sum.saturating_add(*n))
}

/// k6's failed requests by kind: an error status (`HTTP 503`, as its
/// count says it) as http, an interim or redirect status taken for a
/// failure as other, and k6's error words (`dial: i/o timeout`,
/// `connection reset by peer`) by what they name.
fn kinds_of(failures: &BTreeMap<String, u64>) -> Option<Failures> {
    let mut kinds = Failures::default();
    for (why, &n) in failures {
        let status = why
            .strip_prefix("HTTP ")
            .and_then(|s| s.parse::<u16>().ok());
        let kind: Kind = match status {
            Some(400..) => Kind::Http,
            Some(_) => Kind::Other,
            None => kinds::in_words(why),
        };
        kinds.add(kind, n);
    }
    (kinds.total() > 0).then_some(kinds)
}

/// One visit's row from its pooled samples, made over `seconds`.
fn row(labels: Labels, s: Samples, seconds: f64, dropped: u64, plan: &Plan) -> Row {
    let requests = s.requests();
    let segments: Vec<String> = s
        .segments
        .iter()
        .map(|(seg, n)| format!("{seg} {n}"))
        .collect();
    let errors = requests - s.succeeded;
    let ttfb = median(&s.waiting);
    let mut row = labels.row(s.durations);
    row.requests = requests;
    row.errors = errors;
    row.page.failures = kinds_of(&s.failures);
    row.error_messages = crate::tally::capped(s.failures);
    row.rps = rate(s.succeeded, seconds);
    row.page.ttfb_median = ttfb;
    row.page.status = crate::tally::capped(s.status);
    row.page.tool = Some("k6".to_string());
    let mut note = vec![format!("k6 {}", plan.executor.as_str())];
    if plan.segments > 1 {
        note.push(format!("requests by segment: {}", segments.join(", ")));
    }
    if dropped > 0 {
        note.push(format!(
            "{dropped} iterations dropped (no virtual user free)"
        ));
    }
    row.note = note.join("; ");
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::k6::plan::Block;

    fn setup() -> (Schedule, Job, Plan) {
        let job = Job {
            compare: vec!["http://127.0.0.1:1".into(), "http://127.0.0.1:2".into()],
            requests: 4,
            rounds: 2,
            concurrency: 2,
            ..Job::default()
        };
        let schedule = Schedule::new(&job, vec!["/".into()]).unwrap();
        let plan = Plan::new(&schedule, &job).unwrap();
        (schedule, job, plan)
    }

    fn samples(durations: &[f64], failed: u64, span: (f64, f64)) -> Samples {
        let mut s = Samples {
            durations: durations.to_vec(),
            waiting: durations.iter().map(|d| d / 2.0).collect(),
            succeeded: durations.len() as u64,
            span: Some(span),
            ..Samples::default()
        };
        s.status.insert("200".into(), durations.len() as u64);
        if failed > 0 {
            s.failures.insert("HTTP 503".into(), failed);
            s.status.insert("503".into(), failed);
        }
        s
    }

    fn output(plan: &Plan, schedule: &Schedule, f: impl Fn(&Block) -> Samples) -> Output {
        let mut out = Output::default();
        for b in &plan.blocks {
            let v = &schedule.visits[b.visit];
            out.series.insert(
                SeriesKey {
                    page: v.page.clone(),
                    server: v.server.to_string(),
                    round: b.round as u32,
                },
                f(b),
            );
        }
        out
    }

    #[test]
    fn rounds_are_pooled_into_one_row_per_page_and_server() {
        let (schedule, job, plan) = setup();
        let out = output(&plan, &schedule, |b| {
            let base = if b.visit == 0 { 1.0 } else { 10.0 };
            samples(&[base * b.round as f64, base * 3.0], 0, (0.0, 0.5))
        });
        let rows = rows(&plan, &schedule, &job, out).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].samples.len(), 4);
        assert_eq!(rows[0].figures.median, Some(2.5));
        assert_eq!(rows[1].figures.median, Some(25.0));
        assert_eq!(rows[0].page.ttfb_median, Some(1.25));
        // 4 successes over two rounds of half a second each.
        assert_eq!(rows[0].rps, Some(4.0));
        assert_eq!((rows[0].requests, rows[0].errors), (4, 0));
        assert_eq!(rows[0].page.tool.as_deref(), Some("k6"));
        assert!(
            rows[0].note.contains("per-vu-iterations"),
            "{}",
            rows[0].note
        );
    }

    #[test]
    fn answers_in_another_protocol_than_asked_are_refused() {
        let (schedule, mut job, plan) = setup();
        let with_proto = |proto: &str| {
            output(&plan, &schedule, |_| {
                let mut s = samples(&[1.0, 2.0], 0, (0.0, 1.0));
                s.protocols.insert(proto.to_string());
                s
            })
        };
        assert!(rows(&plan, &schedule, &job, with_proto("HTTP/2.0")).is_ok());
        job.protocol = Protocol::Http1;
        let e = rows(&plan, &schedule, &job, with_proto("HTTP/2.0")).unwrap_err();
        assert!(e.to_string().contains("not HTTP/1.1"), "{e}");
        assert!(rows(&plan, &schedule, &job, with_proto("HTTP/1.1")).is_ok());
        job.protocol = Protocol::Http2;
        assert!(rows(&plan, &schedule, &job, with_proto("HTTP/1.1")).is_err());
    }

    #[test]
    fn durations_k6_cannot_give_are_refused() {
        let (schedule, job, plan) = setup();
        for (durations, says) in [
            (vec![-1.0, 2.0], "samples[0] is -1"),
            (vec![0.0, 2.0], "samples[0] is 0"),
            (vec![1e300, 2.0], "samples[0] is 1e300"),
        ] {
            let out = output(&plan, &schedule, |_| samples(&durations, 0, (0.0, 1.0)));
            let e = rows(&plan, &schedule, &job, out).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().contains(says), "{e}");
        }
        // Each request's duration given twice: more timed answers than
        // requests.
        let out = output(&plan, &schedule, |_| {
            let mut s = samples(&[1.0, 2.0, 1.0, 2.0], 0, (0.0, 1.0));
            s.succeeded = 2;
            s
        });
        let e = rows(&plan, &schedule, &job, out).unwrap_err();
        assert!(
            e.to_string().contains("n is 8, more than its 4 requests"),
            "{e}"
        );
    }

    #[test]
    fn failures_never_count_as_throughput() {
        let (schedule, job, plan) = setup();
        let out = output(&plan, &schedule, |_| samples(&[1.0], 1, (0.0, 1.0)));
        let rows = rows(&plan, &schedule, &job, out).unwrap();
        assert_eq!((rows[0].requests, rows[0].errors), (4, 2));
        assert_eq!(rows[0].rps, Some(1.0));
        assert_eq!(rows[0].error_messages["HTTP 503"], 2);
        assert_eq!(
            rows[0].page.failures.map(|k| (k.http, k.total())),
            Some((2, 2))
        );
    }

    #[test]
    fn k6_s_failures_are_counted_by_kind() {
        let failures = BTreeMap::from([
            ("HTTP 503".to_string(), 2),
            ("HTTP 101".to_string(), 1),
            (
                "dial tcp 127.0.0.1:1: connect: connection refused".to_string(),
                3,
            ),
            (
                "read tcp 127.0.0.1:2: read: connection reset by peer".to_string(),
                4,
            ),
            ("request timeout".to_string(), 5),
        ]);
        let k = kinds_of(&failures).unwrap_or_default();
        assert_eq!(
            (k.http, k.other, k.connect, k.closed, k.timeout),
            (2, 1, 3, 4, 5)
        );
        assert_eq!(kinds_of(&BTreeMap::new()), None);
    }

    #[test]
    fn more_or_fewer_requests_than_asked_are_refused() {
        let (schedule, job, plan) = setup();
        let out = output(&plan, &schedule, |b| {
            if b.visit == 1 && b.round == 2 {
                samples(&[1.0], 0, (0.0, 1.0))
            } else {
                samples(&[1.0, 2.0], 0, (0.0, 1.0))
            }
        });
        let e = rows(&plan, &schedule, &job, out).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("made 1 measured requests"), "{e}");
        let mut out = output(&plan, &schedule, |_| samples(&[1.0, 2.0], 0, (0.0, 1.0)));
        out.series.insert(
            SeriesKey {
                page: "/other".into(),
                server: "x".into(),
                round: 1,
            },
            Samples::default(),
        );
        let e = rows(&plan, &schedule, &job, out).unwrap_err();
        assert!(e.to_string().contains("did not ask for"), "{e}");
    }

    #[test]
    fn a_timed_run_needs_every_instance_s_end_mark_and_its_requests() {
        let (schedule, mut job, _) = setup();
        job.duration = Some(2);
        job.segments = 2;
        let plan = Plan::new(&schedule, &job).unwrap();
        let with_segments = |ended: &[(&str, u64)]| {
            let mut out = output(&plan, &schedule, |_| {
                let mut s = samples(&[1.0, 2.0, 3.0], 0, (0.0, 1.0));
                s.segments.insert("0:1/2".into(), 1);
                s.segments.insert("1/2:1".into(), 2);
                s
            });
            for (segment, n) in ended {
                out.ended.insert(segment.to_string(), *n);
            }
            rows(&plan, &schedule, &job, out)
        };
        // Four blocks: segment 0:1/2 made 4 requests, 1/2:1 made 8; a
        // request whose iteration the grace interrupted may be more.
        assert!(with_segments(&[("0:1/2", 4), ("1/2:1", 8)]).is_ok());
        assert!(with_segments(&[("0:1/2", 3), ("1/2:1", 8)]).is_ok());
        let e = with_segments(&[("0:1/2", 4)]).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.to_string().contains("segment 1/2:1 has no end mark"),
            "{e}"
        );
        let e = with_segments(&[("0:1/2", 5), ("1/2:1", 8)]).unwrap_err();
        assert!(
            e.to_string().contains("holds 4 measured requests") && e.to_string().contains("start"),
            "{e}"
        );
    }
}
