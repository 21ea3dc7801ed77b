//! A configuration as listed, by `--config` or in the matrix file, before
//! the base is put first and its binary is known to exist.

use crate::error::Error;
use std::path::PathBuf;

/// A configuration as listed, before the base is put first.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Listed {
    /// Its name.
    pub(crate) name: String,
    /// Its bench binary (empty: `--bench`'s, once known).
    pub(crate) path: PathBuf,
    /// Its environment.
    pub(crate) env: Vec<(String, String)>,
    /// Its workers' arguments.
    pub(crate) args: Vec<String>,
}

/// A name a configuration may have: what a table's column and a message
/// can show whole.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    let fits = |c: char| c.is_ascii_alphanumeric() || "-_.+".contains(c);
    if name.is_empty() || name.len() > 40 || !name.chars().all(fits) {
        return Err(format!(
            "configuration name `{name}`: 1 to 40 of A-Z a-z 0-9 - _ . +"
        ));
    }
    Ok(())
}

impl Listed {
    /// `--config`'s NAME:SPEC.
    pub(crate) fn parse(text: &str, option: &str) -> Result<Listed, Error> {
        let Some((name, spec)) = text.split_once(':') else {
            return Err(Error::usage(format!(
                "{option}: `{text}` is not NAME:K=V,..., NAME:PATH or NAME:"
            )));
        };
        check_name(name).map_err(|why| Error::usage(format!("{option}: {why}")))?;
        let mut listed = Listed {
            name: name.to_string(),
            path: PathBuf::new(),
            env: Vec::new(),
            args: Vec::new(),
        };
        if spec.contains('=') {
            for pair in spec.split(',') {
                match pair.split_once('=') {
                    Some((k, v)) if !k.is_empty() => {
                        listed.env.push((k.to_string(), v.to_string()))
                    }
                    _ => {
                        return Err(Error::usage(format!(
                            "{option}: `{pair}` is not NAME=VALUE"
                        )));
                    }
                }
            }
        } else if !spec.is_empty() {
            listed.path = PathBuf::from(spec);
        }
        Ok(listed)
    }
}
