//! The `yardstick` command: the commands a bench binary does not run. It
//! compares saved runs (`compare`, `show`), pools baselines (`baseline`),
//! pairs two builds (`compare-builds`), measures configurations side by
//! side (`matrix`) and pages over HTTP (`http`, `k6`), draws reports
//! (`report`) and keeps a history (`history`). It joins the crates below
//! it; a user's bench depends on `yardstick` alone and builds none of
//! this (docs/design.md, "The crates").

pub mod commands;

pub use commands::main;

// The crates the commands join, by the module names their code uses.
pub(crate) use yardstick::{document, error, judge, measure, stats, text, worker};
pub(crate) use yardstick_baseline as baseline;
pub(crate) use yardstick_history as history;
pub(crate) use yardstick_http as http;
pub(crate) use yardstick_output as output;
pub(crate) use yardstick_report as report;
