//! The password file libpq reads (`~/.pgpass`, or `PGPASSFILE`): one
//! `host:port:database:user:password` a line, `*` matching anything, `\`
//! escaping `:` and itself. Read as libpq reads it, so a team's existing
//! file works, and ignored, as libpq ignores it, when others may read it.

use std::path::{Path, PathBuf};

/// What a connection is, for matching a line.
pub(crate) struct Wanted<'a> {
    pub host: &'a str,
    pub port: u16,
    pub database: &'a str,
    pub user: &'a str,
}

/// The file libpq would read: `PGPASSFILE`, else `~/.pgpass`.
pub(crate) fn file() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PGPASSFILE").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    std::env::var_os("HOME").map(|home| Path::new(&home).join(".pgpass"))
}

/// The password for `wanted` in the file at `path`: `None` when there is
/// no file, no line matches, or the file is readable by others (libpq's
/// rule, so a password does not leak through a careless mode).
pub(crate) fn lookup(path: &Path, wanted: &Wanted<'_>) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() || meta.permissions().mode() & 0o077 != 0 {
            return None;
        }
    }
    let text = std::fs::read_to_string(path).ok()?;
    password(&text, wanted)
}

/// The password of the first line of `text` that matches `wanted`.
pub(crate) fn password(text: &str, wanted: &Wanted<'_>) -> Option<String> {
    let port = wanted.port.to_string();
    let want = [wanted.host, &port, wanted.database, wanted.user];
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(fields)
        .find(|f| {
            f[..4]
                .iter()
                .zip(want)
                .all(|(field, w)| field == "*" || field == w)
        })
        .map(|mut f| f.swap_remove(4))
}

/// A line's five fields, unescaped; `None` for a line with fewer. A line
/// with more keeps the rest in the password, as libpq does.
fn fields(line: &str) -> Option<Vec<String>> {
    let mut out = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.last_mut()?.extend(chars.next()),
            ':' if out.len() < 5 => out.push(String::new()),
            c => out.last_mut()?.push(c),
        }
    }
    (out.len() == 5).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn wanted() -> Wanted<'static> {
        Wanted {
            host: "db.example",
            port: 5432,
            database: "perf",
            user: "ci",
        }
    }

    #[test]
    fn the_first_matching_line_gives_the_password() {
        let text = "# a comment\n\
                    other:5432:perf:ci:no\n\
                    db.example:5433:perf:ci:no\n\
                    db.example:*:perf:ci:s3c\\:ret\\\\x\n\
                    *:*:*:*:fallback\n";
        assert_eq!(password(text, &wanted()).as_deref(), Some("s3c:ret\\x"));
        assert_eq!(password("*:*:*:*:a:b\n", &wanted()).as_deref(), Some("a:b"));
        assert_eq!(password("db.example:5432:perf\n", &wanted()), None);
        assert_eq!(password("", &wanted()), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_can_read_is_ignored() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pgpass");
        std::fs::write(&path, "*:*:*:*:pw\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(lookup(&path, &wanted()).as_deref(), Some("pw"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(lookup(&path, &wanted()), None);
    }

    proptest! {
        #[test]
        fn any_text_is_read_without_panicking(text in "\\PC{0,200}") {
            let _ = password(&text, &wanted());
        }
    }
}
