//! The speed card: the same pages through two servers, cached and
//! rendered, for visitors (`/speed`) and as JSON (`/speed.json`). Both
//! read the card's file and never measure, so no visitor causes a request
//! to either server.
//!
//! - [`measure`]: Measure again, yardstick's own measurement as a child;
//! - [`model`]: the card, made from the two runs a measurement saved;
//! - [`store`]: its file, replaced whole, read back checked;
//! - [`view`]: the card as its template reads it;
//! - [`reply`]: the card's two answers.

pub mod measure;
pub mod model;
pub mod reply;
pub mod store;
pub mod view;

/// The card's page.
pub const PAGE: &str = "/speed";
/// The card as JSON: the file's last measurement.
pub const JSON: &str = "/speed.json";

/// The card's path `path` names, with or without the front controller.
pub fn owned(path: &str) -> Option<&'static str> {
    let path = path.strip_prefix("/index.php").unwrap_or(path);
    [PAGE, JSON].into_iter().find(|p| *p == path)
}
