//! `yardstick http`: pages measured over HTTP (see `http`), then judged,
//! printed and saved like every mode.

use crate::error::Error;
use crate::http::{self, options};
use crate::output::deliver::{self as outcome, Baseline};

/// `yardstick http ARGS`: measures, then reports, saves and compares like
/// every mode; returns the exit code.
pub fn main(args: Vec<String>) -> Result<i32, Error> {
    let mut o = options::parse(args, std::env::var("YARDSTICK_AUTH").ok())?;
    o.secret_headers_from_env(std::env::var("YARDSTICK_SECRET_HEADERS").ok())?;
    // Read before measuring, so a bad baseline file costs no run.
    let baseline = match Baseline::resolve(&o.common, None, None)? {
        outcome::Resolved::Baseline(b) => Some(*b),
        _ => None,
    };
    if let Some(b) = &baseline {
        b.suits(
            crate::document::run::Mode::Http,
            crate::document::run::Metric::Time,
        )?;
    }
    outcome::check_outputs(&o.common)?;
    let run = http::measure(&o)?;
    outcome::finish(run, &o.common, baseline)
}
