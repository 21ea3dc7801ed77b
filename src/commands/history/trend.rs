//! `yardstick history trend PROBE`: one figure of one probe or page over
//! the kept runs, oldest first, each beside the change from the run
//! before it.

use super::options::HistoryOptions;
use crate::error::Error;
use crate::history::{Figure, Filter, Listing, Point, Store};
use crate::output::Format;
use crate::output::layout::{Align, Table, change, significant};
use crate::stats::Summary;

mod html;

pub(super) fn main(mut options: HistoryOptions) -> Result<i32, Error> {
    let [key] = options.operands.as_slice() else {
        return Err(Error::usage(super::TREND.usage));
    };
    let key = key.to_string_lossy().into_owned();
    super::read_commits(&mut options)?;
    let (mut history, location) = super::open(&options)?;
    if let Some(path) = &options.html {
        html::check(path, &location)?;
    }
    let figure = scope(&mut options, history.as_mut(), &key)?;
    let points = history.trend(&key, figure, &options.filter)?;
    // A trend that the filters empty is an answer; a name no kept run has
    // at all is a typo, and says so.
    if points.is_empty() && newest(history.as_mut(), &key, &Filter::default())?.is_none() {
        return Err(Error::input(format!(
            "history trend: no kept run has a probe or page `{key}` in {} (yardstick history \
             show ID lists a run's rows)",
            location.shown()
        )));
    }
    if let Some(path) = &options.html {
        html::save(
            path,
            &heading(&key, figure, &options.filter),
            figure,
            &points,
        )?;
    }
    let text = match options.common.format {
        Format::Table => table(&key, figure, &options.filter, &points),
        Format::Json => json(&key, figure, &points),
        Format::Csv => csv(figure, &points)?,
    };
    super::print(options.common.format, &text);
    Ok(0)
}

/// Narrows the options to the runs a trend of `key` follows, and says
/// which figure: wall time by default of this machine's class only, and
/// the figure asked, else the one the newest such run is judged by.
pub(super) fn scope(
    options: &mut HistoryOptions,
    history: &mut dyn Store,
    key: &str,
) -> Result<Figure, Error> {
    let metric = options
        .filter
        .metric
        .get_or_insert_with(|| "time".to_string())
        .clone();
    // Wall time belongs to a machine: by default, this machine's class.
    if metric == "time" && options.filter.machine_class.is_none() {
        options.filter.machine_class = crate::document::environment::current_class();
    }
    let newest = newest(history, key, &options.filter)?;
    // Counts move with their set-up (a compiler, a valgrind): a trend of
    // counts keeps to the newest run's.
    if metric != "time" && options.filter.count_setup.is_none() {
        options.filter.count_setup = newest.as_ref().map(|l| l.count_setup.clone());
    }
    Ok(options
        .figure
        .unwrap_or_else(|| newest.map_or(Figure::Median, |l| Figure::judged(&l.mode, &l.metric))))
}

/// The newest run with a row `key` that `filter` selects.
fn newest(history: &mut dyn Store, key: &str, filter: &Filter) -> Result<Option<Listing>, Error> {
    let newest = Filter {
        probe: Some(key.to_string()),
        limit: Some(1),
        ..filter.clone()
    };
    Ok(history.list(&newest)?.into_iter().next())
}

/// What the trend follows: `parse: x-calib over the runs of CLASS`.
fn heading(key: &str, figure: Figure, filter: &Filter) -> String {
    let class = filter.machine_class.as_deref().unwrap_or("any class");
    let setup = filter
        .count_setup
        .as_ref()
        .map(|s| format!(", count set-up {s}"))
        .unwrap_or_default();
    format!("{key}: {} over the runs of {class}{setup}", figure.name())
}

/// The columns of a trend's table, the figure's named after it.
fn columns(figure: Figure) -> [(&'static str, Align); 6] {
    [
        ("started", Align::Left),
        ("commit", Align::Left),
        ("branch", Align::Left),
        (figure.name(), Align::Right),
        ("change", Align::Right),
        ("id", Align::Left),
    ]
}

/// Each run's cells, with its change from the run before.
fn rows(points: &[Point]) -> Vec<Vec<String>> {
    let mut before: Option<f64> = None;
    points
        .iter()
        .map(|p| {
            let moved = before
                .filter(|b| *b != 0.0)
                .map_or(String::new(), |b| change((p.value / b - 1.0) * 100.0));
            before = Some(p.value);
            vec![
                p.started.clone(),
                p.git_commit.chars().take(12).collect(),
                p.branch.clone(),
                if p.injected.is_empty() {
                    significant(p.value, 4)
                } else {
                    format!("{} *", significant(p.value, 4))
                },
                moved,
                p.id.chars().take(crate::history::entry::SHOWN).collect(),
            ]
        })
        .collect()
}

fn table(key: &str, figure: Figure, filter: &Filter, points: &[Point]) -> String {
    let mut out = format!("{}\n", heading(key, figure, filter));
    if points.is_empty() {
        out.push_str(NONE);
        return out;
    }
    let mut t = Table::new(&columns(figure));
    for row in rows(points) {
        t.push(row);
    }
    out.push_str(&t.render());
    if points.iter().any(|p| !p.injected.is_empty()) {
        out.push_str("*: made with an injected slowdown (YARDSTICK_INJECT), worse on purpose\n");
    }
    out.push_str(&summary(points));
    out
}

/// What a trend of no run says.
const NONE: &str = "no kept run has it\n";

/// The runs before the newest: the newest, and their summary.
fn before_newest(points: &[Point]) -> Option<(&Point, Summary)> {
    let (newest, earlier) = points.split_last()?;
    let values: Vec<f64> = earlier.iter().map(|p| p.value).collect();
    Summary::of(&values).map(|s| (newest, s))
}

/// The newest run against the ones before it: their median and range.
fn summary(points: &[Point]) -> String {
    if points.is_empty() {
        return String::new();
    }
    let Some((newest, s)) = before_newest(points) else {
        return format!("{} run\n", points.len());
    };
    let from = if s.median != 0.0 {
        format!(
            " ({} from their median)",
            change((newest.value / s.median - 1.0) * 100.0)
        )
    } else {
        String::new()
    };
    format!(
        "{} runs; the {} before the newest: median {}, from {} to {}; the newest {}{from}\n",
        points.len(),
        points.len() - 1,
        significant(s.median, 4),
        significant(s.min, 4),
        significant(s.max, 4),
        significant(newest.value, 4),
    )
}

fn json(key: &str, figure: Figure, points: &[Point]) -> String {
    let document = serde_json::json!({ "key": key, "figure": figure.name(), "runs": points });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

fn csv(figure: Figure, points: &[Point]) -> Result<String, Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| Error::input(format!("csv: {e}"));
    w.write_record([
        "id",
        "started",
        "git_commit",
        "branch",
        "machine_class",
        "count_setup",
        figure.name(),
        "injected",
    ])
    .map_err(fail)?;
    for p in points {
        w.write_record([
            p.id.as_str(),
            &p.started,
            &p.git_commit,
            &p.branch,
            &p.machine_class,
            &p.count_setup,
            &p.value.to_string(),
            &p.injected,
        ])
        .map_err(fail)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::input(format!("csv: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
