#!/usr/bin/env python3
"""What a run of many requests costs to make and to read back: for each
build, the most memory (max RSS) of `yardstick http --requests=N --save`,
its CPU time, the size of the run it saved, and the CPU time and max RSS
of `yardstick show` reading it (measured by GNU time, Debian's `time`),
against one nginx serving 1 KB over HTTP/1.1 at concurrency 16, in
interleaved rounds.

    scripts/many-requests.py [--rounds=3] [--requests=1000000]
                             [--yardstick=NAME=PATH ...]

Each line gives the median of the rounds, then every round's figure.
"""
import argparse
import importlib.util
import json
import pathlib
import statistics
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The nginx and the builds of scripts/client-cpu.py.
_spec = importlib.util.spec_from_file_location("client_cpu", ROOT / "scripts" / "client-cpu.py")
cpu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cpu)


def measured(cmd):
    """Runs `cmd` (see client-cpu.py's `peak`): (max RSS in MB, CPU
    seconds)."""
    rss, seconds, code, err = cpu.peak(cmd)
    if code != 0:
        sys.exit(f"{' '.join(map(str, cmd[:2]))} failed ({code}): {err}")
    return rss, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=1_000_000)
    parser.add_argument("--yardstick", action="append", default=[],
                        help="NAME=PATH of another build to measure")
    args = parser.parse_args()
    builds = cpu.builds_of(args.yardstick)
    figures = {name: {"run MB": [], "run CPU s": [], "saved MB": [], "buckets": [],
                      "show MB": [], "show CPU s": []} for name in builds}
    with cpu.serving() as (_, urls), tempfile.TemporaryDirectory() as tmp:
        saved = pathlib.Path(tmp) / "run.json"
        for _ in range(args.rounds):
            for name, binary in builds.items():
                f = figures[name]
                rss, seconds = measured(
                    [str(binary), "http", f"--url={urls['h1']}", f"--requests={args.requests}",
                     "--concurrency=16", "--rounds=1", "--warmup=0", "-q", f"--save={saved}"])
                f["run MB"].append(rss)
                f["run CPU s"].append(seconds)
                f["saved MB"].append(saved.stat().st_size / 1e6)
                row = json.loads(saved.read_text())["rows"][0]
                f["buckets"].append(len((row.get("histogram") or {}).get("buckets", [])))
                rss, seconds = measured([str(binary), "show", str(saved)])
                f["show MB"].append(rss)
                f["show CPU s"].append(seconds)
    print(f"{args.requests} requests, concurrency 16, {args.rounds} interleaved rounds:")
    for name, f in figures.items():
        print(f"  {name}:")
        for what, values in f.items():
            rounds = ", ".join(f"{v:.2f}" for v in values)
            print(f"    {what:11s} {statistics.median(values):8.2f}  [rounds: {rounds}]")


if __name__ == "__main__":
    main()
