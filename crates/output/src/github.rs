//! GitHub Actions workflow commands: one `::warning` per regression and one
//! `::notice` per inconclusive check, so both show on the pull request
//! without opening the log; and the shield that keeps every other line
//! yardstick prints from being read as one.
//!
//! The runner takes any log line starting `::` for a command. Fields are
//! cleaned (`text::clean`), so none can start a line after a newline, but
//! the first column of a table starts its line with a probe key, which a
//! saved run may set to `::error::...`. So under Actions, text that carries
//! such fields is printed between `::stop-commands::TOKEN` and `::TOKEN::`,
//! with a token nobody can guess; yardstick's own annotations are printed
//! after the closing line, where they still work.

use crate::document::comparison::{Comparison, Figure};
use crate::document::explanation::Explanation;
use crate::judge::memory;
use crate::layout::change;
use crate::text::clean;

/// True when running as a GitHub Actions step.
pub fn is_actions() -> bool {
    std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true")
}

/// `text` as it must be printed: under GitHub Actions, between a
/// `::stop-commands::` line and the line that resumes them; elsewhere as
/// it is.
pub fn shielded(text: &str) -> String {
    if is_actions() && !text.is_empty() {
        shield_with(text, &token())
    } else {
        text.to_string()
    }
}

fn shield_with(text: &str, token: &str) -> String {
    let end = if text.ends_with('\n') { "" } else { "\n" };
    format!("::stop-commands::{token}\n{text}{end}::{token}::\n")
}

