//! The settings files read by the kernel and by `rust-ini`.
//!
//! `rust-ini` reads another dialect: it cannot read `Name[]` clear lines
//! (it joins them with the next line) and it unescapes backslashes. Both
//! readers get a copy of the seven files without those lines, which keeps
//! every group header. The two are held to one equivalence: the groups
//! each file holds. The kernel's result is its group count per file, and
//! `rust-ini`'s its section count per file, the section before the first
//! header left out; the kernel's is checked against the counts
//! `ini_parse` pins, so the variants agree exactly when both read every
//! group. What else each keeps differs (arrays, clears, warnings), and is
//! not compared.

use probes::fixtures;
use probes::settings::Settings;
use probes::settings::probe::FILES;

/// The seven files of `ini_parse`, without the lines `rust-ini` reads
/// differently.
pub struct Copies {
    files: Vec<(&'static str, String)>,
}

/// The lines `rust-ini` reads differently: `Name[]` clears and anything
/// with a backslash.
fn read_differently(line: &str) -> bool {
    let clear = line
        .strip_suffix("[]")
        .is_some_and(|name| !name.is_empty() && !name.contains(['=', '[', ' ']));
    clear || line.contains('\\')
}

fn copies() -> Result<Copies, String> {
    let mut files = Vec::new();
    for (name, ..) in FILES {
        let path = fixtures::path(&format!("settings/{name}"));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let kept: Vec<&str> = text.lines().filter(|l| !read_differently(l)).collect();
        files.push((name, kept.join("\n") + "\n"));
    }
    Ok(Copies { files })
}

/// Groups per file, as the kernel reads the copies.
fn kernel(c: &Copies) -> Result<Vec<usize>, String> {
    c.files
        .iter()
        .map(|(name, text)| {
            Settings::parse(name, text.as_bytes())
                .map(|s| s.group_count())
                .map_err(|e| format!("{name}: {e}"))
        })
        .collect()
}

/// Sections with a header per file, as `rust-ini` reads the copies.
fn rust_ini(c: &Copies) -> Result<Vec<usize>, String> {
    c.files
        .iter()
        .map(|(name, text)| {
            ini::Ini::load_from_str(text)
                .map(|i| i.sections().flatten().count())
                .map_err(|e| format!("{name}: {e}"))
        })
        .collect()
}

/// Every file's groups, as `ini_parse` pins them.
fn every_group(read: &Result<Vec<usize>, String>) -> Result<(), String> {
    let read = read.as_ref().map_err(Clone::clone)?;
    let pinned: Vec<usize> = FILES.iter().map(|(_, groups, ..)| *groups).collect();
    if *read == pinned {
        Ok(())
    } else {
        Err(format!("groups per file {read:?}, expected {pinned:?}"))
    }
}

yardstick_probe::probe! {
    name: ini_parse_copy,
    group: settings_copy,
    variant: kernel,
    role: reference,
    ops: 7,
    note: "the 7 settings files without the lines rust-ini reads differently",
    setup: copies,
    run: kernel,
    check: |_, read| every_group(read),
}

yardstick_probe::probe! {
    name: ini_parse_rust_ini,
    group: settings_copy,
    variant: rust_ini,
    ops: 7,
    note: "the same copies read by rust-ini, held to the same groups per file",
    setup: copies,
    run: rust_ini,
    check: |_, read| every_group(read),
}
