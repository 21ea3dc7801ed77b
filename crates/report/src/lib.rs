//! Reports people look at: one self-contained HTML file each, with its
//! charts drawn inline as SVG, so that it opens offline, from a CI
//! artifact or a mail, and fetches nothing.
//!
//! [`Page`] lays the document out and escapes every text it is given;
//! [`chart`] draws with plotters, without a font backend: labels are SVG
//! `<text>` in a generic family, sized by plotters' estimate, so no font
//! of the machine is read and none is embedded. Charts sit on a light
//! card in either colour scheme, since their strokes are fixed colours.
//!
//! A bench that links this crate draws its run with `--html`: the crate
//! offers [`save_run`] to yardstick as its page drawer.

#![warn(missing_docs)]

mod attribution;
pub mod chart;
pub mod comparison;
pub mod environment;
mod groups;
pub mod http;
pub mod kernel;
mod matrix;
pub mod micro;
mod page;
pub mod paired;
#[cfg(test)]
mod properties;

pub use page::Page;

// The crates a page is drawn from, by the names the rest of yardstick
// gives them.
use yardstick::{document, error, judge, measure, stats, text};
use yardstick_output as output;

yardstick::inventory::submit! {
    yardstick::commands::page::Drawer(save_run)
}

use crate::document::run::{Mode, Run};
use crate::error::Error;
use std::path::Path;

/// The most probes (or pages) a page draws one by one, and the most checks
/// it draws as bars and gives an interval: a run of 100,000 rows drew 400
/// MB of charts per 10,000 rows, and bootstrapped every check. Past it,
/// the flagged and the most changed are drawn, and every row is still in
/// the tables.
pub(crate) const MAX_DRAWN: usize = 200;

/// The rows of `run` drawn one by one, in the run's order: all of them, or
/// the [`MAX_DRAWN`] that its comparison flagged or saw change most (the
/// first ones, without a comparison).
pub(crate) fn drawn_rows(run: &Run) -> Vec<&crate::document::row::Row> {
    if run.rows.len() <= MAX_DRAWN {
        return run.rows.iter().collect();
    }
    let mut rank: std::collections::HashMap<&str, (bool, f64)> = std::collections::HashMap::new();
    for k in run.comparison.iter().flat_map(|c| &c.checks) {
        let flagged = k.regressed() || k.inconclusive();
        let change = if k.change_pct.is_finite() {
            k.change_pct.abs()
        } else {
            f64::MAX
        };
        let e = rank.entry(k.key.as_str()).or_insert((false, 0.0));
        *e = (e.0 || flagged, e.1.max(change));
    }
    let mut order: Vec<usize> = (0..run.rows.len()).collect();
    order.sort_by(|&a, &b| {
        let of = |i: usize| {
            rank.get(run.rows[i].key.as_str())
                .copied()
                .unwrap_or((false, 0.0))
        };
        let (fa, ca) = of(a);
        let (fb, cb) = of(b);
        fb.cmp(&fa).then(cb.total_cmp(&ca)).then(a.cmp(&b))
    });
    order.truncate(MAX_DRAWN);
    order.sort_unstable();
    order.into_iter().map(|i| &run.rows[i]).collect()
}

/// Says how many rows of `run` were not drawn one by one, if any.
pub(crate) fn say_undrawn(page: &mut Page, run: &Run) {
    if run.rows.len() > MAX_DRAWN {
        page.paragraph(
            &format!(
                "{} rows: the {MAX_DRAWN} flagged or changed most are drawn one by one below; \
                 every row is in the tables.",
                run.rows.len()
            ),
            true,
        );
    }
}

/// Draws `run` (named `name`: its file, or what made it) as a section of
/// `page`, by its kind, judged against `baseline` when its rounds are at
/// hand, else by the comparison it carries; then where it was measured.
pub fn draw_run(
    page: &mut Page,
    name: &str,
    run: &Run,
    baseline: Option<&Run>,
) -> Result<(), Error> {
    page.heading(&format!(
        "{name}: {}, started {}",
        run.mode.a_run_of(run.metric),
        run.started
    ));
    // What a matrix or a group run was made for comes first: the
    // configurations or implementations side by side; then each probe.
    if let Some(m) = &run.matrix {
        matrix::draw(page, m);
    }
    if let Some(ranking) = &run.ranking {
        groups::draw(page, ranking, run.metric);
    }
    match run.mode {
        Mode::Micro => micro::draw(page, run, baseline)?,
        Mode::Kernel => kernel::draw(page, run, baseline)?,
        Mode::Http => http::draw(page, run, baseline)?,
    }
    environment::draw(page, run);
    Ok(())
}

/// Writes the page of the one run a command just made (`--html`).
pub fn save_run(path: &Path, name: &str, run: &Run, baseline: Option<&Run>) -> Result<(), Error> {
    let mut page = Page::new(&format!("yardstick report: {name}"));
    draw_run(&mut page, name, run, baseline)?;
    page.save(path, &command_line())?;
    eprintln!("report: {}", path.display());
    Ok(())
}

/// This process's command line as a page shows it (see [`shown`]).
pub fn command_line() -> Vec<String> {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    shown(&args)
}

/// Options whose value is a secret or may hold one: shown without it.
const SECRET_OPTIONS: [&str; 4] = ["--auth", "--cookie", "--header", "--history"];

