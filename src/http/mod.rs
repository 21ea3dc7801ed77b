//! HTTP mode: pages timed as a visitor gets them, several servers measured
//! back to back, warm or cold caches, and the same rows, formats and
//! comparisons as every other mode.
//!
//! `options` reads the command line, `pages` and `plan` decide what is
//! requested in which order, `safety` refuses what could harm a server that
//! is not ours, `session` (over `client`, `connect` and `tls`) measures with
//! the built-in client, `tools` hands pages to an installed load tool, and
//! `measure` turns answers into rows.

pub mod address;
pub mod builtin;
pub mod client;
pub mod connect;
pub mod failure;
pub mod measure;
pub mod options;
pub mod pages;
pub mod plan;
pub mod safety;
pub mod session;
pub mod settings;
pub mod tls;
pub mod tools;
pub mod url;

use crate::document::builder::{Figures, RunBuilder};
use crate::document::environment::Environment;
use crate::document::run::{Mode, Run};
use crate::error::Error;
use options::{Options, Tool};
use plan::Plan;
use std::path::Path;

/// Measures what `o` asks for and returns the run, not yet compared or
/// saved. Refusals (safety caps, bad pages, a missing tool) come before any
/// connection is made.
pub fn measure(o: &Options) -> Result<Run, Error> {
    let mut page_list = o.urls.clone();
    if let Some(file) = &o.urls_file {
        page_list.extend(pages::from_file(file)?);
    }
    let mut plan = Plan::new(o, page_list)?;
    plan.resolve(&o.resolve, &address::system_lookup);
    safety::check(&plan, o)?;
    if o.tool != Tool::Builtin {
        tools::require(o.tool)?;
    }
    let started = crate::document::environment::now();
    let quiet = o.common.quiet;
    let mut progress = |line: &str| {
        if !quiet {
            eprintln!("http: {}", crate::output::text::clean(line));
        }
    };
    let (rows, pairs) = match o.tool {
        Tool::Builtin => builtin::run(&plan, o, &mut progress)?,
        tool => tools::run(tool, &plan, o, &mut progress)?,
    };
    let environment = Environment::current(Path::new("."), started.clone());
    // An external tool's times owe nothing to this build.
    let figures = match o.tool {
        Tool::Builtin => Figures::ClientTime,
        _ => Figures::Unaffected,
    };
    Ok(RunBuilder::new(Mode::Http, started)
        .settings(&settings::of(o, &plan))
        .rows(rows)
        .server_pairs((!o.compare.is_empty()).then_some(pairs))
        .build(environment, figures))
}
