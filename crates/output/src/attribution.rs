//! Where a flagged count moved, as a person reads it: a table of the
//! functions under the checks (the terminal), and their top three in a
//! line (the annotations and the job summary); and a timed run's
//! regressions explained by counts (`--explain`).

use crate::document::check::Check;
use crate::document::comparison::Comparison;
use crate::document::explanation::Explanation;
use crate::document::functions::{Attribution, Unkept};
use crate::layout::{Align, Table, change, significant, thousands};
use crate::text::clean;

/// How many functions an annotation or the job summary names.
pub const IN_A_LINE: usize = 3;

/// The longest function name a table shows; longer ones keep their end,
/// the most specific part.
const NAME_WIDTH: usize = 56;

/// One block per check that says where it moved, in the order of the
/// checks; empty when none does.
pub fn text(c: &Comparison) -> String {
    let mut out = String::new();
    for k in &c.checks {
        if let Some(a) = &k.attribution {
            out.push('\n');
            out.push_str(&block(k, a));
        }
    }
    out
}

/// What `--explain` found, under the timed comparison: each regressed
/// probe's counts against the count baseline, and where they moved; a
/// count that did not move is said as a finding of its own.
pub fn explanation(e: &Explanation) -> String {
    let c = match e {
        Explanation::Uncounted { why } => {
            return format!("\nnot explained by counts: {}\n", clean(why));
        }
        Explanation::Counts { comparison } => comparison,
    };
    let mut out = format!(
        "\nthe regressed probes counted ({}), against {}:\n",
        c.method.as_str(),
        clean(&c.baseline)
    );
    let checks: Vec<&Check> = c.checks.iter().collect();
    out.push_str(&super::table::checks_table(&checks));
    for k in &c.checks {
        if k.attribution.is_none() {
            out.push_str(&format!(
                "{}: the counts did not move ({}): the slowdown is not in the work done; \
                 look at the memory system, contention or the machine\n",
                clean(&k.key),
                change(k.change_pct)
            ));
        }
    }
    if !c.missing.is_empty() {
        out.push_str(&format!(
            "not in the count baseline, so not explained: {}\n",
            clean(&c.missing.join(", "))
        ));
    }
    if !c.setup_differences.is_empty() {
        out.push_str("(the count baseline is of another set-up: the changes are information)\n");
    }
    out.push_str(&text(c));
    out
}

/// Where `k` moved, under a line that says what moved.
fn block(k: &Check, a: &Attribution) -> String {
    let key = clean(&k.key);
    let moved = match a {
        Attribution::Unkept { side } => {
            return format!(
                "{key}: no function data was kept in {} (made before functions were \
                 kept, or imported); the verdict stands without it\n",
                said(*side)
            );
        }
        Attribution::Functions { moved, .. } if moved.is_empty() => {
            return format!("{key}: no function's own count moved\n");
        }
        Attribution::Functions { moved, .. } => moved,
    };
    let mut out = format!(
        "where {key} moved ({} {}, {} per iteration), by each function's own count:\n",
        k.metric,
        change(k.change_pct),
        signed(k.current - k.baseline),
    );
    if let Some(line) = memory_line(k, a) {
        out.push_str(&line);
    }
    // No one function's own count holds the change: where it lies leads.
    if let Attribution::Functions {
        within: Some(w), ..
    } = a
    {
        out.push_str(&format!(
            "it lies within {}: {} of it with its callees ({:.0} % of the change), \
             no one function's own count holding most of it:\n",
            function_name(&w.name),
            signed(w.change()),
            w.share_pct,
        ));
    }
    let cycles = moved.iter().any(|m| m.instructions_change.is_some());
    let mut columns = vec![
        ("function", Align::Left),
        ("before", Align::Right),
        ("after", Align::Right),
        ("change", Align::Right),
        ("share", Align::Right),
    ];
    if cycles {
        columns.push(("instructions", Align::Right));
    }
    columns.push(("via", Align::Left));
    let mut t = Table::new(&columns).droppable(&["via", "before", "instructions"]);
    for m in moved {
        let mut cells = vec![
            shown(&m.name),
            amount(m.baseline),
            amount(m.current),
            signed(m.change()),
            format!("{:.0} %", m.share_pct),
        ];
        if cycles {
            cells.push(m.instructions_change.map(signed).unwrap_or_default());
        }
        cells.push(m.via.as_deref().map(shown).unwrap_or_default());
        t.push(cells);
    }
    out.push_str(&t.render());
    out
}

