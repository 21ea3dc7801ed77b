//! `yardstick history changes [PROBE...]`: every step in each probe's
//! figure along the first-parent line (the rule: `history::changes`).

use super::options::HistoryOptions;
use crate::error::Error;
use crate::history::changes::{self, Change, Held, Step};
use crate::history::{Figure, Filter, Store};
use crate::output::Format;
use crate::output::layout::{Align, Table, change, significant};

pub(super) fn main(mut options: HistoryOptions) -> Result<i32, Error> {
    let json = match options.common.format {
        Format::Table => false,
        Format::Json => true,
        Format::Csv => {
            return Err(Error::usage(
                "--format: changes prints a table or JSON, not CSV",
            ));
        }
    };
    let rev = options.rev.clone().unwrap_or_else(|| "HEAD".to_string());
    let line = super::git::first_parent(&rev)?;
    super::read_commits(&mut options)?;
    let (mut history, _) = super::open(&options)?;
    let mut keys: Vec<String> = options
        .operands
        .iter()
        .map(|k| k.to_string_lossy().into_owned())
        .collect();
    if keys.is_empty() {
        keys = newest_keys(history.as_mut(), &mut options)?;
    }
    let mut found = Vec::new();
    for key in &keys {
        // Each key narrows the options its own way (a count's set-up).
        let mut scoped = options.clone();
        let figure = super::trend::scope(&mut scoped, history.as_mut(), key)?;
        let points = history.trend(key, figure, &scoped.filter)?;
        let steps = super::bisect::on_line(&line, &points);
        let counted = matches!(figure, Figure::Instructions | Figure::EstimatedCycles);
        let changes = changes::find(&steps, counted);
        found.push((key.clone(), figure, steps, changes));
    }
    let text = if json {
        self::json(&found)
    } else {
        table(&rev, &found)
    };
    super::print(options.common.format, &text);
    Ok(0)
}

/// The rows of the newest run the filters select (of wall time on this
/// machine's class unless they say otherwise).
fn newest_keys(
    history: &mut dyn Store,
    options: &mut HistoryOptions,
) -> Result<Vec<String>, Error> {
    let filter = &mut options.filter;
    let metric = filter.metric.get_or_insert_with(|| "time".to_string());
    if metric == "time" && filter.machine_class.is_none() {
        filter.machine_class = crate::document::environment::current_class();
    }
    let newest = Filter {
        limit: Some(1),
        ..filter.clone()
    };
    let Some(listed) = history.list(&newest)?.into_iter().next() else {
        return Err(Error::input(
            "history changes: no kept run matches the filters, so there is no probe to follow \
             (name one, or widen the filters)"
                .to_string(),
        ));
    };
    let stored = history.find(&listed.id)?;
    let run = crate::document::store::parse(&stored.text)
        .map_err(|m| Error::input(format!("history run {}: {m}", listed.short_id())))?;
    Ok(run.rows.into_iter().map(|r| r.key).collect())
}

type Found = (String, Figure, Vec<Step>, Vec<Change>);

fn table(rev: &str, found: &[Found]) -> String {
    let mut out = format!(
        "changes on the first-parent line of {rev} (PELT; size: new level / old, 95 % \
         interval with five commits or more each side)\n"
    );
    let mut t = change_table();
    let mut quiet = Vec::new();
    for (key, figure, steps, changes) in found {
        if changes.is_empty() {
            quiet.push(format!("{key} ({} commits)", steps.len()));
        }
        for c in changes {
            t.push(change_row(key, *figure, c, steps));
        }
    }
    if t.is_empty() {
        out.push_str("no change found\n");
    } else {
        out.push_str(&t.render());
    }
    if !quiet.is_empty() {
        out.push_str(&format!(
            "no change: {}\n",
            crate::text::clean(&quiet.join(", "))
        ));
    }
    out
}

/// The columns of a change, here and in `bisect`.
pub(super) fn change_table() -> Table {
    Table::new(&[
        ("probe", Align::Left),
        ("figure", Align::Left),
        ("last good", Align::Left),
        ("first bad", Align::Left),
        ("before", Align::Right),
        ("after", Align::Right),
        ("change", Align::Right),
        ("95 % interval", Align::Left),
        ("held", Align::Left),
    ])
}

/// One change as a row of [`change_table`].
pub(super) fn change_row(key: &str, figure: Figure, c: &Change, steps: &[Step]) -> Vec<String> {
    let interval = c.size.map_or_else(
        || "too few commits".to_string(),
        |s| {
            format!(
                "[{}, {}]",
                change((s.low - 1.0) * 100.0),
                change((s.high - 1.0) * 100.0)
            )
        },
    );
    vec![
        crate::text::clean(key).into_owned(),
        figure.name().to_string(),
        short(&steps[c.last_good].commit),
        short(&steps[c.first_bad].commit),
        significant(c.before, 4),
        significant(c.after, 4),
        change((c.after / c.before - 1.0) * 100.0),
        interval,
        held(c.held, steps),
    ]
}

/// The first 12 digits of a commit, as the run headers show them.
fn short(commit: &str) -> String {
    commit.chars().take(12).collect()
}

fn held(h: Held, steps: &[Step]) -> String {
    match h {
        Held::Yes => "yes".to_string(),
        Held::Reverted(at) => format!("reverted at {}", short(&steps[at].commit)),
        Held::TooRecent => "too recent to tell".to_string(),
    }
}

/// One change as JSON, here and in `bisect`.
pub(super) fn change_json(c: &Change, steps: &[Step]) -> serde_json::Value {
    let (held, reverted_at) = match c.held {
        Held::Yes => ("yes", None),
        Held::Reverted(at) => ("reverted", Some(steps[at].commit.clone())),
        Held::TooRecent => ("too recent", None),
    };
    serde_json::json!({
        "last_good": steps[c.last_good].commit,
        "first_bad": steps[c.first_bad].commit,
        "before": c.before, "after": c.after,
        "size": c.size,
        "held": held, "reverted_at": reverted_at,
    })
}

fn json(found: &[Found]) -> String {
    let probes: Vec<serde_json::Value> = found
        .iter()
        .map(|(key, figure, steps, changes)| {
            let changes: Vec<serde_json::Value> =
                changes.iter().map(|c| change_json(c, steps)).collect();
            serde_json::json!({
                "key": key, "figure": figure.name(), "commits": steps.len(),
                "changes": changes,
            })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&probes).unwrap_or_default();
    text.push('\n');
    text
}
