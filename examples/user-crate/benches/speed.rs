//! The crate's bench target: its own probe, and the library's two.

yardstick::probe! {
    name: user_join,
    ops: 1,
    note: "1,000 words joined",
    setup: || Ok::<_, String>(user_crate::words(1000, 8)),
    run: |w: &Vec<String>| w.join(" "),
    check: |_, s: &String| if s.len() == 8999 { Ok(()) } else { Err(format!("{} bytes", s.len())) },
}

// The library's probes register only if the linker keeps the library.
use user_crate as _;

fn main() {
    std::process::exit(yardstick::run_main());
}
