#!/usr/bin/env python3
"""What each HTTP client costs per request: the CPU time (user + system,
from the client process's own rusage, start-up included) per 1,000
requests, beside the req/s and the median it reports, for yardstick's
built-in client, wrk, h2load and oha (where found), against one nginx
serving a 1 KB static file (one worker), at several concurrencies, in
interleaved rounds; each figure is the median of the rounds.

    scripts/client-cpu.py [--rounds=5] [--requests=40000]
                          [--concurrency=1,4,16,64] [--protocols=h1,h1s,h2c,h2]
                          [--yardstick=NAME=PATH ...] [--oha=PATH]

Protocols: h1 is HTTP/1.1 with keep-alive (yardstick, wrk, h2load --h1,
oha), h1s the same over TLS, h2c HTTP/2 over TCP (yardstick, h2load,
oha), h2 HTTP/2 over TLS (the same). One connection per request in flight, one stream on each.
`--yardstick` adds builds to compare (a build before a change, say); the
release build of this tree is always measured, as `yardstick`.

CPU per request does not depend on what else the machine is doing, as
req/s does: it is the figure to compare clients by on a shared machine.
wrk runs for a duration (1 s, one thread per two connections, at most
two), so its requests are counted from its output; the others make
--requests. h2load reports a mean, not a median, of its request times.
"""
import argparse
import contextlib
import importlib.util
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("dvn", ROOT / "scripts" / "demo-vs-nginx.py")
dvn = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dvn)

PAGE = "/static.html"
UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def run(cmd):
    """Runs `cmd`, reaping it with wait4 for its own rusage: (stdout, CPU
    seconds)."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            text = err.read().decode(errors="replace").strip()[-400:]
            sys.exit(f"{cmd[0]} failed ({code}): {text}")
    return out.decode(errors="replace"), usage.ru_utime + usage.ru_stime


def peak(cmd):
    """Runs `cmd` under GNU time (Debian's `time` package): (its max RSS in
    MB, its CPU seconds, its exit code, the end of its stderr). Not from
    wait4 here: a child forked from this Python and then exec'd keeps the
    fork's high-water mark, so a client smaller than this script (some 20
    MB) would read as large as it; GNU time is a small process to fork."""
    with tempfile.NamedTemporaryFile(mode="r") as figures, tempfile.TemporaryFile() as err:
        proc = subprocess.run(["/usr/bin/time", "-o", figures.name, "-f", "%M %U %S", *map(str, cmd)],
                              stdout=subprocess.DEVNULL, stderr=err)
        err.seek(0)
        text = err.read().decode(errors="replace").strip()[-500:]
        fields = figures.read().split()
        if len(fields) < 3:
            sys.exit(f"{cmd[0]}: GNU time gave no figures ({proc.returncode}): {text}")
        rss_kb, user, system = fields[-3:]
        return int(rss_kb) / 1024.0, float(user) + float(system), proc.returncode, text


def yardstick(binary, protocol):
    extra = {"h1": ["--http=1.1"], "h1s": ["--http=1.1", "--insecure"], "h2c": ["--http=2"],
             "h2": ["--http=2", "--insecure"]}[protocol]

    def client(url, c, n):
        out, cpu = run([str(binary), "http", "-q", "--json", f"--url={url}", f"--requests={n}",
                        f"--concurrency={c}", "--rounds=1", "--warmup=0", *extra])
        row = json.loads(out)["rows"][0]
        return row["requests"], cpu, row["rps"], row["median"]
    return client


def wrk(url, c, _n):
    threads = max(1, min(2, c // 2))
    out, cpu = run(["wrk", f"-t{threads}", f"-c{c}", "-d1s", "--latency", url])
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    median = re.search(r"50%\s+([\d.]+)(us|ms|s)", out)
    return requests, cpu, rps, float(median.group(1)) * UNITS[median.group(2)]


def h2load(protocol):
    extra = ["--h1"] if protocol in ("h1", "h1s") else []

    def client(url, c, n):
        out, cpu = run(["h2load", *extra, f"-n{n}", f"-c{c}", url])
        done = int(re.search(r"(\d+) succeeded", out).group(1))
        rps = float(re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", out).group(1))
        mean = re.search(r"time for request:\s+[\d.]+\w+\s+[\d.]+\w+\s+([\d.]+)(us|ms|s)", out)
        return done, cpu, rps, float(mean.group(1)) * UNITS[mean.group(2)]
    return client


def oha(binary, protocol):
    extra = {"h1": [], "h1s": ["--insecure"], "h2c": ["--http2"],
             "h2": ["--http2", "--insecure"]}[protocol]

    def client(url, c, n):
        out, cpu = run([binary, "--no-tui", "--output-format", "json", f"-n{n}", f"-c{c}",
                        *extra, url])
        doc = json.loads(out)
        return n, cpu, doc["summary"]["requestsPerSec"], doc["latencyPercentiles"]["p50"] * 1000
    return client


def start_nginx(folder, connections=1024):
    """nginx (one worker, `worker_connections` as given) serving 1 KB at
    PAGE over HTTP/1.1, h2c and TLS; returns (process, {protocol: URL})."""
    html = folder / "html"
    html.mkdir(parents=True)
    folder.chmod(0o755)
    (html / PAGE.strip("/")).write_bytes(b"x" * 1024)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-keyout", str(folder / "key.pem"),
                    "-out", str(folder / "cert.pem")], check=True, capture_output=True)
    ports = {p: dvn.free_port() for p in ("h1", "h2c", "h2")}
    conf = folder / "nginx.conf"
    conf.write_text(f"""daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