/// Judged by estimated cycles, whether the work or the memory moved: a
/// line when the instructions stayed within a quarter of the cycles'
/// change.
fn memory_line(k: &Check, a: &Attribution) -> Option<String> {
    let Attribution::Functions {
        instructions_pct: Some(instructions),
        ..
    } = a
    else {
        return None;
    };
    (instructions.abs() < k.change_pct.abs() / 4.0).then(|| {
        format!(
            "instructions {}: the same work met the cache {} (L1 and last-level misses), \
             so look at how these functions reach their data\n",
            change(*instructions),
            if k.change_pct > 0.0 {
                "worse"
            } else {
                "better"
            }
        )
    })
}

/// The top functions of `k`'s attribution in a line (`in hash +40 (105 %),
/// copy -2 (-5 %)`), for an annotation or the job summary; `None` when it
/// has none.
pub fn in_a_line(k: &Check) -> Option<String> {
    match k.attribution.as_ref()? {
        Attribution::Unkept { side } => Some(format!("no function data in {}", said(*side))),
        Attribution::Functions { moved, .. } if moved.is_empty() => None,
        Attribution::Functions { moved, within, .. } => {
            let named: Vec<String> = moved
                .iter()
                .take(IN_A_LINE)
                .map(|m| {
                    format!(
                        "{} {} ({:.0} %)",
                        function_name(&m.name),
                        signed(m.change()),
                        m.share_pct
                    )
                })
                .collect();
            // Where the change lies leads, when no one function holds it.
            let within = within
                .as_ref()
                .map(|w| format!("within {} ({:.0} %): ", function_name(&w.name), w.share_pct))
                .unwrap_or_default();
            Some(format!("{within}in {}", named.join(", ")))
        }
    }
}

/// What `--explain` found for probe `key`, in a line: its counts' change
/// and where they moved, or that they did not.
pub fn explained(e: &Explanation, key: &str) -> Option<String> {
    let Explanation::Counts { comparison } = e else {
        return None;
    };
    let k = comparison.checks.iter().find(|k| k.key == key)?;
    Some(match in_a_line(k) {
        Some(located) => format!("counts {} {located}", change(k.change_pct)),
        None => format!(
            "counts {}: not in the work done (memory, contention or the machine)",
            change(k.change_pct)
        ),
    })
}

fn said(side: Unkept) -> &'static str {
    match side {
        Unkept::Baseline => "the baseline",
        Unkept::Run => "this run",
        Unkept::Both => "either run",
    }
}

/// A function's name as every output says it: cleaned, and an address
/// callgrind had no symbol for said to be one (`<unknown> 0x…`).
pub fn function_name(name: &str) -> String {
    if name.starts_with("0x") {
        format!("<unknown> {}", clean(name))
    } else {
        clean(name).into_owned()
    }
}

/// A function's name as a table shows it: [`function_name`], its end
/// kept.
fn shown(name: &str) -> String {
    let name = function_name(name);
    let chars = name.chars().count();
    if chars <= NAME_WIDTH {
        return name;
    }
    let tail: String = name.chars().skip(chars - (NAME_WIDTH - 1)).collect();
    format!("…{tail}")
}

/// A count per iteration: whole when it is or when above 100, else three
/// significant digits.
fn amount(v: f64) -> String {
    if v.abs() >= 100.0 || v.fract() == 0.0 {
        thousands(v)
    } else {
        significant(v, 3)
    }
}

fn signed(v: f64) -> String {
    if v > 0.0 {
        format!("+{}", amount(v))
    } else {
        amount(v)
    }
}

