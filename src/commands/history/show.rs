//! `yardstick history show ID`: a kept run, printed as `show` prints a
//! saved one.

use super::options::HistoryOptions;
use crate::document::store;
use crate::error::Error;
use crate::output::{Format, deliver, stdout};

pub(super) fn main(options: HistoryOptions) -> Result<i32, Error> {
    let [id] = options.operands.as_slice() else {
        return Err(Error::usage(super::SHOW.usage));
    };
    let id = id.to_string_lossy();
    let (mut history, location) = super::open(&options)?;
    let stored = history.find(&id)?;
    if options.common.format == Format::Json {
        // As it was added, byte for byte.
        stdout::print(&stored.text);
        return Ok(0);
    }
    let run = store::parse(&stored.text)
        .map_err(|m| Error::input(format!("{}: run {}: {m}", location.shown(), stored.id)))?;
    deliver::show(&run, &options.common.delivery());
    Ok(0)
}
