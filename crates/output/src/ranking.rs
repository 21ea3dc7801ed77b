//! The ranking of a run's variants as text: one table of every group's
//! variants, then one line per variant across the groups.

use super::layout::{Align, Table, significant, thousands};
use crate::document::ranking::{Entry, Group, Outcome, Ranking, Standing};
use crate::document::run::Metric;
use crate::judge::equivalence;
use crate::probe::Role;
use crate::stats::bootstrap::Interval;
use crate::text::clean;

/// The groups' columns: the text table's and the report's.
pub const COLUMNS: [(&str, Align); 11] = [
    ("group", Align::Left),
    ("variant", Align::Left),
    ("role", Align::Left),
    ("median", Align::Right),
    ("95 % interval", Align::Left),
    ("ratio", Align::Right),
    ("95 % interval", Align::Left),
    ("allocs", Align::Right),
    ("bytes", Align::Right),
    ("peak", Align::Right),
    ("result", Align::Left),
];

/// The groups' table and the standings; `metric` says what a median is.
pub(crate) fn render(ranking: &Ranking, metric: Metric) -> String {
    let mut t = Table::new(&COLUMNS).droppable(&[
        "peak",
        "bytes",
        "allocs",
        "95 % interval",
        "role",
        "median",
    ]);
    for row in rows(ranking, metric) {
        t.push(row);
    }
    let mut out = format!("{}\n", caption(metric));
    out.push_str(&t.render());
    out.push_str(&legend(ranking));
    out.push('\n');
    for s in &ranking.standings {
        out.push_str(&standing(s));
        out.push('\n');
    }
    out
}

/// What the table shows, in words.
pub fn caption(metric: Metric) -> String {
    let (ratio, unit) = match metric {
        Metric::Time => ("paired round by round", "median in ms per iteration"),
        Metric::Instructions => ("exact", "instructions per iteration"),
        Metric::EstimatedCycles => ("exact", "estimated cycles per iteration"),
    };
    format!(
        "groups: each variant against its group's reference; ratio: variant / reference, {ratio}, \
         below 1 is faster; {unit}"
    )
}

/// How the result column was decided, in words: the rule the run was
/// judged by, not this build's.
pub fn legend(ranking: &Ranking) -> String {
    match ranking.margin {
        Some(m) => format!(
            "result: winner where every other variant's paired ratio to it is slower: {}; \
             else a tie",
            equivalence::rule(m)
        ),
        None => "result: winner where the variants' median intervals do not overlap \
                 (the rule of the build that made this run)"
            .to_string(),
    }
}

/// One row of cells per variant, the group named on its first.
pub fn rows(ranking: &Ranking, metric: Metric) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for group in &ranking.groups {
        for (i, e) in group.variants.iter().enumerate() {
            let name = if i == 0 {
                clean(&group.name).into_owned()
            } else {
                String::new()
            };
            rows.push(cells(name, e, group, metric));
        }
    }
    rows
}

fn cells(group: String, e: &Entry, g: &Group, metric: Metric) -> Vec<String> {
    let figure = |v: f64| match metric {
        Metric::Time => significant(v, 4),
        _ => thousands(v),
    };
    let (median, median_range) = interval(e.median, figure);
    let (ratio, ratio_range) = interval(e.ratio, |r| format!("{r:.3}"));
    let memory = match &e.memory {
        Some(m) => [m.allocs, m.bytes, m.peak].map(|x| thousands(x as f64)),
        None => ["-", "-", "-"].map(String::from),
    };
    let mut row = vec![
        group,
        clean(&e.variant).into_owned(),
        e.role.as_str().to_string(),
    ];
    row.extend([median, median_range, ratio, ratio_range]);
    row.extend(memory);
    row.push(result(e, g));
    row
}

/// A figure and its interval as two cells: `-` and nothing without one.
fn interval(i: Option<Interval>, show: impl Fn(f64) -> String) -> (String, String) {
    match i {
        Some(i) if i.low == i.high => (show(i.estimate), String::new()),
        Some(i) => (
            show(i.estimate),
            format!("[{}, {}]", show(i.low), show(i.high)),
        ),
        None => ("-".to_string(), String::new()),
    }
}

/// What the variant came to in its group.
fn result(e: &Entry, g: &Group) -> String {
    if let Some(why) = &e.failed {
        return format!("failed: {}", clean(why));
    }
    match &g.outcome {
        Outcome::Winner(w) if *w == e.variant => "winner".to_string(),
        Outcome::Tie(tied) if tied.contains(&e.variant) => "tie".to_string(),
        _ if e.role == Role::Floor => "floor: not ranked".to_string(),
        _ if e.median.is_none() => "no interval: fewer than 5 rounds".to_string(),
        _ => String::new(),
    }
}

/// "ours: wins 6 of 9 groups, 2 ties, geometric mean of ratios 0.912".
pub fn standing(s: &Standing) -> String {
    let mut line = format!(
        "{}: wins {} of {} group{}",
        clean(&s.variant),
        s.wins,
        s.groups,
        if s.groups == 1 { "" } else { "s" }
    );
    if s.ties > 0 {
        line.push_str(&format!(
            ", {} tie{}",
            s.ties,
            if s.ties == 1 { "" } else { "s" }
        ));
    }
    if s.failed > 0 {
        line.push_str(&format!(", failed in {}", s.failed));
    }
    if let Some(g) = s.geomean_ratio {
        line.push_str(&format!(", geometric mean of ratios {g:.3}"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ranking::Entry;

    fn entry(variant: &str, role: Role, ratio: Option<f64>, failed: Option<&str>) -> Entry {
        let point = |v| Interval {
            low: v * 0.9,
            estimate: v,
            high: v * 1.1,
        };
        Entry {
            variant: variant.into(),
            key: format!("load_{variant}"),
            role,
            median: failed.is_none().then(|| point(0.5)),
            ratio: ratio.map(point),
            memory: None,
            failed: failed.map(str::to_string),
        }
    }

    #[test]
    fn every_variant_shows_its_figures_and_what_it_came_to() {
        let ranking = Ranking {
            groups: vec![Group {
                name: "load".into(),
                reference: "ours".into(),
                variants: vec![
                    entry("ours", Role::Reference, None, None),
                    entry("scan", Role::Floor, Some(0.25), None),
                    entry(
                        "wrong",
                        Role::Contender,
                        None,
                        Some("result differs from ours"),
                    ),
                ],
                outcome: Outcome::Unranked,
            }],
            standings: vec![Standing {
                variant: "ours".into(),
                groups: 1,
                wins: 0,
                ties: 0,
                failed: 0,
                geomean_ratio: Some(1.0),
            }],
            margin: Some(0.02),
        };
        let text = render(&ranking, Metric::Time);
        assert!(text.contains("0.250  [0.225, 0.275]"), "{text}");
        assert!(text.contains("floor: not ranked"), "{text}");
        assert!(text.contains("failed: result differs from ours"), "{text}");
        assert!(
            text.contains("ours: wins 0 of 1 group, geometric mean of ratios 1.000"),
            "{text}"
        );
    }
}
