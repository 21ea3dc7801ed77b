//! oha, asked for its JSON summary.

use super::Summary;
use crate::http::options::Options;

pub fn args(url: &str, n: u64, c: u64, o: &Options, headers: &[String]) -> Vec<String> {
    let _ = (o, headers);
    vec![
        "-n".into(),
        n.to_string(),
        "-c".into(),
        c.to_string(),
        url.to_string(),
    ]
}

pub fn parse(stdout: &str, requested: u64) -> Result<Summary, String> {
    let _ = (stdout, requested);
    Err("todo".into())
}
