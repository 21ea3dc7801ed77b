//! The `yardstick` command: `micro`, `compare`, `compare-builds`, `matrix`,
//! `show`, `report`, `baseline`, `http`, `k6`, `history` and `machine`
//! (`yardstick --help` lists them).
fn main() {
    std::process::exit(yardstick::main());
}
