//! The `yardstick` command: `micro`, `compare`, `compare-builds`, `show`,
//! `baseline`, `http` and `machine` (`yardstick --help` lists them).
fn main() {
    std::process::exit(yardstick::main());
}
