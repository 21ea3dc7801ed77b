//! The comparison of two arbitrary runs: the input is two run documents
//! (split at the first NUL byte) and a threshold, compared and printed as
//! `yardstick compare` does; and the run saved with its comparison (what a
//! measured run with `--baseline --save` writes) must read back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yardstick_output::Format;
use yardstick::judge::{Rules, compare};
use yardstick_output::{github, renderer, table};

fuzz_target!(|data: &[u8]| {
    let Some((rules, rest)) = data.split_first() else {
        return;
    };
    let mut parts = rest.splitn(2, |&b| b == 0);
    let (Some(a), Some(b)) = (parts.next(), parts.next()) else {
        return;
    };
    let (Ok(a), Ok(b)) = (std::str::from_utf8(a), std::str::from_utf8(b)) else {
        return;
    };
    let (Ok(base), Ok(run)) = (yardstick::document::store::parse(a), yardstick::document::store::parse(b)) else {
        return;
    };
    let rules = Rules {
        threshold: (rules & 1 == 1).then_some(f64::from(rules >> 2)),
        min_delta: (rules & 2 == 2).then_some(f64::from(rules >> 4)),
        max_machine_slowdown: None,
        cross_machine: rules & 128 == 128,
        cross_tool: rules & 64 == 64,
    };
    let Ok(c) = compare(&base, "base.json", &run, &rules) else {
        return;
    };
    let judged = yardstick::document::run::Run {
        comparison: Some(c.clone()),
        ..run
    };
    let saved = yardstick::document::store::to_json(&judged);
    assert_eq!(
        yardstick::document::store::parse(&saved).as_ref(),
        Ok(&judged),
        "saved:\n{saved}"
    );
    let _ = table::comparison_text(&c, true);
    let _ = renderer(Format::Csv, true).comparison(&c);
    let _ = renderer(Format::Json, true).comparison(&c);
    let _ = github::annotations(&c, "class", None);
    let _ = c.failed();
});
