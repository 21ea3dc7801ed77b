//! `yardstick history add RUN...`: saved runs into the history.

use super::options::HistoryOptions;
use crate::document::store;
use crate::error::Error;
use crate::history::{Added, Entry};
use crate::output::stdout;
use std::path::PathBuf;

pub(super) fn main(options: HistoryOptions) -> Result<i32, Error> {
    if options.operands.is_empty() {
        return Err(Error::usage(format!("no run to add; {}", super::ADD.usage)));
    }
    // Every run is read first: a bad file adds nothing.
    let branch = options.branch.clone().unwrap_or_default();
    let mut entries = Vec::with_capacity(options.operands.len());
    for operand in &options.operands {
        let path = PathBuf::from(operand);
        let (run, text) = store::load_with_text(&path)?;
        entries.push((path, Entry::new(text, &run, &branch)));
    }
    let (mut history, location) = super::open_to_add(&options)?;
    for (path, entry) in &entries {
        let how = match history.add(entry)? {
            Added::New => "added",
            Added::Already => "already there",
        };
        stdout::line(&format!(
            "{}: {how} as {}",
            path.display(),
            entry.short_id()
        ));
    }
    eprintln!("history: {}", location.shown());
    Ok(0)
}
