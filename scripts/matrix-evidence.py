#!/usr/bin/env python3
"""Prints the figures behind `yardstick matrix`'s defaults
(docs/evaluation.md, "Configuration matrices").

    python3 scripts/matrix-evidence.py [--repeats=20] [--skips=10] [--only=time,aa,skip]

time: three configurations (the base, the counting allocator off, every
      probe 10 % slower by the knob) x the whole micro suite on 10 worker
      sets, timed end to end; the target is under 3 minutes on 2 cores.
aa:   two identical configurations, --repeats matrices of 7 probes: how
      many of the multipliers' 95 % intervals cover 1.00 (the target is at
      least 90 %), and how wide they are.
skip: a test-only build whose ini_parse skips its last file
      (`--features probes/skip-work`) against the release bench, --skips
      matrices with different seeds: flagged failed every time.

Wall time: run it on a quiet machine; it takes about 15 minutes.
"""

import argparse
import json
import pathlib
import statistics
import subprocess
import tempfile
import time

from artifacts import built

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEVEN = ["ini_parse", "template_compile", "template_render", "i18n_lookup",
         "uri_parse", "datatype_validate", "autoload_map"]


def matrix(yardstick, args, out):
    """One matrix saved to `out`; its document, or None."""
    done = subprocess.run([yardstick, "matrix", "-q", f"--save={out}", *args],
                          cwd=ROOT, capture_output=True, text=True)
    if not out.exists():
        print(f"  no matrix: {done.stderr.strip()}")
        return None
    return json.loads(out.read_text())


def cells(doc, column):
    """(probe, cell) of one configuration's column."""
    return [(line["probe"], line["cells"][column]) for line in doc["matrix"]["lines"]]


def timed(yardstick, bench, tmp):
    start = time.monotonic()
    doc = matrix(yardstick, [f"--bench={bench}", "--config=base:",
                             "--config=uncounted:YARDSTICK_ALLOC=off",
                             "--config=slower:YARDSTICK_INJECT=*:10"], tmp / "time.json")
    seconds = time.monotonic() - start
    if doc is None:
        return
    print(f"time: 3 configurations x {len(doc['matrix']['lines'])} probes on "
          f"{doc['settings']['sets']} worker sets: {seconds:.0f} s (target < 180 s)")
    for column, name in enumerate(doc["matrix"]["configurations"][1:], start=1):
        shown = "  ".join(f"{p} {c['multiplier']['estimate']:.3f}" if c.get("multiplier")
                          else f"{p} {c.get('failed', '-')}" for p, c in cells(doc, column))
        g = doc["matrix"]["geomean"][column].get("multiplier")
        print(f"  {name}: geometric mean {g['estimate']:.3f} [{g['low']:.3f}, {g['high']:.3f}]"
              if g else f"  {name}: no geometric mean")
        print(f"    {shown}")


def aa(yardstick, bench, repeats, tmp):
    covered, total, widths = 0, 0, []
    for k in range(repeats):
        doc = matrix(yardstick, [f"--bench={bench}", "--config=a:", "--config=b:",
                                 f"--seed={k + 1}", *[f"--probe={p}" for p in SEVEN]],
                     tmp / f"aa-{k}.json")
        if doc is None:
            continue
        for probe, cell in cells(doc, 1):
            x = cell.get("multiplier")
            total += 1
            if x and x["low"] <= 1.0 <= x["high"]:
                covered += 1
            elif x:
                print(f"  repeat {k + 1}: {probe} {x['estimate']:.4f} "
                      f"[{x['low']:.4f}, {x['high']:.4f}] misses 1.00")
            if x:
                widths.append((x["high"] - x["low"], probe))
        print(f"  repeat {k + 1}: {covered} of {total} intervals cover 1.00 so far", flush=True)
    if total:
        print(f"aa: {covered} of {total} intervals cover 1.00 ({100 * covered / total:.1f} %, "
              f"target >= 90 %); median width {statistics.median(w for w, _ in widths):.4f}, "
              "widest {:.4f} ({})".format(*max(widths)))


def skip(yardstick, bench, skips, tmp):
    broken = built(["bench", "--bench", "micro", "--no-run", "--features", "probes/skip-work",
                    "--target-dir", str(ROOT / "target/skip-work")], "micro", "bench")
    flagged = 0
    for k in range(skips):
        doc = matrix(yardstick, [f"--config=base:{bench}", f"--config=skips:{broken}",
                                 f"--seed={k + 1}", "--probe=ini_parse", "--probe=uri_parse"],
                     tmp / f"skip-{k}.json")
        if doc is None:
            continue
        got = dict(cells(doc, 1))
        why = got["ini_parse"].get("failed")
        flagged += why is not None and "multiplier" not in got["ini_parse"]
        print(f"  seed {k + 1}: ini_parse {why or 'NOT FLAGGED'}; uri_parse "
              f"{got['uri_parse'].get('multiplier', {}).get('estimate', '-')}", flush=True)
    print(f"skip: flagged {flagged} of {skips} times (target: every time)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--skips", type=int, default=10)
    parser.add_argument("--only", default="time,aa,skip")
    args = parser.parse_args()
    only = set(args.only.split(","))
    bench = built(["bench", "--bench", "micro", "--no-run"], "micro", "bench")
    yardstick = built(["build", "--release", "--bin", "yardstick"],
                      "yardstick", "bin")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        if "time" in only:
            timed(yardstick, bench, tmp)
        if "aa" in only:
            aa(yardstick, bench, args.repeats, tmp)
        if "skip" in only:
            skip(yardstick, bench, args.skips, tmp)


if __name__ == "__main__":
    main()
