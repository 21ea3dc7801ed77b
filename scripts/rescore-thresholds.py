#!/usr/bin/env python3
"""Re-scores an evaluation's stored-baseline trials at other thresholds.

Each trial in results.json keeps the change of the figure the verdict
judged, so the plain rule (a probe regresses when its change exceeds T) can
be applied again at any T without measuring. Confirmation re-measures and
cannot be re-scored this way. Prints, per threshold, the A/A runs with any
probe past T and the share of slowed probe runs past T, per condition and
for all conditions together.

    python3 scripts/rescore-thresholds.py results/2026-11-30-stored/results.json 15 20 25 30 35 40

`--method=NAME` re-scores that method's trials instead (confirmed trials
keep the change found before confirming; the learned-baseline trials of
results/2026-11-30-learned keep the change under the divisor that baseline
chose).

`--fences=K` gives each probe a threshold of its own, as the learned
baseline tried at commit 1bc9655 did (Q3 + 3 x IQR of its judged A/A
changes, 2 % at least, THRESHOLD at most), but learned from the first K A/A
trials of the quiet condition rather than from back-to-back runs; only the
A/A trials after those K count as false alarms.

`--baseline-run=K` judges the trials against the K-th of the quiet runs the
evaluation pooled into its baseline (`baseline-runs/run-K.json` beside
RESULTS.json) instead of the pooled baseline: a change is a ratio of the
run's figure to the baseline's, so it converts exactly. This shows what a
baseline of that one run would have given.

`--max-machine-slowdown=P` applies yardstick's guard at P percent: in a
trial whose calibration loop ran more than P % slower than in the baseline
(`machine_slowdown_pct`, kept by evaluations from 2026-12-01 on), no probe
counts as past the threshold, as yardstick calls such a probe
inconclusive. Without it the plain rule applies, whatever limit the
trials were judged with. For older trials, which do not keep the slowdown,
`--estimate-slowdown` estimates it from each trial's outcomes: the median
over its probes of (1 + raw change) / (1 + judged change), since the raw
change is the normalised one times the loop's. With a limit, the script
also prints how many A/A trials it left unjudged and how many of the false
alarms of the plain rule were in them.

Before the thresholds, each condition's median signed A/A change per probe
is printed: far from zero, it is the baseline's own offset for that probe
(every A/A run compares with the same baseline).
"""
import json
import os
import statistics
import sys


def figures(path):
    """Each probe's figure in a saved run: the median of its per-sample
    ratios to the loop timed just before each sample, as yardstick's
    comparison computes it."""
    with open(path) as f:
        run = json.load(f)
    out = {}
    for row in run["rows"]:
        pairs = list(zip(row["samples"], row.get("calibration_samples", [])))
        if pairs and len(pairs) == len(row["samples"]):
            ratios = [s / c for s, c in pairs if c > 0]
        if ratios:
            out[row["key"]] = statistics.median(ratios)
    return out


