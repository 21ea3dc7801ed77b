//! A run's variants drawn: per group, each variant's median and ratio to
//! the reference with their intervals as a table, and across groups each
//! variant's standing. The cells are the text table's (`output::ranking`).

use super::Page;
use crate::document::ranking::Ranking;
use crate::document::run::Metric;
use crate::output::ranking::{COLUMNS, caption, legend, rows, standing};

/// Draws `ranking`, whose medians are of `metric`.
pub fn draw(page: &mut Page, ranking: &Ranking, metric: Metric) {
    page.subheading("variants side by side");
    page.paragraph(&caption(metric), true);
    let header: Vec<&str> = COLUMNS.iter().map(|(name, _)| *name).collect();
    page.table(
        &header,
        &rows(ranking, metric),
        &["median", "ratio", "allocs", "bytes", "peak"],
    );
    page.paragraph(&legend(ranking), true);
    for s in &ranking.standings {
        page.paragraph(&standing(s), false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::ranking::{Entry, Group, Outcome, Standing};
    use yardstick::probe::Role;

    #[test]
    fn every_variant_is_a_row_and_names_are_escaped() {
        let entry = |variant: &str, role| Entry {
            variant: variant.into(),
            key: format!("k_{variant}"),
            role,
            median: None,
            ratio: None,
            memory: None,
            failed: None,
        };
        let ranking = Ranking {
            groups: vec![Group {
                name: "<load>".into(),
                reference: "ours".into(),
                variants: vec![
                    entry("ours", Role::Reference),
                    entry("theirs", Role::Contender),
                ],
                outcome: Outcome::Winner("ours".into()),
            }],
            standings: vec![Standing {
                variant: "ours".into(),
                groups: 1,
                wins: 1,
                ties: 0,
                failed: 0,
                geomean_ratio: Some(1.0),
            }],
            margin: Some(0.02),
        };
        let mut page = Page::new("t");
        draw(&mut page, &ranking, Metric::Time);
        let html = page.render(&[]);
        assert!(
            html.contains("&lt;load&gt;") && !html.contains("<load>"),
            "{html}"
        );
        assert!(html.contains("<td>theirs</td>"), "{html}");
        assert!(html.contains("ours: wins 1 of 1 group"), "{html}");
    }
}
