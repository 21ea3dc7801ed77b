//! The GitHub job summary: the verdict, the calibration speed line, the
//! comparison table and the run's table, in Markdown.

use super::layout::{change, ms, significant, thousands};
use super::{header, verdict};
use crate::document::comparison::Comparison;
use crate::document::run::{Mode, Run};
use crate::text::clean;

/// The Markdown summary of a run (and its comparison).
pub fn summary(run: &Run) -> String {
    let mut out = format!("## yardstick {}\n\n", run.mode.as_str());
    let verdicts = verdict::lines(run);
    if verdicts.is_empty() {
        out.push_str("**measured, no baseline**\n\n");
    }
    for line in verdicts {
        out.push_str(&format!("**{}**\n\n", escape(&line)));
    }
    if let Some(c) = &run.comparison {
        out.push_str(&comparison(c));
        out.push('\n');
    }
    out.push_str(&format!("{}\n\n", escape(&header(run))));
    for w in &run.warnings {
        out.push_str(&format!("> warning: {}\n\n", escape(w)));
    }
    out.push_str(&rows(run));
    out
}

fn comparison(c: &Comparison) -> String {
    let mut out = format!(
        "Baseline {}, judged by {}: {} regression(s) at threshold {} %.\n\n",
        escape(&c.baseline),
        escape(c.method.as_str()),
        c.regressions(),
        c.threshold
    );
    if let Some(cal) = &c.calibration {
        out.push_str(&format!("{}\n\n", super::table::speed_line(cal)));
    }
    if let Some(note) = c.too_slow_note() {
        out.push_str(&format!("> warning: {}\n\n", escape(&note)));
    }
    if let Some(basis) = &c.basis {
        out.push_str(&format!("Chosen as: {}.\n\n", escape(basis)));
    }
    if let Some(note) = c.machine_note() {
        out.push_str(&format!("> note: {}\n\n", escape(&note)));
    }
    for note in [c.setup_note(), c.param_note()].into_iter().flatten() {
        out.push_str(&format!("> note: {}\n\n", escape(&note)));
    }
    for d in &c.environment_differences {
        out.push_str(&format!(
            "note: the baseline was made with another set-up, {}: {} -> {}\n\n",
            escape(&d.field),
            escape(&d.baseline),
            escape(&d.current)
        ));
    }
    out.push_str(
        "| row | metric | baseline | now | change | verdict |\n|---|---|--:|--:|--:|---|\n",
    );
    for k in &c.checks {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            escape(&k.key),
            escape(k.metric.as_str()),
            significant(k.baseline, 4),
            significant(k.current, 4),
            change(k.change_pct),
            if k.regressed() {
                format!("**{}**", k.verdict.word())
            } else {
                k.verdict.word().to_string()
            }
        ));
    }
    if !c.missing.is_empty() {
        out.push_str(&format!(
            "\nnot measured: {}\n",
            escape(&c.missing.join(", "))
        ));
    }
    if !c.new.is_empty() {
        out.push_str(&format!("\nnew: {}\n", escape(&c.new.join(", "))));
    }
    out
}

fn rows(run: &Run) -> String {
    let mut out = String::new();
    match run.mode {
        Mode::Micro | Mode::Kernel => {
            out.push_str("| probe | n | median ms | p99 ms | ops/s | x calib | err | note |\n");
            out.push_str("|---|--:|--:|--:|--:|--:|--:|---|\n");
            for r in &run.rows {
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                    escape(&r.name),
                    r.n,
                    ms(r.median),
                    ms(r.p99),
                    r.rps.map(thousands).unwrap_or_else(|| "-".into()),
                    run.x_calib(r)
                        .map(|x| significant(x, 4))
                        .unwrap_or_else(|| "-".into()),
                    r.errors,
                    escape(&r.note)
                ));
            }
        }
        Mode::Http => {
            out.push_str("| target | url | n | median ms | p95 ms | req/s | err |\n|---|---|--:|--:|--:|--:|--:|\n");
            for r in &run.rows {
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} |\n",
                    escape(r.target.as_deref().unwrap_or("")),
                    escape(r.url.as_deref().unwrap_or("")),
                    r.n,
                    ms(r.median),
                    ms(r.p95),
                    r.rps
                        .map(|x| significant(x, 4))
                        .unwrap_or_else(|| "-".into()),
                    r.errors
                ));
            }
        }
    }
    out
}

/// Keeps text from a run from breaking a table cell or turning into markup
/// (a link, an image fetched from elsewhere, HTML): unsafe characters are
/// `clean`ed, `<`, `>` and `&` become entities, and the marks of code,
/// emphasis, links, images and table cells are backslash-escaped, which
/// CommonMark shows as the mark itself.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in clean(text).chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '!' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn text_from_a_run_is_no_markup() {
        assert_eq!(
            escape("![x](http://e/t.png) <img src=x> a|b `c` *d* fine_sum"),
            "\\!\\[x\\]\\(http://e/t.png\\) &lt;img src=x&gt; a\\|b \\`c\\` \\*d\\* fine\\_sum"
        );
        assert_eq!(escape("a\n# b"), "a\u{FFFD}# b");
    }
}
