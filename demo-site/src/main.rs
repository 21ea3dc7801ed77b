//! `yardstick-demo-site`: a small site over the reference kernel
//! (`probes/`), for `yardstick http` to measure: a real thing to point the
//! tool at, with a view cache whose hits and misses show in `X-Cache`.
//!
//! - [`options`]: the command line.
//! - [`routes`]: a request target to the page it names.
//! - [`pages`] and [`layout`]: rendering a page through the kernel's
//!   template engine, in the site's page layout.
//! - [`cache`], [`cache_folder`], [`lru`] and [`gzip`]: the view cache,
//!   bounded in bytes, and the bytes it keeps.
//! - [`respond`]: one request answered; [`purge`]: who may clear the cache;
//!   [`admin`]: the administrators' login, sessions and dashboard;
//!   [`card`]: the speed card, the same pages through two servers.
//! - [`published`]: the sitemap, OpenSearch description and link relations
//!   from which a tool finds the site's pages.
//! - [`serve`]: the listener, the threads, the connection cap, the clean
//!   stop; [`connection`]: one connection and its time limits.

mod admin;
mod cache;
mod cache_folder;
mod card;
mod connection;
mod design;
mod gzip;
mod layout;
mod lru;
mod options;
mod pages;
mod published;
mod purge;
mod respond;
mod routes;
mod secret;
mod serve;

use options::{AdminPassword, Options, Parsed};
use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run(std::env::args().skip(1)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // One line, whatever the cause said.
            eprintln!("error: {}", message.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

fn run(args: impl IntoIterator<Item = String>) -> Result<(), String> {
    let o = match options::parse(args)? {
        Parsed::Help => {
            print!("{}", options::HELP);
            return Ok(());
        }
        Parsed::Run(o) => o,
    };
    let app = app(&o)?;
    let measurer = std::sync::Arc::clone(&app.measurer);
    let listener = serve::bind(SocketAddr::new(o.listen, o.port))?;
    let served = serve::run(listener, app, o.workers, o.limits, |addr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "listening on http://{addr}");
        let _ = out.flush();
    });
    // A measurement running ends with the site, and leaves nothing.
    measurer.stop(std::time::Duration::from_secs(5));
    served
}

/// The booted site and its cache, before anything listens: a bad database
/// or cache folder is refused without taking the port.
fn app(o: &Options) -> Result<respond::App, String> {
    let database = match &o.database {
        Some(path) => path.clone(),
        None => probes::kernel::fixture()?,
    };
    let cache = if o.no_cache {
        cache::ViewCache::off()
    } else {
        let bounds = cache::Bounds {
            disk: o.cache_bytes,
            memory: o.memory_bytes,
        };
        cache::ViewCache::open(o.cache_dir.as_deref(), bounds)?
    };
    let purge_token = match &o.purge_token_file {
        Some(file) => Some(purge::Token::read(file)?),
        None => None,
    };
    let password = match &o.admin_password {
        None => None,
        Some(AdminPassword::File(file)) => Some(admin::password::Password::read(file)?),
        Some(AdminPassword::Given(text)) => Some(
            admin::password::Password::of(text).map_err(|m| format!("--admin-password: {m}"))?,
        ),
    };
    let pages = pages::Pages::boot(&database)?;
    let card_file = card_file(o)?;
    Ok(respond::App {
        pages,
        cache,
        purge_token,
        admin: admin::Admin::new(password)?,
        measurer: std::sync::Arc::new(card::measure::Measurer::new(setup(o, &card_file)?)),
        card_file,
    })
}

/// The speed card's file: as given, or one in a folder of this process's
/// own (nothing measured yet), kept until it exits.
fn card_file(o: &Options) -> Result<std::path::PathBuf, String> {
    if let Some(file) = &o.card_file {
        return Ok(file.clone());
    }
    let dir = tempfile::Builder::new()
        .prefix("yardstick-demo-card")
        .tempdir()
        .map_err(|e| format!("cannot make a folder for the speed card: {e}"))?;
    // Removed at exit by the operating system's temp cleaning, not here:
    // the server holds no handle it could drop on the way out.
    Ok(dir.keep().join("card.json"))
}

/// What Measure again needs, when the site was given servers to measure.
fn setup(o: &Options, card_file: &std::path::Path) -> Result<Option<card::measure::Setup>, String> {
    let Some(servers) = &o.card_servers else {
        return Ok(None);
    };
    let pages = match &o.card_pages {
        Some(file) => file.clone(),
        None => {
            // The demo's own page set, beside the card's file.
            let file = card_file.with_file_name("card-pages.txt");
            std::fs::write(&file, include_str!("../pages.txt"))
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            file
        }
    };
    let yardstick = match &o.yardstick {
        Some(program) => program.clone(),
        None => beside_me("yardstick")?,
    };
    Ok(Some(card::measure::Setup {
        yardstick,
        servers: servers.clone(),
        pages,
        file: card_file.to_path_buf(),
    }))
}

/// `name` in this program's folder (where cargo builds both), else as
/// found on PATH when it runs.
fn beside_me(name: &str) -> Result<std::path::PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let beside = me.with_file_name(name);
    Ok(if beside.is_file() {
        beside
    } else {
        std::path::PathBuf::from(name)
    })
}
