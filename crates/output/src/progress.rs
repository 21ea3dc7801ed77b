//! Progress on stderr: a bar on a terminal, plain lines otherwise (CI logs),
//! nothing with `-q`. Never on stdout, which may hold a JSON or CSV document.

use crate::measure::Observer;
use crate::text::clean;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// Where progress goes, chosen once per run.
pub enum Progress {
    /// `-q`: nothing.
    Quiet,
    /// A log (CI): one numbered line per step.
    Lines {
        /// Steps in all.
        total: usize,
        /// Steps done.
        done: usize,
        /// The line printed last: a step announced again (each round of
        /// a warm-up) is not printed again.
        last: String,
    },
    /// A terminal: a bar.
    Bar(ProgressBar),
}

impl Progress {
    /// Progress over `total` steps; a bar only on a terminal and for a
    /// known number of steps.
    pub fn new(total: usize, quiet: bool) -> Progress {
        if quiet {
            Progress::Quiet
        } else if total > 0 && std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total as u64);
            // The time left is indicatif's estimate from the steps done.
            if let Ok(style) =
                ProgressStyle::with_template("{bar:30} {pos}/{len} ~{eta} left  {msg}")
            {
                bar.set_style(style);
            }
            Progress::Bar(bar)
        } else {
            Progress::Lines {
                total,
                done: 0,
                last: String::new(),
            }
        }
    }

    /// Announces the next step.
    pub fn start(&mut self, what: &str) {
        match self {
            Progress::Quiet => {}
            Progress::Lines { total, done, last } => {
                let line = format!("[{}/{}] {}", *done + 1, total, clean(what));
                if line != *last {
                    eprintln!("{line}");
                    *last = line;
                }
            }
            Progress::Bar(bar) => bar.set_message(clean(what).into_owned()),
        }
    }

    /// Marks the current step done.
    pub fn advance(&mut self) {
        match self {
            Progress::Quiet => {}
            Progress::Lines { done, .. } => *done += 1,
            Progress::Bar(bar) => bar.inc(1),
        }
    }

    /// A line that must stay visible (a warning), printed around the bar.
    pub fn say(&self, line: &str) {
        match self {
            Progress::Quiet => {}
            Progress::Lines { .. } => eprintln!("{}", clean(line)),
            Progress::Bar(bar) => bar.suspend(|| eprintln!("{}", clean(line))),
        }
    }

    /// Clears the bar.
    pub fn finish(self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

impl Observer for Progress {
    fn start(&mut self, what: &str) {
        Progress::start(self, what);
    }

    fn advance(&mut self) {
        Progress::advance(self);
    }

    fn say(&mut self, line: &str) {
        Progress::say(self, line);
    }
}
