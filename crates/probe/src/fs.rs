//! The one way the project replaces a file: saved runs, baselines, the
//! reference kernel's content store and its caches alike. A temporary file
//! beside the target is written and renamed over it, so a reader, a crash
//! or a kill sees the old file or the new one, never half of one. What
//! cannot be made again is also flushed to disk before the rename, and the
//! directory after it ([`Durability::Synced`]); a cache is not
//! ([`Durability::Cache`]).
//!
//! It is part of the light library (no dependency at all), so that code
//! under test, which depends on yardstick-probe alone, saves
//! its files as the harness does instead of keeping a second writer. That
//! is why temporary files are made here with `create_new` rather than by
//! the `tempfile` crate; the harness's own scratch files and folders are
//! made the same way, which keeps `tempfile` (and the crates it brings)
//! out of every user's bench build.
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
const TMP_SUFFIX: &str = ".ystmp";
/// A temporary file of ours older than this was left by a killed process.
const STALE: Duration = Duration::from_secs(3600);

/// How far a replaced file is kept when the machine stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// Synced before the rename, and the directory after it: saved runs,
    /// baselines, a content store, which nothing makes again.
    Synced,
    /// Whole, but not synced: a cache, which is rebuilt when a power cut
    /// loses it. Its writes happen on the path a cold render is timed on,
    /// where a sync would time the disk (three times the write on the
    /// project's VM: docs/evaluation.md, "Kernel mode").
    Cache,
}

/// Replaces `path` whole with `bytes`. The new file keeps the old one's
/// permissions, or gets 0644. The directory must exist. An error says what
/// is wrong without naming `path`: the caller knows which file it meant.
///
/// ```
/// use yardstick_probe::fs::{Durability, replace_file};
///
/// let dir = std::env::temp_dir().join(format!("yardstick-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("settings.ini");
/// replace_file(&path, b"[site]\nname=demo\n", Durability::Synced)?;
/// // A reader sees the old file or the new one, never half of one.
/// assert_eq!(std::fs::read_to_string(&path)?, "[site]\nname=demo\n");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn replace_file(path: &Path, bytes: &[u8], durability: Durability) -> io::Result<()> {
    replace(path, durability, |mut file: &File, _: &Path| {
        file.write_all(bytes)
    })
}

/// Replaces `path` whole with the file `fill` writes at the temporary path
/// it is given, for writers that need a path of their own (a database
/// builds its file itself). As [`replace_file`] otherwise; `fill`'s error
/// is returned as it is, and the temporary file is removed.
pub fn replace_with<T, E: From<io::Error>>(
    path: &Path,
    durability: Durability,
    fill: impl FnOnce(&Path) -> Result<T, E>,
) -> Result<T, E> {
    replace(path, durability, |_: &File, tmp: &Path| fill(tmp))
}

/// The two above: `fill` writes the temporary file, through the handle it
/// was made with or at its path.
fn replace<T, E: From<io::Error>>(
    path: &Path,
    durability: Durability,
    fill: impl FnOnce(&File, &Path) -> Result<T, E>,
) -> Result<T, E> {
    let target = regular_file(path).map_err(io::Error::other)?;
    let dir = directory(&target);
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_stale(dir, &name);
    let tmp = Temporary::create(dir, &name)?;
    let made = fill(&tmp.file, &tmp.path)?;
    keep_mode(&target, &tmp.path)?;
    if durability == Durability::Synced {
        // Syncs the file whatever handle wrote it (a database writes
        // through its own).
        tmp.file.sync_all()?;
    }
    tmp.rename_to(&target)?;
    // The rename is durable only once the directory is on disk too. A
    // directory that cannot be opened or synced (some file systems refuse)
    // leaves the file whole, which is what a reader needs.
    if durability == Durability::Synced
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
    Ok(made)
}

