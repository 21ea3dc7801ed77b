#!/usr/bin/env python3
"""What each HTTP client holds per connection: the most memory (max RSS,
measured by GNU time, Debian's `time`) of yardstick's built-in client and
of wrk, at several concurrencies, against one nginx (one worker, room for
every connection) serving 1 KB over HTTP/1.1, in interleaved rounds.

    scripts/client-memory.py [--rounds=3] [--concurrency=1000,5000]
                             [--requests=100000] [--yardstick=NAME=PATH ...]

yardstick makes --requests (a row keeps each request's time, so its
figure holds them too); wrk runs for 2 s on two threads. Each line gives
every round's max RSS in MB, then the median and its ratio to wrk's.
"""
import argparse
import importlib.util
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The nginx, the builds and the clients of scripts/client-cpu.py.
_spec = importlib.util.spec_from_file_location("client_cpu", ROOT / "scripts" / "client-cpu.py")
cpu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cpu)


def max_rss_mb(cmd):
    """Runs `cmd` (see client-cpu.py's `peak`); its max RSS in MB."""
    rss, _, code, err = cpu.peak(cmd)
    if code not in (0, 1):
        sys.exit(f"{cmd[0]} failed ({code}): {err}")
    return rss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", default="1000,5000")
    parser.add_argument("--requests", type=int, default=100000)
    parser.add_argument("--yardstick", action="append", default=[],
                        help="NAME=PATH of another build to measure")
    args = parser.parse_args()
    builds = cpu.builds_of(args.yardstick)
    levels = [int(c) for c in args.concurrency.split(",")]
    with cpu.serving(connections=max(levels) * 2) as (_, urls):
        url = urls["h1"]
        for c in levels:
            seen = {name: [] for name in [*builds, "wrk"]}
            for _ in range(args.rounds):
                for name, path in builds.items():
                    seen[name].append(max_rss_mb(
                        [str(path), "http", f"--url={url}", f"--requests={args.requests}",
                         f"--concurrency={c}", "--warmup=0", "--rounds=1", "-q"]))
                seen["wrk"].append(max_rss_mb(
                    ["wrk", "-t2", f"-c{c}", "-d2s", "--timeout", "10s", url]))
            wrk = statistics.median(seen["wrk"])
            print(f"concurrency {c}, {args.rounds} interleaved rounds, max RSS in MB:")
            for name, figures in seen.items():
                m = statistics.median(figures)
                rounds = ", ".join(f"{f:.1f}" for f in figures)
                print(f"  {name:10s} {m:7.1f} (x{m / wrk:.2f} wrk's)  [rounds: {rounds}]",
                      flush=True)

if __name__ == "__main__":
    main()
