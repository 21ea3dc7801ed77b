//! Rewrites the committed German catalogue fixture from its generator:
//! `cargo run -p probes --example i18n_fixture`.

use probes::i18n::fixture::{FIXTURE, generate};

fn main() {
    let path = probes::fixtures::path(FIXTURE);
    let generated = generate();
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&path, &generated.text));
    match written {
        Ok(()) => println!(
            "{}: {} KB, {} contexts, {} messages ({} duplicates)",
            path.display(),
            generated.text.len() / 1024,
            generated.contexts,
            generated.messages,
            generated.duplicates
        ),
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            std::process::exit(1);
        }
    }
}
