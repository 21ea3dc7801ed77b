//! Ranking the variants of each group against its reference, from the
//! rows of one run.
//!
//! The variants of a group were measured in the same rounds, so sample `i`
//! of every variant saw the same spell of the machine: a variant's ratio
//! to another is the median of their per-round ratios, and its 95 %
//! interval a percentile bootstrap of that median (`stats::bootstrap`).
//! The table prints each variant's ratio to the reference, and the outcome
//! is decided by the same kind of evidence: the fastest variant wins only
//! when its paired ratio to every other ranked variant lies wholly beyond
//! the equivalence margin (`judge::equivalence`); the variants whose ratio
//! to it reaches inside the margin tie with it. Counts
//! (`--metric=instructions`) are exact: their ratios are points, held to
//! the same margin.
//!
//! A variant is ranked only when it did the reference's work: its result's
//! fingerprint (the row's checksum) must equal the reference's. A floor
//! does less than the workload by design, so it is exempt, never wins and
//! never enters the standings.

use crate::document::ranking::{Entry, Group, Member, Outcome, Ranking, Standing};
use crate::document::run::{Metric, Row};
use crate::equivalence::{self, Side};
use crate::probe::Role;
use crate::stats::bootstrap::{self, Interval};
use std::collections::BTreeMap;

/// The ranking of `rows`' groups; none when no row is in a group.
pub fn rank(rows: &[Row], metric: Metric) -> Option<Ranking> {
    let mut members: BTreeMap<&str, Vec<(&Row, &Member)>> = BTreeMap::new();
    for row in rows {
        if let Some(m) = &row.variant {
            members.entry(m.group.as_str()).or_default().push((row, m));
        }
    }
    let groups: Vec<Group> = members
        .into_iter()
        .filter_map(|(name, mut members)| {
            members.sort_by(|a, b| a.1.variant.cmp(&b.1.variant));
            // A run that selected some variants without their reference
            // (`--probe=`) has nothing to rank them against.
            let reference = *members.iter().find(|(_, m)| m.role == Role::Reference)?;
            Some(group(name, &members, reference, metric))
        })
        .collect();
    if groups.is_empty() {
        return None;
    }
    let standings = standings(&groups);
    Some(Ranking {
        groups,
        standings,
        margin: Some(equivalence::MARGIN),
    })
}

/// One group: each variant's figures, then the outcome.
fn group(
    name: &str,
    members: &[(&Row, &Member)],
    reference: (&Row, &Member),
    metric: Metric,
) -> Group {
    let variants = members
        .iter()
        .map(|&(row, member)| {
            let failed = failure(row, member, reference, metric);
            let ranked = failed.is_none();
            let ratio = (ranked && member.role != Role::Reference)
                .then(|| ratio(row, reference.0, metric))
                .flatten();
            Entry {
                variant: member.variant.clone(),
                key: row.key.clone(),
                role: member.role,
                median: ranked.then(|| median(row, metric)).flatten(),
                ratio,
                memory: row.memory,
                failed,
            }
        })
        .collect::<Vec<_>>();
    let ranked: Vec<(&str, &Row)> = members
        .iter()
        .zip(&variants)
        .filter(|(_, e)| e.role != Role::Floor && e.failed.is_none() && e.median.is_some())
        .map(|(&(row, _), e)| (e.variant.as_str(), row))
        .collect();
    Group {
        name: name.to_string(),
        reference: reference.1.variant.clone(),
        outcome: outcome(&ranked, metric, equivalence::MARGIN),
        variants,
    }
}

/// Why `row` cannot be ranked, if it cannot: it has no figure (its probe
/// failed), or it is a contender whose result differs from the
/// reference's.
fn failure(
    row: &Row,
    member: &Member,
    (reference, of): (&Row, &Member),
    metric: Metric,
) -> Option<String> {
    if row.figure(metric).is_none() {
        let note = row.note.strip_prefix("failed: ").unwrap_or(&row.note);
        return Some(if note.is_empty() { "no figure" } else { note }.to_string());
    }
    if member.role != Role::Contender {
        return None;
    }
    let name = &of.variant;
    if reference.figure(metric).is_none() {
        return Some(format!("reference {name} failed: no result to agree with"));
    }
    crate::probe::variant::agreement(row.checksum, reference.checksum, name).err()
}

