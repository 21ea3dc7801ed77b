#!/usr/bin/env python3
"""Re-scores an evaluation's stored-baseline trials at other thresholds.

Each trial in results.json keeps the change of the figure the verdict
judged, so the plain rule (a probe regresses when its change exceeds T) can
be applied again at any T without measuring. Confirmation re-measures and
cannot be re-scored this way. Prints, per threshold, the A/A runs with any
probe past T and the share of slowed probe runs past T, per condition and
for all conditions together.

    python3 scripts/rescore-thresholds.py results/2026-11-30-stored/results.json 15 20 25 30 35 40

`--method=learned-baseline` re-scores that method's trials instead: each
probe's change under the divisor the learned baseline chose, at one
threshold for every probe rather than the probe's own.
"""
import json
import sys


def main():
    args = sys.argv[1:]
    method = "stored-baseline"
    for a in list(args):
        if a.startswith("--method="):
            method = a.split("=", 1)[1]
            args.remove(a)
    if len(args) < 2:
        sys.exit("usage: rescore-thresholds.py [--method=NAME] RESULTS.json THRESHOLD...")
    path = args[0]
    try:
        with open(path) as f:
            trials = [t for t in json.load(f)["trials"] if t["method"] == method]
        thresholds = [float(t) for t in args[1:]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{path}: {e}", file=sys.stderr)
        sys.exit(2)
    conditions = sorted({t["condition"] for t in trials})
    slowdowns = sorted({t["slowdown"] for t in trials if t["slowdown"] is not None})

    def past(outcome, threshold):
        return outcome["judged_pct"] is not None and outcome["judged_pct"] > threshold

    for threshold in thresholds:
        parts = []
        for name, chosen in [(c, [c]) for c in conditions] + [("all", conditions)]:
            aa = [t for t in trials if t["slowdown"] is None and t["condition"] in chosen]
            alarms = sum(any(past(o, threshold) for o in t["outcomes"]) for t in aa)
            power = []
            for x in slowdowns:
                outs = [o for t in trials if t["slowdown"] == x and t["condition"] in chosen
                        for o in t["outcomes"]]
                caught = sum(past(o, threshold) for o in outs)
                power.append(f"{x:g} %: {caught}/{len(outs)}")
            parts.append(f"{name}: A/A {alarms}/{len(aa)}, caught " + ", ".join(power))
        print(f"threshold {threshold:g} %  " + " | ".join(parts))


main()
