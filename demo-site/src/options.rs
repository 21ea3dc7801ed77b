//! The command line of `yardstick-demo-site`, read with lexopt as
//! yardstick's own commands are: every mistake is one line and exit 2.

use lexopt::prelude::*;
use std::net::IpAddr;
use std::path::PathBuf;

/// What `--help` prints.
pub const HELP: &str = "usage: yardstick-demo-site [OPTIONS]

Serves the reference kernel's pages (probes/) from its SQLite content, for
`yardstick http` to measure:
  /                         the front page
  /news, /products, ...     pages by URL alias (the menu: the front page's folders)
  /content/view/full/N      node N's full view
  /content/search?SearchText=WORDS
                            the search page
  /user/login               the admin login page
Anything else is a 404 page.

Options:
  --database=FILE           the content store (default: the kernel fixture,
                            10,000 nodes, generated once in the temp folder)
  --cache-dir=DIR           the view cache's folder (default: a fresh temporary one)
  --no-cache                render every page (X-Cache: MISS on every response)
  --workers=N               server threads (default: the available parallelism)
  --listen=ADDR             the address to listen on (default 127.0.0.1)
  --port=N                  the port (default 8080; 0 picks a free one)
  -h, --help                this text

On start it prints `listening on http://ADDR:PORT`. SIGTERM or Ctrl-C stop
it: no new connections, requests in flight finish, exit 0. Exit 2: a bad
option, a database or cache folder it cannot use, an address in use.
";

/// Everything the server was asked to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub database: Option<PathBuf>,
    pub cache_dir: Option<PathBuf>,
    pub no_cache: bool,
    pub workers: usize,
    pub listen: IpAddr,
    pub port: u16,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            database: None,
            cache_dir: None,
            no_cache: false,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            listen: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
        }
    }
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    Help,
    Run(Options),
}

/// Most worker threads: more than any machine this runs on has cores, few
/// enough that a typo cannot ask for a million threads.
const MAX_WORKERS: usize = 1024;

/// Parses the arguments after the program name; the error is the line to
/// print.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Parsed, String> {
    let mut o = Options::default();
    let mut p = lexopt::Parser::from_args(args);
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Long("database") => o.database = Some(path(&mut p, "--database")?),
            Long("cache-dir") => o.cache_dir = Some(path(&mut p, "--cache-dir")?),
            Long("no-cache") => o.no_cache = true,
            Long("workers") => o.workers = workers(&text(&mut p, "--workers")?)?,
            Long("listen") => o.listen = address(&text(&mut p, "--listen")?)?,
            Long("port") => o.port = port(&text(&mut p, "--port")?)?,
            other => return Err(other.unexpected().to_string()),
        }
    }
    Ok(Parsed::Run(o))
}

fn text(p: &mut lexopt::Parser, option: &str) -> Result<String, String> {
    let value = p.value().map_err(|e| e.to_string())?;
    value
        .into_string()
        .map_err(|_| format!("{option}: the value is not UTF-8"))
}

fn path(p: &mut lexopt::Parser, option: &str) -> Result<PathBuf, String> {
    let value = p.value().map_err(|e| e.to_string())?;
    if value.is_empty() {
        return Err(format!("{option}: the value is empty"));
    }
    Ok(PathBuf::from(value))
}

fn workers(value: &str) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_WORKERS).contains(&n) => Ok(n),
        _ => Err(format!(
            "--workers: `{value}` is not a number of threads from 1 to {MAX_WORKERS}"
        )),
    }
}

fn port(value: &str) -> Result<u16, String> {
    value
        .trim()
        .parse()
        .map_err(|_| format!("--port: `{value}` is not a port (0 to 65535)"))
}

fn address(value: &str) -> Result<IpAddr, String> {
    let bare = value
        .strip_prefix('[')
        .and_then(|v| v.strip_suffix(']'))
        .unwrap_or(value);
    bare.parse()
        .map_err(|_| format!("--listen: `{value}` is not an IP address"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Options, String> {
        match parse(args.iter().map(|s| s.to_string()))? {
            Parsed::Run(o) => Ok(o),
            Parsed::Help => Err("help".into()),
        }
    }

    #[test]
    fn defaults_and_every_option() {
        let o = run(&[]).unwrap();
        assert_eq!(
            (o.port, o.listen.to_string(), o.no_cache),
            (8080, "127.0.0.1".into(), false)
        );
        assert!(o.workers >= 1 && o.database.is_none() && o.cache_dir.is_none());
        let o = run(&[
            "--database=a.db",
            "--cache-dir",
            "c",
            "--no-cache",
            "--workers=3",
            "--listen=[::1]",
            "--port=0",
        ])
        .unwrap();
        assert_eq!(o.database, Some(PathBuf::from("a.db")));
        assert_eq!(o.cache_dir, Some(PathBuf::from("c")));
        assert_eq!((o.workers, o.port, o.no_cache), (3, 0, true));
        assert!(o.listen.is_loopback());
        assert_eq!(parse(["--help".to_string()]), Ok(Parsed::Help));
    }

    #[test]
    fn mistakes_name_the_option() {
        for (arg, want) in [
            ("--port=65536", "--port"),
            ("--port=x", "--port"),
            ("--workers=0", "--workers"),
            ("--workers=100000", "--workers"),
            ("--listen=localhost", "--listen"),
            ("--database=", "--database"),
            ("--bogus", "--bogus"),
            ("stray", "stray"),
        ] {
            let e = run(&[arg]).unwrap_err();
            assert!(e.contains(want) && !e.contains('\n'), "{arg}: {e}");
        }
    }
}
