//! The slowdown knob: `YARDSTICK_INJECT=ini_parse:15` (or `*:15`, or several
//! rules separated by commas) makes the named probes X % slower with the same
//! code in the same binary. It exists to measure how well the verdict
//! catches a known slowdown; a run made with it says so.
//!
//! Every power figure of the evaluation rests on this knob, so it must
//! inject exactly what it says, at any batch size:
//! - **Wall time** (`Injection::stretch`): each sample times its batch,
//!   then busy-waits X % of that sample's own work time inside the timed
//!   section, so the sample takes (1 + X/100) times as long. Extra
//!   iterations could not do that: at a batch of 1, 40 % rounds to none.
//! - **A process probe's figures** (`measure::process`): a child is timed
//!   from outside, so its parent stretches each measured figure by X %
//!   (`kernel.boot:40` one figure, `kernel:40` all of the probe's).
//! - **Counts** ([`counted_iterations`]): a spin would count the spin loop's
//!   instructions, which vary, so the counted child runs extra iterations
//!   and the count is still divided by the batch. Where rounding makes the
//!   injected share miss X by more than a tenth of X, the run is refused.

use crate::error::Error;

/// The environment variable that carries the rules.
pub const VARIABLE: &str = "YARDSTICK_INJECT";

/// Parsed injection rules: (probe name or `*`, percent).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Injection {
    rules: Vec<(String, f64)>,
}

