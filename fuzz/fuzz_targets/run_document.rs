//! The saved-run reader: any text as a run document. A run it accepts
//! must save as a document that reads back the same (what `--format=json`
//! and `yardstick show` rely on), and print in every format with nothing
//! unsafe in the table, CSV or job summary (`text.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use yardstick_output::Format;
use yardstick::text::is_unsafe;
use yardstick_output::{markdown, renderer};
use yardstick::document::store;

fuzz_target!(|text: &str| {
    let Ok(run) = store::parse(text) else {
        return;
    };
    let saved = store::to_json(&run);
    assert_eq!(store::parse(&saved).as_ref(), Ok(&run), "saved:\n{saved}");
    let _ = renderer(Format::Json, true).run(&run);
    for out in [
        renderer(Format::Table, true).run(&run),
        renderer(Format::Csv, true).run(&run),
        markdown::summary(&run),
    ] {
        let bad = out.chars().find(|&c| c != '\n' && is_unsafe(c));
        assert!(bad.is_none(), "{bad:?} in:\n{out}");
    }
});
