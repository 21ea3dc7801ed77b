//! The rule before every other: runs of different tools (an imported run,
//! see [`crate::document::import`], against yardstick's own, or two
//! foreign tools) time different code under the same probe names, so their
//! changes are information unless `--cross-tool` asks for a verdict.

use crate::document::comparison::{Comparison, ToolMismatch};
use crate::document::import::Imported;
use crate::document::run::Run;

/// Records a tool mismatch in `out` and, unless judged anyway, makes the
/// comparison information.
pub(super) fn hold_back_across_tools(
    baseline: &Run,
    run: &Run,
    cross_tool: bool,
    out: &mut Comparison,
) {
    let tool = |r: &Run| Imported::tool_of(r.environment.imported.as_ref()).to_string();
    let (baseline_tool, current_tool) = (tool(baseline), tool(run));
    if baseline_tool == current_tool {
        return;
    }
    out.tools = Some(ToolMismatch {
        baseline_tool,
        current_tool,
        judged: cross_tool,
    });
    out.informational |= !cross_tool;
}

#[cfg(test)]
mod tests {
    use crate::document::import::exp_benchmark;
    use crate::document::run::Run;
    use crate::{Rules, compare};

    fn exp_run() -> Run {
        let path = crate::fixtures().join("exp-benchmark/micro.json");
        exp_benchmark::read(&std::fs::read(path).unwrap()).unwrap()
    }

    /// The run with every median `factor` times as long.
    fn slower(mut run: Run, factor: f64) -> Run {
        for row in &mut run.rows {
            row.figures.median = row.figures.median.map(|m| m * factor);
        }
        run
    }

    #[test]
    fn a_run_of_another_tool_is_information_unless_asked() {
        let php = exp_run();
        let mut rust = slower(exp_run(), 2.0);
        rust.environment.imported = None;
        let c = compare(&php, "php.json", &rust, &Rules::default()).unwrap();
        assert!(c.checks.iter().any(|k| k.change_pct > 99.0) && !c.failed());
        let note = c.tool_note().unwrap();
        assert!(
            note.contains("made by exp:benchmark, this run by yardstick")
                && note.contains("--cross-tool"),
            "{note}"
        );
        let asked = Rules {
            cross_tool: true,
            cross_machine: true,
            ..Rules::default()
        };
        let c = compare(&php, "php.json", &rust, &asked).unwrap();
        assert!(c.failed(), "{c:?}");
        assert!(c.tool_note().unwrap().contains("judged anyway"));
    }

    #[test]
    fn two_runs_of_one_tool_are_judged_by_its_rules_within_one_machine_class() {
        let (base, now) = (exp_run(), slower(exp_run(), 1.5));
        // Two runs of one host share its class: the normalised medians
        // moved +50 %, a regression.
        let c = compare(&base, "base.json", &now, &Rules::default()).unwrap();
        assert!(c.tools.is_none() && c.machines.is_none() && c.failed());
        let check = c.checks.iter().find(|k| k.key == "ini_parse").unwrap();
        assert!((check.change_pct - 50.0).abs() < 1e-9, "{check:?}");
        // A run of another host is of another class: information, unless
        // judged across machines.
        let mut elsewhere = now.clone();
        elsewhere.environment.machine_class = Some("exp-benchmark-host-0badc0de".into());
        let c = compare(&base, "base.json", &elsewhere, &Rules::default()).unwrap();
        assert!(c.machines.is_some() && !c.failed());
        let asked = Rules {
            cross_machine: true,
            ..Rules::default()
        };
        assert!(
            compare(&base, "base.json", &elsewhere, &asked)
                .unwrap()
                .failed()
        );
        let same = compare(&base, "base.json", &exp_run(), &asked).unwrap();
        assert_eq!(same.regressions(), 0);
        assert!(same.environment_differences.is_empty());
        // Their set-up differences are the tool's own, not rustc's.
        let mut opcache = exp_run();
        let imported = opcache.environment.imported.as_mut().unwrap();
        imported.setup.insert("opcache".into(), true.into());
        let c = compare(&base, "base.json", &opcache, &asked).unwrap();
        let d: Vec<(&str, &str, &str)> = c
            .environment_differences
            .iter()
            .map(|d| (d.field.as_str(), d.baseline.as_str(), d.current.as_str()))
            .collect();
        assert_eq!(d, [("opcache", "false", "true")]);
    }
}
