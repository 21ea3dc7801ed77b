#!/usr/bin/env python3
"""Prints how large each injected slowdown looked: per condition, method,
slowdown and probe, the median judged change of the power trials in an
evaluation's results.json, beside the share flagged.

The report gives power only; a probe caught less often than the others may
be noisier, or its injected X % may show as less than X. This tells which.

    python3 scripts/power-estimates.py evaluate/results/<report>/results.json
"""

import json
import statistics
import sys


def main(argv):
    if len(argv) != 2:
        print("usage: power-estimates.py RESULTS.json", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            trials = json.load(f)["trials"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{argv[1]}: not an evaluation's results ({e})", file=sys.stderr)
        return 2
    groups = {}
    for t in trials:
        if t.get("slowdown") is None:
            continue
        key = (t["condition"], t["method"], t["slowdown"])
        for o in t["outcomes"]:
            groups.setdefault(key, {}).setdefault(o["probe"], []).append(o)
    for (condition, method, slowdown), probes in sorted(groups.items()):
        print(f"{condition} / {method} at {slowdown:g} %: median judged change, flagged")
        for probe, outcomes in sorted(probes.items()):
            changes = [o["judged_pct"] for o in outcomes if o.get("judged_pct") is not None]
            flagged = sum(o["verdict"] == "regressed" for o in outcomes)
            median = f"{statistics.median(changes):+.2f} %" if changes else "-"
            print(f"  {probe:20} {median:>9}  {flagged}/{len(outcomes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
