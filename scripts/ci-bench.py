#!/usr/bin/env python3
"""Runs `cargo bench` as a new user would, bench by bench, for .ci/run.

    python3 scripts/ci-bench.py [BENCH...]   (default: micro kernel)

Each bench runs with its defaults (`cargo bench --bench NAME`, plus --save so
that its verdict can be read: the saved run's `outcome`, as yardstick
delivered it) and prints what it prints. The run then fails on what is a
landing gate and warns on what is not:

- a panic, a usage error, or a run yardstick calls broken (a failed probe,
  a variant whose result differs from its group's reference): fails;
- a count verdict of FAIL (no wall-time baseline of this machine class, so
  `cargo bench` judged by the committed count baseline): fails;
- a wall-time verdict of FAIL or INCONCLUSIVE (exit 3): a warning, since
  wall time on a shared machine is no landing gate (docs/design.md, "Why wall time is judged only
  within a machine class").
"""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def verdict(bench):
    saved = ROOT / "target" / f"ci-bench-{bench}.json"
    saved.unlink(missing_ok=True)
    done = subprocess.run(
        ["cargo", "bench", "--locked", "--bench", bench, "--", f"--save={saved}"],
        cwd=ROOT)
    if done.returncode == 0:
        return None
    if done.returncode == 3:
        # INCONCLUSIVE: nothing failed, and the machine ran too slow against
        # the baseline to judge a probe over the threshold.
        print(f"warning: {bench}: the wall-time verdict is INCONCLUSIVE; wall time on a "
              "shared machine is no landing gate", file=sys.stderr)
        return None
    if done.returncode != 1 or not saved.is_file():
        return f"{bench}: exit {done.returncode} (a panic or a usage error)"
    run = json.loads(saved.read_text())
    # The verdict as yardstick delivered it (the run's `outcome`): its exit
    # code, whether something failed outright, and its lines.
    outcome = run.get("outcome")
    if outcome is None:
        return f"{bench}: exit 1, and the saved run holds no verdict"
    if outcome["broken"]:
        lines = "; ".join(l for l in outcome.get("lines", []) if l.startswith("FAIL"))
        return f"{bench}: {lines}"
    metric = run.get("metric", "time")
    if metric != "time":
        return f"{bench}: the {metric} verdict is FAIL"
    print(f"warning: {bench}: the wall-time verdict is FAIL; wall time on a shared "
          "machine is no landing gate", file=sys.stderr)
    return None


def main():
    benches = sys.argv[1:] or ["micro", "kernel"]
    problems = [p for p in map(verdict, benches) if p]
    for p in problems:
        print(f"error: {p}", file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
