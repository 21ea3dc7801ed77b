#!/usr/bin/env python3
"""Prints how far each probe's count moves between conditions one machine
can produce, with the counted child's library pin and without it
(docs/evaluation.md, "What moves a count").

    python3 scripts/count-portability.py [--jobs=2] [--keep]

Conditions: this checkout; a second checkout of HEAD at a path 60
characters longer (built in a target folder of its own, about 6 minutes);
an environment 20 KB larger; another hostname (`unshare -u`, as root). Each
is counted by estimated cycles (which carry instructions too) once with the
pin and once with YARDSTICK_COUNT_PIN=off. Counts do not move with load, so
two run at a time. valgrind shows one CPU profile per host feature level;
a second profile cannot be reached on one machine, so it is not a condition
here: the run records the profile (settings.count_platform.cpu), and a
baseline of another gives information.

Target (issue "Counts that hold on every machine"): with the pin, every
probe within 0.05 % across the conditions.
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import shutil
import subprocess
import tempfile

from artifacts import built

ROOT = pathlib.Path(__file__).resolve().parent.parent
LONGER = "a-checkout-path-sixty-characters-longer-than-the-first-one-xx"
FIELDS = ("instructions", "estimated_cycles")


def second_checkout(tmp, target):
    """HEAD checked out at a longer path, its bench built in `target` (a
    folder of its own: sharing this checkout's, the two builds would write
    one file); (dir, binary)."""
    where = pathlib.Path(tmp) / LONGER / "yardstick"
    subprocess.run(["git", "worktree", "add", "--detach", str(where), "HEAD"],
                   cwd=ROOT, check=True, capture_output=True)
    env = dict(os.environ, CARGO_TARGET_DIR=str(target or pathlib.Path(tmp) / "target"))
    out = subprocess.run(
        ["cargo", "bench", "--no-run", "--locked", "--bench", "micro",
         "--message-format=json"],
        cwd=where, env=env, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "micro" \
                and msg.get("executable"):
            return where, msg["executable"]
    raise SystemExit("count-portability: the second checkout built no micro bench")


def count(name, binary, cwd, env_extra, pinned, tmp, hostname=None):
    env = dict(os.environ)
    env.pop("GLIBC_TUNABLES", None)
    env.update(env_extra)
    if not pinned:
        env["YARDSTICK_COUNT_PIN"] = "off"
    out = pathlib.Path(tmp) / f"{name}-{'pin' if pinned else 'nopin'}.json"
    cmd = [binary, "--bench", "-q", "--metric=estimated-cycles", "--no-baseline",
           f"--save={out}"]
    if hostname:
        cmd = ["unshare", "-u", "sh", "-c",
               f'hostname {hostname} && exec "$@"', "sh", *cmd]
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"count-portability: {name}: {done.stderr.strip()[-400:]}")
    doc = json.loads(out.read_text())
    return {r["key"]: tuple(r[f] for f in FIELDS) for r in doc["rows"]}


def spread(values):
    return (max(values) / min(values) - 1.0) * 100.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the second checkout")
    parser.add_argument("--second-target", help="the second checkout's target folder "
                        "(kept between runs; default: a temporary one)")
    args = parser.parse_args()
    here = built(["bench", "--no-run", "--bench", "micro"], "micro", "bench")
    tmp = tempfile.mkdtemp(prefix="count-portability-")
    try:
        there, far = second_checkout(tmp, args.second_target)
        conditions = [("this checkout", here, ROOT, {}, None),
                      ("path +60 chars", far, there, {}, None),
                      ("environment +20 KB", here, ROOT, {"PADDING": "x" * 20000}, None)]
        if os.geteuid() == 0 and shutil.which("unshare"):
            conditions.append(("another hostname", here, ROOT, {}, "a-much-longer-hostname"))
        jobs = [(c, pinned) for pinned in (True, False) for c in conditions]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(
                lambda j: count(j[0][0].replace(" ", "-"), j[0][1], j[0][2], j[0][3],
                                j[1], tmp, j[0][4]), jobs))
        report(conditions, jobs, results)
    finally:
        if not args.keep:
            subprocess.run(["git", "worktree", "remove", "--force",
                            str(pathlib.Path(tmp) / LONGER / "yardstick")],
                           cwd=ROOT, capture_output=True)
            shutil.rmtree(tmp, ignore_errors=True)


def report(conditions, jobs, results):
    names = [c[0] for c in conditions]
    print("conditions: " + "; ".join(names))
    for pinned in (True, False):
        rows = [r for (c, p), r in zip(jobs, results) if p == pinned]
        print(f"\n{'with the pin' if pinned else 'without it (YARDSTICK_COUNT_PIN=off)'}: "
              "per probe, instructions and estimated cycles in the first condition, "
              "and the largest spread across all")
        print(f"  {'probe':<18} {'instructions':>14} {'spread':>9} "
              f"{'est. cycles':>14} {'spread':>9}")
        worst = [0.0, 0.0]
        for probe in rows[0]:
            figures = [[r[probe][i] for r in rows] for i in range(2)]
            s = [spread(f) for f in figures]
            worst = [max(w, x) for w, x in zip(worst, s)]
            print(f"  {probe:<18} {figures[0][0]:>14,.0f} {s[0]:>8.4f}% "
                  f"{figures[1][0]:>14,.0f} {s[1]:>8.4f}%")
        print(f"  largest: instructions {worst[0]:.4f} %, estimated cycles {worst[1]:.4f} %")


if __name__ == "__main__":
    main()
