//! What a probe's time is divided by before two runs compare.
//!
//! The mixed calibration loop is the default. A baseline learned from
//! several runs may name a narrow kernel instead for a probe whose speed
//! follows that kernel more closely than the loop (see `baseline`).

use crate::calibration::Kernel;
use crate::run::Row;
use crate::stats;

/// The divisor of a probe's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Normalizer {
    /// The mixed calibration loop.
    Calib,
    Kernel(Kernel),
}

impl Normalizer {
    /// Every normaliser a baseline may choose, the default first.
    pub const ALL: [Normalizer; 5] = [
        Normalizer::Calib,
        Normalizer::Kernel(Kernel::Alu),
        Normalizer::Kernel(Kernel::Branchy),
        Normalizer::Kernel(Kernel::Memory),
        Normalizer::Kernel(Kernel::Alloc),
    ];

    pub fn name(self) -> &'static str {
        match self {
            Normalizer::Calib => "calib",
            Normalizer::Kernel(k) => k.name(),
        }
    }

    pub fn from_name(name: &str) -> Option<Normalizer> {
        match name {
            "calib" => Some(Normalizer::Calib),
            other => Kernel::from_name(other).map(Normalizer::Kernel),
        }
    }

    /// The normaliser a baseline row chose; the loop when it chose none or
    /// one this build does not know.
    pub fn of(row: &Row) -> Normalizer {
        row.normalizer
            .as_deref()
            .and_then(Normalizer::from_name)
            .unwrap_or(Normalizer::Calib)
    }

    /// The name of the compared figure, as checks show it.
    pub fn metric(self) -> String {
        format!("median/{}", self.name())
    }

    /// The row's time relative to this divisor: the median of the
    /// per-sample ratios. `calibration` is the run's loop median, used only
    /// by runs made before the loop was timed beside each sample. None when
    /// the row lacks the divisor's samples.
    pub fn figure(self, row: &Row, calibration: f64) -> Option<f64> {
        match self {
            Normalizer::Calib => row.normalized_median(calibration),
            Normalizer::Kernel(k) => {
                let times = row.kernel_samples.get(k.name())?;
                if times.len() != row.samples.len() {
                    return None;
                }
                stats::median_of_ratios(&row.samples, times)
            }
        }
    }

    /// The median time of the divisor itself over the row's samples, ms.
    pub fn divisor_median(self, row: &Row) -> Option<f64> {
        let times = match self {
            Normalizer::Calib => &row.calibration_samples,
            Normalizer::Kernel(k) => row.kernel_samples.get(k.name())?,
        };
        stats::median(times).filter(|m| m.is_finite() && *m > 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::RowKind;

    fn row(samples: &[f64], loops: &[f64], alu: &[f64]) -> Row {
        let mut r = Row::with_samples("p".into(), RowKind::Probe, "p".into(), samples.to_vec());
        r.calibration_samples = loops.to_vec();
        if !alu.is_empty() {
            r.kernel_samples.insert("alu".into(), alu.to_vec());
        }
        r
    }

    #[test]
    fn names_round_trip() {
        for n in Normalizer::ALL {
            assert_eq!(Normalizer::from_name(n.name()), Some(n));
        }
        assert_eq!(Normalizer::from_name("raw"), None);
    }

    #[test]
    fn a_kernel_divides_sample_by_sample() {
        let r = row(&[2.0, 4.0, 6.0], &[10.0, 10.0, 10.0], &[1.0, 2.0, 3.0]);
        assert_eq!(Normalizer::Kernel(Kernel::Alu).figure(&r, 10.0), Some(2.0));
        assert_eq!(Normalizer::Calib.figure(&r, 10.0), Some(0.4));
        assert_eq!(
            Normalizer::Kernel(Kernel::Alu).divisor_median(&r),
            Some(2.0)
        );
        // Missing or misaligned kernel times give no figure.
        assert_eq!(Normalizer::Kernel(Kernel::Memory).figure(&r, 10.0), None);
        let short = row(&[2.0, 4.0], &[], &[1.0]);
        assert_eq!(Normalizer::Kernel(Kernel::Alu).figure(&short, 10.0), None);
    }

    #[test]
    fn an_unknown_choice_falls_back_to_the_loop() {
        let mut r = row(&[1.0], &[1.0], &[]);
        assert_eq!(Normalizer::of(&r), Normalizer::Calib);
        r.normalizer = Some("memory".into());
        assert_eq!(Normalizer::of(&r), Normalizer::Kernel(Kernel::Memory));
        r.normalizer = Some("quantum".into());
        assert_eq!(Normalizer::of(&r), Normalizer::Calib);
    }
}
