#!/usr/bin/env python3
"""Prints what large saved runs cost yardstick: time to compare and to pool
runs of many rows, and the peak memory of reading a large run against its
size on disk.

    python3 scripts/big-runs.py [ROWS] [SAMPLES]

Builds the release `yardstick` binary, saves one real run of the reference
suite, then writes from it (one real row copied under new keys):
- two runs of ROWS rows (default 50,000) and times `yardstick compare` and
  `yardstick baseline` over them;
- one run of 8 rows of SAMPLES samples each (default 1,000,000, about 190 MB)
  and measures `yardstick show`'s peak resident memory against the file's
  size.
"""

import json
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def build():
    subprocess.run(["cargo", "build", "--release", "--locked", "-q", "--bin", "yardstick"],
                   cwd=ROOT, check=True)
    subprocess.run(["cargo", "bench", "--bench", "micro", "--no-run", "--locked", "-q"],
                   cwd=ROOT, check=True, capture_output=True)
    return ROOT / "target" / "release" / "yardstick"


def timed(cmd):
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    return time.monotonic() - start, done.returncode, done.stderr.strip()


def peak_rss_kb(cmd):
    """Runs `cmd` as the only child of a fresh Python and returns its peak
    RSS in KiB (this process's own children would count too)."""
    probe = ("import resource, subprocess, sys\n"
             "done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)")
    out = subprocess.run([sys.executable, "-c", probe, *map(str, cmd)],
                         capture_output=True, text=True)
    rss, code = out.stdout.split()
    return int(rss), int(code), out.stderr.strip()


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    yardstick = build()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        real = tmp / "real.json"
        subprocess.run(["cargo", "bench", "--bench", "micro", "-q", "--",
                        "--no-baseline", "-q", "--repeat=5", "--warmup=1",
                        f"--save={real}"], cwd=ROOT, check=True, capture_output=True)
        doc = json.loads(real.read_text())
        template = doc["rows"][0]
        many = dict(doc)
        many["rows"] = [dict(template, key=f"probe_{k:06}", name=f"probe_{k:06}")
                        for k in range(rows)]
        paths = []
        for name in ("a", "b"):
            path = tmp / f"{name}.json"
            path.write_text(json.dumps(many))
            paths.append(str(path))
        size = pathlib.Path(paths[0]).stat().st_size
        print(f"{rows:,} rows, {size / 1e6:.1f} MB a run")
        seconds, code, err = timed([yardstick, "compare", paths[0], paths[1], "--format=json"])
        print(f"compare: {seconds:.2f} s (exit {code}) {err[:120]}")
        seconds, code, err = timed([yardstick, "baseline", *paths,
                                    f"--output={tmp / 'pooled.json'}"])
        print(f"baseline (pool of 2): {seconds:.2f} s (exit {code}) {err[:120]}")

        big = dict(doc)
        row = dict(template)
        row["samples"] = [template["samples"][k % len(template["samples"])]
                          for k in range(samples)]
        row["calibration_samples"] = [template["calibration_samples"][k % len(template["calibration_samples"])]
                                      for k in range(samples)]
        big["rows"] = [dict(row, key=f"big_{k}", name=f"big_{k}") for k in range(8)]
        path = tmp / "big.json"
        path.write_text(json.dumps(big))
        size = path.stat().st_size
        rss, code, err = peak_rss_kb([yardstick, "show", str(path)])
        print(f"show of a {size / 1e6:.0f} MB run: peak RSS {rss / 1024:.0f} MB, "
              f"{rss * 1024 / size:.2f} x the file (exit {code}) {err[:120]}")


if __name__ == "__main__":
    main()
