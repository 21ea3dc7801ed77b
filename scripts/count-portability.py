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

    python3 scripts/count-portability.py --routines

prints instead, per probe, the instructions callgrind attributes to the C
library's copy, fill and compare routines in five iterations, with the pin
and without it: where the pin's difference lies.
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

from artifacts import built, committed_counts

ROOT = pathlib.Path(__file__).resolve().parent.parent
LONGER = "a-checkout-path-sixty-characters-longer-than-the-first-one-xx"

FIELDS = ("instructions", "estimated_cycles")
# A function's line of callgrind_annotate: "887,271 ( 3.95%)  file:function [object]".
ANNOTATED = re.compile(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S+)")


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


def routines(binary, pinned):
    """Per probe, {libc routine: instructions} of five counted iterations,
    counted as yardstick's counting child is (measure/callgrind/mod.rs)."""
    out = {}
    tmp = tempfile.mkdtemp(prefix="routines-")
    listed = subprocess.run([binary, "--bench", "--list"], cwd=ROOT, capture_output=True,
                            text=True).stdout
    probes = [line.split(":")[0] for line in listed.splitlines() if line.endswith(": bench")]
    env = dict(os.environ)
    env.pop("GLIBC_TUNABLES", None)
    if pinned:
        # The pin as the committed count baseline recorded it.
        env["GLIBC_TUNABLES"] = committed_counts()["settings"]["count_platform"]["tunables"]
    for probe in probes:
        cg = pathlib.Path(tmp) / f"{probe}.cg"
        subprocess.run(["valgrind", "-q", "--tool=callgrind", f"--callgrind-out-file={cg}",
                        "--toggle-collect=yardstick_measured_section", "--collect-atstart=no",
                        binary, "--bench", f"--probe={probe}", "--repeat=1", "--warmup=0",
                        "--no-calibration", "--no-baseline", "-q", "--format=json",
                        "--min-batch=5"], cwd=ROOT, env=env, capture_output=True, check=True)
        text = subprocess.run(["callgrind_annotate", "--threshold=100", str(cg)],
                              capture_output=True, text=True).stdout
        found = {}
        for line in text.splitlines():
            m = ANNOTATED.match(line)
            if not m or "libc.so" not in line:
                continue
            name = m.group(2).rsplit(":", 1)[-1]
            if name.startswith(("__mem", "__str", "__wmem")):
                found[name] = int(m.group(1).replace(",", ""))
        out[probe] = found
    shutil.rmtree(tmp, ignore_errors=True)
    return out


def print_routines(binary):
    pinned, plain = routines(binary, True), routines(binary, False)
    print("instructions in the C library's copy, fill and compare routines, "
          "five iterations per probe (callgrind_annotate)")
    for probe in plain:
        print(f"  {probe}")
        for label, found in (("without the pin", plain[probe]), ("with the pin", pinned[probe])):
            listed = ", ".join(f"{n} {v:,}" for n, v in sorted(found.items())) or "none"
            print(f"    {label:<16} {listed}")


def spread(values):
    return (max(values) / min(values) - 1.0) * 100.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the second checkout")
    parser.add_argument("--second-target", help="the second checkout's target folder "
                        "(kept between runs; default: a temporary one)")
    parser.add_argument("--routines", action="store_true",
                        help="print the C library routines' counts per probe instead")
    args = parser.parse_args()
    here = built(["bench", "--no-run", "--bench", "micro"], "micro", "bench")
    if args.routines:
        print_routines(here)
        return
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
    print("conditions: " + "; ".join(f"{i + 1} {n}" for i, n in enumerate(names)))
    for pinned in (True, False):
        rows = [r for (c, p), r in zip(jobs, results) if p == pinned]
        print(f"\n{'with the pin' if pinned else 'without it (YARDSTICK_COUNT_PIN=off)'}")
        for i, figure in enumerate(("instructions", "estimated cycles")):
            print(f"  {figure} per iteration, by condition, and the largest spread")
            head = "".join(f"{k + 1:>14}" for k in range(len(rows)))
            print(f"    {'probe':<18}{head}    spread")
            worst = 0.0
            for probe in rows[0]:
                values = [r[probe][i] for r in rows]
                worst = max(worst, spread(values))
                cells = "".join(f"{v:>14,.0f}" for v in values)
                print(f"    {probe:<18}{cells}  {spread(values):>7.4f} %")
            print(f"    largest spread: {worst:.4f} %")


if __name__ == "__main__":
    main()
