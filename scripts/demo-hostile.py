#!/usr/bin/env python3
"""The demo site under a hostile load, and what it is left holding: starts
the demo site (release build) with its cache in a temporary folder, then

  1. opens IDLE connections (default 1,000) that send nothing, half a
     request line, or headers without their blank line, and keeps them;
  2. asks for URLS unique URLs (default 20,000) over 4 kept-alive
     connections: a query the page does not read (`/products?u=N`), a
     unique search (`/content/search?SearchText=wN`), a unique search of
     900 characters (both kept: the cache's bounds must hold them);
  3. times 20 plain GETs of /news, each on a new connection, with the idle
     connections still open;

and prints the server's resident memory (after a warm-up of the six
pages of demo-site/pages.txt, 50 times each, then after the load, and at
its peak), the cache
folder's bytes against its bound, the statuses seen and the median of the
20 GETs. Targets: memory and folder within the configured bounds, every
GET answered 200, the median under 100 ms.

    scripts/demo-hostile.py [--idle=1000] [--urls=20000] [--max-connections=512]
                            [--cache-bytes=64M] [--memory-bytes=32M]

The open-file limit is raised to 4,096 (the hard limit, if lower) for the
script and the server, so the idle connections fit on the client side;
--max-connections sets the server's cap below it, which the idle
connections pass, so the cap's making room is part of the run.
"""
import argparse
import collections
import http.client
import os
import pathlib
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
HALF_SENT = [b"", b"GET / HT", b"GET /news HTTP/1.1\r\nHost: x\r\n"]


def build():
    """Builds the release demo site; returns its path."""
    subprocess.run(["cargo", "build", "--release", "--locked", "-q", "-p", "demo-site",
                    "--bin", "yardstick-demo-site"], cwd=ROOT, check=True)
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "release" / "yardstick-demo-site"


def raise_descriptor_limit(want=4096):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    new = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft < new:
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def start(binary, args):
    """The demo site on a free port; returns (process, port)."""
    proc = subprocess.Popen([str(binary), "--port=0", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline().strip()
    if not line.startswith("listening on "):
        proc.kill()
        sys.exit(f"the demo site did not start: {line!r} {proc.stderr.read()[-500:]}")
    return proc, int(line.rsplit(":", 1)[1])


def memory(pid):
    """(resident, peak resident) in MB, from /proc."""
    fields = {}
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.strip()
    kb = lambda name: int(fields.get(name, "0 kB").split()[0])
    return kb("VmRSS") / 1024, kb("VmHWM") / 1024


def folder_bytes(folder):
    """(bytes of the files, bytes on disk with the folders) under `folder`."""
    files = disk = 0
    for dirpath, _, names in os.walk(folder):
        disk += os.lstat(dirpath).st_blocks * 512
        for name in names:
            st = os.lstat(os.path.join(dirpath, name))
            files += st.st_size
            disk += st.st_blocks * 512
    return files, disk


def idle_peers(port, n):
    peers = []
    for i in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(HALF_SENT[i % len(HALF_SENT)])
        peers.append(s)
    return peers


def unique_urls(port, first, count, statuses, lock):
    """Asks for URLs first..first+count on one kept-alive connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for n in range(first, first + count):
        url = [f"/products?u={n}", f"/content/search?SearchText=w{n}",
               f"/content/search?SearchText={n:0>900}"][n % 3]
        try:
            conn.request("GET", url)
            r = conn.getresponse()
            r.read()
            key = (r.status, r.getheader("X-Cache"))
        except (OSError, http.client.HTTPException) as e:
            key = (type(e).__name__, None)
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        with lock:
            statuses[key] += 1
    conn.close()


def warm_up(port, rounds=50):
    """Asks for the page set's pages, as a normal run would."""
    pages = [line.strip() for line in (ROOT / "demo-site/pages.txt").read_text().splitlines()
             if line.startswith("/")]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for _ in range(rounds):
        for page in pages:
            conn.request("GET", page)
            conn.getresponse().read()
    conn.close()


def timed_gets(port, n=20):
    times, statuses = [], collections.Counter()
    for _ in range(n):
        start = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/news", headers={"Connection": "close"})
        r = conn.getresponse()
        r.read()
        times.append(time.perf_counter() - start)
        statuses[r.status] += 1
        conn.close()
    return times, statuses


def closed_by_server(peers):
    """How many of `peers` the server has closed."""
    closed = 0
    for s in peers:
        s.setblocking(False)
        try:
            closed += s.recv(1 << 16) == b""
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    return closed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--idle", type=int, default=1000)
    ap.add_argument("--urls", type=int, default=20000)
    ap.add_argument("--max-connections", type=int, default=512)
    ap.add_argument("--cache-bytes", default="64M")
    ap.add_argument("--memory-bytes", default="32M")
    a = ap.parse_args()
    binary = build()
    limit = raise_descriptor_limit()
    folder = tempfile.TemporaryDirectory(prefix="demo-hostile-")
    args = [f"--cache-dir={folder.name}", f"--max-connections={a.max_connections}",
            f"--cache-bytes={a.cache_bytes}", f"--memory-bytes={a.memory_bytes}"]
    proc, port = start(binary, args)
    try:
        print(f"demo site: {' '.join(args)} (open-file limit {limit})")
        warm_up(port)
        print(f"after a warm-up: RSS {memory(proc.pid)[0]:.0f} MB")
        began = time.perf_counter()
        peers = idle_peers(port, a.idle)
        statuses, lock = collections.Counter(), threading.Lock()
        per = a.urls // 4
        threads = [threading.Thread(target=unique_urls, args=(port, i * per, per, statuses, lock))
                   for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(f"{a.idle} idle connections, {per * 4} unique URLs in "
              f"{time.perf_counter() - began:.1f} s: {dict(statuses)}")
        times, got = timed_gets(port)
        rss, peak = memory(proc.pid)
        files, disk = folder_bytes(folder.name)
        print(f"idle connections closed by the server so far: {closed_by_server(peers)} "
              f"of {len(peers)}")
        print(f"RSS {rss:.0f} MB (peak {peak:.0f} MB); memory bound {a.memory_bytes}")
        print(f"cache folder: {files / 2**20:.1f} MB of pages, {disk / 2**20:.1f} MB on disk; "
              f"bound {a.cache_bytes}")
        print(f"20 GETs of /news after them: {dict(got)}, median "
              f"{statistics.median(times) * 1e3:.1f} ms, max {max(times) * 1e3:.1f} ms")
        for s in peers:
            s.close()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
        lines = err.splitlines()
        print(f"server stderr: {len(lines)} lines{': ' + lines[0][:200] if lines else ''}")
        print(f"exit {proc.returncode}")


if __name__ == "__main__":
    main()
