//! `yardstick k6 manifest` and `yardstick k6 collect DIR`: the same run as
//! `yardstick http --tool=k6`, handed to a cluster. `manifest` writes the
//! k6 operator's resources for it; `collect` reads what its pods wrote and
//! makes the run, judged, printed and saved as `http` does. Both take
//! every option of `yardstick http` (the same options each time, so the
//! plan `collect` checks the pods' requests against is the one they ran).

use crate::commands::http;
use crate::document::store::write_atomic;
use crate::error::Error;
use crate::http::job::Tool;
use std::path::PathBuf;

const USAGE: &str = "\
usage: yardstick k6 manifest [--name=NAME] [--secret=SECRET] [--output=FILE] [HTTP OPTIONS]
       yardstick k6 collect DIR [HTTP OPTIONS]

manifest   write the k6 operator's ConfigMap (the script) and TestRun
           (parallelism --segments) for the run the options of
           `yardstick http --tool=k6` describe; to FILE, or standard output
  --name=NAME      the TestRun's name (default yardstick); the ConfigMap is NAME-script
  --secret=SECRET  the Secret the pods read credentials from (needed when the run has any)
  --output=FILE    where the YAML goes (written whole or not at all)
collect    merge the outputs the pods wrote into DIR, one file a pod, into one
           run, given the options the manifest was made with

See docs/k6-cluster.md.";

/// `yardstick k6 ARGS`; returns the exit code.
pub fn main(mut args: Vec<String>) -> Result<i32, Error> {
    if args.is_empty() {
        return Err(Error::usage(format!("k6: name a subcommand\n{USAGE}")));
    }
    match args.remove(0).as_str() {
        "manifest" => manifest(args),
        "collect" => collect(args),
        "-h" | "--help" | "help" => Err(Error::Help(USAGE)),
        other => Err(Error::usage(format!(
            "k6: `{other}` is not manifest or collect (see yardstick k6 --help)"
        ))),
    }
}

/// `manifest`'s own options, taken out of the arguments; the rest are
/// `yardstick http`'s.
#[derive(Debug, Default)]
struct Own {
    name: Option<String>,
    secret: Option<String>,
    output: Option<PathBuf>,
}

fn manifest(args: Vec<String>) -> Result<i32, Error> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Err(Error::Help(USAGE));
    }
    let (own, rest) = take_own(args)?;
    let o = options(rest)?;
    let name = own.name.unwrap_or_else(|| "yardstick".to_string());
    check_name(&name, "--name")?;
    if let Some(secret) = &own.secret {
        check_name(secret, "--secret")?;
    }
    let (yaml, variables) = crate::http::k6::manifest(&o.job, &name, own.secret.as_deref())?;
    match &own.output {
        Some(file) => write_atomic(file, &yaml)?,
        None => crate::output::stdout::print(&yaml),
    }
    if !variables.is_empty() {
        eprintln!(
            "k6 manifest: the Secret {} must hold {}",
            own.secret.unwrap_or_default(),
            variables.join(", ")
        );
    }
    Ok(0)
}

fn collect(mut args: Vec<String>) -> Result<i32, Error> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Err(Error::Help(USAGE));
    }
    if args.first().is_none_or(|a| a.starts_with('-')) {
        return Err(Error::usage(
            "k6 collect: name the folder of the pods' outputs first (yardstick k6 collect DIR ...)",
        ));
    }
    let dir = PathBuf::from(args.remove(0));
    let mut o = options(args)?;
    o.job.k6_logs = Some(dir);
    http::run(o)
}

/// `yardstick http`'s options of `args`, k6 the tool.
fn options(mut args: Vec<String>) -> Result<http::options::HttpOptions, Error> {
    args.insert(0, "--tool=k6".to_string());
    let o = http::parse(args)?;
    if o.job.tool != Tool::K6 {
        return Err(Error::usage(format!(
            "k6: --tool={} is not k6",
            o.job.tool.as_str()
        )));
    }
    Ok(o)
}

/// Takes `--name`, `--secret` and `--output` (as `--x=V` or `--x V`) out
/// of `args`.
fn take_own(args: Vec<String>) -> Result<(Own, Vec<String>), Error> {
    let mut own = Own::default();
    let mut rest = Vec::new();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) => (f.to_string(), Some(v.to_string())),
            None => (arg.clone(), None),
        };
        if !["--name", "--secret", "--output"].contains(&flag.as_str()) {
            rest.push(arg);
            continue;
        }
        let value = inline
            .or_else(|| it.next())
            .filter(|v| !v.is_empty())
            .ok_or_else(|| Error::usage(format!("k6 manifest: {flag} needs a value")))?;
        match flag.as_str() {
            "--name" => own.name = Some(value),
            "--secret" => own.secret = Some(value),
            _ => own.output = Some(PathBuf::from(value)),
        }
    }
    Ok((own, rest))
}

/// Refuses a name Kubernetes would: lower-case letters, digits and `-`,
/// starting and ending with a letter or digit, at most 63 characters.
fn check_name(name: &str, option: &str) -> Result<(), Error> {
    let ok = !name.is_empty()
        && name.len() <= 63
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-');
    if ok {
        Ok(())
    } else {
        Err(Error::usage(format!(
            "k6 manifest: {option}: `{name}` is not a Kubernetes name (lower-case letters, \
             digits and -, at most 63)"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_options_are_taken_out_in_either_form() {
        let args = [
            "--name=shop",
            "--url=/",
            "--secret",
            "creds",
            "--requests=5",
        ];
        let (own, rest) = take_own(args.iter().map(|s| s.to_string()).collect()).unwrap();
        assert_eq!(own.name.as_deref(), Some("shop"));
        assert_eq!(own.secret.as_deref(), Some("creds"));
        assert_eq!(rest, ["--url=/", "--requests=5"]);
        assert!(take_own(vec!["--output".into()]).is_err());
    }

    #[test]
    fn names_are_kubernetes_names() {
        assert!(check_name("shop-1", "--name").is_ok());
        for bad in ["", "Shop", "-a", "a-", "a_b", &"a".repeat(64)] {
            assert!(check_name(bad, "--name").is_err(), "{bad}");
        }
    }
}
