//! What the speed card shows, as it is kept in its file: for each page,
//! its median through server A and through server B, cached (a warm run)
//! and rendered (a `--cold` run), their ratio, and how many requests each
//! median is made of; when it was measured and how long that took. It is
//! made from the two runs `yardstick http --compare=A,B` saved, so the card
//! and `yardstick show` of those runs give the same figures.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use yardstick::document::run::Run;

/// One page through one server, in one way (cached or rendered).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// Milliseconds; none when no request succeeded.
    pub median: Option<f64>,
    pub p95: Option<f64>,
    /// Successful requests per second.
    pub rps: Option<f64>,
    /// The requests the median is made of (successful ones).
    pub n: usize,
    pub errors: u64,
    /// The cache header's answers, and how often.
    pub cache: BTreeMap<String, u64>,
}

/// A page through both servers, in one way.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    pub a: Side,
    pub b: Side,
    /// A's median over B's; none when either has none.
    pub ratio: Option<f64>,
}

/// One page of the list.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub page: String,
    /// Warm: served as the cache holds it.
    pub cached: Pair,
    /// `--cold`: rendered for every request.
    pub rendered: Pair,
}

/// One measurement, whole.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Card {
    /// When it was measured (RFC 3339, UTC).
    pub measured_at: String,
    /// How long it took, in seconds.
    pub seconds: f64,
    /// Server A's and server B's names, as given.
    pub servers: [String; 2],
    pub pages: Vec<Line>,
}

impl Card {
    /// The card of `warm` and `cold`, two runs of the same pages through
    /// the same two servers (`yardstick http --compare=A,B`, the second
    /// with `--cold`); an error says what does not match.
    pub fn of_runs(
        warm: &Run,
        cold: &Run,
        measured_at: String,
        seconds: f64,
    ) -> Result<Card, String> {
        let servers = servers_of(warm)?;
        if servers != servers_of(cold)? {
            return Err("the cached and rendered runs measured other servers".into());
        }
        let mut pages = Vec::new();
        for page in page_order(warm) {
            pages.push(Line {
                cached: pair(warm, &page, &servers)?,
                rendered: pair(cold, &page, &servers)?,
                page,
            });
        }
        Ok(Card {
            measured_at,
            seconds,
            servers,
            pages,
        })
    }
}

/// The two servers of a run, in the order measured.
fn servers_of(run: &Run) -> Result<[String; 2], String> {
    let mut names: Vec<String> = Vec::new();
    for row in &run.rows {
        let Some(target) = &row.page.target else {
            return Err(format!("row {} names no server", row.key));
        };
        if !names.contains(target) {
            names.push(target.clone());
        }
    }
    match <[String; 2]>::try_from(names) {
        Ok(two) => Ok(two),
        Err(names) => Err(format!("the run measured {} servers, not two", names.len())),
    }
}

/// The pages of a run, in the order of its rows.
fn page_order(run: &Run) -> Vec<String> {
    let mut pages: Vec<String> = Vec::new();
    for row in &run.rows {
        if !pages.contains(&row.name) {
            pages.push(row.name.clone());
        }
    }
    pages
}

/// `page` through both servers in `run`.
fn pair(run: &Run, page: &str, servers: &[String; 2]) -> Result<Pair, String> {
    let side = |server: &String| -> Result<Side, String> {
        let row = run
            .rows
            .iter()
            .find(|r| r.name == page && r.page.target.as_ref() == Some(server))
            .ok_or_else(|| format!("{page} through {server} is not in the run"))?;
        if row.figures.n == 0 {
            // A median of nothing would show a server that is down as a
            // dash: the measurement failed, and says why.
            let why = row
                .error_messages
                .iter()
                .max_by_key(|(_, n)| **n)
                .map_or("no answer", |(m, _)| m.as_str());
            return Err(format!(
                "{server} answered none of {page}'s {} requests: {why}",
                row.requests
            ));
        }
        Ok(Side {
            median: row.figures.median,
            p95: row.figures.p95,
            rps: row.rps,
            n: row.figures.n,
            errors: row.errors,
            cache: row.page.cache.clone(),
        })
    };
    let (a, b) = (side(&servers[0])?, side(&servers[1])?);
    let ratio = match (a.median, b.median) {
        (Some(x), Some(y)) if y > 0.0 => Some(x / y),
        _ => None,
    };
    Ok(Pair { a, b, ratio })
}