/// The regular file `path` stands for: itself (when nothing is there yet),
/// or the file a symlink names. Anything else is refused, saying what it is.
pub fn regular_file(path: &Path) -> Result<PathBuf, String> {
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
pub fn directory(path: &Path) -> &Path {
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
    /// A new file `.<name>.<unique>.ystmp` in `dir`, readable by its owner
    /// only until [`keep_mode`] gives it the target's mode.
    fn create(dir: &Path, name: &str) -> io::Result<Temporary> {
        let (path, file) = unique(dir, &format!(".{name}."), TMP_SUFFIX, new_file)?;
        Ok(Temporary {
            file,
            path,
            renamed: false,
        })
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

/// Makes something new at `<dir>/<prefix><pid>-<nanos>-<n><suffix>` with
/// `make`, which fails with `AlreadyExists` when the name is taken (then
/// another name is tried), and returns its path and what `make` made.
fn unique<R>(
    dir: &Path,
    prefix: &str,
    suffix: &str,
    make: fn(&Path) -> io::Result<R>,
) -> io::Result<(PathBuf, R)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut last = None;
    for _ in 0..16 {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let pid = std::process::id();
        let path = dir.join(format!("{prefix}{pid}-{nanos}-{n}{suffix}"));
        match make(&path) {
            Ok(made) => return Ok((path, made)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free name")))
}

/// A new, empty file that only its owner can read, never one that exists.
fn new_file(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// A new file `<prefix><unique><suffix>` in `dir`, kept: where a run is
/// rescued when its `--save` failed.
pub fn kept_file(dir: &Path, prefix: &str, suffix: &str) -> io::Result<PathBuf> {
    unique(dir, prefix, suffix, new_file).map(|(path, _)| path)
}

/// Whether a file can be made in `dir`: one is made and removed.
pub fn check_dir_writable(dir: &Path) -> io::Result<()> {
    Temporary::create(dir, ".yardstick-check").map(drop)
}

/// A new folder under the system's temporary folder, removed with all it
/// holds when dropped: a counted run's scratch space.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Makes the folder, named `<prefix><unique>`.
    pub fn new(prefix: &str) -> io::Result<TempDir> {
        let (path, ()) = unique(&std::env::temp_dir(), prefix, "", |p| {
            std::fs::create_dir(p)
        })?;
        Ok(TempDir { path })
    }

    /// Where the folder is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The mode of the file being replaced, or 0644 for a new one (nothing the
/// project saves is secret; the temporary file starts as 0600).
fn keep_mode(target: &Path, tmp: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(target).map_or(0o644, |m| m.permissions().mode() & 0o7777);
        std::fs::set_permissions(tmp, std::fs::Permissions::from_mode(mode))?;
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
        // Only our own names are looked at further: a cache folder holds
        // many other files.
        if !(file.starts_with(&prefix) && file.ends_with(TMP_SUFFIX)) {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > STALE));
        if old {
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
        replace_file(&p, b"one", Durability::Synced).unwrap();
        replace_file(&p, b"two", Durability::Cache).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn what_is_not_a_regular_file_is_refused_before_anything_is_written() {
        let (_t, dir) = folder();
        // A directory where the file should go: refused before writing.
        std::fs::create_dir(dir.join("taken")).unwrap();
        let e = replace_file(&dir.join("taken"), b"x", Durability::Synced).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // A missing folder: nothing is made.
        let e = replace_file(&dir.join("missing/entry"), b"x", Durability::Cache).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound, "{e}");
    }

    #[test]
    fn a_failed_fill_removes_the_temporary_file() {
        let (_t, dir) = folder();
        let p = dir.join("store.db");
        std::fs::write(&p, "old").unwrap();
        let e = replace_with(&p, Durability::Synced, |tmp: &Path| -> io::Result<()> {
            std::fs::write(tmp, "half")?;
            Err(io::Error::other("the build failed"))
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "the build failed");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn a_fill_through_its_own_handle_is_kept() {
        let (_t, dir) = folder();
        let p = dir.join("store.db");
        let n = replace_with(&p, Durability::Synced, |tmp: &Path| -> io::Result<usize> {
            std::fs::write(tmp, "built")?;
            Ok(5)
        })
        .unwrap();
        assert_eq!(
            (n, std::fs::read_to_string(&p).unwrap().as_str()),
            (5, "built")
        );
    }

    #[test]
    fn a_scratch_folder_goes_with_all_it_holds() {
        let dir = TempDir::new("yardstick-test-").unwrap();
        let kept = kept_file(dir.path(), "run-", ".json").unwrap();
        std::fs::write(&kept, "{}").unwrap();
        let other = kept_file(dir.path(), "run-", ".json").unwrap();
        assert_ne!(kept, other);
        check_dir_writable(dir.path()).unwrap();
        let path = dir.path().to_path_buf();
        assert_eq!(std::fs::read_dir(&path).unwrap().count(), 2);
        drop(dir);
        assert!(!path.exists());
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
        replace_file(&dir.join("run.json"), b"x", Durability::Synced).unwrap();
        assert!(!stale.exists() && fresh.exists() && other.exists());
    }
}