impl Injection {
    /// The rules in `YARDSTICK_INJECT`, none when it is unset or empty.
    pub fn from_env() -> Result<Injection, Error> {
        match std::env::var(VARIABLE) {
            Ok(text) => Injection::parse(&text),
            Err(std::env::VarError::NotPresent) => Ok(Injection::default()),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(Error::usage(format!("{VARIABLE}: not valid UTF-8")))
            }
        }
    }

    /// Reads `NAME:PERCENT` rules separated by commas (`*` for every probe).
    pub fn parse(text: &str) -> Result<Injection, Error> {
        let mut rules = Vec::new();
        for rule in text.split(',').map(str::trim).filter(|r| !r.is_empty()) {
            let bad = || {
                Error::usage(format!(
                    "{VARIABLE}: `{rule}` is not NAME:PERCENT (for example ini_parse:15 or *:15)"
                ))
            };
            let (name, pct) = rule.rsplit_once(':').ok_or_else(bad)?;
            let pct: f64 = pct
                .trim()
                .trim_end_matches('%')
                .parse()
                .map_err(|_| bad())?;
            if name.trim().is_empty() || !pct.is_finite() || pct < 0.0 {
                return Err(bad());
            }
            rules.push((name.trim().to_string(), pct));
        }
        Ok(Injection { rules })
    }

    /// True when nothing is injected.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The slowdown in percent for `probe`: the last matching rule wins.
    pub fn percent(&self, probe: &str) -> Option<f64> {
        self.rules
            .iter()
            .rev()
            .find(|(n, _)| n == "*" || n == probe)
            .map(|(_, p)| *p)
    }

    /// The slowdown for `name` by a rule that names it, `*` aside: for the
    /// floor of process probes, which `*` would stretch with every probe and
    /// so hide their slowdown against it.
    pub fn percent_named(&self, name: &str) -> Option<f64> {
        self.rules
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, p)| *p)
    }

    /// The warning a run made with the knob carries, so nobody mistakes its
    /// figures for real ones.
    pub fn warning(&self) -> Option<String> {
        (!self.is_empty()).then(|| {
            format!(
                "slowdown injected ({VARIABLE}={}): these figures are deliberately worse",
                self.describe()
            )
        })
    }

    /// The rules as written back, for the run's settings and header.
    pub fn describe(&self) -> String {
        self.rules
            .iter()
            .map(|(n, p)| format!("{n}:{p}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

impl Injection {
    /// How much longer than its work a timed sample of `probe` must last:
    /// 1 + X/100, or 1 without a rule for it.
    pub fn stretch(&self, probe: &str) -> f64 {
        self.percent(probe).map_or(1.0, |p| 1.0 + p / 100.0)
    }
}

/// The iterations a counted sample of `batch` runs to inject `percent`
/// (the count is still divided by `batch`), or why that batch cannot carry
/// it: the injected share may differ from `percent` by a tenth of it at
/// most.
pub fn counted_iterations(probe: &str, batch: u64, percent: Option<f64>) -> Result<u64, Error> {
    let Some(p) = percent.filter(|p| *p > 0.0) else {
        return Ok(batch);
    };
    let iterations = ((batch as f64) * (1.0 + p / 100.0)).round().max(1.0) as u64;
    let injected = (iterations as f64 / batch as f64 - 1.0) * 100.0;
    if (injected - p).abs() > p / 10.0 {
        // The smallest batch whose rounding stays within a tenth of X:
        // an error of half an iteration at most, against a tenth of X.
        let needed = (500.0 / p).ceil();
        return Err(Error::usage(format!(
            "{VARIABLE}: {probe}: {p} % of a batch of {batch} is {iterations} iterations, \
             which injects {injected:.1} %; counts need --min-batch={needed} or more for {p} %"
        )));
    }
    Ok(iterations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_and_match() {
        let i = Injection::parse("ini_parse:15, *:5,uri_parse:40%").unwrap();
        assert_eq!(i.percent("uri_parse"), Some(40.0));
        assert_eq!(i.percent("ini_parse"), Some(5.0));
        assert_eq!(i.percent("other"), Some(5.0));
        assert_eq!(i.describe(), "ini_parse:15,*:5,uri_parse:40");
        assert!(Injection::parse("").unwrap().is_empty());
        assert_eq!(Injection::parse("a:1").unwrap().percent("b"), None);
    }

    #[test]
    fn bad_rules_name_the_variable() {
        for bad in ["ini_parse", "x:abc", ":5", "x:-3"] {
            let e = Injection::parse(bad).unwrap_err().to_string();
            assert!(e.contains(VARIABLE), "{e}");
        }
    }

    #[test]
    fn time_is_stretched_by_the_percentage() {
        let i = Injection::parse("a:40,b:5").unwrap();
        assert_eq!(i.stretch("a"), 1.4);
        assert_eq!(i.stretch("b"), 1.05);
        assert_eq!(i.stretch("c"), 1.0);
    }

    #[test]
    fn counts_get_extra_iterations_only_where_rounding_keeps_the_share() {
        let ok = |batch, pct| counted_iterations("p", batch, Some(pct)).unwrap();
        let refused = |batch, pct| counted_iterations("p", batch, Some(pct)).unwrap_err();
        // A batch of 20 carries 5, 10 and 40 % exactly.
        assert_eq!((ok(20, 5.0), ok(20, 10.0), ok(20, 40.0)), (21, 22, 28));
        assert_eq!(ok(50, 2.0), 51);
        // At 1 and 2, rounding would inject 0 % or 50 %.
        for (batch, pct) in [
            (1, 5.0),
            (1, 10.0),
            (1, 40.0),
            (2, 5.0),
            (2, 10.0),
            (2, 40.0),
        ] {
            let e = refused(batch, pct).to_string();
            assert!(e.contains(VARIABLE) && e.contains("--min-batch="), "{e}");
        }
        assert!(refused(1, 40.0).to_string().contains("injects 0.0 %"));
        // The batch the message asks for is enough for any percentage.
        assert!(refused(3, 40.0).to_string().contains("--min-batch=13"));
        for pct in [2.0f64, 5.0, 10.0, 15.0, 25.0, 40.0, 100.0] {
            let needed = (500.0 / pct).ceil() as u64;
            for batch in needed..needed + 50 {
                ok(batch, pct);
            }
        }
        assert_eq!(ok(5, 0.0), 5);
        assert_eq!(counted_iterations("p", 5, None).unwrap(), 5);
    }
}
