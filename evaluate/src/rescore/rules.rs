//! yardstick's verdict rules, applied to the figures a trial kept. Every
//! decision the re-scoring makes goes through this module, and this module
//! only asks the library, so a re-scored trial is judged as yardstick
//! judges it.

use yardstick::document::comparison::CalibrationRatio;

/// The machine-slowdown guard at `limit_pct`: true when the calibration
/// loop ran so much slower than the baseline's that yardstick judges
/// nothing (a probe over the threshold is inconclusive). The library's
/// [`CalibrationRatio::too_slow`], given the slowdown a trial kept.
pub fn too_slow(machine_slowdown_pct: f64, limit_pct: f64) -> bool {
    let (baseline, current) = (1.0, 1.0 + machine_slowdown_pct / 100.0);
    CalibrationRatio {
        baseline,
        current,
        speed: baseline / current,
        max_slowdown: Some(limit_pct),
    }
    .too_slow()
}

/// A change regresses when it is strictly above the threshold: the
/// library's [`yardstick::judge::over_threshold`].
pub fn over_threshold(change_pct: f64, threshold: f64) -> bool {
    yardstick::judge::over_threshold(change_pct, threshold)
}

/// The signed-rank test's one-sided p-value is significant strictly below
/// the level: the library's [`yardstick::judge::paired::significant`], here
/// at any level.
pub fn significant(p_value: f64, alpha: f64) -> bool {
    yardstick::judge::paired::significant(p_value, alpha)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_at_the_limit_is_judged() {
        assert!(!too_slow(30.0, 30.0));
        assert!(too_slow(30.5, 30.0));
        assert!(!too_slow(-50.0, 30.0));
    }

    #[test]
    fn thresholds_and_levels_are_strict() {
        assert!(!over_threshold(15.0, 15.0) && over_threshold(15.01, 15.0));
        assert!(!significant(0.01, 0.01) && significant(0.0099, 0.01));
    }
}
