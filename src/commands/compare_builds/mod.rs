//! Paired comparison of two builds in one job (`yardstick compare-builds`):
//! running them. The rule that judges the rounds is in `judge::paired`.
//!
//! Stored baselines compare runs made at different times, often on different
//! machines, so their threshold must cover everything that moves between
//! runs. Running the old and the new build alternately on the same machine
//! cancels most of that, and the closer the two samples the more: both
//! builds run as workers (see `worker`), and in each round every probe is
//! timed on each build, back to back in a random order, probes in a
//! shuffled order. A probe whose sample is short is timed several times a
//! round on each build (`--round-time`), in one block per build, and the
//! round's figure is the block's median: one sample can meet an
//! interruption that makes it twice as slow, and a ratio of two single
//! samples carries that whole. The rounds are spread over several fresh pairs of
//! workers, because one process can sit a few percent off another of the
//! same build for its whole life; each pair's median ratio new/old is one
//! piece of evidence, and the pairs are tested for a shift (exact Wilcoxon
//! signed-rank on the log ratios, see `judge::paired`). A probe regresses
//! when the median exceeds the threshold *and* the shift is significant;
//! above the threshold but not significant, it is inconclusive: a warning,
//! never a failure.
//!
//! `main` reads top to bottom: `Setup` (what is checked and fixed before
//! any worker starts), the measuring (`interleave`: the two builds are its
//! two configurations, the old one first), the judgement
//! (`judge::paired`) and the saved run (`report`).

pub(crate) mod options;
mod report;

use crate::commands::interleave::OnLostWorker;
use crate::commands::interleave::launch::Launcher;
use crate::commands::interleave::rounds::{Measured, Measuring};
use crate::commands::interleave::schedule::Schedule;
use crate::commands::interleave::setup::Setup;
use crate::error::Error;
use crate::judge::paired::{self, Builds};
use crate::output::deliver;
use crate::output::progress::Progress;
use options::PairedOptions;

/// Compares the two builds `o` names; returns the exit code (1 when the new
/// build regressed).
pub(crate) fn main(o: &PairedOptions) -> Result<i32, Error> {
    // The page first: checking the delivery opens a history to record in.
    let page = o.common.page([o.old.clone(), o.new.clone()])?;
    let setup = setup(o)?;
    let configurations = o.configurations();
    let sampling = o.sampling.clone();
    let launcher = Launcher {
        configurations: &configurations,
        sampling: &sampling,
    };
    let first = launcher.first_set(OnLostWorker::Stop)?;
    let schedule = Schedule::new(o.sampling.rounds, o.pairs);
    let measuring = Measuring {
        sampling: &sampling,
        schedule: &schedule,
        launcher: &launcher,
        on_lost: OnLostWorker::Stop,
        rng: fastrand::Rng::with_seed(setup.seed),
        measured: Measured::new(&first, o.sampling.repeat),
    };
    let steps = schedule.steps(measuring.measured.timed.len());
    let mut progress = Progress::new(steps, o.common.quiet);
    let measured = measuring.run(first.workers, &mut progress)?;
    progress.finish();

    let threshold = o.common.threshold.unwrap_or(paired::DEFAULT_THRESHOLD);
    let baseline = o.old.display().to_string();
    let series = Builds::from_two(measured.series()).ok_or_else(two_builds)?;
    let comparison = paired::compare(&series, threshold, &baseline);
    let run = report::run(o, setup, &schedule, measured, comparison, threshold)?;
    page.draw_then("yardstick compare-builds", run, None, |run| {
        deliver::deliver(run, &o.common.delivery())
    })
}

/// The error of a measurement that did not give two builds' figures, which
/// a comparison's two configurations always do.
fn two_builds() -> Error {
    Error::input("compare-builds: the measurement did not give two builds' figures")
}

/// Refuses a binary that is not there before anything starts, then fixes
/// the comparison's set-up.
fn setup(o: &PairedOptions) -> Result<Setup, Error> {
    for path in [&o.old, &o.new] {
        if !path.is_file() {
            return Err(Error::input(format!(
                "{}: no such bench binary",
                path.display()
            )));
        }
    }
    Setup::new(&o.common, o.seed, o.cpu, true)
}