/// The row's median with its interval: a bootstrap of its samples, or a
/// point for a count. None for too few rounds to give an interval.
fn median(row: &Row, metric: Metric) -> Option<Interval> {
    match metric {
        Metric::Time => bootstrap::median_of(&row.samples),
        _ => row.figure(metric).map(point),
    }
}

/// `row` over `other`: the median of their per-round ratios with its
/// interval, or the exact ratio of two counts.
fn ratio(row: &Row, other: &Row, metric: Metric) -> Option<Interval> {
    match metric {
        Metric::Time => {
            let ratios = crate::stats::ratios(&row.samples, &other.samples);
            // Rounds lost on either side would pair samples of different
            // spells.
            (ratios.len() == row.samples.len() && ratios.len() == other.samples.len())
                .then(|| bootstrap::median_of(&ratios))
                .flatten()
        }
        _ => {
            let (a, b) = (row.figure(metric)?, other.figure(metric)?);
            (b > 0.0).then(|| point(a / b))
        }
    }
}

fn point(value: f64) -> Interval {
    Interval {
        low: value,
        estimate: value,
        high: value,
    }
}

/// The winner, when every other ranked variant's paired ratio to the
/// fastest lies beyond `margin`; else the fastest and the variants whose
/// ratio to it reaches inside the margin (or has no interval), tied.
fn outcome(ranked: &[(&str, &Row)], metric: Metric, margin: f64) -> Outcome {
    if ranked.len() < 2 {
        return Outcome::Unranked;
    }
    let mut by_figure: Vec<(&str, &Row, f64)> = ranked
        .iter()
        .filter_map(|&(name, row)| Some((name, row, row.figure(metric)?)))
        .collect();
    by_figure.sort_by(|a, b| a.2.total_cmp(&b.2));
    let Some(&(fastest, of, _)) = by_figure.first() else {
        return Outcome::Unranked;
    };
    let mut tied = vec![fastest.to_string()];
    for &(name, row, _) in &by_figure[1..] {
        let beyond =
            ratio(row, of, metric).is_some_and(|r| equivalence::side(r, margin) == Side::Slower);
        if !beyond {
            tied.push(name.to_string());
        }
    }
    match tied.as_slice() {
        [only] => Outcome::Winner(only.clone()),
        _ => Outcome::Tie(tied),
    }
}

/// Each variant name across the groups: wins, ties, failures, and the
/// geometric mean of its ratios (the reference's being 1), best first.
fn standings(groups: &[Group]) -> Vec<Standing> {
    let mut by_name: BTreeMap<&str, (Standing, Vec<f64>)> = BTreeMap::new();
    for g in groups {
        // A group is a contest only between variants that do the whole
        // workload: against a floor alone, nobody won or lost.
        let contestants = || g.variants.iter().filter(|e| e.role != Role::Floor);
        if contestants().count() < 2 {
            continue;
        }
        for e in contestants() {
            let (s, ratios) = by_name.entry(e.variant.as_str()).or_insert_with(|| {
                let s = Standing {
                    variant: e.variant.clone(),
                    groups: 0,
                    wins: 0,
                    ties: 0,
                    failed: 0,
                    geomean_ratio: None,
                };
                (s, Vec::new())
            });
            s.groups += 1;
            s.failed += usize::from(e.failed.is_some());
            match &g.outcome {
                Outcome::Winner(w) if *w == e.variant => s.wins += 1,
                Outcome::Tie(tied) if tied.contains(&e.variant) => s.ties += 1,
                _ => {}
            }
            let reference = e.role == Role::Reference && e.failed.is_none();
            ratios.extend(reference.then_some(1.0));
            ratios.extend(e.ratio.map(|r| r.estimate).filter(|r| *r > 0.0));
        }
    }
    let mut standings: Vec<Standing> = by_name
        .into_values()
        .map(|(mut s, ratios)| {
            s.geomean_ratio = (!ratios.is_empty())
                .then(|| (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp());
            s
        })
        .collect();
    standings.sort_by(|a, b| b.wins.cmp(&a.wins).then(b.ties.cmp(&a.ties)));
    standings
}

#[cfg(test)]
mod tests;
