//! The `yardstick` command (`yardstick --help` lists its commands).
fn main() {
    std::process::exit(yardstick_cli::main());
}
