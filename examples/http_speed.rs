//! Does the built-in HTTP client measure what wrk measures, and cheaply?
//! Against one loopback nginx serving a static page, in the same run and in
//! interleaved rounds: our median at concurrency 4 against wrk's 50 %
//! latency (`wrk --latency`), and our requests per second at concurrency 16
//! against wrk's. Client and server share the machine's cores, so the
//! second figure is a race in CPU per request.
//!
//! `cargo run --release --example http_speed` (needs nginx and wrk; the
//! set-up script `.ci/http-setup.sh` installs both).

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use yardstick::stats::median;
use yardstick_cli::commands::http::{measure, options};
use yardstick_http::tools::wrk;

const ROUNDS: usize = 15;
const WRK_SECONDS: u64 = 1;

/// nginx as operators run it: a daemon (its own session, so the kernel's
/// per-session CPU sharing does not put it in the client's group) with a
/// master and one worker, stopped with `nginx -s stop`.
struct Nginx {
    binary: PathBuf,
    conf: PathBuf,
    port: u16,
    dir: tempfile::TempDir,
}

impl Nginx {
    fn signal(&self, signal: &str) -> bool {
        Command::new(&self.binary)
            .arg("-p")
            .arg(self.dir.path())
            .arg("-c")
            .arg(&self.conf)
            .args(["-s", signal])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        self.signal("stop");
        // Wait (bounded) until the port is released.
        let deadline = Instant::now() + Duration::from_secs(5);
        while TcpStream::connect(("127.0.0.1", self.port)).is_ok() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn find(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin".into(), "/usr/local/sbin".into()])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn start_nginx(binary: &Path) -> Result<Nginx, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let d = dir.path().display().to_string();
    std::fs::create_dir_all(dir.path().join("html/tmp")).map_err(|e| e.to_string())?;
    std::fs::write(dir.path().join("html/index.html"), "a".repeat(1000))
        .map_err(|e| e.to_string())?;
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?
        .port();
    let config = format!(
        "daemon on;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{ worker_connections 256; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/tmp; proxy_temp_path {d}/tmp;\n  \
         fastcgi_temp_path {d}/tmp; uwsgi_temp_path {d}/tmp; scgi_temp_path {d}/tmp;\n  \
         keepalive_requests 1000000;\n  \
         server {{ listen 127.0.0.1:{port}; root {d}/html; }}\n}}\n"
    );
    let conf = dir.path().join("nginx.conf");
    std::fs::write(&conf, config).map_err(|e| e.to_string())?;
    // With `daemon on` this returns once nginx has forked into the background.
    let started = Command::new(binary)
        .arg("-e")
        .arg(dir.path().join("error.log"))
        .arg("-p")
        .arg(dir.path())
        .arg("-c")
        .arg(&conf)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot start nginx: {e}"))?;
    if !started.success() {
        return Err(format!("nginx did not start ({started})"));
    }
    let nginx = Nginx {
        binary: binary.to_path_buf(),
        conf,
        port,
        dir,
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if Instant::now() > deadline {
            return Err("nginx did not start listening".to_string());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok(nginx)
}

/// Our client: (median ms, successful requests per second).
fn ours(url: &str, concurrency: u64, requests: u64) -> Result<(f64, f64), String> {
    let args = vec![
        format!("--url={url}"),
        format!("--concurrency={concurrency}"),
        format!("--requests={requests}"),
        format!("--warmup={}", concurrency * 50),
        "--rounds=1".to_string(),
        "--encoding=none".to_string(),
        "-q".to_string(),
    ];
    let o = options::parse(args, None).map_err(|e| e.to_string())?;
    let run = measure(&o).map_err(|e| e.to_string())?;
    let row = run.rows.first().ok_or("no row")?;
    if row.errors > 0 {
        return Err(format!("our client saw errors: {:?}", row.error_messages));
    }
    Ok((
        row.figures.median.ok_or("no median")?,
        row.rps.ok_or("no rate")?,
    ))
}

/// wrk: (50 % latency ms, successful requests per second).
fn theirs(wrk_bin: &Path, url: &str, concurrency: u64) -> Result<(f64, f64), String> {
    let out = Command::new(wrk_bin)
        .args([
            "--latency",
            "-t",
            "2",
            "-c",
            &concurrency.to_string(),
            "-d",
            &format!("{WRK_SECONDS}s"),
            url,
        ])
        .output()
        .map_err(|e| format!("cannot run wrk: {e}"))?;
    let s = wrk::parse(
        &String::from_utf8_lossy(&out.stdout),
        &String::from_utf8_lossy(&out.stderr),
    )?;
    if s.errors > 0 {
        return Err(format!("wrk saw errors: {:?}", s.error_messages));
    }
    Ok((
        s.figures.median.ok_or("wrk gave no median")?,
        s.rps.ok_or("wrk gave no rate")?,
    ))
}

fn main() -> Result<(), String> {
    let nginx_bin =
        find("nginx").ok_or("nginx is not installed (.ci/http-setup.sh installs it)")?;
    let wrk_bin = find("wrk").ok_or("wrk is not installed (.ci/http-setup.sh installs it)")?;
    if cfg!(debug_assertions) {
        eprintln!("warning: debug build; run with --release for figures that mean anything");
    }
    let nginx = start_nginx(&nginx_bin)?;
    let url = format!("http://127.0.0.1:{}/", nginx.port);
    // Size our runs to about as long as wrk's from a first short try.
    let (_, probe_rps) = ours(&url, 16, 5_000)?;
    let n4 = ((probe_rps * WRK_SECONDS as f64 * 0.6) as u64).clamp(2_000, 200_000);
    let n16 = ((probe_rps * WRK_SECONDS as f64) as u64).clamp(2_000, 400_000);
    let (mut our_median, mut wrk_median, mut our_rps, mut wrk_rps) =
        (vec![], vec![], vec![], vec![]);
    for round in 0..ROUNDS {
        // Alternate who goes first, so neither always meets a warmer machine.
        if round % 2 == 0 {
            our_median.push(ours(&url, 4, n4)?.0);
            wrk_median.push(theirs(&wrk_bin, &url, 4)?.0);
            our_rps.push(ours(&url, 16, n16)?.1);
            wrk_rps.push(theirs(&wrk_bin, &url, 16)?.1);
        } else {
            wrk_median.push(theirs(&wrk_bin, &url, 4)?.0);
            our_median.push(ours(&url, 4, n4)?.0);
            wrk_rps.push(theirs(&wrk_bin, &url, 16)?.1);
            our_rps.push(ours(&url, 16, n16)?.1);
        }
        eprintln!(
            "round {}: c=4 median ours {:.4} ms, wrk {:.4} ms; c=16 req/s ours {:.0}, wrk {:.0}",
            round + 1,
            our_median[round],
            wrk_median[round],
            our_rps[round],
            wrk_rps[round]
        );
    }
    let m = |v: &[f64]| median(v).unwrap_or(f64::NAN);
    let (om, wm, orps, wrps) = (m(&our_median), m(&wrk_median), m(&our_rps), m(&wrk_rps));
    let latency_ratio = om / wm;
    let rps_ratio = orps / wrps;
    // Each round pairs two measurements of the same minute; the median of
    // those ratios is shown too, as it resists the machine's load swings.
    let paired = |a: &[f64], b: &[f64]| m(&a.iter().zip(b).map(|(x, y)| x / y).collect::<Vec<_>>());
    println!(
        "loopback nginx static page (1,000 bytes), {ROUNDS} interleaved rounds, medians of rounds"
    );
    println!(
        "median of per-round ratios: latency {:.3}, req/s {:.3}",
        paired(&our_median, &wrk_median),
        paired(&our_rps, &wrk_rps)
    );
    println!(
        "concurrency 4:  median ours {om:.4} ms, wrk 50% {wm:.4} ms, ratio {latency_ratio:.3} (target 0.85..1.15): {}",
        verdict((0.85..=1.15).contains(&latency_ratio))
    );
    println!(
        "concurrency 16: req/s ours {orps:.0}, wrk {wrps:.0}, ratio {rps_ratio:.3} (target >= 0.75): {}",
        verdict(rps_ratio >= 0.75)
    );
    Ok(())
}

fn verdict(ok: bool) -> &'static str {
    if ok { "ok" } else { "MISSED" }
}
