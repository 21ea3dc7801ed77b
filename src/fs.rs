//! The one way the project replaces a file: saved runs, baselines and the
//! reference kernel's caches alike. A temporary file beside the target is
//! written, flushed to disk, renamed over it, and the directory flushed
//! too, so a reader, a crash or a kill sees the old file or the new one,
//! never half of one.
//!
//! It is part of the light library (no dependency at all), so that code
//! under test, which takes yardstick without its default features, saves
//! its files as the harness does instead of keeping a second writer. That
//! is why the temporary file is made here with `create_new` rather than by
//! the `tempfile` crate.
//!
//! Only a regular file (or nothing) is replaced: a symlink is followed to
//! the regular file it names; a FIFO, a device or a directory is refused,
//! since renaming over one would replace the node itself (a save to
//! `/dev/full` once turned that device into a JSON file).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The end of this module's temporary files: `.<name>.<unique>.ystmp`.
pub(crate) const TMP_SUFFIX: &str = ".ystmp";
/// A temporary file of ours older than this was left by a killed process.
const STALE: Duration = Duration::from_secs(3600);

/// Replaces `path` whole with `bytes`. The new file keeps the old one's
/// permissions, or gets 0644. The directory must exist. An error says what
/// is wrong without naming `path`: the caller knows which file it meant.
pub fn replace_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = regular_file(path).map_err(io::Error::other)?;
    let dir = directory(&target);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_stale(dir, &name);
    let tmp = Temporary::create(dir, &name)?;
    let mut file = &tmp.file;
    file.write_all(bytes)?;
    keep_mode(&target, &tmp.file)?;
    tmp.file.sync_all()?;
    tmp.rename_to(&target)?;
    // The rename is durable only once the directory is on disk too.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The regular file `path` stands for: itself (when nothing is there yet),
/// or the file a symlink names. Anything else is refused, saying what it is.
pub(crate) fn regular_file(path: &Path) -> Result<PathBuf, String> {
    let Ok(link) = std::fs::symlink_metadata(path) else {
        return Ok(path.to_path_buf());
    };
    let target = if link.file_type().is_symlink() {
        std::fs::canonicalize(path)
            .map_err(|_| "a symbolic link to nothing; save to a file".to_string())?
    } else {
        path.to_path_buf()
    };
    let meta = std::fs::metadata(&target).map_err(|e| format!("cannot save: {e}"))?;
    if meta.is_file() {
        Ok(target)
    } else if meta.is_dir() {
        Err("a directory; save to a file".to_string())
    } else {
        Err("not a regular file (a FIFO, socket or device); save to a file".to_string())
    }
}

/// The folder `path` is in; `.` for a bare name.
pub(crate) fn directory(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A temporary file beside the target, removed unless renamed into place.
struct Temporary {
    file: File,
    path: PathBuf,
    renamed: bool,
}

impl Temporary {
    /// A new file `.<name>.<pid>-<nanos>-<n>.ystmp` in `dir`, readable by
    /// its owner only until [`keep_mode`] gives it the target's mode.
    fn create(dir: &Path, name: &str) -> io::Result<Temporary> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut last = None;
        for _ in 0..16 {
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let pid = std::process::id();
            let path = dir.join(format!(".{name}.{pid}-{nanos}-{n}{TMP_SUFFIX}"));
            match options.open(&path) {
                Ok(file) => {
                    return Ok(Temporary {
                        file,
                        path,
                        renamed: false,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
    }

    fn rename_to(mut self, target: &Path) -> io::Result<()> {
        std::fs::rename(&self.path, target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The mode of the file being replaced, or 0644 for a new one (nothing the
/// project saves is secret; the temporary file starts as 0600).
fn keep_mode(target: &Path, tmp: &File) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> (tempfile::TempDir, PathBuf) {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().to_path_buf();
        (t, dir)
    }

    #[test]
    fn replaces_whole_and_leaves_no_temporary_file() {
        let (_t, dir) = folder();
        let p = dir.join("entry");
        replace_file(&p, b"one").unwrap();
        replace_file(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn a_failed_rename_removes_the_temporary_file() {
        let (_t, dir) = folder();
        // A directory where the file should go: refused before writing.
        std::fs::create_dir(dir.join("taken")).unwrap();
        let e = replace_file(&dir.join("taken"), b"x").unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // A missing folder: nothing is made.
        let e = replace_file(&dir.join("missing/entry"), b"x").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound, "{e}");
    }

    #[test]
    fn stale_temporary_files_are_removed_fresh_ones_kept() {
        let (_t, dir) = folder();
        let stale = dir.join(format!(".run.json.abc{TMP_SUFFIX}"));
        let fresh = dir.join(format!(".run.json.def{TMP_SUFFIX}"));
        let other = dir.join(".other.tmp");
        for p in [&stale, &fresh, &other] {
            std::fs::write(p, "x").unwrap();
        }
        let old = SystemTime::now() - STALE - Duration::from_secs(60);
        File::options()
            .write(true)
            .open(&stale)
            .unwrap()
            .set_modified(old)
            .unwrap();
        replace_file(&dir.join("run.json"), b"x").unwrap();
        assert!(!stale.exists() && fresh.exists() && other.exists());
    }
}
