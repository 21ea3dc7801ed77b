//! Saving a document: its folder made, and the file replaced whole through
//! [`yardstick_probe::fs::replace_file`], with errors that name the file the user
//! gave. [`check_writable`] asks the same questions before a run starts.

use crate::error::Error;
use std::path::Path;
use yardstick_probe::fs::{Durability, directory, regular_file, replace_file};

/// Checks, before anything is measured, that `path` can be saved to: its
/// directory exists or can be made, a file can be created there, and the
/// path is not something other than a regular file. The error names `path`.
pub fn check_writable(path: &Path) -> Result<(), Error> {
    let shown = path.display();
    let target = regular_file(path).map_err(|m| Error::input(format!("{shown}: {m}")))?;
    let dir = directory(&target);
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::input(format!("{shown}: cannot create directory: {}", e)))?;
    yardstick_probe::fs::check_dir_writable(dir)
        .map_err(|e| Error::input(format!("{shown}: cannot save there: {}", e)))
}

/// Whether `a` and `b` are one file under two names (a hard link), where
/// both exist.
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &Path, _: &Path) -> bool {
    false
}

/// Refuses to write `path` when it names the same file as one of `inputs`
/// (a run read, a history, a run saved beside it): the page or document
/// written would replace it. Paths not there yet compare by their folder
/// and name, so `--save=x --html=./x` is caught before either exists; a hard link
/// or a symbolic link is the file it names.
pub fn check_distinct(path: &Path, option: &str, inputs: &[&Path]) -> Result<(), Error> {
    let key = |p: &Path| -> Option<std::path::PathBuf> {
        if let Ok(whole) = p.canonicalize() {
            return Some(whole);
        }
        let name = p.file_name()?;
        let dir = directory(p);
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        match dir.canonicalize() {
            Ok(d) => Some(d.join(name)),
            // A folder not made yet: compared as written, made absolute,
            // so that two names of one new file still meet.
            Err(_) => std::path::absolute(p).ok(),
        }
    };
    let Some(ours) = key(path) else {
        return Ok(());
    };
    let same = |i: &Path| key(i).as_ref() == Some(&ours) || same_file(path, i);
    match inputs.iter().find(|i| same(i)) {
        Some(same) => Err(Error::usage(format!(
            "{option}: {} is {}, which it would replace; name another file",
            path.display(),
            same.display()
        ))),
        None => Ok(()),
    }
}

/// Writes `contents` to `path` atomically, creating its directory.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), Error> {
    let shown = path.display();
    let target = regular_file(path).map_err(|m| Error::input(format!("{shown}: {m}")))?;
    std::fs::create_dir_all(directory(&target))
        .map_err(|e| Error::input(format!("{shown}: cannot create directory: {}", e)))?;
    replace_file(&target, contents.as_bytes(), Durability::Synced)
        .map_err(|e| Error::input(format!("{shown}: cannot save: {}", e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_may_not_replace_what_it_was_made_from() {
        let t = tempfile::tempdir().unwrap();
        let run = t.path().join("run.json");
        std::fs::write(&run, "{}").unwrap();
        let dotted = t.path().join(".").join("run.json");
        let e = check_distinct(&dotted, "--html", &[Path::new("/nowhere"), &run]).unwrap_err();
        assert!(e.to_string().contains("--html:"), "{e}");
        let later = t.path().join("later.json");
        assert!(check_distinct(&later, "--html", &[&later]).is_err());
        assert!(check_distinct(&t.path().join("page.html"), "--html", &[&run]).is_ok());
        // Both in a folder not made yet, one named through `.`.
        let new = t.path().join("out/h.sqlite");
        let dotted = t.path().join("out/./h.sqlite");
        assert!(check_distinct(&dotted, "--html", &[&new]).is_err());
        assert!(check_distinct(&t.path().join("out/p.html"), "--html", &[&new]).is_ok());
        // A hard link and a symbolic link are the file they name.
        #[cfg(unix)]
        {
            let hard = t.path().join("hard.json");
            std::fs::hard_link(&run, &hard).unwrap();
            assert!(check_distinct(&hard, "--output", &[&run]).is_err());
            let soft = t.path().join("soft.json");
            std::os::unix::fs::symlink(&run, &soft).unwrap();
            assert!(check_distinct(&soft, "--output", &[&run]).is_err());
            std::fs::create_dir_all(t.path().join("sub")).unwrap();
            let up = t.path().join("sub/../run.json");
            assert!(check_distinct(&up, "--output", &[&run]).is_err());
        }
    }

    #[test]
    fn creates_directories_and_replaces_whole() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("a/b/run.json");
        write_atomic(&p, "one").unwrap();
        write_atomic(&p, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(std::fs::read_dir(p.parent().unwrap()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_file_is_0644_and_a_replaced_one_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("run.json");
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        write_atomic(&p, "one").unwrap();
        assert_eq!(mode(&p), 0o644);
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_atomic(&p, "two").unwrap();
        assert_eq!(mode(&p), 0o640);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_followed_and_nothing_else_replaced() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real.json");
        std::fs::write(&real, "old").unwrap();
        let link = t.path().join("link.json");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, "new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");

        let dangling = t.path().join("dangling.json");
        std::os::unix::fs::symlink(t.path().join("nowhere"), &dangling).unwrap();
        let e = write_atomic(&dangling, "x").unwrap_err().to_string();
        assert!(
            e.contains("dangling.json: a symbolic link to nothing"),
            "{e}"
        );

        for (path, what) in [
            (Path::new("/dev/null"), "not a regular file"),
            (t.path(), "a directory"),
        ] {
            let e = write_atomic(path, "x").unwrap_err().to_string();
            assert!(e.contains(what), "{e}");
            let e = check_writable(path).unwrap_err().to_string();
            assert!(e.contains(what), "{e}");
        }
    }

    #[test]
    fn errors_name_the_file_not_the_temporary_one() {
        let t = tempfile::tempdir().unwrap();
        let blocked = t.path().join("file");
        std::fs::write(&blocked, "").unwrap();
        let inside = blocked.join("run.json");
        let e = write_atomic(&inside, "x").unwrap_err().to_string();
        assert!(e.contains("file/run.json: cannot create directory"), "{e}");
        // A temporary file's name never reaches the message.
        let e = write_atomic(&t.path().join("run.json"), "x");
        assert!(e.is_ok(), "{e:?}");
        assert!(
            !check_writable(&inside)
                .unwrap_err()
                .to_string()
                .contains(".ystmp")
        );
        assert!(check_writable(&inside).is_err());
        assert!(check_writable(&t.path().join("new/run.json")).is_ok());
    }
}
