#!/usr/bin/env python3
"""Kernel mode's false alarms: RUNS runs of the unchanged kernel suite
(release) against the committed baseline of this machine class, and what
the verdicts said. Prints the runs that failed, the rows that regressed,
the rows flagged and then not confirmed when measured again, the runs that
would have failed without confirmation, and each row's largest change.

    scripts/kernel-false-alarms.py [RUNS] [BENCH OPTION...]

RUNS defaults to 30. Run it on a machine left alone: it measures what the
check says when nothing changed. With the slowdown knob set
(`YARDSTICK_INJECT=kernel.boot:100 scripts/kernel-false-alarms.py 20`),
the runs that failed are the slowdowns caught: the check's power. Options
after RUNS go to every run (`--min-delta=0`, `--threshold=40`), to measure
another rule the same way.
"""
import collections
import json
import os
import subprocess
import sys


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    options = sys.argv[2:]
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    subprocess.run(["cargo", "bench", "-q", "--bench", "kernel", "--no-run"], check=True)
    failed = saved = 0
    regressed = collections.Counter()
    unconfirmed = collections.Counter()
    largest = collections.defaultdict(lambda: float("-inf"))
    for _ in range(runs):
        out = subprocess.run(
            ["cargo", "bench", "-q", "--bench", "kernel", "--", "--format=json", "-q", *options],
            capture_output=True, text=True,
        ).stdout
        comparison = json.loads(out).get("comparison")
        if comparison is None:
            sys.exit("kernel-false-alarms: no committed kernel baseline of this machine class")
        failed += comparison["regressions"] > 0
        flagged_here = False
        for check in comparison["checks"]:
            if check["regressed"]:
                regressed[check["key"]] += 1
            if check.get("inconclusive") and check.get("confirmation_pct") is not None:
                unconfirmed[check["key"]] += 1
                flagged_here = True
            if check["metric"] in ("median", "median/floor"):
                largest[check["key"]] = max(largest[check["key"]], check["change_pct"])
        saved += flagged_here and comparison["regressions"] == 0
    injected = os.environ.get("YARDSTICK_INJECT")
    what = f"with {injected} injected" if injected else "of unchanged code"
    rule = f" ({' '.join(options)})" if options else ""
    print(f"{runs} runs {what}{rule}: {failed} failed")
    print(f"  rows that regressed: {dict(regressed) or 'none'}")
    print(f"  flagged, not confirmed when measured again: {dict(unconfirmed) or 'none'}")
    print(f"  runs that would have failed without confirmation: {saved + failed}")
    print("  largest change before confirmation:")
    for key, pct in sorted(largest.items()):
        print(f"    {key:<20} {pct:+7.1f} %")


if __name__ == "__main__":
    main()
