//! The matrix file: configurations in TOML, each a bench binary, an
//! environment and arguments.
//!
//! ```toml
//! bench = "target/release/deps/micro-0123abcd"   # every configuration's, unless its own
//! base = "system"                                # default: the first
//! args = ["--node=57"]                           # the bench's parameters, for all
//!
//! [[configuration]]
//! name = "system"
//!
//! [[configuration]]
//! name = "uncounted"
//! env = { YARDSTICK_ALLOC = "off" }
//! ```
//!
//! Paths are relative to the file's folder, so a file means the same from
//! wherever it is run. Every error names the file and the line.

use super::listed::{Listed, check_name};
use crate::error::Error;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// The bench binary of every configuration that names none.
    bench: Option<Spanned<String>>,
    /// The configuration the others are measured against.
    base: Option<Spanned<String>>,
    /// Arguments every configuration's workers get first.
    #[serde(default)]
    args: Vec<String>,
    /// The configurations, in order.
    #[serde(default, rename = "configuration")]
    configurations: Vec<Spanned<Entry>>,
}

/// One `[[configuration]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: Spanned<String>,
    bench: Option<Spanned<String>>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    args: Vec<String>,
}

/// The configurations `path` lists, and the base it names, if any; the
/// error is one line naming the file and the line at fault.
pub(crate) fn read(path: &Path) -> Result<(Vec<Listed>, Option<String>), Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::input(format!("{}: cannot read: {e}", path.display())))?;
    parse(&text, path)
}

/// [`read`] of the file's `text`.
fn parse(text: &str, path: &Path) -> Result<(Vec<Listed>, Option<String>), Error> {
    let source = Source { text, path };
    let file: File = toml::from_str(text).map_err(|e| {
        let message = e.message().trim().replace('\n', " ");
        match e.span() {
            Some(span) => source.at(span, &message),
            None => Error::input(format!("{}: {message}", path.display())),
        }
    })?;
    let shared = file.bench.as_ref().map(|b| source.bench(b)).transpose()?;
    let mut listed: Vec<Listed> = Vec::new();
    for spanned in &file.configurations {
        let configuration = source.configuration(spanned, shared.as_ref(), &listed)?;
        listed.push(Listed {
            args: [file.args.clone(), configuration.args].concat(),
            ..configuration
        });
    }
    let base = match &file.base {
        Some(base) if !listed.iter().any(|l| &l.name == base.get_ref()) => {
            return Err(source.at(
                base.span(),
                &format!("base: no configuration is named `{}`", base.get_ref()),
            ));
        }
        base => base.as_ref().map(|b| b.get_ref().clone()),
    };
    Ok((listed, base))
}

/// The file being read: where its errors point.
struct Source<'a> {
    text: &'a str,
    path: &'a Path,
}

impl Source<'_> {
    /// An error at the line `span` starts on.
    fn at(&self, span: std::ops::Range<usize>, message: &str) -> Error {
        let before = &self.text.as_bytes()[..span.start.min(self.text.len())];
        let line = 1 + before.iter().filter(|b| **b == b'\n').count();
        Error::input(format!("{}:{line}: {message}", self.path.display()))
    }

    /// A bench binary the file names, relative to its folder.
    fn bench(&self, bench: &Spanned<String>) -> Result<PathBuf, Error> {
        let folder = self.path.parent().unwrap_or(Path::new(""));
        let binary = folder.join(bench.get_ref());
        if binary.is_file() {
            Ok(binary)
        } else {
            let message = format!("bench: {}: no such bench binary", binary.display());
            Err(self.at(bench.span(), &message))
        }
    }

    /// One `[[configuration]]`, its binary its own or `shared`; its name
    /// must be new among `listed`.
    fn configuration(
        &self,
        spanned: &Spanned<Entry>,
        shared: Option<&PathBuf>,
        listed: &[Listed],
    ) -> Result<Listed, Error> {
        let entry = spanned.get_ref();
        let name = entry.name.get_ref();
        check_name(name).map_err(|why| self.at(entry.name.span(), &why))?;
        if listed.iter().any(|l| &l.name == name) {
            let message = format!("configuration `{name}` is named twice");
            return Err(self.at(entry.name.span(), &message));
        }
        let path = match (&entry.bench, shared) {
            (Some(own), _) => self.bench(own)?,
            (None, Some(shared)) => shared.clone(),
            (None, None) => {
                let message =
                    format!("configuration `{name}` has no bench, and the file names none");
                return Err(self.at(spanned.span(), &message));
            }
        };
        Ok(Listed {
            name: name.clone(),
            path,
            env: entry.env.clone().into_iter().collect(),
            args: entry.args.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file `text` in a folder that holds a bench binary `bench`.
    fn parsed(text: &str) -> Result<(Vec<Listed>, Option<String>), String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        std::fs::write(dir.path().join("bench"), "").map_err(|e| e.to_string())?;
        parse(text, &dir.path().join("matrix.toml")).map_err(|e| {
            // The folder is a temporary one: keep the name and the rest.
            let text = e.to_string();
            text.rsplit_once("matrix.toml")
                .map_or(text.clone(), |(_, rest)| format!("matrix.toml{rest}"))
        })
    }

    #[test]
    fn configurations_share_the_bench_and_the_arguments() {
        let (listed, base) = parsed(
            "bench = \"bench\"\nbase = \"b\"\nargs = [\"--node=5\"]\n\n\
             [[configuration]]\nname = \"a\"\n\n\
             [[configuration]]\nname = \"b\"\nenv = { K = \"v\" }\nargs = [\"--x\"]\n",
        )
        .unwrap();
        assert_eq!(base.as_deref(), Some("b"));
        let names: Vec<&str> = listed.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert!(listed[0].path.ends_with("bench"));
        assert_eq!(listed[1].env, [("K".to_string(), "v".to_string())]);
        assert_eq!(listed[1].args, ["--node=5", "--x"]);
    }

    #[test]
    fn each_error_names_the_line() {
        for (text, needle) in [
            (
                "bench = \"bench\"\nbogus = 1\n",
                "matrix.toml:2: unknown field `bogus`",
            ),
            (
                "bench = \"bench\"\n[[configuration]]\nname = \"a\"\ncolour = \"red\"\n",
                "matrix.toml:4: unknown field `colour`",
            ),
            (
                "bench = \"bench\"\n[[configuration]]\nname = \"a\"\n[[configuration]]\nname = \"a\"\n",
                "matrix.toml:5: configuration `a` is named twice",
            ),
            (
                "[[configuration]]\nname = \"a\"\nbench = \"missing\"\n",
                "matrix.toml:3: bench:",
            ),
            (
                "bench = \"bench\"\nbase = \"z\"\n[[configuration]]\nname = \"a\"\n",
                "matrix.toml:2: base: no configuration is named `z`",
            ),
            (
                "[[configuration]]\nname = \"a\"\n",
                "matrix.toml:1: configuration `a` has no bench",
            ),
            (
                "bench = \"bench\"\n[[configuration]]\nname = \"\"\n",
                "matrix.toml:3:",
            ),
            ("bench = [\n", "matrix.toml:"),
        ] {
            let e = parsed(text).unwrap_err();
            assert!(e.starts_with(needle), "{e} (wanted {needle})");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
