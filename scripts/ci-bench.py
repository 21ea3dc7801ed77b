#!/usr/bin/env python3
"""Runs `cargo bench` as a new user would, bench by bench, for .ci/run.

    python3 scripts/ci-bench.py [BENCH...]   (default: micro kernel)

Each bench runs with its defaults (`cargo bench --bench NAME`, plus --save so
that its verdict can be read) and prints what it prints. The run then fails
on what is a landing gate and warns on what is not:

- a panic, a usage error or a failed probe: fails;
- a variant whose result differs from its group's reference: fails;
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


def failed_probe(row):
    """yardstick's own rule (output/verdict.rs, `failed_probes`): a process
    probe fails on a failing child, which its `.process` row stands for; any
    other probe when it has errors and no sample."""
    if row.get("kind") == "process":
        return row.get("errors", 0) > 0 and row["key"].endswith(".process")
    return row.get("errors", 0) > 0 and row.get("n", 0) == 0


def disagreeing(run):
    """yardstick's own rule (output/verdict.rs, `disagreeing`): the variants
    whose probe passed but whose group's ranking failed them, in a group
    whose reference did not fail."""
    failed = {r["key"] for r in run["rows"] if failed_probe(r)}
    out = []
    for group in (run.get("ranking") or {}).get("groups", []):
        variants = group.get("variants", [])
        if any(v["role"] == "reference" and v["key"] in failed for v in variants):
            continue
        out += [f"{v['variant']} of {group['name']}: {v['failed']}"
                for v in variants if "failed" in v and v["key"] not in failed]
    return out


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
    failed = [r["key"] for r in run["rows"] if failed_probe(r)]
    if failed:
        return f"{bench}: failed probes: {', '.join(failed)}"
    wrong = disagreeing(run)
    if wrong:
        return f"{bench}: variants that disagree with their reference: {'; '.join(wrong)}"
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
