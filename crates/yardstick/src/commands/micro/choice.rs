//! What a micro run is judged by, chosen before anything is measured (a bad
//! baseline must not cost a whole run), and the run a bench keeps for the
//! next one.
//!
//! A bench (`cargo bench`) chooses by machine class: a committed wall-time
//! baseline of this class, else the committed count baseline (the run is
//! then counted instead of timed), else its last run as information (see
//! `baseline::history`).

use super::options::MicroOptions;
use crate::baseline::counts::Found;
use crate::baseline::history::Bench;
use crate::baseline::{self, Baseline, Resolved};
use crate::document::environment;
use crate::document::run::{Metric, Mode, Run};
use crate::error::Error;

/// The baseline a run is judged by and what it measures.
pub(crate) struct Choice<'a> {
    /// The baseline, if any.
    pub(crate) baseline: Option<Baseline>,
    /// What the run measures: asked for, or counts when only a committed
    /// count baseline can judge.
    pub(crate) metric: Metric,
    /// The bench that keeps this run, when it chose the baseline itself.
    keeper: Option<&'a Bench>,
    /// Why a bench found nothing to judge by.
    nothing: Option<String>,
    /// Why a committed count baseline cannot judge here.
    count_note: Option<String>,
}

impl<'a> Choice<'a> {
    /// Chooses for `options`; `bench` is the bench target `cargo bench`
    /// runs. Refuses a baseline the run could not be compared with.
    pub(crate) fn make(
        options: &MicroOptions,
        bench: Option<&'a Bench>,
    ) -> Result<Choice<'a>, Error> {
        if options.count_check {
            return Choice::count_check(options, bench);
        }
        // A bench chooses by machine class only for a timed, calibrated run.
        let timed = options.metric() == Metric::Time && options.calibrate;
        let chooser = bench.filter(|_| timed);
        // Read only when choosing: what a process allocates before its
        // measured section moves its counts through the allocator's state
        // (docs/evaluation.md, "Counts"), and the CPU's description differs
        // by machine.
        let class = chooser.and_then(|_| environment::current_class());
        let asked = options.common.asked()?;
        let kind = (options.mode(), options.metric());
        let (baseline, nothing) = match Baseline::resolve(asked, chooser, class.as_deref(), kind)? {
            Resolved::Baseline(b) => (Some(*b), None),
            Resolved::NotAsked => (None, None),
            Resolved::Nothing(why) => (None, Some(why)),
        };
        let plain = asked == baseline::Asked::Default;
        let keeper = chooser.filter(|_| plain);
        let mut choice = Choice {
            baseline,
            metric: options.metric(),
            keeper,
            nothing,
            count_note: None,
        };
        if options.metric.is_none() {
            choice.count_instead(keeper, options.min_batch)?;
        }
        choice.suits(options.mode(), options.calibrate)?;
        Ok(choice)
    }

    /// `--count-check`: the committed count baseline of this set-up, or a
    /// note saying why there is none (then nothing is counted, see
    /// [`Choice::unjudged_check`]). Nothing is kept.
    fn count_check(options: &MicroOptions, bench: Option<&'a Bench>) -> Result<Choice<'a>, Error> {
        let Some(bench) = bench else {
            return Err(Error::usage(
                "--count-check judges by a bench's committed count baselines: run it through \
                 cargo bench",
            ));
        };
        let (baseline, note) = match baseline::counts::usable(bench, options.min_batch)? {
            Found::Baseline(b) => (Some(*b), None),
            Found::NoneCommitted => (
                None,
                Some(format!(
                    "--count-check: no count baseline is committed in {}",
                    baseline::counts::dir(bench).display()
                )),
            ),
            Found::NoMatch(why) => (None, Some(format!("--count-check: {why}"))),
        };
        Ok(Choice {
            metric: baseline
                .as_ref()
                .map_or(Metric::EstimatedCycles, |b| b.run.metric),
            baseline,
            keeper: None,
            nothing: None,
            count_note: note,
        })
    }

    /// Takes the committed count baseline where it judges instead of wall
    /// time: for a bench without a committed wall-time baseline of this
    /// class.
    fn count_instead(&mut self, keeper: Option<&Bench>, batch: Option<u64>) -> Result<(), Error> {
        let Some(bench) = keeper else { return Ok(()) };
        if self.baseline.as_ref().is_some_and(|b| !b.informational) {
            return Ok(());
        }
        match baseline::counts::usable(bench, batch)? {
            Found::Baseline(counted) => {
                self.metric = counted.run.metric;
                self.baseline = Some(*counted);
                self.nothing = None;
            }
            Found::NoneCommitted => {}
            Found::NoMatch(why) => self.count_note = Some(why),
        }
        Ok(())
    }

    /// Refuses, before anything is measured, a baseline this run could not
    /// be compared with.
    fn suits(&self, mode: Mode, calibrate: bool) -> Result<(), Error> {
        let Some(b) = &self.baseline else {
            return Ok(());
        };
        b.suits(mode, self.metric)?;
        if !calibrate && self.metric == Metric::Time {
            return Err(Error::usage(format!(
                "--no-calibration: a run without calibration cannot be compared with {} (add --no-baseline)",
                b.name
            )));
        }
        Ok(())
    }

    /// `--count-check` with no committed count baseline that can judge
    /// here: why, the note the command ends on (nothing is counted, exit 0;
    /// valgrind may be missing too).
    pub(crate) fn unjudged_check(&self, options: &MicroOptions) -> Option<String> {
        (options.count_check && self.baseline.is_none())
            .then(|| self.count_note.clone().unwrap_or_default())
    }

    /// Why a committed count baseline could not judge here, when it could
    /// not: a warning on the run.
    pub(crate) fn count_note(&self) -> Option<String> {
        self.count_note.clone()
    }

    /// Keeps a bench's run for the next one to compare with, and says
    /// where; says too why this one had nothing to compare with. Only the
    /// developer's loop is kept, not a run told what to compare with (as
    /// the evaluation's runs are). The words are added before the run is
    /// kept, so that the run kept is the one delivered; a run that cannot
    /// be kept is still reported, and says why.
    pub(crate) fn keep(&self, run: &mut Run) {
        let Some(bench) = self.keeper else {
            run.warnings.extend(self.nothing.clone());
            return;
        };
        let said = |place: &str| {
            self.nothing
                .as_ref()
                .map(|why| format!("{why}; this run is {place}"))
        };
        let Some(place) = bench.place(run) else {
            run.warnings
                .extend(said("not kept (an injected or counted run)"));
            return;
        };
        let before = run.warnings.len();
        run.warnings.extend(said(&format!("kept {place}")));
        if let Err(e) = bench.keep(run) {
            run.warnings.truncate(before);
            let why = format!("not kept ({})", e.to_string().trim_start_matches("error: "));
            run.warnings
                .push(said(&why).unwrap_or_else(|| format!("this run is {why}")));
        }
    }
}
