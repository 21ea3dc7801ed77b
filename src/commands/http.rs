//! `yardstick http`: pages measured over HTTP (see `http`), then judged,
//! printed and saved like every mode.

use crate::baseline::{Baseline, Resolved};
use crate::document::run::{Metric, Mode};
use crate::error::Error;
use crate::http::{self, options};
use crate::judge::Rules;
use crate::output::deliver;

/// `yardstick http ARGS`: measures, then reports, saves and compares like
/// every mode; returns the exit code.
pub fn main(args: Vec<String>) -> Result<i32, Error> {
    let mut o = options::parse(args, std::env::var("YARDSTICK_AUTH").ok())?;
    o.secret_headers_from_env(std::env::var("YARDSTICK_SECRET_HEADERS").ok())?;
    // Read before measuring, so a bad baseline file costs no run.
    let baseline = match Baseline::resolve(o.common.asked()?, None, None)? {
        Resolved::Baseline(b) => Some(*b),
        _ => None,
    };
    if let Some(b) = &baseline {
        b.suits(Mode::Http, Metric::Time)?;
    }
    let delivery = o.common.delivery();
    delivery.check()?;
    let mut run = http::measure(&o)?;
    if let Some(b) = &baseline {
        run = b.judge(run, &Rules::from(&o.common))?;
    }
    deliver::deliver(run, &delivery)
}