def main():
    args = sys.argv[1:]
    method = "stored-baseline"
    learn_from = None
    single = None
    guard = None
    estimate = False
    try:
        for a in list(args):
            if a == "--estimate-slowdown":
                estimate = True
                args.remove(a)
                continue
            if a.startswith("--max-machine-slowdown="):
                guard = float(a.split("=", 1)[1])
                args.remove(a)
                continue
            if a.startswith("--baseline-run="):
                single = int(a.split("=", 1)[1])
                args.remove(a)
                continue
            if a.startswith("--method="):
                method = a.split("=", 1)[1]
                args.remove(a)
            elif a.startswith("--fences="):
                learn_from = int(a.split("=", 1)[1])
                args.remove(a)
    except ValueError as e:
        print(f"--fences, --baseline-run or --max-machine-slowdown: {e}", file=sys.stderr)
        sys.exit(2)
    if len(args) < 2:
        sys.exit("usage: rescore-thresholds.py [--method=NAME] [--fences=K] [--baseline-run=K] "
                 "[--max-machine-slowdown=P] [--estimate-slowdown] RESULTS.json THRESHOLD...")
    path = args[0]
    try:
        with open(path) as f:
            trials = [t for t in json.load(f)["trials"] if t["method"] == method]
        thresholds = [float(t) for t in args[1:]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"{path}: {e}", file=sys.stderr)
        sys.exit(2)
    if guard is not None and single is not None:
        # The kept slowdown is the loop's against the pooled baseline's.
        print("--max-machine-slowdown and --baseline-run cannot be combined", file=sys.stderr)
        sys.exit(2)
    if estimate:
        for t in trials:
            ratios = [(1 + o["raw_pct"] / 100) / (1 + o["judged_pct"] / 100)
                      for o in t["outcomes"]
                      if o.get("raw_pct") is not None and o.get("judged_pct") is not None]
            if ratios:
                t["machine_slowdown_pct"] = (statistics.median(ratios) - 1) * 100
    if guard is not None:
        if any(t.get("machine_slowdown_pct") is None for t in trials):
            print(f"--max-machine-slowdown: {path}: a {method} trial has no machine_slowdown_pct",
                  file=sys.stderr)
            sys.exit(2)
        print(f"trials whose loop ran more than {guard:g} % slower than the baseline's judge nothing")
    if single is not None:
        folder = os.path.dirname(path)
        run_path = os.path.join(folder, "baseline-runs", f"run-{single}.json")
        try:
            pooled = figures(os.path.join(folder, "baseline.json"))
            alone = figures(run_path)
        except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError) as e:
            print(f"--baseline-run: {run_path}: {e}", file=sys.stderr)
            sys.exit(2)
        for t in trials:
            for o in t["outcomes"]:
                p = o["probe"]
                if o["judged_pct"] is not None and p in pooled and p in alone:
                    o["judged_pct"] = ((1 + o["judged_pct"] / 100) * pooled[p] / alone[p] - 1) * 100
        print(f"judged against {run_path} alone")
    conditions = sorted({t["condition"] for t in trials})
    for c in conditions:
        aa = [o for t in trials if t["slowdown"] is None and t["condition"] == c
              for o in t["outcomes"] if o["judged_pct"] is not None]
        medians = [(p, statistics.median(o["judged_pct"] for o in aa if o["probe"] == p))
                   for p in sorted({o["probe"] for o in aa})]
        print(f"{c}: median A/A change: " + ", ".join(f"{p} {m:+.1f} %" for p, m in medians))
    slowdowns = sorted({t["slowdown"] for t in trials if t["slowdown"] is not None})

    fences = {}
    if learn_from is not None:
        history = [t for t in trials if t["slowdown"] is None and t["condition"] == "quiet"]
        if learn_from < 2 or len(history) < learn_from:
            print(f"--fences: {learn_from} is not from 2 to the {len(history)} quiet A/A trials",
                  file=sys.stderr)
            sys.exit(2)
        history = history[:learn_from]
        for probe in sorted({o["probe"] for t in history for o in t["outcomes"]}):
            changes = [o["judged_pct"] for t in history for o in t["outcomes"]
                       if o["probe"] == probe and o["judged_pct"] is not None]
            if len(changes) >= 2:
                # "inclusive" is the type-7 rule yardstick's statistics use.
                q1, _, q3 = statistics.quantiles(changes, n=4, method="inclusive")
                fences[probe] = q3 + 3 * (q3 - q1)
        learned = {id(t) for t in history}
        trials = [t for t in trials if id(t) not in learned]
        print("fences from the first %d quiet A/A trials: %s" % (
            learn_from, ", ".join(f"{p} {f:.1f} %" for p, f in fences.items())))

    def past(outcome, threshold, trial):
        if guard is not None and trial["machine_slowdown_pct"] > guard:
            return False
        limit = threshold
        if outcome["probe"] in fences:
            limit = min(max(fences[outcome["probe"]], 2.0), threshold)
        return outcome["judged_pct"] is not None and outcome["judged_pct"] > limit

    for threshold in thresholds:
        parts = []
        for name, chosen in [(c, [c]) for c in conditions] + [("all", conditions)]:
            aa = [t for t in trials if t["slowdown"] is None and t["condition"] in chosen]
            alarms = sum(any(past(o, threshold, t) for o in t["outcomes"]) for t in aa)
            if guard is not None:
                slow = [t for t in aa if t["machine_slowdown_pct"] > guard]
                plain = sum(any(o["judged_pct"] is not None and o["judged_pct"] > threshold
                                for o in t["outcomes"]) for t in slow)
                unjudged = f" ({len(slow)} unjudged, {plain} of them past T by the plain rule)"
            else:
                unjudged = ""
            power = []
            for x in slowdowns:
                outs = [(o, t) for t in trials if t["slowdown"] == x and t["condition"] in chosen
                        for o in t["outcomes"]]
                caught = sum(past(o, threshold, t) for o, t in outs)
                power.append(f"{x:g} %: {caught}/{len(outs)}")
            parts.append(f"{name}: A/A {alarms}/{len(aa)}{unjudged}, caught " + ", ".join(power))
        print(f"threshold {threshold:g} %  " + " | ".join(parts))


main()
