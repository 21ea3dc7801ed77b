#!/usr/bin/env python3
"""The harness's own cost, two builds side by side: the default micro suite's
wall time and peak memory, and examples/harness_cost's overhead per
iteration and per sample. The two builds run alternately, ROUNDS times each,
so both meet the same spells of the machine's load; medians are printed.

    scripts/harness-cost-ab.py BEFORE_TARGET_DIR AFTER_TARGET_DIR [ROUNDS]

Each TARGET_DIR is a cargo target folder holding a release build of the
bench (`cargo bench --bench micro --no-run`) and of the example
(`cargo build --release --example harness_cost`), e.g. one made from an
older commit in a worktree with CARGO_TARGET_DIR set.
"""
import glob
import os
import re
import statistics
import subprocess
import sys
import time


def bench_binary(target):
    found = [
        p for p in glob.glob(os.path.join(target, "release", "deps", "micro-*"))
        if os.access(p, os.X_OK) and not p.endswith(".d")
    ]
    if not found:
        sys.exit(f"harness-cost-ab: {target}: no release bench binary micro-*")
    return max(found, key=os.path.getmtime)


def suite(binary):
    """Wall seconds and peak resident MB of one default suite run."""
    start = time.monotonic()
    child = subprocess.Popen(
        [binary, "--bench", "--no-baseline", "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"harness-cost-ab: {binary}: exit {status}")
    return wall, usage.ru_maxrss / 1024


FIGURES = {
    "per iteration (ns)": r"per measured iteration.*?:\s*([\d.]+) ns",
    "per sample (ns)": r"per sample.*?:\s*([\d.]+) ns",
    "example peak (MB)": r"VmHWM\):\s*([\d.]+) MB",
}


def overhead(target):
    example = os.path.join(target, "release", "examples", "harness_cost")
    text = subprocess.run([example], capture_output=True, text=True, check=True).stdout
    out = {}
    for name, pattern in FIGURES.items():
        m = re.search(pattern, text)
        if m:
            out[name] = float(m.group(1))
    return out


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[-9])
    targets = {"before": sys.argv[1], "after": sys.argv[2]}
    rounds = int(sys.argv[3]) if len(sys.argv) == 4 else 3
    figures = {side: {} for side in targets}
    for r in range(rounds):
        order = list(targets) if r % 2 == 0 else list(reversed(targets))
        for side in order:
            wall, peak = suite(bench_binary(targets[side]))
            found = overhead(targets[side])
            found["suite wall (s)"] = wall
            found["suite peak (MB)"] = peak
            for name, value in found.items():
                figures[side].setdefault(name, []).append(value)
            print(f"round {r + 1} {side}: suite {wall:.1f} s, {peak:.1f} MB", flush=True)
    print(f"\nmedians of {rounds} alternating runs each")
    print(f"{'figure':22} {'before':>10} {'after':>10} {'after/before':>13}")
    for name in ["suite wall (s)", "suite peak (MB)", *FIGURES]:
        b = statistics.median(figures["before"].get(name, [float("nan")]))
        a = statistics.median(figures["after"].get(name, [float("nan")]))
        print(f"{name:22} {b:10.2f} {a:10.2f} {a / b:13.3f}")


if __name__ == "__main__":
    main()
