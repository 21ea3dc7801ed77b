#!/usr/bin/env python3
"""Prints what the slowdown knob injects into wall time, read back by
`yardstick compare-builds` (docs/evaluation.md, "The slowdown knob").

    python3 scripts/knob-evidence.py [--batches=1,2,20] [--slowdowns=5,10,40]

For each batch and slowdown, compare-builds runs the release bench against
itself with YARDSTICK_INJECT='*:X' on the new side only (its defaults: 30
rounds on 10 worker pairs, 20 ms blocks of samples), and the script prints
each probe's change as compare-builds judged it, and the largest distance
from X. Wall time: run it on a quiet machine. The counted side of the knob
is exact and is printed by scripts/count-evidence.py.
"""

import argparse
import json
import pathlib
import subprocess
import tempfile

from artifacts import built

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", default="1,2,20")
    parser.add_argument("--slowdowns", default="5,10,40")
    args = parser.parse_args()
    bench = built(["bench", "--bench", "micro", "--no-run"], "micro", "bench")
    yardstick = built(["build", "--release", "--bin", "yardstick"], "yardstick", "bin")
    batches = [int(b) for b in args.batches.split(",")]
    slowdowns = [float(x) for x in args.slowdowns.split(",")]
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for batch in batches:
            for pct in slowdowns:
                out = pathlib.Path(tmp) / f"{batch}-{pct}.json"
                done = subprocess.run(
                    [yardstick, "compare-builds", bench, bench, "-q",
                     f"--min-batch={batch}", f"--env-new=YARDSTICK_INJECT=*:{pct:g}",
                     f"--save={out}"],
                    cwd=ROOT, capture_output=True, text=True)
                if not out.exists():
                    print(f"batch {batch:>2}, {pct:>4g} %: no run ({done.stderr.strip()})")
                    continue
                checks = json.loads(out.read_text())["comparison"]["checks"]
                read = {c["key"]: c["change_pct"] for c in checks
                        if c["metric"] != "errors"}
                far = max(abs(v - pct) for v in read.values())
                worst = max(worst, far)
                cells = "  ".join(f"{k} {v:+.1f}" for k, v in sorted(read.items()))
                print(f"batch {batch:>2}, {pct:>4g} %: largest distance {far:.2f} points;  {cells}",
                      flush=True)
    print(f"largest distance from the injected slowdown: {worst:.2f} points")


if __name__ == "__main__":
    main()
