#!/usr/bin/env python3
"""How much each probe's figure moves from run to run: the standard
deviation, across saved runs, of the logarithm of each probe's x calib
(in percent), and the same from the MAD of neighbouring runs'
differences, the noise estimate the change-point search uses
(docs/evaluation.md, "Change points"). It says at which of the
change-point evaluation's noise levels (σ = 1, 2, 3, 5 %) a class's
probes sit.

    python3 scripts/run-noise.py DIR

DIR holds saved runs (`--save`) of one bench and class, and nothing
else: they are taken in the natural order of their names (run-2.json
before run-10.json), which must be the order they were made in for the
neighbours' figure to mean anything. Measures nothing.
"""
import glob
import json
import math
import os
import re
import statistics
import sys


def order(path):
    """Natural order: the name's digits compared as numbers."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", os.path.basename(path))]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    if not os.path.isdir(folder):
        sys.exit(f"run-noise.py: {folder}: no such folder")
    paths = sorted(glob.glob(os.path.join(folder, "*.json")), key=order)
    series = {}
    for path in paths:
        try:
            with open(path) as f:
                run = json.load(f)
        except (OSError, ValueError) as e:
            sys.exit(f"run-noise.py: {path}: {e}")
        rows = run.get("rows") if isinstance(run, dict) else None
        if not isinstance(rows, list):
            sys.exit(f"run-noise.py: {path}: not a saved run (no rows)")
        for row in rows:
            x = row.get("normalized") if isinstance(row, dict) else None
            if isinstance(x, (int, float)) and x > 0 and isinstance(row.get("key"), str):
                series.setdefault(row["key"], []).append(math.log(x))
    if not series:
        sys.exit(f"run-noise.py: {folder}: no saved run with a calibrated row")
    print(f"{len(paths)} runs")
    print("| probe | runs | sd of log x calib | from neighbours' differences (MAD) |")
    print("|---|---:|---:|---:|")
    for key, v in sorted(series.items()):
        if len(v) < 3:
            continue
        d = [b - a for a, b in zip(v, v[1:])]
        m = statistics.median(d)
        mad = statistics.median(abs(x - m) for x in d) * 1.4826 / math.sqrt(2)
        print(f"| {key} | {len(v)} | {statistics.stdev(v) * 100:.2f} % | {mad * 100:.2f} % |")


if __name__ == "__main__":
    main()
