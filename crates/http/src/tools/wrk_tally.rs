//! The statuses wrk saw, counted exactly by its Lua hooks. wrk's own
//! summary counts only statuses above 399 as errors, so a `000` or a `101`
//! is a success to it, and it counts an answer whose body ends at the
//! server's close twice: once answered and once a read error. Its
//! `response` hook sees every answer's status and headers; `done` prints
//! each thread's tally after the summary, one line per status.
//!
//! The hook costs wrk about a tenth more CPU per request (6.15 against
//! 5.59 ms per 1,000 requests of a 1 KB page from loopback nginx, median of
//! three 4 s runs each; docs/evaluation.md, "The second sweep").

use std::collections::BTreeMap;

/// The word that starts each line the hooks print.
const MARK: &str = "yardstick-wrk";

/// The hooks, after the credentials (if any) in the same script. A thread
/// counts in globals of its own Lua state; `done` runs in the main state
/// and reads each thread's with `thread:get`.
pub(crate) const HOOKS: &str = r#"
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {}; unframed = 0 end
function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status < 200 or status == 204 or status == 304 then return end
  local framed = headers["Content-Length"] or headers["content-length"]
    or headers["Transfer-Encoding"] or headers["transfer-encoding"]
  if not framed then
    for name, _ in pairs(headers) do
      local n = string.lower(name)
      if n == "content-length" or n == "transfer-encoding" then framed = true end
    end
  end
  if not framed then unframed = unframed + 1 end
end
function done(summary, latency, requests)
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("statuses")) do
      io.write(string.format("yardstick-wrk status %d %d\n", status, n))
    end
    io.write(string.format("yardstick-wrk unframed %d\n", t:get("unframed")))
  end
  io.write("yardstick-wrk end\n")
end
"#;

/// What the hooks counted, summed over wrk's threads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Answers by status code.
    pub(crate) statuses: BTreeMap<u16, u64>,
    /// Answers with a body and no length, ended by the server's close
    /// (which wrk also counted as read errors).
    pub(crate) unframed: u64,
}

impl Tally {
    /// The answers counted.
    pub(crate) fn answers(&self) -> u64 {
        self.statuses
            .values()
            .fold(0u64, |sum, n| sum.saturating_add(*n))
    }
}

/// The tally in wrk's output: `None` when there is none (the hooks did not
/// run), an error when it is there but cannot be read or has no end mark.
pub(crate) fn read(stdout: &str) -> Result<Option<Tally>, String> {
    let mut tally = Tally::default();
    let mut seen = false;
    for line in stdout.lines() {
        let mut words = line.split_whitespace();
        if words.next() != Some(MARK) {
            continue;
        }
        seen = true;
        let kind = words.next();
        let numbers: Vec<Option<u64>> = words.map(|w| w.parse::<u64>().ok()).collect();
        let bad = || format!("wrk's status tally has a line it cannot have: {line:.80}");
        match (kind, numbers.as_slice()) {
            (Some("status"), [Some(code), Some(n)]) => {
                // `http_parser` gives wrk three digits: at most 1,000 keys.
                let code = u16::try_from(*code)
                    .ok()
                    .filter(|c| *c <= 999)
                    .ok_or_else(bad)?;
                let sum = tally.statuses.entry(code).or_default();
                *sum = sum.saturating_add(*n);
            }
            (Some("unframed"), [Some(n)]) => tally.unframed = tally.unframed.saturating_add(*n),
            (Some("end"), []) => return Ok(Some(tally)),
            _ => return Err(bad()),
        }
    }
    if seen {
        Err("wrk's status tally has no end: its output stopped inside it".to_string())
    } else {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_threads_tallies_are_summed() {
        let out = "  10 requests in 1.00s, 1.00KB read\n\
                   yardstick-wrk status 200 4\nyardstick-wrk status 0 1\nyardstick-wrk unframed 1\n\
                   yardstick-wrk status 200 5\nyardstick-wrk unframed 2\nyardstick-wrk end\n";
        let t = read(out).unwrap().unwrap();
        assert_eq!(t.statuses, BTreeMap::from([(0, 1), (200, 9)]));
        assert_eq!((t.unframed, t.answers()), (3, 10));
    }

    #[test]
    fn a_tally_cut_short_or_forged_is_an_error() {
        assert_eq!(read("no tally here"), Ok(None));
        assert!(read("yardstick-wrk status 200 4\n").is_err());
        assert!(read("yardstick-wrk status 1000 4\nyardstick-wrk end").is_err());
        assert!(read("yardstick-wrk status 200 -4\nyardstick-wrk end").is_err());
        assert!(read("yardstick-wrk wat\nyardstick-wrk end").is_err());
    }

    proptest! {
        #[test]
        fn never_panics(lines in proptest::collection::vec(
            prop_oneof![
                "yardstick-wrk status [0-9]{0,6} [0-9]{0,22}",
                "yardstick-wrk unframed [0-9]{0,22}",
                "yardstick-wrk (end|status|x)",
                "\\PC{0,40}",
            ], 0..12)) {
            let _ = read(&lines.join("\n"));
        }
    }
}
