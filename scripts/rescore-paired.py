#!/usr/bin/env python3
"""Re-scores an evaluation's paired trials at other thresholds and
significance levels, without measuring.

compare-builds flags a probe when the median paired ratio exceeds the
threshold T *and* the exact signed-rank test over the worker pairs gives
p < ALPHA. Each paired outcome in results.json keeps the judged change and
(in results made since the harness kept it) the p-value, so the rule can be
applied again at any T and ALPHA. An outcome without a p-value is still
scored exactly when its change is at most T (it cannot be flagged at any
ALPHA); above T it is counted as unknown.

Prints, per condition, T and ALPHA: the A/A runs with any probe flagged
(and with any unknown), and the share of slowed probe runs flagged per
slowdown.

    python3 scripts/rescore-paired.py results/2026-12-01-paired/results.json --threshold=3,2 --alpha=0.01,0.05
"""
import json
import sys


def numbers(text, option):
    try:
        values = [float(v) for v in text.split(",") if v]
    except ValueError:
        raise SystemExit(f"rescore-paired: {option}: not a list of numbers: {text}")
    if not values:
        raise SystemExit(f"rescore-paired: {option}: empty")
    return values


def score(outcome, recorded, threshold, alpha):
    """True, False, or None when the outcome lacks what the rule needs.
    `recorded` is the threshold the trial was judged at."""
    change = outcome.get("judged_pct")
    # A probe that failed more often on the new build regresses whatever
    # its change: flagged although its change was within the threshold.
    if outcome.get("verdict") == "regressed" and (change is None or change <= recorded):
        return True
    if change is None:
        # No paired figure: the harness's verdict is inconclusive, never an alarm.
        return False
    if change <= threshold:
        return False
    p = outcome.get("p_value")
    if p is None:
        return None
    return p < alpha


def main(argv):
    path = None
    thresholds, alphas = [3.0], [0.01]
    for a in argv[1:]:
        if a.startswith("--threshold="):
            thresholds = numbers(a.split("=", 1)[1], "--threshold")
        elif a.startswith("--alpha="):
            alphas = numbers(a.split("=", 1)[1], "--alpha")
        elif a.startswith("-"):
            print(f"rescore-paired: unknown option {a}", file=sys.stderr)
            return 2
        elif path is not None:
            print(f"rescore-paired: one results file only, not also {a}", file=sys.stderr)
            return 2
        else:
            path = a
    if path is None:
        print("usage: rescore-paired.py RESULTS.json [--threshold=T,...] [--alpha=A,...]", file=sys.stderr)
        return 2
    try:
        with open(path, encoding="utf-8") as f:
            trials = [t for t in json.load(f)["trials"] if t["method"] == "paired"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{path}: not an evaluation's results ({e})", file=sys.stderr)
        return 2
    if not trials:
        print(f"{path}: no paired trials", file=sys.stderr)
        return 2
    try:
        report(trials, thresholds, alphas)
    except (KeyError, TypeError, AttributeError) as e:
        print(f"{path}: a paired trial is not as the harness writes it ({e!r})", file=sys.stderr)
        return 2
    return 0


def report(trials, thresholds, alphas):
    for condition in sorted({t["condition"] for t in trials}):
        mine = [t for t in trials if t["condition"] == condition]
        aa = [t for t in mine if t.get("slowdown") is None]
        slowdowns = sorted({t["slowdown"] for t in mine if t.get("slowdown") is not None})
        print(f"{condition}: {len(aa)} A/A runs; slowdowns {', '.join(f'{s:g} %' for s in slowdowns) or 'none'}")
        for threshold in thresholds:
            for alpha in alphas:
                flagged = unknown = 0
                for t in aa:
                    marks = [score(o, t["threshold"], threshold, alpha) for o in t["outcomes"]]
                    if any(m is True for m in marks):
                        flagged += 1
                    elif any(m is None for m in marks):
                        unknown += 1
                line = f"  T {threshold:g} %, alpha {alpha:g}: A/A flagged {flagged}/{len(aa)}"
                if unknown:
                    line += f" (+{unknown} unknown)"
                for s in slowdowns:
                    outs = [(t["threshold"], o) for t in mine if t.get("slowdown") == s for o in t["outcomes"]]
                    marks = [score(o, recorded, threshold, alpha) for recorded, o in outs]
                    hit = sum(m is True for m in marks)
                    miss_unknown = sum(m is None for m in marks)
                    share = f"{100 * hit / len(outs):.0f} %" if outs else "-"
                    line += f"; at {s:g} %: {hit}/{len(outs)} ({share})"
                    if miss_unknown:
                        line += f" +{miss_unknown} unknown"
                print(line)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
