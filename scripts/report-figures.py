#!/usr/bin/env python3
"""The report's targets, each printed as a figure (issue "A report people
look at"):

1. a report of the full micro suite with 30 samples per probe, compared
   with a baseline of 30 more: its size (target under 1 MB) and how long
   `yardstick report` takes to write it (target under 1 s), median of 5;
2. a report of an HTTP run of 20,000 requests against the demo site: its
   size (target under 1 MB), the samples summarised into bins.

Builds what it needs in the default target folder: the release
`yardstick`, the demo site and the micro bench. About two minutes.

    scripts/report-figures.py
"""
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
YARDSTICK = TARGET / "release" / "yardstick"
DEMO = TARGET / "release" / "yardstick-demo-site"


def build():
    for args in (["--features", "command", "--bin", "yardstick"],
                 ["-p", "demo-site", "--bin", "yardstick-demo-site"]):
        subprocess.run(["cargo", "build", "--release", "--locked", "-q", *args], cwd=ROOT,
                       check=True)


def micro_run(path):
    subprocess.run(["cargo", "bench", "--locked", "-q", "--bench", "micro", "--",
                    "--no-baseline", "--repeat=30", "-q", f"--save={path}"], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL)


def timed_report(args):
    start = time.perf_counter()
    out = subprocess.run([str(YARDSTICK), "report", *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"report-figures: yardstick report {' '.join(args)}: {out.stderr.strip()}")
    return (time.perf_counter() - start) * 1000


def micro(work):
    base, run = work / "base.json", work / "run.json"
    micro_run(base)
    micro_run(run)
    page = work / "micro.html"
    args = [str(run), f"--baseline={base}", f"--html={page}"]
    ms = statistics.median(timed_report(args) for _ in range(5))
    size = page.stat().st_size
    print(f"micro: the suite, 30 samples a probe, against a baseline of 30: a page of "
          f"{size / 1024:.0f} KB (target under 1024 KB), written in {ms:.0f} ms, median of 5, "
          f"process start included (target under 1000 ms)")


def http(work):
    demo = subprocess.Popen([str(DEMO), "--port=0", "--workers=1"], stdout=subprocess.PIPE,
                            text=True)
    try:
        line = demo.stdout.readline().strip()
        if not line.startswith("listening on "):
            sys.exit(f"report-figures: the demo site did not start: {line!r}")
        base = line.removeprefix("listening on ")
        saved = work / "http.json"
        subprocess.run([str(YARDSTICK), "http", f"--url={base}/", "--requests=20000",
                        "--concurrency=4", "--rounds=1", "-q", f"--save={saved}"], check=True,
                       stdout=subprocess.DEVNULL)
    finally:
        demo.kill()
    page = work / "http.html"
    ms = timed_report([str(saved), f"--html={page}"])
    print(f"http: a run of 20,000 requests: the run {saved.stat().st_size / 1024:.0f} KB, "
          f"its page {page.stat().st_size / 1024:.0f} KB (target under 1024 KB), "
          f"written in {ms:.0f} ms")


def main():
    build()
    with tempfile.TemporaryDirectory() as folder:
        work = pathlib.Path(folder)
        micro(work)
        http(work)


if __name__ == "__main__":
    main()
