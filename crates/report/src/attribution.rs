//! Where a count moved, on the page: for each counted check that says so,
//! the functions whose own count moved most, and the subtree the change
//! lies within; and a timed run's regressions explained by counts
//! (`--explain`), with the same tables. The words are the terminal's
//! (yardstick-output's `attribution`), the tables the page's own.

use super::Page;
use super::comparison::check_cells;
use crate::document::check::Check;
use crate::document::comparison::Comparison;
use crate::document::explanation::Explanation;
use crate::document::functions::Attribution;
use crate::output::attribution::{explained, function_name};
use crate::output::layout::{change, thousands};

/// A table of the moved functions of each check of `c` that has them.
pub fn moved(page: &mut Page, c: &Comparison) {
    for k in &c.checks {
        if let Some(a) = &k.attribution {
            functions(page, k, a);
        }
    }
}

/// What `--explain` found, after the timed comparison.
pub fn explanation(page: &mut Page, e: &Explanation, timed: &Comparison) {
    page.subheading("Explained by counts");
    let c = match e {
        Explanation::Uncounted { why } => {
            page.paragraph(&format!("Not explained by counts: {why}."), true);
            return;
        }
        Explanation::Counts { comparison } => comparison,
    };
    page.paragraph(
        &format!(
            "The probes that regressed, counted ({}) in this build against {}.",
            c.method.as_str(),
            c.baseline
        ),
        true,
    );
    for k in timed.checks.iter().filter(|k| k.regressed()) {
        if let Some(said) = explained(e, &k.key) {
            page.paragraph(&format!("{}: {said}.", k.key), false);
        }
    }
    let rows: Vec<Vec<String>> = c.checks.iter().map(check_cells).collect();
    page.table(
        &["probe", "counted", "baseline", "now", "change"],
        &rows,
        &["baseline", "now", "change"],
    );
    if !c.missing.is_empty() {
        page.paragraph(
            &format!("Not in the count baseline: {}.", c.missing.join(", ")),
            true,
        );
    }
    moved(page, c);
}

/// One check's functions.
fn functions(page: &mut Page, k: &Check, a: &Attribution) {
    let (moved, within) = match a {
        Attribution::Unkept { .. } => {
            page.paragraph(
                &format!(
                    "{}: no function data was kept on one side; the verdict stands without it.",
                    k.key
                ),
                true,
            );
            return;
        }
        Attribution::Functions { moved, within, .. } => (moved, within),
    };
    if moved.is_empty() {
        return;
    }
    page.paragraph(
        &format!(
            "Where {} moved ({} {}), by each function's own count:",
            k.key,
            k.metric,
            change(k.change_pct)
        ),
        false,
    );
    if let Some(w) = within {
        page.paragraph(
            &format!(
                "It lies within {}: {} with its callees, {:.0} % of the change.",
                function_name(&w.name),
                signed(w.change()),
                w.share_pct
            ),
            false,
        );
    }
    let rows: Vec<Vec<String>> = moved
        .iter()
        .map(|m| {
            vec![
                function_name(&m.name),
                thousands(m.baseline),
                thousands(m.current),
                signed(m.change()),
                format!("{:.0} %", m.share_pct),
                m.via.as_deref().map(function_name).unwrap_or_default(),
            ]
        })
        .collect();
    page.table(
        &["function", "before", "after", "change", "share", "via"],
        &rows,
        &["before", "after", "change", "share"],
    );
}

fn signed(v: f64) -> String {
    if v > 0.0 {
        format!("+{}", thousands(v))
    } else {
        thousands(v)
    }
}
