//! The slowdown knob: `YARDSTICK_INJECT=ini_parse:15` (or `*:15`, or several
//! rules separated by commas) makes each sample of the named probes run X %
//! more iterations while still dividing by the batch size, so the probe looks
//! X % slower with the same code in the same binary. It exists to measure
//! how well the verdict catches a known slowdown; a run made with it says so.

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

/// Iterations a sample of `batch` runs under a slowdown of `percent`.
pub fn iterations(batch: u64, percent: Option<f64>) -> u64 {
    match percent {
        Some(p) => ((batch as f64) * (1.0 + p / 100.0)).round().max(1.0) as u64,
        None => batch,
    }
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
    fn iterations_round_to_the_slowdown() {
        assert_eq!(iterations(20, Some(15.0)), 23);
        assert_eq!(iterations(20, Some(5.0)), 21);
        assert_eq!(iterations(20, None), 20);
        assert_eq!(iterations(1, Some(10.0)), 1);
    }
}
