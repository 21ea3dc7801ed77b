//! The commit a working tree is at, read from `.git` without running git:
//! CI images do not always have git, and a benchmark should not spawn one.

use std::fs;
use std::path::{Path, PathBuf};

/// The commit hash checked out in the repository containing `start` (or one
/// of its parents), or `None` when there is no repository or it cannot be
/// read.
pub fn commit_of(start: &Path) -> Option<String> {
    let gitdir = find_gitdir(start)?;
    let commondir = common_dir(&gitdir);
    let head = fs::read_to_string(gitdir.join("HEAD")).ok()?;
    let head = head.trim();
    match head.strip_prefix("ref:") {
        Some(name) => resolve_ref(&gitdir, &commondir, name.trim()),
        None => is_hash(head).then(|| head.to_string()),
    }
}

/// The branch a run belongs to: in GitHub Actions the pull request's
/// source branch (`GITHUB_HEAD_REF`) or the pushed one (`GITHUB_REF_NAME`),
/// else the branch checked out in the repository containing `start`;
/// `None` on a detached HEAD or without a repository.
pub fn branch_of(start: &Path) -> Option<String> {
    for variable in ["GITHUB_HEAD_REF", "GITHUB_REF_NAME"] {
        if let Some(name) = std::env::var(variable).ok().filter(|v| !v.is_empty()) {
            return Some(name);
        }
    }
    checked_out(start)
}

/// The branch checked out in the repository containing `start`.
fn checked_out(start: &Path) -> Option<String> {
    let head = fs::read_to_string(find_gitdir(start)?.join("HEAD")).ok()?;
    let name = head.trim().strip_prefix("ref:")?.trim();
    name.strip_prefix("refs/heads/").map(str::to_string)
}

/// The repository's git directory: `.git` itself, or the directory a `.git`
/// file (linked worktree, submodule) points at.
fn find_gitdir(start: &Path) -> Option<PathBuf> {
    for dir in start.ancestors() {
        let dotgit = dir.join(".git");
        if dotgit.is_dir() {
            return Some(dotgit);
        }
        if dotgit.is_file() {
            let text = fs::read_to_string(&dotgit).ok()?;
            let target = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
            let path = Path::new(target);
            return Some(if path.is_absolute() {
                path.to_path_buf()
            } else {
                dir.join(path)
            });
        }
    }
    None
}

/// A linked worktree keeps HEAD in its own git directory but refs in the
/// common one, named by its `commondir` file.
fn common_dir(gitdir: &Path) -> PathBuf {
    match fs::read_to_string(gitdir.join("commondir")) {
        Ok(text) => {
            let path = Path::new(text.trim());
            if path.is_absolute() {
                path.to_path_buf()
            } else {
                gitdir.join(path)
            }
        }
        Err(_) => gitdir.to_path_buf(),
    }
}

fn resolve_ref(gitdir: &Path, commondir: &Path, name: &str) -> Option<String> {
    if name.contains("..") {
        return None;
    }
    for dir in [gitdir, commondir] {
        if let Ok(text) = fs::read_to_string(dir.join(name)) {
            let hash = text.trim();
            if is_hash(hash) {
                return Some(hash.to_string());
            }
        }
    }
    let packed = fs::read_to_string(commondir.join("packed-refs")).ok()?;
    packed
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('^'))
        .find_map(|l| {
            let (hash, refname) = l.split_once(' ')?;
            (refname.trim() == name && is_hash(hash)).then(|| hash.to_string())
        })
}

/// SHA-1 (40) or SHA-256 (64) hex object names.
fn is_hash(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "1111111111111111111111111111111111111111";
    const B: &str = "2222222222222222222222222222222222222222";

    fn write(path: &Path, text: &str) {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(path, text).unwrap();
    }

    #[test]
    fn loose_ref() {
        let t = tempfile::tempdir().unwrap();
        write(&t.path().join(".git/HEAD"), "ref: refs/heads/main\n");
        write(&t.path().join(".git/refs/heads/main"), &format!("{A}\n"));
        let sub = t.path().join("src/deep");
        fs::create_dir_all(&sub).unwrap();
        assert_eq!(commit_of(&sub).as_deref(), Some(A));
        assert_eq!(checked_out(&sub).as_deref(), Some("main"));
    }

    #[test]
    fn packed_ref() {
        let t = tempfile::tempdir().unwrap();
        write(&t.path().join(".git/HEAD"), "ref: refs/heads/main\n");
        write(
            &t.path().join(".git/packed-refs"),
            &format!(
                "# pack-refs with: peeled fully-peeled sorted\n{B} refs/heads/other\n{A} refs/heads/main\n^{B}\n"
            ),
        );
        assert_eq!(commit_of(t.path()).as_deref(), Some(A));
    }

    #[test]
    fn detached_head() {
        let t = tempfile::tempdir().unwrap();
        write(&t.path().join(".git/HEAD"), &format!("{B}\n"));
        assert_eq!(commit_of(t.path()).as_deref(), Some(B));
        assert_eq!(checked_out(t.path()), None);
    }

    #[test]
    fn linked_worktree() {
        let t = tempfile::tempdir().unwrap();
        let main = t.path().join("main/.git");
        write(&main.join("refs/heads/feature"), &format!("{B}\n"));
        let wt_gitdir = main.join("worktrees/feature");
        write(&wt_gitdir.join("HEAD"), "ref: refs/heads/feature\n");
        write(&wt_gitdir.join("commondir"), "../..\n");
        let wt = t.path().join("feature");
        write(
            &wt.join(".git"),
            &format!("gitdir: {}\n", wt_gitdir.display()),
        );
        assert_eq!(commit_of(&wt).as_deref(), Some(B));
        assert_eq!(checked_out(&wt).as_deref(), Some("feature"));
    }

    #[test]
    fn no_repository() {
        let t = tempfile::tempdir().unwrap();
        assert_eq!(commit_of(t.path()), None);
        write(&t.path().join(".git/HEAD"), "ref: refs/heads/none\n");
        assert_eq!(commit_of(t.path()), None);
    }
}
