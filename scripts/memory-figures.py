#!/usr/bin/env python3
"""The figures of memory per probe, printed from the release micro bench:

1. the counting allocator's cost: the same bench binary with counting on
   against off (YARDSTICK_ALLOC=off), interleaved sample by sample by
   `yardstick compare-builds`, per probe and as the median over the suite;
2. that allocation counts repeat exactly: RUNS runs of the whole suite,
   every probe's allocs, reallocs, bytes and peak compared.

    scripts/memory-figures.py [RUNS] [ROUNDS]

Builds what it needs (`cargo bench --bench micro --no-run`, `cargo build
--release --bin yardstick`) in the default target folder. RUNS defaults to
10, ROUNDS (of compare-builds) to 30.
"""
import json
import os
import statistics
import subprocess
import sys


def build():
    out = subprocess.run(
        ["cargo", "bench", "--bench", "micro", "--no-run", "--message-format=json"],
        check=True, capture_output=True, text=True,
    ).stdout
    bench = None
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "micro":
            bench = msg.get("executable") or bench
    subprocess.run(["cargo", "build", "--release", "--bin", "yardstick", "-q"], check=True)
    if not bench:
        sys.exit("memory-figures: no micro bench binary was built")
    return bench


def overhead(bench, rounds):
    ran = subprocess.run(
        ["target/release/yardstick", "compare-builds", bench, bench,
         f"--rounds={rounds}", "--env-old=YARDSTICK_ALLOC=off", "--json", "-q"],
        capture_output=True, text=True,
    )
    if ran.returncode not in (0, 1):
        sys.exit(f"memory-figures: compare-builds failed: {ran.stderr.strip()}")
    doc = json.loads(ran.stdout)
    changes = {c["key"]: c["change_pct"] for c in doc["comparison"]["checks"]
               if c["metric"] == "paired median ratio"}
    print(f"counting on against off, {rounds} paired rounds (compare-builds):")
    for key, pct in sorted(changes.items()):
        print(f"  {key:<20} {pct:+6.1f} %")
    print(f"  {'median of probes':<20} {statistics.median(changes.values()):+6.1f} %")
    print(f"  {'largest':<20} {max(changes.values()):+6.1f} %")


def repeats(bench, runs):
    seen = []
    for _ in range(runs):
        out = subprocess.run(
            [bench, "--bench", "--no-baseline", "--repeat=3", "--warmup=1",
             "--format=json", "-q"],
            check=True, capture_output=True, text=True,
        ).stdout
        doc = json.loads(out)
        seen.append({r["key"]: r.get("memory") for r in doc["rows"]})
    same = all(s == seen[0] for s in seen)
    print(f"allocation counts in {runs} runs of every probe: "
          + ("identical" if same else "DIFFERENT"))
    for key, m in sorted(seen[0].items()):
        if m is None:
            print(f"  {key:<20} no counts (no counting allocator)")
            continue
        differ = sorted({json.dumps(s[key]) for s in seen})
        flag = "" if len(differ) == 1 else f"  varies: {differ}"
        print(f"  {key:<20} allocs {m['allocs']:>6}  reallocs {m['reallocs']:>5}  "
              f"bytes {m['bytes']:>9}  peak {m['peak']:>9}{flag}")


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    bench = build()
    repeats(bench, runs)
    overhead(bench, rounds)


if __name__ == "__main__":
    main()
