//! `evaluate rescore`: an evaluation's stored trials judged again at other
//! settings, without measuring.
//!
//! Each trial in `results.json` keeps the change of the figure its verdict
//! judged (and, for paired trials, the signed-rank p-value), so a rule can
//! be applied again at another threshold, significance level or
//! machine-slowdown limit. The rules themselves are yardstick's, reached
//! through [`rules`]: the harness never re-implements what it evaluates.

pub mod fences;
pub mod paired;
pub mod rebase;
pub mod rules;
pub mod stored;
pub mod thresholds;

use crate::Error;

pub const SUBCOMMAND: &str = "rescore";

pub const USAGE: &str =
    "usage: evaluate rescore thresholds [--method=NAME] [--fences=K] [--baseline-run=K]
                                   [--max-machine-slowdown=P] [--estimate-slowdown]
                                   RESULTS.json THRESHOLD...
       evaluate rescore paired RESULTS.json [--threshold=T,...] [--alpha=A,...]
Re-scores an evaluation's stored trials by yardstick's own rules, without
measuring, from the change (and p-value) each trial keeps.

thresholds: the stored-baseline trials (--method: another method's) at each
  THRESHOLD percent: per condition and for all together, the A/A runs with
  any probe past it and the share of slowed probe runs past it; first, each
  condition's median signed A/A change per probe (far from zero: the
  baseline's own offset for that probe)
  --method=NAME        that method's trials (confirmed: the change found
                       before confirming)
  --fences=K           each probe its own threshold, Q3 + 3 x IQR of its
                       judged changes in the first K quiet A/A trials (2 %
                       at least, THRESHOLD at most); only later A/A trials
                       count as false alarms
  --baseline-run=K     judged against the K-th pooled baseline run alone
                       (baseline-runs/run-K.json beside RESULTS.json)
  --max-machine-slowdown=P
                       nothing judged in a trial whose calibration loop ran
                       more than P % slower than the baseline's, as
                       yardstick does (needs machine_slowdown_pct)
  --estimate-slowdown  estimates machine_slowdown_pct for older trials:
                       the median over probes of (1 + raw) / (1 + judged)
paired: the paired trials at each threshold T (default 3) and significance
  level A (default 0.01): per condition, the A/A runs with any probe flagged
  and the share of slowed probe runs flagged; an outcome above T without a
  kept p-value is counted as unknown";

/// Entry point of the subcommand; `args` follow `rescore`. Returns what to
/// print.
pub fn main(args: &[String]) -> Result<String, Error> {
    match args.first().map(String::as_str) {
        Some(thresholds::SUBCOMMAND) => thresholds::main(&args[1..]),
        Some(paired::SUBCOMMAND) => paired::main(&args[1..]),
        Some("-h" | "--help") => Ok(format!("{USAGE}\n")),
        Some(other) => Err(Error(format!(
            "rescore: unknown `{other}` (known: thresholds, paired; see `evaluate rescore --help`)"
        ))),
        None => Err(Error(
            "rescore: thresholds or paired? (see `evaluate rescore --help`)".to_string(),
        )),
    }
}

/// A command-line error of `rescore SUB`, on one line, pointing at the
/// help.
fn usage(sub: &str, message: impl std::fmt::Display) -> Error {
    Error(format!(
        "rescore {sub}: {message} (see `evaluate rescore --help`)"
    ))
}

/// An option's value, which must be UTF-8.
fn value(sub: &str, p: &mut lexopt::Parser, name: &str) -> Result<String, Error> {
    use lexopt::ValueExt;
    p.value()
        .map_err(|e| usage(sub, e))?
        .string()
        .map_err(|_| Error(format!("{name}: not valid UTF-8")))
}

/// A number as the re-scoring prints it: at most six significant digits,
/// no trailing zeros, an exponent only for very large or small numbers
/// (`15`, `0.01`, `2.5e-05`). The figures this replaces were printed so
/// (Python's `%g`), and their lines are quoted in the documentation.
pub fn short(v: f64) -> String {
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    if !v.is_finite() {
        return format!("{v}").to_lowercase();
    }
    let scientific = format!("{v:.5e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..6).contains(&exponent) {
        let decimals = (5 - exponent) as usize;
        without_trailing_zeros(&format!("{v:.decimals$}"))
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!(
            "{}e{sign}{:02}",
            without_trailing_zeros(mantissa),
            exponent.abs()
        )
    }
}

fn without_trailing_zeros(number: &str) -> String {
    if number.contains('.') {
        number
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        number.to_string()
    }
}

/// A finite number given on the command line, named in the error.
fn number(text: &str, what: &str) -> Result<f64, Error> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(Error(format!("{what}: `{text}` is not a number"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_short() {
        for (v, text) in [
            (15.0, "15"),
            (0.5, "0.5"),
            (0.01, "0.01"),
            (2.5e-5, "2.5e-05"),
            (1234567.0, "1.23457e+06"),
            (999999.5, "1e+06"),
            (-3.25, "-3.25"),
            (0.0, "0"),
            (1.0 / 3.0, "0.333333"),
            (100.0, "100"),
        ] {
            assert_eq!(short(v), text, "{v}");
        }
    }

    #[test]
    fn the_subcommand_is_named() {
        assert!(main(&[]).unwrap_err().0.contains("thresholds or paired"));
        let e = main(&["fences".to_string()]).unwrap_err().0;
        assert!(e.starts_with("rescore: unknown `fences`"), "{e}");
        assert!(main(&["--help".to_string()]).unwrap().starts_with("usage:"));
    }

    #[test]
    fn bad_input_exits_2() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let missing = [
            "evaluate",
            "rescore",
            "thresholds",
            "/nonexistent/results.json",
            "15",
        ];
        assert_eq!(crate::main(args(&missing)), 2);
        assert_eq!(
            crate::main(args(&["evaluate", "rescore", "paired", "--alpha=x", "r"])),
            2
        );
    }
}
