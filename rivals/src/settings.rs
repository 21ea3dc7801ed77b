//! The settings files read by the kernel and by `rust-ini`.
//!
//! `rust-ini` reads another dialect: it cannot read `Name[]` clear lines
//! (it joins them with the next line) and it unescapes backslashes. Both
//! readers get a copy of the seven files without those lines, and
//! `rust-ini` is a floor: its result cannot equal the kernel's (it keeps
//! no arrays, no clears, no warnings), so it is checked to have read every
//! group and never called the winner.

use probes::fixtures;
use probes::settings::Settings;

/// The seven files of `ini_parse`, without the lines `rust-ini` reads
/// differently.
pub struct Copies {
    files: Vec<(&'static str, String)>,
    /// The groups of each file, as the kernel reads the copy.
    groups: Vec<usize>,
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
    let mut groups = Vec::new();
    for name in probes::settings::probe::FILE_NAMES {
        let path = fixtures::path(&format!("settings/{name}"));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let kept: Vec<&str> = text.lines().filter(|l| !read_differently(l)).collect();
        let copy = kept.join("\n") + "\n";
        let read = Settings::parse(name, copy.as_bytes()).map_err(|e| e.to_string())?;
        if read.group_count() == 0 || !read.warnings().is_empty() {
            return Err(format!("{name}: the copy reads with warnings or no group"));
        }
        groups.push(read.group_count());
        files.push((name, copy));
    }
    Ok(Copies { files, groups })
}

/// Groups and settings per file, as the kernel reads the copies.
fn kernel(c: &Copies) -> Result<Vec<(usize, usize)>, String> {
    c.files
        .iter()
        .map(|(name, text)| {
            Settings::parse(name, text.as_bytes())
                .map(|s| (s.group_count(), s.variable_count()))
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// Groups per file, as `rust-ini` reads the copies.
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

yardstick::probe! {
    name: ini_parse_copy,
    group: settings_copy,
    variant: kernel,
    role: reference,
    ops: 7,
    note: "the 7 settings files without the lines rust-ini reads differently",
    setup: copies,
    run: kernel,
    check: |c: &Copies, read: &Result<Vec<(usize, usize)>, String>| {
        let read = read.as_ref().map_err(Clone::clone)?;
        let groups: Vec<usize> = read.iter().map(|(g, _)| *g).collect();
        if groups == c.groups { Ok(()) } else { Err(format!("groups {groups:?}, expected {:?}", c.groups)) }
    },
}

yardstick::probe! {
    name: ini_parse_rust_ini,
    group: settings_copy,
    variant: rust_ini,
    role: floor,
    ops: 7,
    note: "the same copies read by rust-ini, another dialect: a floor",
    setup: copies,
    run: rust_ini,
    check: |c: &Copies, read: &Result<Vec<usize>, String>| {
        let read = read.as_ref().map_err(Clone::clone)?;
        // rust-ini also counts the section before the first header.
        if read.iter().zip(&c.groups).all(|(theirs, ours)| theirs >= ours) {
            Ok(())
        } else {
            Err(format!("rust-ini read {read:?} groups, the kernel {:?}", c.groups))
        }
    },
}
