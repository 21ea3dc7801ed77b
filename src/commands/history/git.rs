//! The commits a history's runs are placed among, read from git in the
//! working directory: a range for `--commits`, the first-parent line for
//! `bisect`.

use crate::error::Error;
use std::process::Command;

/// The commits of `range`, read from git in the working directory: `A..B`
/// as `git rev-list` reads it, or one commit.
pub(super) fn commits(range: &str) -> Result<Vec<String>, Error> {
    if range.starts_with('-') {
        return Err(Error::usage(format!(
            "--commits: `{range}` is no revision range"
        )));
    }
    let mut git = Command::new("git");
    if range.contains("..") {
        git.args(["rev-list", range, "--"]);
    } else {
        git.args(["rev-parse", "--verify", "--end-of-options"])
            .arg(format!("{range}^{{commit}}"));
    }
    lines(git, "--commits")
}

/// The commits of `rev`'s first-parent line, oldest first: the order in
/// which a branch's changes landed.
pub(super) fn first_parent(rev: &str) -> Result<Vec<String>, Error> {
    if rev.starts_with('-') {
        return Err(Error::usage(format!("--rev: `{rev}` is no revision")));
    }
    let mut git = Command::new("git");
    git.args(["rev-list", "--first-parent", "--reverse", rev, "--"]);
    lines(git, "--rev")
}

/// What `git` printed, a line each; its first error line otherwise.
fn lines(mut git: Command, option: &str) -> Result<Vec<String>, Error> {
    let out = git
        .output()
        .map_err(|e| Error::input(format!("{option}: cannot run git: {e}")))?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        let why = why.lines().next().unwrap_or("failed").trim();
        return Err(Error::input(format!("{option}: git: {why}")));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect())
}
