//! Rewrites the committed class map fixtures from their generator:
//! `cargo run -p probes --example autoload_fixture`.

use probes::autoload::fixture::generate;

fn main() {
    let installation = generate();
    for (relative, text) in installation.texts() {
        let path = probes::fixtures::path(relative);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, &text));
        match written {
            Ok(()) => println!("{}: {} KB", path.display(), text.len() / 1024),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                std::process::exit(1);
            }
        }
    }
}