/// A command line as a page may show it, which CI uploads for anyone with
/// access to read: the program by its name alone (not the path it ran
/// from); the values of [`SECRET_OPTIONS`] hidden, and in every other
/// argument a URL's password and query, which can carry tokens.
pub fn shown(args: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut hide_next = false;
    for (i, arg) in args.iter().enumerate() {
        if i == 0 {
            let name = std::path::Path::new(arg).file_name();
            out.push(name.map_or(arg.clone(), |n| n.to_string_lossy().into_owned()));
            continue;
        }
        if std::mem::take(&mut hide_next) {
            out.push("(hidden)".to_string());
            continue;
        }
        let option = arg.split('=').next().unwrap_or_default();
        if SECRET_OPTIONS.contains(&option) {
            match arg.split_once('=') {
                Some((name, _)) => out.push(format!("{name}=(hidden)")),
                None => {
                    hide_next = true;
                    out.push(arg.clone());
                }
            }
            continue;
        }
        out.push(without_url_secrets(arg));
    }
    out
}

/// `arg` with each URL's `user:password@` cut to `user@` and its query
/// hidden.
fn without_url_secrets(arg: &str) -> String {
    let mut out = String::with_capacity(arg.len());
    for (i, part) in arg.split("://").enumerate() {
        if i == 0 {
            out.push_str(part);
            continue;
        }
        out.push_str("://");
        let end = part.find(['/', ' ', ',', '?']).unwrap_or(part.len());
        let (authority, rest) = part.split_at(end);
        match authority.rsplit_once('@') {
            Some((user, host)) => {
                let user = user.split(':').next().unwrap_or_default();
                out.push_str(&format!("{user}@{host}"));
            }
            None => out.push_str(authority),
        }
        // A query ends where the next URL of a list begins, if any.
        match rest.split_once('?') {
            Some((path, query)) => {
                out.push_str(path);
                out.push_str("?(hidden)");
                if let Some((_, after)) = query.split_once(',') {
                    out.push(',');
                    out.push_str(after);
                }
            }
            None => out.push_str(rest),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn no_secret_of_a_command_line_reaches_a_page() {
        let args: Vec<String> = [
            "/home/me/target/release/yardstick",
            "http",
            "--auth=user:pw1",
            "--cookie",
            "sid=pw2",
            "--header=Authorization: Bearer pw3",
            "--url=https://u:pw4@example.com/a?token=pw5",
            "--compare=http://a.test/?key=pw6,http://b.test/",
            "--history=postgres://team@db/h",
            "--requests=20",
        ]
        .map(String::from)
        .to_vec();
        let line = shown(&args).join(" ");
        for secret in ["pw1", "pw2", "pw3", "pw4", "pw5", "pw6", "team@db"] {
            assert!(!line.contains(secret), "{secret} in {line}");
        }
        assert!(
            line.starts_with("yardstick http --auth=(hidden) --cookie (hidden)"),
            "{line}"
        );
        assert!(line.contains("https://u@example.com/a?(hidden)"), "{line}");
        assert!(
            line.contains(",http://b.test/") && line.ends_with("--requests=20"),
            "{line}"
        );
    }
}

#[cfg(test)]
mod bound_tests {
    use super::*;
    use crate::document::run::{Row, RowKind, test_micro_run};

    #[test]
    fn a_run_of_many_rows_draws_a_bounded_few_one_by_one() {
        let rows: Vec<Row> = (0..1000)
            .map(|i| {
                let key = format!("p{i}");
                Row::with_samples(key.clone(), RowKind::Probe, key, vec![1.0, 1.0, 1.0])
            })
            .collect();
        let run = test_micro_run(rows, None);
        let drawn = drawn_rows(&run);
        assert_eq!(drawn.len(), MAX_DRAWN);
        // Without a comparison, the first ones, in order.
        assert_eq!(drawn[0].key, "p0");
        assert_eq!(drawn[MAX_DRAWN - 1].key, format!("p{}", MAX_DRAWN - 1));
        let mut page = Page::new("t");
        micro::draw(&mut page, &run, None).unwrap();
        let html = page.render(&[]);
        assert!(html.contains("1000 rows: the 200 flagged or changed most"));
        assert_eq!(html.matches("<h3>p").count(), MAX_DRAWN);
    }

    #[test]
    fn a_matrix_comes_before_the_probes_it_sets_side_by_side() {
        use crate::document::matrix::{Cell, Line, Matrix};
        let row = Row::with_samples("p".into(), RowKind::Probe, "p".into(), vec![1.0, 1.0]);
        let mut run = test_micro_run(vec![row], None);
        run.matrix = Some(Matrix {
            metric: crate::document::run::Metric::Time,
            base: "system".into(),
            configurations: vec!["system".into(), "jemalloc".into()],
            lines: vec![Line {
                probe: "p".into(),
                cells: vec![Cell::default(), Cell::default()],
            }],
            geomean: vec![Cell::default(), Cell::default()],
            margin: None,
        });
        let mut page = Page::new("t");
        draw_run(&mut page, "m.json", &run, None).unwrap();
        let html = page.render(&[]);
        let at = |text: &str| html.find(text).unwrap_or(usize::MAX);
        // The headings in the body, not the links to them in the contents.
        let (matrix, verdict, probe) = (
            at(">configurations side by side</h3>"),
            at(">Verdict</h3>"),
            at(">p</h3>"),
        );
        assert!(
            matrix < verdict && verdict < probe && probe < usize::MAX,
            "{html}"
        );
        assert!(html.contains("the table above"), "{html}");
    }
}