/// 128 random bits from the operating system (`/dev/urandom`, on Linux and
/// macOS), in hex. Where there is none to read, std's hash keys (also
/// drawn from the system once per process) stand in: a token must never be
/// a constant.
fn token() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let drawn = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if drawn.is_err() {
        use std::hash::{BuildHasher, Hasher};
        for half in bytes.chunks_mut(8) {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(std::time::UNIX_EPOCH.elapsed().map_or(0, |d| d.as_nanos()));
            half.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The `::warning` line of every regressed check and the `::notice` line of
/// every inconclusive one (and of every regression of a comparison given as
/// information). `class` is the machine class of the run judged.
pub fn annotations(c: &Comparison, class: &str, explained: Option<&Explanation>) -> Vec<String> {
    c.checks
        .iter()
        .filter(|k| k.regressed() || k.inconclusive())
        .map(|k| {
            let verdict = k.regressed() && !c.informational;
            // Counts belong to no machine: naming one would mislead.
            let counted = k.metric.is_count();
            let place = if counted {
                String::new()
            } else {
                format!(" on machine class {class}")
            };
            let threshold = match (&k.metric, k.threshold) {
                (Figure::Allocs, _) => memory::rule(),
                (_, Some(own)) => own.to_string(),
                _ => format!("{} %", c.threshold),
            };
            let located = crate::attribution::in_a_line(k)
                .map(|where_| format!("; {where_}"))
                .unwrap_or_default();
            let explained = explained
                .and_then(|e| crate::attribution::explained(e, &k.key))
                .map(|said| format!("; {said}"))
                .unwrap_or_default();
            let message = format!(
                "{} {} changed {} against {}{place} (threshold {threshold}){}{located}{explained}",
                k.key,
                k.metric,
                change(k.change_pct),
                c.baseline,
                if verdict {
                    ""
                } else {
                    ", but without a verdict: see the log"
                }
            );
            let (command, title) = if verdict {
                ("warning", "Performance regression")
            } else if k.regressed() && c.tools.as_ref().is_some_and(|t| !t.judged) {
                ("notice", "Another tool's baseline")
            } else if k.regressed() && !c.param_differences.is_empty() {
                ("notice", "Other parameters")
            } else if k.regressed() && !c.setup_differences.is_empty() {
                ("notice", "Counts of another set-up")
            } else if k.regressed() {
                ("notice", "Slower than the last run")
            } else {
                ("notice", "Inconclusive")
            };
            workflow_command(command, &format!("{title}: {}", k.key), &message)
        })
        .collect()
}

/// A `::warning` line of `title` and `message`.
pub fn warning(title: &str, message: &str) -> String {
    workflow_command("warning", title, message)
}

/// The line of workflow command `command` (`warning`, `notice`), its
/// title and message cleaned, inert and escaped.
fn workflow_command(command: &str, title: &str, message: &str) -> String {
    format!(
        "::{command} title={}::{}",
        escape_property(&inert(&clean(title))),
        escape_data(&inert(&clean(message)))
    )
}

/// `text` with no mention (`@octocat`) and no reference (`#123`): an
/// annotation's text is plain, so its `@` and `#` are shown by their
/// full-width forms, which GitHub links to nothing and a reader reads
/// alike.
fn inert(text: &str) -> String {
    text.replace('@', "\u{FF20}").replace('#', "\u{FF03}")
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
    use crate::document::comparison::{Check, Figure, Method, Reason, Verdict};

    const MEDIAN: Figure = Figure::MedianPerCalibration;
    const UNSURE: Verdict = Verdict::Inconclusive(Reason::Machine);

    #[test]
    fn one_escaped_warning_per_regression_and_a_notice_per_inconclusive_check() {
        let c = Comparison {
            baseline: "baselines/micro.json".into(),
            method: Method::Normalized,
            threshold: 40.0,
            min_delta: None,
            checks: vec![
                Check::new("a:b,c", MEDIAN, 1.0, 1.5, 50.0, Verdict::Regressed),
                Check::new("ok", MEDIAN, 1.0, 1.0, 0.0, Verdict::Ok),
                Check::new("unsure", MEDIAN, 1.0, 1.6, 60.0, UNSURE),
            ],
            missing: vec![],
            new: vec![],
            environment_differences: vec![],
            calibration: None,
            ..Default::default()
        };
        let lines = annotations(&c, "amd-epyc-2cpu-e0a14fb6", None);
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
        assert!(
            annotations(&info, "x", None)[0].starts_with("::notice title=Slower than the last run")
        );
    }

    #[test]
    fn annotations_carry_no_line_of_their_own() {
        let c = Comparison {
            checks: vec![Check::new(
                "k\n::error::x\r\u{85}",
                Figure::Other("m\n".into()),
                1.0,
                2.0,
                100.0,
                Verdict::Regressed,
            )],
            baseline: "b\n::error::y".into(),
            ..Default::default()
        };
        let lines = annotations(&c, "class\n::error::z", None);
        assert_eq!(lines.len(), 1);
        assert!(
            !lines[0].chars().any(crate::text::is_unsafe),
            "{}",
            lines[0]
        );
    }

    #[test]
    fn annotations_mention_nobody_and_reference_nothing() {
        let c = Comparison {
            checks: vec![Check::new(
                "ping_@octocat_@org/team",
                MEDIAN,
                1.0,
                2.0,
                100.0,
                Verdict::Regressed,
            )],
            baseline: "see org/repo#12 and #123".into(),
            ..Default::default()
        };
        let line = &annotations(&c, "x", None)[0];
        let (_, text) = line.split_at(2);
        assert!(!text.contains(['@', '#']), "{line}");
        assert!(
            line.contains("ping_\u{FF20}octocat") && line.contains("org/repo\u{FF03}12"),
            "{line}"
        );
    }

    #[test]
    fn shielded_text_is_closed_by_its_token_on_a_line_of_its_own() {
        assert_eq!(
            shield_with("::error::x\nrow", "abc"),
            "::stop-commands::abc\n::error::x\nrow\n::abc::\n"
        );
        assert_eq!(shield_with("a\n", "t"), "::stop-commands::t\na\n::t::\n");
        let (a, b) = (token(), token());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b, "two tokens of 128 random bits");
    }
}
