//! The card as its template reads it: each figure made text here (a
//! median in milliseconds, a ratio, a count), so the template only places
//! them.

use super::model::{Line, Pair, Side};
use super::store::Kept;
use probes::template::{Map, Value, Vars};

/// What the card says of itself, beneath its figures: the limits of a
/// measurement this small.
pub const LIMITS: &str = "Few requests (20 cached and 8 rendered for each page and server), \
     at one moment, measured from the server itself: these figures show what a benchmark \
     says and how little it can say, not how fast the site is for its visitors.";

/// The template's variables for what the card's file gave: `Ok(None)`
/// when nothing was measured yet, `Err` when the file is damaged.
pub fn vars(kept: &Result<Option<Kept>, String>) -> Vars {
    let (card, failure, damaged) = match kept {
        Ok(Some(k)) => (
            k.last_good.as_ref(),
            k.failure
                .as_ref()
                .map(|f| format!("The measurement of {} failed: {}", f.at, f.message)),
            String::new(),
        ),
        Ok(None) => (None, None, String::new()),
        // The file's path and the parser's words are the server's: the
        // log has them (`card::reply`), visitors are told what it means.
        Err(_) => (
            None,
            None,
            "The card's file is damaged, so no figures are shown.".to_string(),
        ),
    };
    let mut vars = Vars::new()
        .set("measured", card.is_some())
        .set("failure", failure.unwrap_or_default())
        .set("damaged", damaged)
        .set("limits", LIMITS);
    if let Some(card) = card {
        vars = vars
            .set("server_a", card.servers[0].as_str())
            .set("server_b", card.servers[1].as_str())
            .set("measured_at", card.measured_at.as_str())
            .set("seconds", format!("{:.1}", card.seconds))
            .set(
                "lines",
                Value::from(card.pages.iter().map(line).collect::<Vec<_>>()),
            );
    }
    vars
}

fn line(l: &Line) -> Value {
    let mut m = Map::with_capacity(3);
    m.insert("page", Value::str(&l.page));
    m.insert("cached", pair(&l.cached));
    m.insert("rendered", pair(&l.rendered));
    Value::from(m)
}

fn pair(p: &Pair) -> Value {
    let mut m = Map::with_capacity(3);
    m.insert("a", side(&p.a));
    m.insert("b", side(&p.b));
    m.insert(
        "ratio",
        Value::from(
            // Three significant digits: a cached page 200 times faster is
            // ×0.00500, not ×0.00.
            p.ratio.map_or_else(
                || "–".to_string(),
                |r| format!("×{}", yardstick_output::layout::significant(r, 3)),
            ),
        ),
    );
    Value::from(m)
}

fn side(s: &Side) -> Value {
    let mut m = Map::with_capacity(3);
    m.insert(
        "median",
        Value::from(
            s.median
                .map_or_else(|| "–".to_string(), |v| format!("{v:.3} ms")),
        ),
    );
    m.insert("n", Value::from(i64::try_from(s.n).unwrap_or(i64::MAX)));
    m.insert(
        "errors",
        Value::from(i64::try_from(s.errors).unwrap_or(i64::MAX)),
    );
    Value::from(m)
}
