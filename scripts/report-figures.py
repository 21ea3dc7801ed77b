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

With `--screenshot`, it makes the README's picture instead,
docs/report.png: the suite against a run of its own, `template_compile`
made 60 % slower by the slowdown knob, drawn and photographed by Debian's
Chromium (run it on a quiet machine: the rounds are real).

    scripts/report-figures.py --screenshot
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
    for args in (["--bin", "yardstick"],
                 ["-p", "demo-site", "--bin", "yardstick-demo-site"]):
        subprocess.run(["cargo", "build", "--release", "--locked", "-q", *args], cwd=ROOT,
                       check=True)


def micro_run(path, judged=None, env=None):
    against = [f"--baseline={judged}"] if judged else ["--no-baseline"]
    out = subprocess.run(["cargo", "bench", "--locked", "-q", "--bench", "micro", "--",
                          *against, "--repeat=30", "-q", f"--save={path}"], cwd=ROOT,
                         stdout=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    # A run judged against a baseline may regress (exit 1); it is saved all
    # the same.
    if out.returncode not in (0, 1) or not path.exists():
        sys.exit(f"report-figures: the micro run {path} failed")


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


def screenshot(work):
    base, run = work / "base.json", work / "slow.json"
    micro_run(base)
    micro_run(run, judged=base, env={"YARDSTICK_INJECT": "template_compile:60"})
    # Relative names, so that the page names the runs as a reader would.
    subprocess.run([str(YARDSTICK), "report", "slow.json", "--baseline=base.json",
                    "--html=report.html"], cwd=work, check=True, stderr=subprocess.DEVNULL)
    picture = ROOT / "docs" / "report.png"
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--hide-scrollbars", "--force-device-scale-factor=1",
                    "--window-size=960,1120", f"--screenshot={picture}",
                    (work / "report.html").as_uri()], check=True, stderr=subprocess.DEVNULL)
    print(f"{picture}: {picture.stat().st_size / 1024:.0f} KB")


def main():
    build()
    if sys.argv[1:] == ["--screenshot"]:
        with tempfile.TemporaryDirectory() as folder:
            screenshot(pathlib.Path(folder))
        return
    with tempfile.TemporaryDirectory() as folder:
        work = pathlib.Path(folder)
        micro(work)
        http(work)


if __name__ == "__main__":
    main()
