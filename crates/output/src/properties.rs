//! Every printer fed arbitrary text in every field a run or a comparison
//! can carry: nothing unsafe comes out, and no text that followed a
//! newline (or any other separator) in a field starts a line of its own,
//! where a CI log would read it as a workflow command.

use super::{github, http_table, markdown, renderer, verdict};
use crate::Format;
use crate::document::run::{Metric, Mode, Run};
use crate::error::Error;
use crate::text::is_unsafe;
use proptest::prelude::*;

const MARK: &str = "::error::INJECTED";

/// Any text, or text built to inject: anything without a colon, one unsafe
/// character, then a workflow command.
fn field() -> impl Strategy<Value = String> {
    let separator = prop_oneof![
        Just('\n'),
        Just('\r'),
        Just('\u{85}'),
        Just('\u{2028}'),
        Just('\u{1b}'),
        Just('\u{0}'),
    ];
    prop_oneof![
        any::<String>(),
        ("[^:]{0,6}", separator, any::<String>())
            .prop_map(|(before, sep, after)| format!("{before}{sep}{MARK}{after}")),
    ]
}

/// Everything yardstick prints from `run`, by printer.
fn printed(run: &Run) -> Vec<(&'static str, String)> {
    let c = run.comparison.clone().unwrap_or_default();
    vec![
        ("table", renderer(Format::Table, true).run(run)),
        (
            "table comparison",
            renderer(Format::Table, true).comparison(&c),
        ),
        ("csv", renderer(Format::Csv, true).run(run)),
        ("csv comparison", renderer(Format::Csv, true).comparison(&c)),
        ("markdown", markdown::summary(run)),
        ("http table", http_table::render(run)),
        (
            "annotations",
            github::annotations(&c, &c.baseline, None).join("\n"),
        ),
        ("verdicts", verdict::lines(run).join("\n")),
        ("error", Error::input(c.baseline.clone()).to_string()),
        ("refusal", Error::Refused(c.baseline.clone()).to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn no_printer_lets_a_field_start_a_line(
        texts in proptest::collection::vec(field(), 1..12),
        http in any::<bool>(),
        metric in prop_oneof![
            Just(Metric::Time),
            Just(Metric::Instructions),
            Just(Metric::EstimatedCycles),
        ],
    ) {
        let run = yardstick_test_runs::hostile(if http { Mode::Http } else { Mode::Micro }, metric, &texts);
        for (printer, out) in printed(&run) {
            let bad = out.chars().find(|&c| c != '\n' && is_unsafe(c));
            prop_assert!(bad.is_none(), "{printer} printed {bad:?}: {out}");
            // The runner trims leading white space before it looks for `::`.
            let line = out.lines().find(|l| l.trim_start().starts_with(MARK));
            prop_assert!(line.is_none(), "{printer} started a line with a field's text: {line:?}");
        }
        // JSON escapes what it must; its lines start with its own syntax.
        let json = renderer(Format::Json, true).run(&run);
        prop_assert!(json.lines().all(|l| !l.trim_start().starts_with(MARK)));
    }
}