worker_rlimit_nofile {connections * 2};
events {{ worker_connections {connections}; }}
http {{
  access_log off;
  client_body_temp_path {folder}/tmp; proxy_temp_path {folder}/tmp;
  fastcgi_temp_path {folder}/tmp; uwsgi_temp_path {folder}/tmp; scgi_temp_path {folder}/tmp;
  default_type text/html;
  keepalive_requests 1000000;
  server {{ listen 127.0.0.1:{ports['h1']}; root {html}; }}
  server {{ listen 127.0.0.1:{ports['h2c']} http2; root {html}; }}
  server {{
    listen 127.0.0.1:{ports['h2']} ssl http2; root {html};
    ssl_certificate {folder}/cert.pem; ssl_certificate_key {folder}/key.pem;
  }}
}}
""")
    proc = subprocess.Popen(["/usr/sbin/nginx", "-e", str(folder / "error.log"), "-p",
                             str(folder), "-c", str(conf)], stdin=subprocess.DEVNULL)
    urls = {"h1": f"http://127.0.0.1:{ports['h1']}{PAGE}",
            "h2c": f"http://127.0.0.1:{ports['h2c']}{PAGE}",
            "h2": f"https://localhost:{ports['h2']}{PAGE}",
            "h1s": f"https://localhost:{ports['h2']}{PAGE}"}
    dvn.wait_for_nginx(proc, urls["h1"], folder / "error.log")
    return proc, urls


def builds_of(others):
    """The release build of this tree, as `yardstick`, built first, and the
    builds `others` names (NAME=PATH each): {name: binary}."""
    _, binary = dvn.build()
    builds = {"yardstick": binary}
    for given in others:
        name, _, path = given.partition("=")
        builds[name] = pathlib.Path(path)
    return builds


@contextlib.contextmanager
def serving(connections=1024):
    """start_nginx in a temporary folder, stopped on the way out: yields
    (process, {protocol: URL})."""
    with tempfile.TemporaryDirectory(prefix="nginx") as tmp:
        nginx, urls = start_nginx(pathlib.Path(tmp), connections)
        try:
            yield nginx, urls
        finally:
            dvn.stop(nginx)


def http_row(binary, url, *options):
    """The row of `yardstick http --url=URL OPTIONS` (one page), read from
    the run it saves; a run that failed its requests (exit 1) still has
    its row."""
    with tempfile.NamedTemporaryFile(suffix=".json") as saved:
        proc = subprocess.run([str(binary), "http", f"--url={url}", *options,
                               f"--save={saved.name}", "-q"], capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            sys.exit(f"yardstick failed ({proc.returncode}): {proc.stderr.strip()}")
        return json.loads(pathlib.Path(saved.name).read_text())["rows"][0]


def clients_of(protocol, builds, oha_binary):
    """The clients measured for `protocol`, by name; the first other
    tool named is the one ratios are taken against."""
    clients = {name: yardstick(path, protocol) for name, path in builds.items()}
    if protocol in ("h1", "h1s"):
        clients["wrk"] = wrk
    clients["h2load"] = h2load(protocol)
    if oha_binary:
        clients["oha"] = oha(oha_binary, protocol)
    return clients


def report(protocol, c, rounds, seen, against):
    print(f"{protocol}, concurrency {c}, {rounds} interleaved rounds (medians of rounds):")
    base = {k: statistics.median(r[k] for r in seen[against]) for k in ("cpu", "rps", "median")}
    oha_cpu = statistics.median(r["cpu"] for r in seen["oha"]) if "oha" in seen else None
    for name, rows in seen.items():
        cpu = statistics.median(r["cpu"] for r in rows)
        rps = statistics.median(r["rps"] for r in rows)
        median = statistics.median(r["median"] for r in rows)
        spread = ", ".join(f"{r['cpu']:.1f}" for r in rows)
        paced = ", ".join(f"{r['rps'] / 1000:.1f}k" for r in rows)
        line = (f"  {name:10s} CPU {cpu:6.1f} ms/1k (x{cpu / base['cpu']:.2f} {against}'s"
                + (f", x{cpu / oha_cpu:.2f} oha's" if oha_cpu else "") + ")"
                + f"  {rps:8,.0f} req/s (x{rps / base['rps']:.2f})"
                + f"  median {median:.3f} ms (x{median / base['median']:.2f})"
                + f"  [CPU per round: {spread}; req/s per round: {paced}]")
        print(line, flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=40000)
    parser.add_argument("--concurrency", default="1,4,16,64")
    parser.add_argument("--protocols", default="h1,h1s,h2c,h2")
    parser.add_argument("--yardstick", action="append", default=[],
                        help="NAME=PATH of another build to measure")
    parser.add_argument("--oha", default=shutil.which("oha") or "/opt/oha/bin/oha")
    args = parser.parse_args()
    builds = builds_of(args.yardstick)
    oha_binary = args.oha if os.access(args.oha, os.X_OK) else None
    if oha_binary is None:
        print("oha not found: measured without it")
    with serving() as (_, urls):
        for protocol in args.protocols.split(","):
            clients = clients_of(protocol, builds, oha_binary)
            against = "wrk" if protocol in ("h1", "h1s") else "h2load"
            for c in (int(x) for x in args.concurrency.split(",")):
                seen = {name: [] for name in clients}
                for _ in range(args.rounds):
                    for name, client in clients.items():
                        n, cpu, rps, median = client(urls[protocol], c, args.requests)
                        seen[name].append({"cpu": cpu / n * 1e6, "rps": rps,
                                           "median": median})
                report(protocol, c, args.rounds, seen, against)


if __name__ == "__main__":
    main()
