//! JSON: the saved document itself, so stdout can be piped into a file and
//! read back with `yardstick show`.

use super::Render;
use crate::document::comparison::Comparison;
use crate::document::run::Run;
use crate::document::store;

pub(crate) struct JsonFormat;

impl Render for JsonFormat {
    fn run(&self, run: &Run) -> String {
        let mut text = store::to_json(run);
        text.push('\n');
        text
    }

    fn comparison(&self, comparison: &Comparison) -> String {
        // Plain data with string keys: serialising cannot fail.
        let mut text = serde_json::to_string_pretty(comparison).unwrap_or_default();
        text.push('\n');
        text
    }
}
