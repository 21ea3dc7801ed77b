//! End to end against a real nginx on loopback, started by this test with
//! its own configuration and port in a temporary folder. Without nginx the
//! test says so and skips, unless `YARDSTICK_REQUIRE_TOOLS` names nginx (set
//! by CI, which installs it): there that is a failure.

#[macro_use]
mod common;
mod http_support;

use http_support::options;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use yardstick_cli::commands::http::measure;

/// An nginx this test started; stopped (by its own process id) on drop.
struct Nginx {
    child: Child,
    port: u16,
    /// Cleartext HTTP/2 only (prior knowledge).
    h2c_port: u16,
    _dir: tempfile::TempDir,
}

// nginx runs as one process (`master_process off`), so stopping the child
// we started stops all of it: no orphaned worker keeps the port.
impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// nginx from `YARDSTICK_NGINX` when set, else from `PATH` or the usual
/// sbin folders.
fn nginx_binary() -> Option<PathBuf> {
    if let Some(given) = std::env::var_os("YARDSTICK_NGINX") {
        let given = PathBuf::from(given);
        return given.is_file().then_some(given);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([
            "/usr/sbin".into(),
            "/usr/local/sbin".into(),
            "/usr/local/nginx/sbin".into(),
        ])
        .map(|d| d.join("nginx"))
        .find(|p| p.is_file())
}

fn start_nginx(binary: &Path) -> Nginx {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("html");
    std::fs::create_dir_all(root.join("tmp")).unwrap();
    std::fs::write(root.join("index.html"), "a".repeat(1000)).unwrap();
    let text: String = (0..400)
        .map(|i| format!("line {i} of a compressible page\n"))
        .collect();
    std::fs::write(root.join("text.txt"), &text).unwrap();
    let port = http_support::closed_port();
    let h2c_port = http_support::closed_port();
    let d = dir.path().display();
    let config = format!(
        "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{ worker_connections 64; }}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/tmp; proxy_temp_path {d}/tmp;\n  fastcgi_temp_path {d}/tmp; uwsgi_temp_path {d}/tmp; scgi_temp_path {d}/tmp;\n  \
         gzip on; gzip_types text/plain; gzip_min_length 100;\n  \
         server {{\n    listen 127.0.0.1:{port};\n    root {root};\n    add_header X-Cache HIT;\n  }}\n  \
         server {{\n    listen 127.0.0.1:{h2c_port} http2;\n    root {root};\n  }}\n}}\n",
        root = root.display()
    );
    let conf = dir.path().join("nginx.conf");
    std::fs::write(&conf, config).unwrap();
    let child = Command::new(binary)
        .arg("-e")
        .arg(dir.path().join("error.log"))
        .arg("-p")
        .arg(dir.path())
        .arg("-c")
        .arg(&conf)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start nginx");
    let nginx = Nginx {
        child,
        port,
        h2c_port,
        _dir: dir,
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    for p in [port, h2c_port] {
        while TcpStream::connect(("127.0.0.1", p)).is_err() {
            assert!(
                Instant::now() < deadline,
                "nginx did not start listening on {p}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    nginx
}

fn nginx_end_to_end() {
    let binary = nginx_binary().expect("the trial runs only where nginx was found");
    let nginx = start_nginx(&binary);
    let base = format!("http://127.0.0.1:{}", nginx.port);
    let run = measure(&options(&[
        &format!("--base={base}"),
        "--url=/",
        "--url=/missing",
        "--url=/text.txt",
        "--requests=30",
        "--concurrency=4",
    ]))
    .unwrap();
    assert_eq!(run.rows.len(), 3);
    let (home, missing, text) = (&run.rows[0], &run.rows[1], &run.rows[2]);
    assert_eq!((home.figures.n, home.errors), (30, 0));
    // 1,000 times `a`, gzipped on the way: bytes are counted as transferred.
    assert!(home.page.bytes.unwrap() < 100.0, "{:?}", home.page.bytes);
    assert!(
        home.page
            .server
            .as_deref()
            .is_some_and(|s| s.starts_with("nginx")),
        "{:?}",
        home.page.server
    );
    assert_eq!(home.page.cache.get("HIT"), Some(&30));
    assert!(home.figures.median.unwrap() > 0.0 && home.rps.unwrap() > 0.0);
    assert_eq!((missing.figures.n, missing.errors), (0, 30));
    assert_eq!(missing.error_messages.get("HTTP 404"), Some(&30));
    let size = std::fs::metadata(nginx._dir.path().join("html/text.txt"))
        .unwrap()
        .len() as f64;
    assert!(
        text.page.bytes.unwrap() < size / 2.0,
        "{:?} of {size}",
        text.page.bytes
    );
    let plain = measure(&options(&[
        &format!("--url={base}/text.txt"),
        "--requests=5",
        "--encoding=none",
    ]))
    .unwrap();
    assert_eq!(plain.rows[0].page.bytes, Some(size));
    // Cleartext HTTP/2 by prior knowledge.
    let h2c = format!("--url=http://127.0.0.1:{}/", nginx.h2c_port);
    let run = measure(&options(&[&h2c, "--requests=5", "--http=2"])).unwrap();
    assert_eq!(
        (run.rows[0].figures.n, run.rows[0].errors),
        (5, 0),
        "{:?}",
        run.rows[0].error_messages
    );
}

fn main() {
    let nginx = nginx_binary().is_some();
    common::run_trials(vec![trial!(nginx_end_to_end, needs "nginx" if nginx)]);
}
