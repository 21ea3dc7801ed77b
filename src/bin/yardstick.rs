//! The `yardstick` command: `compare`, `show` and `http`.
fn main() {
    std::process::exit(yardstick::main());
}
