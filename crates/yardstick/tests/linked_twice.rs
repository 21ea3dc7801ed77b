//! A binary into which two keepers, recorders or drawers are linked is
//! refused before it runs: each is found through `inventory`, so without
//! the refusal the order of linking would choose which keeps, records or
//! draws. This test binary links two of each, as a bench that named two
//! history crates in `main!` would.

use std::path::{Path, PathBuf};
use yardstick::document::run::{Metric, Mode, Run};
use yardstick::error::Error;
use yardstick::inventory;
use yardstick_baseline::history::{Bench, Last};
use yardstick_baseline::keeper::{FromHistory, Keeper, Keeping};
use yardstick_output::record::{Record, Recorder, Recording};

/// A keeper and a recorder that refuse everything: none of it is reached.
struct Refusing;

fn refused() -> Error {
    Error::usage("refused")
}

impl Keeper for Refusing {
    fn place(&self, _: &Bench, _: &Run) -> String {
        String::new()
    }
    fn location(&self, _: &Bench, _: &str) -> String {
        String::new()
    }
    fn last(&self, _: &Bench, _: Option<&str>) -> Result<Option<Last>, Error> {
        Err(refused())
    }
    fn keep(&self, _: &Bench, _: &Run) -> Result<(), Error> {
        Err(refused())
    }
    fn history_baseline(
        &self,
        _: usize,
        _: Option<&str>,
        _: (Mode, Metric),
        _: Option<&str>,
    ) -> Result<FromHistory, Error> {
        Err(refused())
    }
}

impl Recorder for Refusing {
    fn check_location(&self, _: &str) -> Result<(), Error> {
        Err(refused())
    }
    fn check(&self, _: &Record) -> Result<(), Error> {
        Err(refused())
    }
    fn history_file(&self, _: &Record) -> Option<PathBuf> {
        None
    }
    fn record(&self, _: &Run, _: &Record) -> Result<(), Error> {
        Err(refused())
    }
}

fn draw(_: &Path, _: &str, _: &Run, _: Option<&Run>) -> Result<(), Error> {
    Err(refused())
}

static FIRST: Refusing = Refusing;
static SECOND: Refusing = Refusing;
inventory::submit!(Keeping(&FIRST));
inventory::submit!(Keeping(&SECOND));
inventory::submit!(Recording(&FIRST));
inventory::submit!(Recording(&SECOND));
inventory::submit!(yardstick::commands::page::Drawer(draw));
inventory::submit!(yardstick::commands::page::Drawer(draw));

fn refusal(result: Result<(), Error>) -> String {
    match result {
        Ok(()) => panic!("two linked were not refused"),
        Err(e) => {
            assert_eq!(e.exit_code(), 2, "{e}");
            e.to_string()
        }
    }
}

#[test]
fn two_keepers_are_refused() {
    let said = refusal(yardstick_baseline::keeper::linked_once());
    assert!(said.contains("2 keepers of runs"), "{said}");
    assert!(said.contains("link one"), "{said}");
}

#[test]
fn two_recorders_are_refused() {
    let said = refusal(yardstick_output::record::linked_once());
    assert!(said.contains("2 recorders of runs"), "{said}");
}

#[test]
fn two_drawers_are_refused() {
    let said = refusal(yardstick::commands::page::linked_once());
    assert!(said.contains("2 drawers of pages"), "{said}");
}

#[test]
fn a_bench_with_two_linked_exits_2_before_it_reads_an_option() {
    // The first refusal the bench meets is the keepers'.
    let said = refusal(yardstick::commands::linked_once());
    assert!(said.contains("keepers of runs"), "{said}");
    assert_eq!(yardstick::run_main(), 2);
}
