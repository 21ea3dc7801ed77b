//! `yardstick-probes`: the yardstick command with the reference suite linked
//! in, so `yardstick-probes micro` measures it.
use probes as _;

fn main() {
    std::process::exit(yardstick_cli::main());
}
