#!/usr/bin/env python3
"""The demo site's target figure: its cached pages against nginx serving the
same bytes as a static file, in one `yardstick http --compare` run.

Starts the demo site (release build) and a private nginx (its own config,
port and folder in a temporary directory, as tests/http_nginx.rs starts
one), writes the demo's cached page to nginx's root under the same path,
then runs, on loopback:

    yardstick http --compare=DEMO,NGINX --url=PAGE --concurrency=16
                   --requests=N --rounds=R

(the two servers interleaved back to back in each round) and prints both
req/s and their ratio; the target is demo >= 0.5 x nginx. Then the page's
uncached full view, `--cold --concurrency=1`, for its median render.

    scripts/demo-vs-nginx.py [--page=/news] [--requests=20000] [--rounds=4]
                             [--workers=N] [--nginx=/usr/sbin/nginx]

Both servers get the same number of workers (default: the CPU count), and
share the machine with the client, so the ratio, not either figure, is the
result. Neither compresses per request: the demo site keeps each cached
page gzipped once, and nginx serves the file gzipped beside it
(`gzip_static on`, the usual setup for static pages).
"""
import argparse
import gzip
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent


def build():
    """Builds the two release binaries; returns their paths."""
    for args in (["-p", "demo-site", "--bin", "yardstick-demo-site"],
                 ["--bin", "yardstick"]):
        subprocess.run(["cargo", "build", "--release", "--locked", "-q", *args],
                       cwd=ROOT, check=True)
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "release" / "yardstick-demo-site", target / "release" / "yardstick"


def start_demo(binary, workers=None, extra=()):
    """The demo site on a free port, with `workers` (its default when None)
    and the options `extra`; returns (process, base URL)."""
    args = [str(binary), "--port=0", *([f"--workers={workers}"] if workers else []), *extra]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline().strip()
    if not line.startswith("listening on "):
        proc.kill()
        sys.exit(f"the demo site did not start: {line!r}")
    return proc, line.removeprefix("listening on ")


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_nginx(nginx, folder, page, body, workers):
    """nginx serving `body` at `page` from `folder`; returns (process, URL)."""
    html = folder / "html"
    (html / "tmp").mkdir(parents=True)
    # nginx started by root reads as its worker user: the private
    # temporary folder must be open to it.
    folder.chmod(0o755)
    (html / page.strip("/")).write_bytes(body)
    # Gzipped once beside it, as the demo keeps its cached pages, for
    # gzip_static: neither server compresses per request.
    (html / (page.strip("/") + ".gz")).write_bytes(gzip.compress(body, 6, mtime=0))
    port = free_port()
    conf = folder / "nginx.conf"
    conf.write_text(f"""daemon off;
worker_processes {workers};
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {html}/tmp; proxy_temp_path {html}/tmp;
  fastcgi_temp_path {html}/tmp; uwsgi_temp_path {html}/tmp; scgi_temp_path {html}/tmp;
  default_type text/html;
  gzip_static on; gzip_vary on;
  server {{
    listen 127.0.0.1:{port};
    root {html};
  }}
}}
""")
    proc = subprocess.Popen([nginx, "-e", str(folder / "error.log"), "-p", str(folder),
                             "-c", str(conf)], stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    wait_for_nginx(proc, url + page, folder / "error.log")
    return proc, url


def wait_for_nginx(proc, url, log):
    """Returns once `url` answers; else stops the nginx `proc` and exits
    with the end of its `log`."""
    for _ in range(200):
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return
        except OSError:
            time.sleep(0.05)
    # SIGTERM, not SIGKILL: the master stops its workers on the way out.
    proc.terminate()
    proc.wait(timeout=15)
    raise SystemExit(f"nginx did not start: {log.read_text()[-500:]}")


def stop(*procs):
    """Ends the servers started here (SIGTERM: nginx's master stops its
    workers on the way out), those that were."""
    for proc in procs:
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=15)


def measure(yardstick, args, folder, name):
    """Runs `yardstick http ARGS`, saved to a file; returns its rows."""
    saved = folder / f"{name}.json"
    cmd = [str(yardstick), "http", *args, "-q", f"--save={saved}"]
    print("$ " + " ".join(cmd[:-1]).replace(str(yardstick), "yardstick"), flush=True)
    subprocess.run(cmd, check=True, stdout=sys.stdout)
    return json.loads(saved.read_text())["rows"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--page", default="/news")
    ap.add_argument("--requests", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--nginx", default="/usr/sbin/nginx")
    a = ap.parse_args()
    demo_bin, yardstick = build()
    with tempfile.TemporaryDirectory(prefix="demo-vs-nginx") as tmp:
        folder = pathlib.Path(tmp)
        demo, demo_url = start_demo(demo_bin, a.workers)
        nginx = None
        try:
            # The cached page's body, once (the first request renders it).
            body = urllib.request.urlopen(demo_url + a.page).read()
            nginx, nginx_url = start_nginx(a.nginx, folder, a.page, body, a.workers)
            rows = measure(yardstick, [f"--compare={demo_url},{nginx_url}", f"--url={a.page}",
                                       "--concurrency=16", f"--requests={a.requests}",
                                       f"--rounds={a.rounds}"], folder, "compare")
            rps = [r["rps"] for r in rows]
            cache = rows[0].get("cache", {})
            print(f"\n{a.page}, {len(body):,} bytes, concurrency 16, {a.requests} requests each, "
                  f"{a.workers} workers each")
            print(f"demo site (cached, X-Cache {cache}): {rps[0]:,.0f} req/s")
            print(f"nginx (static file):        {rps[1]:,.0f} req/s")
            ratio = rps[0] / rps[1]
            print(f"ratio demo/nginx: {ratio:.2f} (target >= 0.5: {'met' if ratio >= 0.5 else 'NOT met'})\n")
            cold = measure(yardstick, [f"--url={demo_url}{a.page}", "--cold", "--concurrency=1",
                                       "--requests=100"], folder, "cold")
            print(f"\nuncached full view of {a.page} (--cold, concurrency 1): "
                  f"median {cold[0]['median']:.3f} ms, X-Cache {cold[0].get('cache', {})}")
        finally:
            stop(demo, nginx)


if __name__ == "__main__":
    main()
