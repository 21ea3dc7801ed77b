#!/usr/bin/env python3
"""Where the built-in client's CPU goes, per protocol: the release build
under callgrind making --requests against one nginx serving 1 KB (one
worker), then the instructions per request, in all and by the crate whose
code ran them (the function's own instructions, not those of what it
called; code inlined from the standard library is its own line).
Instructions are counted, not timed, so the figures hold on a loaded
machine; system calls are not among them.

    scripts/client-profile.py [--requests=4000] [--concurrency=4]
                              [--protocols=h1,h2c] [--keep=FOLDER]

--keep saves callgrind's output files there, for callgrind_annotate.
"""
import argparse
import collections
import importlib.util
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The nginx and the build of scripts/client-cpu.py.
_spec = importlib.util.spec_from_file_location("client_cpu", ROOT / "scripts" / "client-cpu.py")
cpu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cpu)

OPTIONS = {"h1": ["--http=1.1"], "h1s": ["--http=1.1", "--insecure"], "h2c": ["--http=2"],
           "h2": ["--http=2", "--insecure"]}
LINE = re.compile(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S.*)")
CRATE = re.compile(r"registry/src/[^/]+/([A-Za-z0-9_\-]+?)-\d[\d.]*[^/]*/")


def owner(location):
    """Who ran a function's instructions, from callgrind's file:function."""
    found = CRATE.search(location)
    if found:
        return found.group(1)
    if "libc.so" in location or "/malloc/" in location or "sysdeps" in location:
        return "libc (memcpy, malloc)"
    if "/crates/" in location or "/src/" in location and "/rustc/" not in location:
        return "yardstick"
    if "/rustc/" in location:
        return "std and core, inlined"
    return "other"


def by_owner(profile):
    """(total instructions, {owner: instructions}) of a callgrind file."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", "--auto=no",
                          str(profile)], capture_output=True, text=True, check=True).stdout
    total, owners = 0, collections.Counter()
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in m.group(2):
            total = n
        else:
            owners[owner(m.group(2))] += n
    return total, owners


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--protocols", default="h1,h2c")
    parser.add_argument("--keep", type=pathlib.Path)
    args = parser.parse_args()
    binary = cpu.builds_of([])["yardstick"]
    with tempfile.TemporaryDirectory(prefix="client-profile") as scratch, \
            cpu.serving() as (_, urls):
        folder = args.keep or pathlib.Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        for protocol in args.protocols.split(","):
            profile = folder / f"callgrind.{protocol}.out"
            ran = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", str(binary),
                 "http", "-q", f"--url={urls[protocol]}", f"--requests={args.requests}",
                 f"--concurrency={args.concurrency}", "--rounds=1", "--warmup=0",
                 *OPTIONS[protocol]], capture_output=True, text=True)
            if ran.returncode != 0:
                sys.exit(f"{protocol}: yardstick under callgrind failed: {ran.stderr[-400:]}")
            total, owners = by_owner(profile)
            print(f"{protocol}, concurrency {args.concurrency}: "
                  f"{total / args.requests:,.0f} instructions per request")
            for name, n in owners.most_common(10):
                print(f"  {name:24s} {n / args.requests:8,.0f}  ({n / total:.0%})")


if __name__ == "__main__":
    main()
