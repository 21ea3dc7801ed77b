//! The demo site as the end-to-end tests start it: the real binary on a
//! free loopback port, stopped (by its own process id) when dropped, and a
//! plain HTTP/1.1 request over a socket for the headers `yardstick http`
//! does not report.
#![allow(dead_code)]

pub mod admin;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

pub const BINARY: &str = env!("CARGO_BIN_EXE_yardstick-demo-site");

/// A running demo site.
pub struct Site {
    pub child: Child,
    pub port: u16,
}

impl Drop for Site {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Site {
    /// Starts the site with `args` (plus `--port=0`) and waits for its
    /// `listening on` line.
    pub fn start(args: &[&str]) -> Site {
        let mut command = Command::new(BINARY);
        command.args(args).stderr(Stdio::inherit());
        Site::spawn(command)
    }

    /// Starts `command` (the binary with its arguments and its stderr
    /// set), plus `--port=0`, and waits for its `listening on` line.
    pub fn spawn(mut command: Command) -> Site {
        let mut child = command
            .arg("--port=0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the demo site");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("read");
        let port = line
            .trim()
            .strip_prefix("listening on http://127.0.0.1:")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("not a listening line: {line:?}"));
        Site { child, port }
    }

    /// Sends SIGTERM; the exit status, or `None` if it has not exited
    /// within `guard` (a safety net, never the thing a test asserts).
    pub fn terminate(&mut self, guard: std::time::Duration) -> Option<std::process::ExitStatus> {
        let pid = i32::try_from(self.child.id()).expect("a pid");
        // SAFETY: kill(2) on the process this test started.
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
        let start = std::time::Instant::now();
        while start.elapsed() < guard {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return Some(status);
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        None
    }

    /// Everything the site wrote to its stderr (piped when started),
    /// read after it is stopped.
    pub fn stderr(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut text = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = err.read_to_string(&mut text);
        }
        text
    }

    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

/// The demo site run to its end with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(BINARY)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run the demo site")
}

/// A response read off the socket: status, headers (names lower-cased),
/// body.
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// GET `target` with `headers`, the connection closed after it.
pub fn get(port: u16, target: &str, headers: &[&str]) -> Response {
    request(port, "GET", target, headers, b"")
}

/// `method` `target` with `headers` and `body`, the connection closed
/// after it.
pub fn request(port: u16, method: &str, target: &str, headers: &[&str], body: &[u8]) -> Response {
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let mut request =
        format!("{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    for h in headers {
        request.push_str(h);
        request.push_str("\r\n");
    }
    if !body.is_empty() {
        request.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    request.push_str("\r\n");
    let mut bytes = request.into_bytes();
    bytes.extend_from_slice(body);
    tcp.write_all(&bytes).expect("write");
    // A safety net for a server that never answers: the test fails
    // instead of hanging.
    let guard = Some(std::time::Duration::from_secs(60));
    tcp.set_read_timeout(guard).expect("a read timeout");
    let mut raw = Vec::new();
    tcp.read_to_end(&mut raw).expect("read");
    parse(&raw)
}

fn parse(raw: &[u8]) -> Response {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header block");
    let head = String::from_utf8_lossy(&raw[..end]);
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Response {
        status,
        headers,
        body: raw[end + 4..].to_vec(),
    }
}

/// demo-site/pages.txt.
pub fn pages_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("pages.txt")
}

/// Options for `yardstick http` from command-line words, quiet.
pub fn options(args: &[String]) -> yardstick_cli::commands::http::options::HttpOptions {
    let mut words = args.to_vec();
    words.push("-q".to_string());
    yardstick_cli::commands::http::options::parse(words, None).expect("options")
}
