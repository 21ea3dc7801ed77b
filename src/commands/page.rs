//! `--html` on a command that makes a run: the page checked before the
//! run is made, drawn once it is judged. Without the feature `report`,
//! asking for one is a usage error, before anything is measured.

use crate::document::run::Run;
use crate::error::Error;
use std::path::{Path, PathBuf};

/// The page a command was asked for, if any.
#[derive(Debug, Clone, Default)]
pub(crate) struct Html(Option<PathBuf>);

impl Html {
    /// Checks `path` can be written, before anything is measured, and is
    /// none of the files the command reads or writes (`inputs`: its
    /// baseline, its `--save`, its history).
    pub fn asked(path: Option<&Path>, inputs: &[&Path]) -> Result<Html, Error> {
        let Some(path) = path else {
            return Ok(Html(None));
        };
        if !cfg!(feature = "report") {
            return Err(Error::usage(
                "--html: this yardstick was built without the report (the feature `report`)",
            ));
        }
        crate::document::store::check_distinct(path, "--html", inputs)?;
        crate::document::store::check_writable(path)?;
        Ok(Html(Some(path.to_path_buf())))
    }

    /// Draws `run` (made by `name`), judged against `baseline`, if a page
    /// was asked for.
    pub fn draw(&self, name: &str, run: &Run, baseline: Option<&Run>) -> Result<(), Error> {
        let Some(path) = &self.0 else {
            return Ok(());
        };
        #[cfg(feature = "report")]
        return crate::report::save_run(path, name, run, baseline);
        #[cfg(not(feature = "report"))]
        {
            let _ = (path, name, run, baseline);
            Ok(())
        }
    }
}
