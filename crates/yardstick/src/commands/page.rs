//! `--html` on a command that makes a run: the page checked before the
//! run is made, drawn once it is judged. The drawing is the crate
//! yardstick-report's, which offers it as a [`Drawer`]: a bench links it
//! by naming it (`yardstick::main!(my_crate, yardstick_report)`), and the
//! `yardstick` command always does. Where none is linked, asking for a
//! page is a usage error, before anything is measured.

use crate::document::run::Run;
use crate::error::Error;
use std::path::{Path, PathBuf};

/// What draws the page of a run: `(page, name of what made the run, run,
/// baseline)`. Submitted with `inventory::submit!` by the crate that
/// draws; a binary with two linked is refused before it runs
/// ([`linked_once`]).
pub struct Drawer(pub fn(&Path, &str, &Run, Option<&Run>) -> Result<(), Error>);

crate::probe::inventory::collect!(Drawer);

/// Refuses a binary into which two drawers are linked: which of them draws
/// `--html`'s page is not something the order of linking should decide.
pub fn linked_once() -> Result<(), Error> {
    Error::linked_once(
        crate::probe::inventory::iter::<Drawer>.into_iter().count(),
        "drawers of pages (a crate such as yardstick-report)",
        "draws --html's page",
    )
}

/// The drawer linked into this binary (one: [`linked_once`]), if any.
fn drawer() -> Option<&'static Drawer> {
    crate::probe::inventory::iter::<Drawer>.into_iter().next()
}

/// The page a command was asked for, if any.
#[derive(Debug, Clone, Default)]
pub struct Html(Option<PathBuf>);

impl Html {
    /// Checks `path` can be written, before anything is measured, and is
    /// none of the files the command reads or writes (`inputs`: its
    /// baseline, its `--save`, its history).
    pub(crate) fn asked(path: Option<&Path>, inputs: &[PathBuf]) -> Result<Html, Error> {
        let Some(path) = path else {
            return Ok(Html(None));
        };
        if drawer().is_none() {
            return Err(Error::usage(
                "--html: this bench draws no page: link the crate yardstick-report \
                 (`yardstick::main!(..., yardstick_report)`), or save the run with \
                 --save=FILE and draw it with `yardstick report FILE --html=PAGE`",
            ));
        }
        let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
        crate::document::store::check_distinct(path, "--html", &inputs)?;
        crate::document::store::check_writable(path)?;
        Ok(Html(Some(path.to_path_buf())))
    }

    /// Draws `run` (made by `name`), judged against `baseline`, if a page
    /// was asked for, then hands the run to `deliver` and returns its exit
    /// code. A page that fails to be written costs the page, never the
    /// run's save or its verdict: its error comes after the delivery.
    pub fn draw_then(
        &self,
        name: &str,
        run: Run,
        baseline: Option<&Run>,
        deliver: impl FnOnce(Run) -> Result<i32, Error>,
    ) -> Result<i32, Error> {
        let drawn = self.draw(name, &run, baseline);
        let code = deliver(run)?;
        drawn?;
        Ok(code)
    }

    /// Says why no page was drawn, if one was asked for.
    pub(crate) fn not_drawn(&self, why: &str) {
        if self.0.is_some() {
            eprintln!("--html: no page: {why}");
        }
    }

    /// Draws `run` (made by `name`), judged against `baseline`, if a page
    /// was asked for.
    fn draw(&self, name: &str, run: &Run, baseline: Option<&Run>) -> Result<(), Error> {
        let Some(path) = &self.0 else {
            return Ok(());
        };
        match drawer() {
            Some(Drawer(draw)) => draw(path, name, run, baseline),
            // Refused as it was asked (`Html::asked`).
            None => Ok(()),
        }
    }
}
