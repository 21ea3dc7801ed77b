#!/usr/bin/env python3
"""Why an evaluation missed what it missed: per probe, its threshold, the
median judged change of its A/A runs (how far the sitting stood from the
baseline's), and at each slowdown the probe runs not caught, with the
change each was judged at.

    python3 scripts/power-misses.py evaluate/results/DIR [METHOD]

Reads DIR/results.json and the baseline it names (DIR/baseline.json);
measures nothing. METHOD defaults to `confirmed`. Also prints each A/A
median before the calibration loop's correction (how much faster or
slower the machine ran than when the baseline was made) and every run
that was not judged because its calibration loop ran past the
machine-slowdown limit.

A probe whose A/A runs stand a few percent faster than its baseline is
judged a 25 % slowdown at about 25 % less that offset, which is what
separates its misses from noise.
"""
import collections
import json
import os
import statistics
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    method = sys.argv[2] if len(sys.argv) > 2 else "confirmed"
    try:
        with open(os.path.join(folder, "results.json")) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"power-misses.py: {folder}/results.json: {e}")
    trials = results.get("trials") if isinstance(results, dict) else None
    if not isinstance(trials, list) or not all(
            isinstance(t, dict) and {"method", "condition", "slowdown", "outcomes"} <= t.keys()
            for t in trials):
        sys.exit(f"power-misses.py: {folder}/results.json: not an evaluation's results "
                 "(no list of trials, each with its method, condition, slowdown and outcomes)")
    methods = sorted({t["method"] for t in trials})
    if method not in methods:
        sys.exit(f"power-misses.py: METHOD: {method} is not among this evaluation's: "
                 f"{', '.join(methods)}")
    thresholds = {}
    try:
        with open(os.path.join(folder, "baseline.json")) as f:
            thresholds = (json.load(f).get("thresholds") or {}).get("probes") or {}
    except (OSError, ValueError):
        pass
    for condition in sorted({t["condition"] for t in trials if t["method"] == method}):
        these = [t for t in trials if t["method"] == method and t["condition"] == condition]
        aa = collections.defaultdict(list)
        raw = collections.defaultdict(list)
        too_slow = []
        missed = collections.defaultdict(lambda: collections.defaultdict(list))
        runs = collections.Counter()
        slowdowns = sorted({t["slowdown"] for t in these if t["slowdown"] is not None})
        for t in these:
            slow, limit = t.get("machine_slowdown_pct"), t.get("machine_slowdown_limit")
            if isinstance(slow, (int, float)) and isinstance(limit, (int, float)) and slow > limit:
                too_slow.append((t["slowdown"], slow, limit))
            for o in t["outcomes"]:
                if not isinstance(o, dict) or "probe" not in o or "verdict" not in o:
                    sys.exit(f"power-misses.py: {folder}/results.json: an outcome without "
                             "its probe or verdict")
                judged = o.get("judged_pct")
                if t["slowdown"] is None:
                    if judged is not None:
                        aa[o["probe"]].append(judged)
                    if o.get("raw_pct") is not None:
                        raw[o["probe"]].append(o["raw_pct"])
                    continue
                runs[t["slowdown"]] += 1
                if o["verdict"] != "regressed":
                    missed[o["probe"]][t["slowdown"]].append((o["verdict"], judged))
        print(f"## {condition}, {method}\n")
        head = " | ".join(f"missed at {s:g} %" for s in slowdowns)
        print(f"| probe | threshold | A/A median change | the same before x calib "
              f"| {head} |")
        print("|---|---:|---:|---:|" + "---|" * len(slowdowns))
        for probe in sorted(aa):
            cells = []
            for s in slowdowns:
                m = missed[probe][s]
                cells.append(", ".join(
                    f"{'?' if v == 'inconclusive' else ''}{j:+.1f}" if j is not None else v
                    for v, j in m) or "-")
            th = thresholds.get(probe)
            ms = f"{statistics.median(raw[probe]):+.1f} %" if raw[probe] else "-"
            print(f"| {probe} | {f'{th:.1f} %' if th is not None else '-'} "
                  f"| {statistics.median(aa[probe]):+.1f} % | {ms} | {' | '.join(cells)} |")
        totals = ", ".join(
            f"{sum(len(missed[p][s]) for p in missed)} of {runs[s]} at {s:g} %"
            for s in slowdowns)
        print(f"\nMissed: {totals} (a `?` is an inconclusive verdict, a miss).")
        for slowdown, slow, limit in too_slow:
            what = "an A/A run" if slowdown is None else f"a run at {slowdown:g} %"
            print(f"Not judged: {what} whose calibration loop ran {slow:.1f} % slow, "
                  f"past the machine-slowdown limit of {limit:g} %.")
        print()


if __name__ == "__main__":
    main()
