#!/usr/bin/env python3
"""What the built-in client reports of a server with too little room:
nginx (one worker, `worker_connections 1024`) serving 1 KB over HTTP/1.1,
loaded by more connections than it holds, by yardstick and by h2load in
interleaved rounds on the same server.

    scripts/overload.py [--rounds=3] [--concurrency=3000] [--requests=30000]

Per round and client: the requests that succeeded, the successful req/s
over the measured time, and for yardstick the failures by kind and the
row's overloaded mark. h2load does not retry a connection that failed
(its client stops), so the counts of successes differ between the two;
the successful req/s is the figure that should agree, since both are
what the server sustained. The last line gives the medians and their
ratio.
"""
import argparse
import importlib.util
import pathlib
import re
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The nginx, the builds and the clients of scripts/client-cpu.py.
_spec = importlib.util.spec_from_file_location("client_cpu", ROOT / "scripts" / "client-cpu.py")
cpu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cpu)


def yardstick(binary, url, c, n):
    """(successes, successful req/s, failures by kind, overloaded)."""
    row = cpu.http_row(binary, url, f"--requests={n}", f"--concurrency={c}", "--warmup=0",
                       "--rounds=1", "--timeout=10")
    return row["n"], row.get("rps") or 0.0, row.get("failures", {}), row.get("overloaded", False)


def h2load(url, c, n):
    """(successes, successful req/s, the line of its counts)."""
    proc = subprocess.run(["h2load", "--h1", "-c", str(c), "-n", str(n), url],
                          capture_output=True, text=True)
    out = proc.stdout
    finished = re.search(r"finished in ([\d.]+)(ms|s),", out)
    counts = re.search(r"requests: .*", out)
    succeeded = re.search(r"(\d+) succeeded", out)
    if not (finished and counts and succeeded):
        sys.exit(f"h2load printed no counts: {out[-500:]}{proc.stderr[-500:]}")
    seconds = float(finished.group(1)) / (1000.0 if finished.group(2) == "ms" else 1.0)
    ok = int(succeeded.group(1))
    return ok, ok / seconds if seconds > 0 else 0.0, counts.group(0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=3000)
    parser.add_argument("--requests", type=int, default=30000)
    args = parser.parse_args()
    binary = cpu.builds_of([])["yardstick"]
    ours, theirs = [], []
    with cpu.serving() as (_, urls):
        url = urls["h1"]
        print(f"nginx, worker_connections 1024, one worker; concurrency {args.concurrency}, "
              f"{args.requests} requests, HTTP/1.1")
        for i in range(args.rounds):
            ok, rps, kinds, overloaded = yardstick(binary, url, args.concurrency,
                                                   args.requests)
            ours.append(rps)
            split = ", ".join(f"{k} {v}" for k, v in kinds.items()) or "none"
            print(f"  round {i + 1} yardstick: {ok} succeeded, {rps:,.0f} successful req/s, "
                  f"failures: {split}, overloaded: {str(overloaded).lower()}", flush=True)
            ok, rps, counts = h2load(url, args.concurrency, args.requests)
            theirs.append(rps)
            print(f"  round {i + 1} h2load:    {ok} succeeded, {rps:,.0f} successful req/s "
                  f"({counts})", flush=True)
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"median successful req/s: yardstick {a:,.0f}, h2load {b:,.0f}, "
          f"ratio {a / b:.2f}" if b else "h2load succeeded nowhere")


if __name__ == "__main__":
    main()
