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
import os
import pathlib
import signal
import statistics
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The nginx, the builds and the clients of scripts/client-cpu.py.
_spec = importlib.util.spec_from_file_location("client_cpu", ROOT / "scripts" / "client-cpu.py")
cpu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cpu)

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
    options = [f"--duration={args.seconds}", f"--concurrency={args.concurrency}",
               "--rounds=1", "--warmup=0"]
    return cpu.http_row(binary, url, *options, *([f"--rate={rate}"] if rate else []))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate", type=int, default=10000)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=64)
    args = parser.parse_args()
    binary = cpu.builds_of([])["yardstick"]
    p99 = {"open": [], "closed": []}
    with cpu.serving() as (nginx, urls):
        stop = threading.Event()
        staller = threading.Thread(target=stall_every_second, args=(worker_of(nginx.pid), stop))
        staller.start()
        print(f"nginx stopped for {STALL * 1000:.0f} ms once a second; "
              f"{args.seconds} s a run, concurrency {args.concurrency}")
        try:
            for i in range(args.rounds):
                for model, rate in (("open", args.rate), ("closed", None)):
                    row = measure(binary, urls["h1"], args, rate)
                    p99[model].append(row["p99"])
                    said = f"--rate={rate}" if rate else "closed"
                    print(f"  round {i + 1} {model:6s} ({said}): {row['n']} answered, "
                          f"{row.get('rps', 0):,.0f} req/s, median {row['median']:.3f} ms, "
                          f"p99 {row['p99']:.1f} ms, errors {row.get('errors', 0)}", flush=True)
        finally:
            stop.set()
            staller.join()
    print(f"median p99: open {statistics.median(p99['open']):.1f} ms, "
          f"closed {statistics.median(p99['closed']):.1f} ms")


if __name__ == "__main__":
    main()
