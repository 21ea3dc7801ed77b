//! Writing files so that nothing is ever half-written or lost: a temporary
//! file beside the target, flushed to disk, renamed over it, the directory
//! flushed too. Only a regular file (or nothing) is replaced: a symlink is
//! followed to the regular file it names; a FIFO, a device or a directory is
//! refused, since renaming over one would replace the node itself (a save to
//! `/dev/full` once turned that device into a JSON file).

use crate::error::Error;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The pattern of this module's temporary files: `.<name>.<random>.ystmp`.
const TMP_SUFFIX: &str = ".ystmp";
/// A temporary file of ours older than this was left by a killed process.
const STALE: Duration = Duration::from_secs(3600);

/// Checks, before anything is measured, that `path` can be saved to: its
/// directory exists or can be made, a file can be created there, and the
/// path is not something other than a regular file. The error names `path`.
pub(crate) fn check_writable(path: &Path) -> Result<(), Error> {
    let shown = path.display();
    let target = resolve(path).map_err(|m| Error::input(format!("{shown}: {m}")))?;
    let dir = directory(&target);
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::input(format!("{shown}: cannot create directory: {}", plain(&e))))?;
    tempfile::Builder::new()
        .prefix(".yardstick-check.")
        .suffix(TMP_SUFFIX)
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| Error::input(format!("{shown}: cannot save there: {}", plain(&e))))
}

/// Writes `contents` to `path` atomically, creating its directory.
pub fn write_atomic(path: &Path, contents: &str) -> Result<(), Error> {
    let shown = path.display();
    let target = resolve(path).map_err(|m| Error::input(format!("{shown}: {m}")))?;
    std::fs::create_dir_all(directory(&target))
        .map_err(|e| Error::input(format!("{shown}: cannot create directory: {}", plain(&e))))?;
    replace_file(&target, contents.as_bytes())
        .map_err(|e| Error::input(format!("{shown}: cannot save: {}", plain(&e))))
}

/// Replaces `path` whole with `bytes`, for anything the project saves (runs
/// and caches alike): a reader, a crash or a kill sees the old file or the
/// new one. The new file keeps the old one's permissions, or gets 0644.
pub fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = resolve(path).map_err(std::io::Error::other)?;
    let dir = directory(&target);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_stale(dir, &name);
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(TMP_SUFFIX)
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.flush()?;
    keep_mode(&target, tmp.as_file())?;
    tmp.as_file().sync_all()?;
    tmp.persist(&target).map_err(|e| e.error)?;
    // The rename is durable only once the directory is on disk too.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The regular file `path` stands for: itself, or the file a symlink
/// names. Anything else is refused, saying what it is.
fn resolve(path: &Path) -> Result<PathBuf, String> {
    let Ok(link) = std::fs::symlink_metadata(path) else {
        return Ok(path.to_path_buf());
    };
    let target = if link.file_type().is_symlink() {
        std::fs::canonicalize(path)
            .map_err(|_| "a symbolic link to nothing; save to a file".to_string())?
    } else {
        path.to_path_buf()
    };
    let meta = std::fs::metadata(&target).map_err(|e| format!("cannot save: {}", plain(&e)))?;
    if meta.is_file() {
        Ok(target)
    } else if meta.is_dir() {
        Err("a directory; save to a file".to_string())
    } else {
        Err("not a regular file (a FIFO, socket or device); save to a file".to_string())
    }
}

fn directory(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The mode of the file being replaced, or 0644 for a new one (a saved run
/// is no secret; the temporary file starts as 0600).
fn keep_mode(target: &Path, tmp: &std::fs::File) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(target).map_or(0o644, |m| m.permissions().mode() & 0o7777);
        tmp.set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = (target, tmp);
    Ok(())
}

/// Removes temporary files of `name` that a killed process left behind.
fn remove_stale(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    let now = SystemTime::now();
    for entry in entries.filter_map(Result::ok) {
        let file = entry.file_name();
        let file = file.to_string_lossy();
        let ours = file.starts_with(&prefix) && file.ends_with(TMP_SUFFIX);
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > STALE));
        if ours && old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// An I/O error's own words, without the temporary file's path that
/// `tempfile` appends to them (" at path ..."): the user named another file.
fn plain(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at path ") {
        Some(end) => text[..end].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // tempfile's errors name its own file; the messages never do.
        let missing = t.path().join("missing");
        let raw = tempfile::Builder::new()
            .suffix(TMP_SUFFIX)
            .tempfile_in(&missing)
            .unwrap_err();
        assert!(raw.to_string().contains("missing"), "{raw}");
        assert_eq!(plain(&raw), "No such file or directory (os error 2)");
        assert!(check_writable(&inside).is_err());
        assert!(check_writable(&t.path().join("new/run.json")).is_ok());
    }

    #[test]
    fn stale_temporary_files_are_removed_fresh_ones_kept() {
        let t = tempfile::tempdir().unwrap();
        let stale = t.path().join(format!(".run.json.abc{TMP_SUFFIX}"));
        let fresh = t.path().join(format!(".run.json.def{TMP_SUFFIX}"));
        let other = t.path().join(".other.tmp");
        for p in [&stale, &fresh, &other] {
            std::fs::write(p, "x").unwrap();
        }
        let old = SystemTime::now() - STALE - Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&stale)
            .unwrap()
            .set_modified(old)
            .unwrap();
        write_atomic(&t.path().join("run.json"), "x").unwrap();
        assert!(!stale.exists() && fresh.exists() && other.exists());
    }
}
