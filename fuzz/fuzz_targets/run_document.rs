//! The saved-run reader: any text as a run document, and a run it accepts
//! printed in every format.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yardstick::cli::common::Format;
use yardstick::report::{markdown, renderer};

fuzz_target!(|text: &str| {
    let Ok(run) = yardstick::store::parse(text) else {
        return;
    };
    for format in [Format::Table, Format::Csv, Format::Json] {
        let _ = renderer(format, true).run(&run);
    }
    let _ = markdown::summary(&run);
});
