#!/usr/bin/env python3
"""How the per-probe threshold rule was chosen: stored trials of earlier
evaluations judged again with thresholds learned from other sittings'
quiet A/A trials, before confirmation (which cannot be re-scored).

    python3 scripts/threshold-rule.py

Reads only committed files under evaluate/results/; measures nothing.
Prints, per rule (the median plus K scaled MADs, or K times a quantile of
the changes, each within 5 and 30 %), the thresholds learned and, on the
trials of 2026-12-01-knob-stored: suite false alarms and probe runs caught
at 15, 25 and 40 %, quiet and beside a CPU hog. First learned from one
sitting alone (2026-11-30-pooled), then from eight runs of each of five
sittings. docs/evaluation.md, "A threshold per probe", quotes it.
"""
import json
import os
import statistics

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "evaluate", "results")
LEARN = ["2026-11-30-pooled", "2026-12-01-guard", "2026-11-30-stored-300",
         "2026-11-30-stored", "2026-11-30-learned"]
TEST = "2026-12-01-knob-stored"
LIMIT = 30.0  # the machine-slowdown limit


def trials(folder):
    with open(os.path.join(RESULTS, folder, "results.json")) as f:
        return json.load(f)["trials"]


def aa(ts, condition):
    return [t for t in ts if t["method"] == "stored-baseline" and t["slowdown"] is None
            and t["condition"] == condition]


def changes(ts):
    by = {}
    for t in ts:
        for o in t["outcomes"]:
            if o.get("judged_pct") is not None:
                by.setdefault(o["probe"], []).append(o["judged_pct"])
    return by


def quantile(xs, p):
    xs = sorted(xs)
    i = p * (len(xs) - 1)
    lo = int(i)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] * (1 - (i - lo)) + xs[hi] * (i - lo)


def threshold(cs, rule, k):
    if rule == "mad":
        m = statistics.median(cs)
        v = m + k * 1.4826 * statistics.median([abs(c - m) for c in cs])
    else:
        v = k * quantile(cs, rule)
    return min(30.0, max(5.0, v))


def judge(ts, th):
    alarms = caught = total = 0
    for t in ts:
        slow = (t.get("machine_slowdown_pct") or 0) > LIMIT
        over = [o for o in t["outcomes"] if o.get("judged_pct") is not None
                and o["judged_pct"] > th.get(o["probe"], 30.0)]
        alarms += bool(over) and not slow
        total += len(t["outcomes"])
        caught += 0 if slow else len(over)
    return alarms, len(ts), caught, total


def report(label, history, test):
    print(f"\n{label}: {len(history)} quiet A/A runs teach the thresholds")
    for rule, ks in [("mad", [4, 5, 6]), (0.95, [1.0, 1.5]), (1.0, [1.0, 1.25])]:
        for k in ks:
            th = {p: threshold(cs, rule, k) for p, cs in changes(history).items()}
            name = f"median + {k} MAD" if rule == "mad" else f"{k} x q{rule}"
            cells = []
            for condition in ["quiet", "cpu"]:
                a, n, _, _ = judge(aa(test, condition), th)
                power = []
                for s in [15.0, 25.0, 40.0]:
                    runs = [t for t in test if t["method"] == "stored-baseline"
                            and t["slowdown"] == s and t["condition"] == condition]
                    _, _, c, total = judge(runs, th)
                    power.append(f"{c}/{total}")
                cells.append(f"{condition}: false alarms {a}/{n}, caught {' '.join(power)}")
            shown = ", ".join(f"{v:.1f}" for _, v in sorted(th.items()))
            print(f"  {name:16} thresholds {shown}\n    " + "; ".join(cells))


def main():
    test = trials(TEST)
    report("One sitting (2026-11-30-pooled, its first 40)", aa(trials(LEARN[0]), "quiet")[:40], test)
    history = []
    for folder in LEARN:
        history += aa(trials(folder), "quiet")[:8]
    report("Five sittings, eight runs each", history, test)


if __name__ == "__main__":
    main()
