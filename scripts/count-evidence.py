#!/usr/bin/env python3
"""Prints the evidence behind counted checks (docs/evaluation.md, "Counts").

    python3 scripts/count-evidence.py [--processes=20] [--power-runs=3] [--jobs=2]

Counts do not move with the machine's load, so this runs two processes at a
time (`--jobs`) on a busy machine and its figures are still exact. With the
reference suite's release bench it prints:

1. Stability: the suite counted in N fresh processes per metric (instructions,
   estimated cycles) at the default batch; each probe's largest change
   against the first process, and against the committed count baseline of
   this set-up (the file of baselines/micro/counts/ of this valgrind).
2. Power: an injected 2 % (YARDSTICK_INJECT='*:2', batch 50) judged by
   `yardstick compare` against a run of the same batch: probe runs caught.
3. The knob read back by counts: 5, 10 and 40 % at batches 1, 2 and 20.
4. The cache-locality walk of tests/counts_cli.rs, in order and shuffled:
   instructions, last-level misses and estimated cycles, and the verdicts of
   both metrics.
5. Cost: the suite's wall time timed, counted and counted with the cache.
6. What the harness's own allocations move: template_compile counted as a
   counting child is, with and without one more option on its command line.

Every verdict is yardstick's own (`yardstick compare`); the script only
counts them.
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import subprocess
import tempfile
import time

from artifacts import built, committed_counts

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIELDS = {"instructions": "instructions", "estimated-cycles": "estimated_cycles"}


def count(bench, metric, batch, out, inject=None, extra=()):
    env = dict(os.environ)
    env.pop("YARDSTICK_INJECT", None)
    if inject:
        env["YARDSTICK_INJECT"] = inject
    started = time.monotonic()
    done = subprocess.run(
        [bench, "--bench", "-q", "--no-baseline", f"--metric={metric}",
         f"--min-batch={batch}", f"--save={out}", *extra],
        cwd=ROOT, env=env, capture_output=True, text=True)
    took = time.monotonic() - started
    if done.returncode != 0:
        return None, took, done.stderr.strip().splitlines()[-1:]
    return json.loads(pathlib.Path(out).read_text()), took, []


def figures(doc, metric):
    return {r["key"]: r.get(FIELDS[metric]) for r in doc["rows"]}


def change(a, b):
    return (b / a - 1.0) * 100.0


def compare(yardstick, base, now):
    done = subprocess.run([yardstick, "compare", "--json", base, now],
                          cwd=ROOT, capture_output=True, text=True)
    doc = json.loads(done.stdout)
    return done.returncode, doc


def stability(bench, tmp, processes, jobs):
    print(f"1. Stability: the suite counted in {processes} fresh processes per metric "
          "(batch 5, the default)")
    committed = committed_counts()
    for metric in FIELDS:
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            runs = list(pool.map(
                lambda i: count(bench, metric, 5, tmp / f"{metric}-{i}.json"),
                range(processes)))
        docs = [d for d, _, _ in runs if d]
        first = figures(docs[0], metric)
        base = figures(committed, metric)
        print(f"   {metric}: {len(docs)} of {processes} processes counted; "
              f"suite {sum(t for _, t, _ in runs) / len(runs):.1f} s a process")
        print("     probe               largest change between processes   against the committed baseline")
        for key in first:
            spread = max(abs(change(first[key], figures(d, metric)[key])) for d in docs)
            against = max(abs(change(base[key], figures(d, metric)[key]))
                          for d in docs) if base.get(key) else float("nan")
            print(f"     {key:<20}{spread:>10.4f} %{against:>36.4f} %")


def power(bench, yardstick, tmp, runs, jobs):
    print(f"2. Power: an injected 2 % at batch 50, {runs} runs per metric, judged by "
          "yardstick compare at the default 1 %")
    for metric in FIELDS:
        base = tmp / f"power-{metric}-base.json"
        jobs_list = [(None, base)] + [("*:2", tmp / f"power-{metric}-{i}.json")
                                      for i in range(runs)]
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            done = list(pool.map(lambda j: count(bench, metric, 50, j[1], j[0]), jobs_list))
        for (_, path), (doc, _, why) in zip(jobs_list, done):
            failed = [r["key"] for r in doc["rows"] if r.get("errors")] if doc else ["the run"]
            if failed:
                print(f"   {path.name}: not counted: {', '.join(failed)} {' '.join(why)}")
        caught = total = 0
        for _, path in jobs_list[1:]:
            code, comparison = compare(yardstick, base, path)
            for check in comparison["checks"]:
                if check["metric"] == metric:
                    total += 1
                    caught += check["regressed"]
        print(f"   {metric}: caught {caught} of {total} probe runs")


def knob(bench, tmp):
    print("3. The knob read back by counts (instructions), per probe: min..max of the "
          "change read, or the refusal")
    for batch in (1, 2, 20):
        base, _, _ = count(bench, "instructions", batch, tmp / f"knob-{batch}.json")
        for pct in (5, 10, 40):
            doc, _, why = count(bench, "instructions", batch,
                                tmp / f"knob-{batch}-{pct}.json", inject=f"*:{pct}")
            if doc is None:
                print(f"   batch {batch:>2}, {pct:>2} %: refused: {why[0] if why else '?'}")
                continue
            a, b = figures(base, "instructions"), figures(doc, "instructions")
            read = [change(a[k], b[k]) for k in a]
            print(f"   batch {batch:>2}, {pct:>2} %: read {min(read):+.2f} .. {max(read):+.2f} %")


def walk(tests_binary, yardstick, tmp):
    print("4. The cache-locality walk (tests/counts_cli.rs, an unoptimised build), batch 1")
    docs = {}
    for order in ("ordered", "shuffled"):
        env = dict(os.environ, YARDSTICK_E2E_CHILD="main")
        env.pop("WALK_SHUFFLED", None)
        if order == "shuffled":
            env["WALK_SHUFFLED"] = "1"
        out = tmp / f"walk-{order}.json"
        subprocess.run([tests_binary, "micro", "-q", "--metric=estimated-cycles",
                        "--probe=walk", "--min-batch=1", f"--save={out}"],
                       env=env, check=True, capture_output=True)
        docs[order] = out
        row = json.loads(out.read_text())["rows"][0]
        print(f"   {order:<9} instructions {row['instructions']:>14,.0f}  LL misses "
              f"{row['ll_misses']:>10,.0f}  estimated cycles {row['estimated_cycles']:>14,.0f}")
    code, comparison = compare(yardstick, docs["ordered"], docs["shuffled"])
    check = comparison["checks"][0]
    print(f"   estimated cycles: {check['change_pct']:+.2f} %, "
          f"{'REGRESSED' if check['regressed'] else 'ok'} (exit {code})")
    # The same shuffled walk judged by instructions against the ordered run.
    shuffled = json.loads(docs["shuffled"].read_text())
    shuffled["metric"] = "instructions"
    as_instructions = tmp / "walk-shuffled-instructions.json"
    as_instructions.write_text(json.dumps(shuffled))
    code, comparison = compare(yardstick, docs["ordered"], as_instructions)
    check = comparison["checks"][0]
    print(f"   instructions:     {check['change_pct']:+.2f} %, "
          f"{'REGRESSED' if check['regressed'] else 'ok'} (exit {code})")


def cost(bench):
    print("5. Cost of one suite run (wall time, this machine)")
    for label, extra in (("timed (cargo bench's defaults)", []),
                         ("instructions", ["--metric=instructions"]),
                         ("estimated cycles", ["--metric=estimated-cycles"])):
        started = time.monotonic()
        subprocess.run([bench, "--bench", "-q", "--no-baseline", *extra],
                       cwd=ROOT, check=True, capture_output=True)
        print(f"   {label:<32}{time.monotonic() - started:>7.1f} s")


def harness_allocations(bench, tmp):
    print("6. template_compile's instructions, counted as a child is, with one more "
          "option (more harness allocations before the probe) and without")
    totals = []
    for extra in ([], ["--threshold=31"]):
        out = tmp / f"harness-{len(extra)}.callgrind"
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             "--toggle-collect=yardstick_measured_section", "--collect-atstart=no",
             bench, "--bench", "--probe=template_compile", "--repeat=1", "--warmup=0",
             "--no-calibration", "--no-baseline", "-q", "--format=json",
             "--min-batch=5", *extra],
            cwd=ROOT, check=True, capture_output=True)
        line = next(l for l in out.read_text().splitlines() if l.startswith("totals:"))
        totals.append(int(line.split()[1]))
    print(f"   without {totals[0]:,}, with {totals[1]:,}: {change(*totals):+.4f} %")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=20)
    parser.add_argument("--power-runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="1,2,3,4,5,6",
                        help="which parts to run, comma-separated")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    bench = built(["bench", "--bench", "micro", "--no-run"], "micro", "bench")
    yardstick = built(["build", "--release", "--bin", "yardstick"], "yardstick", "bin")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        if "1" in parts:
            stability(bench, tmp, args.processes, args.jobs)
        if "2" in parts:
            power(bench, yardstick, tmp, args.power_runs, args.jobs)
        if "3" in parts:
            knob(bench, tmp)
        if "4" in parts:
            tests_binary = built(["test", "--test", "counts_cli", "--no-run"],
                                 "counts_cli", "test")
            walk(tests_binary, yardstick, tmp)
        if "5" in parts:
            cost(bench)
        if "6" in parts:
            harness_allocations(bench, tmp)


if __name__ == "__main__":
    main()
