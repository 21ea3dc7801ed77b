#!/usr/bin/env python3
"""What a counted run costs in one checkout against another: the whole
reference suite counted by instructions, each checkout's bench binary in
turn, ROUNDS times, and the median seconds of each, their ratio, and the
size of a saved run.

    python3 scripts/count-cost.py OLD_CHECKOUT [ROUNDS]

OLD_CHECKOUT is a worktree of the commit to compare with (`git worktree add
/tmp/old COMMIT`); this checkout is the new side. Each side is built in its
own target folder first (a release build: minutes), and each side runs in
its own checkout, where its fixtures are. The two alternate, so a load that
comes and goes falls on both. Counts do not move with load, but the time
valgrind takes does: quote the ratio of medians.
"""
import json
import os
import statistics
import subprocess
import sys
import time


def binary(checkout):
    out = subprocess.run(
        ["cargo", "bench", "--locked", "--bench", "micro", "--no-run", "--message-format=json"],
        cwd=checkout, capture_output=True, text=True, check=True,
    ).stdout
    for line in out.splitlines():
        if '"executable"' in line and '"micro"' in line:
            exe = json.loads(line).get("executable")
            if exe:
                return exe
    sys.exit(f"count-cost: no micro bench binary built in {checkout}")


def timed(checkout, exe, save):
    start = time.monotonic()
    subprocess.run([exe, "--bench", "--metric=instructions", "--no-baseline", "-q", f"--save={save}"],
                   cwd=checkout, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.monotonic() - start


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    old = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    new = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    sides = {"old": (old, binary(old)), "new": (new, binary(new))}
    seconds = {"old": [], "new": []}
    for i in range(rounds):
        for side, (checkout, exe) in sides.items():
            seconds[side].append(timed(checkout, exe, f"/tmp/count-cost-{side}.json"))
            print(f"round {i + 1} {side}: {seconds[side][-1]:.2f} s", flush=True)
    medians = {side: statistics.median(s) for side, s in seconds.items()}
    for side in sides:
        size = os.path.getsize(f"/tmp/count-cost-{side}.json")
        print(f"{side}: median {medians[side]:.2f} s over {rounds}, saved run {size / 1024:.0f} KiB")
    print(f"new / old: {medians['new'] / medians['old']:.3f}")


if __name__ == "__main__":
    main()
