#!/usr/bin/env python3
"""Writes tests/fixtures/http/oha-<version>/ from a real oha: the JSON summary
it prints for four runs against servers started here, on loopback.

    python3 scripts/oha-fixtures.py [OHA]     # OHA: the binary, default `oha`

The four runs, each with the arguments the adapter gives
(crates/http/src/tools/oha.rs, `args`):
- `ok.json`: 200 requests, 2 at a time, to a page of 31 bytes;
- `non2xx.json`: 50 requests to a page that answers 404;
- `refused.json`: 50 requests to a port where nothing listens;
- `timeout.json`: 6 requests, with a 100 ms timeout, to a server that
  accepts and never answers.

`made.txt` beside them says which oha made them (`oha --version`) and each
command line. The tests read the committed files, so `cargo test` needs no
oha; .ci/run installs oha 1.16.0 and runs the adapter against it end to end
(tests/http_cli.rs). An oha is installed beside the project with, say,
`cargo install oha --locked --version 1.12.0 --root /tmp/oha-1.12.0`.
"""

import http.server
import pathlib
import socket
import subprocess
import sys
import threading

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGE = b"thirty-one bytes of a page body"


class Page(http.server.BaseHTTPRequestHandler):
    """`/` answers 200 with PAGE; any other path 404."""

    protocol_version = "HTTP/1.1"
    # Head and body go out in two writes; with Nagle's algorithm the second
    # waits for a delayed ACK, and every answer took 44 ms.
    disable_nagle_algorithm = True

    def do_GET(self):
        body, status = (PAGE, 200) if self.path == "/" else (b"no such page\n", 404)
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def serve(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def silent():
    """A listening socket that accepts and never answers."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    held = []

    def accept():
        while True:
            conn, _ = s.accept()
            held.append(conn)

    threading.Thread(target=accept, daemon=True).start()
    return s.getsockname()[1]


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def args(n, timeout_ms, url):
    return ["--no-tui", "--output-format", "json", "-n", str(n), "-c", "2",
            "-t", f"{timeout_ms}ms", "--redirect", "0", url]


def main():
    oha = sys.argv[1] if len(sys.argv) > 1 else "oha"
    version = subprocess.run([oha, "--version"], capture_output=True, text=True,
                             check=True).stdout.strip()
    number = version.split()[-1]
    out = ROOT / "tests" / "fixtures" / "http" / f"oha-{number}"
    out.mkdir(parents=True, exist_ok=True)
    page = serve(http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page))
    runs = {
        "ok.json": args(200, 5000, f"http://127.0.0.1:{page}/"),
        "non2xx.json": args(50, 5000, f"http://127.0.0.1:{page}/missing"),
        "refused.json": args(50, 5000, f"http://127.0.0.1:{free_port()}/"),
        "timeout.json": args(6, 100, f"http://127.0.0.1:{silent()}/"),
    }
    made = [f"{version}", "made by scripts/oha-fixtures.py; each file is the stdout of:"]
    for name, a in runs.items():
        printed = subprocess.run([oha, *a], capture_output=True, text=True, timeout=120)
        if printed.returncode != 0 or "{" not in printed.stdout:
            sys.exit(f"oha-fixtures: {name}: oha exited {printed.returncode}: {printed.stderr.strip()}")
        (out / name).write_text(printed.stdout)
        made.append(f"  {name}: oha {' '.join(a)}")
    made.append("(ports are loopback ports chosen at the time)")
    (out / "made.txt").write_text("\n".join(made) + "\n")
    print(f"oha-fixtures: wrote {out.relative_to(ROOT)} ({version})")


if __name__ == "__main__":
    main()
