//! Every kind of run, its text fields hostile, drawn as a page: nothing
//! panics, and no text of the run reaches the page as markup, whether it
//! lands in the HTML or in a chart's SVG.

use super::{Page, draw_run};
use crate::document::check::{Figure, PairedRound};
use crate::document::run::{Metric, Mode, Run};
use proptest::prelude::*;

/// The tag a field injects: found in a page only if some text was not
/// escaped.
const INJECTED: &str = "<x-injected";

/// Any text, or text built to close what it sits in and open a tag.
fn field() -> impl Strategy<Value = String> {
    let closing = prop_oneof![
        Just(""),
        Just("\"'>"),
        Just("</text></svg>"),
        Just("]]>"),
        Just("</td></table>"),
    ];
    prop_oneof![
        any::<String>(),
        ("[^<]{0,6}", closing, any::<String>()).prop_map(|(before, close, after)| format!(
            "{before}{close}{INJECTED} a=\"&\">{after}"
        )),
    ]
}

/// `run` with its first check a paired one that kept its rounds, so the
/// paired drawing is fed the same text.
fn paired(mut run: Run) -> Run {
    if let Some(c) = run.comparison.as_mut()
        && let Some(check) = c.checks.first_mut()
    {
        check.metric = Figure::PairedMedianRatio;
        check.key = run.rows.first().map(|r| r.key.clone()).unwrap_or_default();
        check.rounds = (0..8)
            .map(|i| PairedRound {
                pair: i / 2,
                round: i + 1,
                baseline: 1.0,
                current: 1.0 + i as f64 / 10.0,
            })
            .collect();
    }
    run
}

proptest! {
    // Each case draws a page of charts: a few dozen cases cover the
    // fields, which is what varies.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn no_text_of_a_run_becomes_markup(
        texts in proptest::collection::vec(field(), 1..10),
        mode in prop_oneof![Just(Mode::Micro), Just(Mode::Kernel), Just(Mode::Http)],
        metric in prop_oneof![Just(Metric::Time), Just(Metric::EstimatedCycles)],
        as_paired in any::<bool>(),
    ) {
        let mut run = yardstick_test_runs::hostile(mode, metric, &texts);
        if as_paired {
            run = paired(run);
        }
        let mut page = Page::new(&texts[0]);
        let drawn = draw_run(&mut page, &texts[0], &run, Some(&run.clone()));
        prop_assert!(drawn.is_ok(), "{drawn:?}");
        let html = page.render(&texts);
        prop_assert!(!html.contains(INJECTED), "{html}");
        // The fields did reach the page, as text.
        if texts.iter().any(|t| t.contains(INJECTED)) {
            prop_assert!(html.contains("&lt;x-injected"));
        }
        prop_assert!(!html.contains("<script"));
    }
}