/// Moved functions' words, for the tests of the formats that show them.
#[cfg(test)]
pub(crate) fn sample_check() -> Check {
    use crate::document::check::{Figure, Verdict};
    use crate::document::functions::Moved;
    let mut k = Check::new(
        "template_compile",
        Figure::Instructions,
        1000.0,
        1100.0,
        10.0,
        Verdict::Regressed,
    );
    k.attribution = Some(Attribution::Functions {
        moved: vec![
            Moved {
                name: "probes::template::compile::Compiler::block".into(),
                baseline: 300.0,
                current: 405.0,
                share_pct: 105.0,
                instructions_change: None,
                via: Some("probes::template::compile::compile".into()),
            },
            Moved {
                name: "core::hash::sip::Hasher::write".into(),
                baseline: 100.0,
                current: 95.0,
                share_pct: -5.0,
                instructions_change: None,
                via: None,
            },
        ],
        within: None,
        instructions_pct: None,
    });
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::check::{Figure, Verdict};
    use crate::document::functions::Moved;

    #[test]
    fn the_block_names_each_function_with_its_change_share_and_caller() {
        let k = sample_check();
        let text = block(&k, k.attribution.as_ref().expect("attributed"));
        assert!(
            text.starts_with(
                "where template_compile moved (instructions +10.0 %, +100 per iteration)"
            ),
            "{text}"
        );
        let first = text.lines().nth(2).expect("a first function");
        for part in [
            "Compiler::block",
            "300",
            "405",
            "+105",
            "105 %",
            "compile::compile",
        ] {
            assert!(first.contains(part), "{part} in {first}");
        }
        assert_eq!(
            in_a_line(&k).as_deref(),
            Some(
                "in probes::template::compile::Compiler::block +105 (105 %), \
                 core::hash::sip::Hasher::write -5 (-5 %)"
            )
        );
    }

    #[test]
    fn a_cache_effect_is_said_when_the_instructions_stayed() {
        let mut k = Check::new(
            "walk",
            Figure::EstimatedCycles,
            1000.0,
            3000.0,
            200.0,
            Verdict::Regressed,
        );
        let moved = vec![Moved {
            name: "counts_cli::walk".into(),
            baseline: 900.0,
            current: 2900.0,
            share_pct: 100.0,
            instructions_change: Some(0.0),
            via: None,
        }];
        for (instructions, said) in [(0.0, true), (120.0, false)] {
            k.attribution = Some(Attribution::Functions {
                moved: moved.clone(),
                within: None,
                instructions_pct: Some(instructions),
            });
            let text = block(&k, k.attribution.as_ref().expect("attributed"));
            assert_eq!(text.contains("met the cache worse"), said, "{text}");
            assert!(text.contains("instructions"), "the column: {text}");
        }
    }

    #[test]
    fn a_change_no_one_function_holds_leads_with_the_subtree_it_lies_within() {
        let mut k = sample_check();
        if let Some(Attribution::Functions { within, .. }) = k.attribution.as_mut() {
            *within = Some(Moved {
                name: "probes::template::compile::Compiler::emit_text".into(),
                baseline: 100.0,
                current: 198.0,
                share_pct: 98.0,
                instructions_change: None,
                via: None,
            });
        }
        let text = block(&k, k.attribution.as_ref().expect("attributed"));
        let second = text.lines().nth(1).unwrap_or_default();
        assert!(
            second
                .starts_with("it lies within probes::template::compile::Compiler::emit_text: +98"),
            "{text}"
        );
        let line = in_a_line(&k).unwrap_or_default();
        assert!(
            line.starts_with("within probes::template::compile::Compiler::emit_text (98 %): in "),
            "{line}"
        );
    }

    #[test]
    fn a_side_without_functions_is_named_and_long_names_keep_their_end() {
        let mut k = Check::new(
            "p",
            Figure::Instructions,
            1.0,
            2.0,
            100.0,
            Verdict::Regressed,
        );
        k.attribution = Some(Attribution::Unkept {
            side: Unkept::Baseline,
        });
        let c = Comparison {
            checks: vec![k],
            ..Comparison::default()
        };
        assert!(text(&c).contains("p: no function data was kept in the baseline"));
        let long = format!("{}::tail_end", "a".repeat(200));
        let s = shown(&long);
        assert!(s.starts_with('…') && s.ends_with("::tail_end"));
        assert_eq!(s.chars().count(), NAME_WIDTH);
        assert_eq!(shown("0x000000000012abcd"), "<unknown> 0x000000000012abcd");
    }
}
