//! GitHub Actions workflow commands: one `::warning` per regression and one
//! `::notice` per inconclusive check, so both show on the pull request
//! without opening the log.

use crate::comparison::Comparison;
use crate::report::layout::change;

/// True when running as a GitHub Actions step.
pub fn is_actions() -> bool {
    std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true")
}

/// The `::warning` line of every regressed check and the `::notice` line of
/// every inconclusive one (and of every regression of a comparison given as
/// information). `class` is the machine class of the run judged.
pub fn annotations(c: &Comparison, class: &str) -> Vec<String> {
    c.checks
        .iter()
        .filter(|k| k.regressed || k.inconclusive)
        .map(|k| {
            let verdict = k.regressed && !c.informational;
            // Counts belong to no machine: naming one would mislead.
            let counted = matches!(k.metric.as_str(), "instructions" | "estimated-cycles");
            let place = if counted {
                String::new()
            } else {
                format!(" on machine class {class}")
            };
            let message = format!(
                "{} {} changed {} against {}{place} (threshold {} %){}",
                k.key,
                k.metric,
                change(k.change_pct),
                c.baseline,
                c.threshold,
                if verdict {
                    ""
                } else {
                    ", but without a verdict: see the log"
                }
            );
            let (command, title) = if verdict {
                ("warning", "Performance regression")
            } else if k.regressed && !c.setup_differences.is_empty() {
                ("notice", "Counts of another set-up")
            } else if k.regressed {
                ("notice", "Slower than the last run")
            } else {
                ("notice", "Inconclusive")
            };
            format!(
                "::{command} title={}::{}",
                escape_property(&format!("{title}: {}", k.key)),
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
    fn one_escaped_warning_per_regression_and_a_notice_per_inconclusive_check() {
        let c = Comparison {
            baseline: "baselines/micro.json".into(),
            method: "normalized".into(),
            threshold: 40.0,
            min_delta: None,
            regressions: 1,
            checks: vec![
                Check::new("a:b,c", "median/calib", 1.0, 1.5, 50.0, true),
                Check::new("ok", "median/calib", 1.0, 1.0, 0.0, false),
                Check {
                    inconclusive: true,
                    ..Check::new("unsure", "median/calib", 1.0, 1.6, 60.0, false)
                },
            ],
            missing: vec![],
            new: vec![],
            environment_differences: vec![],
            calibration: None,
            ..Default::default()
        };
        let lines = annotations(&c, "amd-epyc-2cpu-e0a14fb6");
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0],
            "::warning title=Performance regression%3A a%3Ab%2Cc::a:b,c median/calib changed +50.0 %25 against baselines/micro.json on machine class amd-epyc-2cpu-e0a14fb6 (threshold 40 %25)"
        );
        assert_eq!(
            lines[1],
            "::notice title=Inconclusive%3A unsure::unsure median/calib changed +60.0 %25 against baselines/micro.json on machine class amd-epyc-2cpu-e0a14fb6 (threshold 40 %25), but without a verdict: see the log"
        );
        // Against the last run, a regression is information: a notice.
        let info = Comparison {
            informational: true,
            ..c
        };
        assert!(annotations(&info, "x")[0].starts_with("::notice title=Slower than the last run"));
    }
}
