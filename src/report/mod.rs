//! Reports people look at: one self-contained HTML file each, with its
//! charts drawn inline as SVG, so that it opens offline, from a CI
//! artifact or a mail, and fetches nothing.
//!
//! [`Page`] lays the document out and escapes every text it is given;
//! [`chart`] draws with plotters, without a font backend: labels are SVG
//! `<text>` in a generic family, sized by plotters' estimate, so no font
//! of the machine is read and none is embedded. Charts sit on a light
//! card in either colour scheme, since their strokes are fixed colours.

pub mod chart;
pub mod comparison;
pub mod environment;
pub mod http;
pub mod kernel;
pub mod micro;
mod page;

pub use page::Page;

use crate::document::run::{Mode, Run};
use crate::error::Error;
use std::path::Path;

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
        "{name}: {} run of {}, started {}",
        run.mode.as_str(),
        run.metric.as_str(),
        run.started
    ));
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

/// This process's command line as a page shows it: the program by its
/// name alone (not the path it was run from), every argument as text
/// even when it is not UTF-8.
pub fn command_line() -> Vec<String> {
    let mut args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some(program) = args.first_mut() {
        let name = std::path::Path::new(program.as_str())
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        if let Some(name) = name {
            *program = name;
        }
    }
    args
}
