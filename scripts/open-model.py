#!/usr/bin/env python3
"""What the open model (`--rate`) reports of a server that stalls, beside
the closed model: nginx (one worker) serving 1 KB over HTTP/1.1, its worker
stopped (SIGSTOP) for 200 ms once a second, loaded by the built-in client
at a fixed rate, then by the closed model, in interleaved rounds.

    scripts/open-model.py [--rounds=3] [--rate=10000] [--seconds=5]
                          [--concurrency=64]

Per round and model: requests answered, req/s, median and p99. The open
model times each request from its planned start, so the stall's 200 ms
reach its p99 (a second's 10,000 requests, 2,000 of them planned within
the stall); the closed model sends nothing while its connections wait,
so the stall is a few slow requests among many, and its p99 stays low.
"""
import argparse
import importlib.util
import json
import os
import pathlib
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dvn = load("dvn", "demo-vs-nginx.py")
cpu = load("client_cpu", "client-cpu.py")

STALL = 0.2


def worker_of(master):
    """The pid of nginx's one worker process."""
    children = pathlib.Path(f"/proc/{master}/task/{master}/children").read_text().split()
    if len(children) != 1:
        sys.exit(f"nginx has {len(children)} workers, not one")
    return int(children[0])


def stall_every_second(pid, stop):
    """Stops `pid` for STALL seconds at the start of every second, until
    `stop` is set; always leaves it running."""
    while not stop.is_set():
        os.kill(pid, signal.SIGSTOP)
        time.sleep(STALL)
        os.kill(pid, signal.SIGCONT)
        stop.wait(1.0 - STALL)


def measure(binary, url, args, rate):
    with tempfile.NamedTemporaryFile(suffix=".json") as saved:
        cmd = [str(binary), "http", f"--url={url}", f"--duration={args.seconds}",
               f"--concurrency={args.concurrency}", "--rounds=1", "--warmup=0",
               f"--save={saved.name}", "-q"]
        if rate:
            cmd.append(f"--rate={rate}")
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode not in (0, 1):
            sys.exit(f"yardstick failed ({proc.returncode}): {proc.stderr.strip()}")
        row = json.loads(pathlib.Path(saved.name).read_text())["rows"][0]
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate", type=int, default=10000)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=64)
    args = parser.parse_args()
    _, binary = dvn.build()
    p99 = {"open": [], "closed": []}
    with tempfile.TemporaryDirectory(prefix="open-model") as tmp:
        nginx, urls = cpu.start_nginx(pathlib.Path(tmp))
        stop = threading.Event()
        staller = threading.Thread(target=stall_every_second, args=(worker_of(nginx.pid), stop))
        staller.start()
        print(f"nginx stopped for {STALL * 1000:.0f} ms once a second; "
              f"{args.seconds} s a run, concurrency {args.concurrency}")
        try:
            for i in range(args.rounds):
                for model, rate in (("open", args.rate), ("closed", None)):
                    row = measure(binary, urls["h1"], args, rate)
                    f = row["figures"] if "figures" in row else row
                    p99[model].append(f["p99"])
                    said = f"--rate={rate}" if rate else "closed"
                    print(f"  round {i + 1} {model:6s} ({said}): {row['n']} answered, "
                          f"{row.get('rps', 0):,.0f} req/s, median {f['median']:.3f} ms, "
                          f"p99 {f['p99']:.1f} ms, errors {row.get('errors', 0)}", flush=True)
        finally:
            stop.set()
            staller.join()
            dvn.stop(nginx)
    print(f"median p99: open {statistics.median(p99['open']):.1f} ms, "
          f"closed {statistics.median(p99['closed']):.1f} ms")


if __name__ == "__main__":
    main()
