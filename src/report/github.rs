//! GitHub Actions workflow commands: one `::warning` per regression, so the
//! regressions show on the pull request without opening the log.

use crate::comparison::Comparison;
use crate::report::layout::change;

/// True when running as a GitHub Actions step.
pub fn is_actions() -> bool {
    std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true")
}

/// The `::warning` lines for every regressed check.
pub fn annotations(c: &Comparison) -> Vec<String> {
    c.checks
        .iter()
        .filter(|k| k.regressed)
        .map(|k| {
            let message = format!(
                "{} {} changed {} against {} (threshold {} %)",
                k.key,
                k.metric,
                change(k.change_pct),
                c.baseline,
                c.threshold
            );
            format!(
                "::warning title={}::{}",
                escape_property(&format!("Performance regression: {}", k.key)),
                escape_data(&message)
            )
        })
        .collect()
}

/// Escapes a workflow command's message.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::comparison::Check;

    #[test]
    fn one_escaped_warning_per_regression() {
        let c = Comparison {
            baseline: "baselines/micro.json".into(),
            method: "normalized".into(),
            threshold: 40.0,
            min_delta: None,
            regressions: 1,
            checks: vec![
                Check::new("a:b,c", "median/calib", 1.0, 1.5, 50.0, true),
                Check::new("ok", "median/calib", 1.0, 1.0, 0.0, false),
            ],
            missing: vec![],
            new: vec![],
            environment_differences: vec![],
            calibration: None,
        };
        let lines = annotations(&c);
        assert_eq!(lines.len(), 1);
        assert_eq!(
            lines[0],
            "::warning title=Performance regression%3A a%3Ab%2Cc::a:b,c median/calib changed +50.0 %25 against baselines/micro.json (threshold 40 %25)"
        );
    }
}
