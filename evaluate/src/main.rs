//! `evaluate`: see the library's documentation and evaluate/README.md.

fn main() {
    let args = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    std::process::exit(evaluate::main(args));
}
