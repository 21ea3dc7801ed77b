#!/usr/bin/env python3
"""The history's targets, each printed as a figure (issue "History"):

1. what recording adds to a command: `yardstick history add` of a new run
   against `yardstick show` of the same file (both start a process and
   read the run; the difference is opening the history and the insert),
   in interleaved rounds, medians;
2. `history trend` over RUNS stored runs (default 10,000), median of 11,
   and the page `trend --html` writes of them: its time and size;
3. two processes adding 500 runs each at once: all 1,000 present, once;
4. the same file added twice: stored once;
5. a run read back (`history show --json`) byte-equal to its file.

Each on SQLite, and on PostgreSQL when a server is reachable (the script
runs itself under `pg_virtualenv` when PGHOST is unset and pg_virtualenv
is installed). Builds what it needs in the default target folder: the
release `yardstick` and one real run of the micro suite, which every
stored run is a copy of under another start time.

    scripts/history-figures.py [RUNS]
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

YARDSTICK = "target/release/yardstick"


def build(work):
    subprocess.run(["cargo", "build", "--release", "--locked", "-q", "--bin", "yardstick"], check=True)
    base = os.path.join(work, "base.json")
    subprocess.run(["cargo", "bench", "--locked", "-q", "--bench", "micro", "--",
                    "--no-baseline", "--repeat=10", "--warmup=1", "-q", f"--save={base}"],
                   check=True, stdout=subprocess.DEVNULL)
    return base


def copies(base, folder, tag, n, start=0):
    """n copies of the base run, each its own start (so its own text)."""
    text = open(base).read()
    os.makedirs(folder, exist_ok=True)
    paths = []
    for i in range(start, start + n):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_700_000_000 + i * 60))
        path = os.path.join(folder, f"{tag}-{i}.json")
        with open(path, "w") as f:
            f.write(re.sub(r'"started": "[^"]*"', f'"started": "{stamp}"', text, count=1))
        paths.append(path)
    return paths


def yardstick(*args, history):
    return subprocess.run([YARDSTICK, *args, f"--history={history}"], capture_output=True,
                          text=True)


def timed(args):
    start = time.perf_counter()
    out = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if out.returncode != 0:
        sys.exit(f"history-figures: {' '.join(args)} exited {out.returncode}")
    return (time.perf_counter() - start) * 1000


def recording_cost(base, work, history, rounds=31):
    files = copies(base, os.path.join(work, "cost"), "cost", rounds)
    adds, shows = [], []
    for path in files:
        shows.append(timed([YARDSTICK, "show", path, "--json"]))
        adds.append(timed([YARDSTICK, "history", "add", path, f"--history={history}"]))
    return statistics.median(adds), statistics.median(shows)


def listed(history):
    out = yardstick("history", "list", "--csv", history=history)
    if out.returncode != 0:
        sys.exit(f"history-figures: history list: {out.stderr.strip()}")
    return out.stdout.splitlines()[1:]


def fill(base, work, history, runs):
    files = copies(base, os.path.join(work, "many"), "many", runs)
    start = time.perf_counter()
    for chunk in range(0, len(files), 1000):
        out = yardstick("history", "add", *files[chunk:chunk + 1000], history=history)
        if out.returncode != 0:
            sys.exit(f"history-figures: history add: {out.stderr.strip()}")
    return time.perf_counter() - start


def trend_ms(history, probe, klass):
    args = [YARDSTICK, "history", "trend", probe, f"--class={klass}", f"--history={history}"]
    return statistics.median(timed(args) for _ in range(11))


def trend_page(history, probe, klass, work):
    page = os.path.join(work, "trend.html")
    args = [YARDSTICK, "history", "trend", probe, f"--class={klass}", f"--history={history}",
            f"--html={page}"]
    return statistics.median(timed(args) for _ in range(5)), os.path.getsize(page)


def writers(base, work, history):
    dirs = [os.path.join(work, f"writer-{w}") for w in "ab"]
    each = [copies(base, d, w, 500, start=100_000 + 1000 * k) for k, (d, w) in
            enumerate(zip(dirs, "ab"))]
    procs = [subprocess.Popen([YARDSTICK, "history", "add", *paths, f"--history={history}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
             for paths in each]
    for p in procs:
        if p.wait() != 0:
            sys.exit(f"history-figures: a writer failed: {p.stderr.read().decode()}")
    ids = {line.split(",")[0] for line in listed(history)}
    return sum(1 for line in listed(history)), len(ids)


def report(name, base, work, history, runs):
    meta = json.load(open(base))
    klass = meta["environment"]["machine_class"]
    probe = meta["rows"][0]["key"]
    add, show = recording_cost(base, work, history)
    print(f"{name}: recording one run: history add {add:.1f} ms, show {show:.1f} ms: "
          f"recording adds {add - show:.1f} ms (medians of 31 interleaved)")
    seconds = fill(base, work, history, runs)
    total = len(listed(history))
    print(f"{name}: {runs} runs added in {seconds:.1f} s; {total} stored")
    print(f"{name}: history trend {probe} over them: {trend_ms(history, probe, klass):.1f} ms "
          f"(median of 11, process start included)")
    ms, size = trend_page(history, probe, klass, work)
    print(f"{name}: history trend --html over them: {ms:.1f} ms (median of 5), "
          f"a page of {size / 1024:.0f} KB")
    before = len(listed(history))
    rows, unique = writers(base, work, history)
    print(f"{name}: two writers at once, 500 runs each: {rows - before} added, "
          f"{unique - before} distinct")
    again = yardstick("history", "add", base, history=history)
    twice = yardstick("history", "add", base, history=history)
    print(f"{name}: the same file twice: '{again.stdout.split(': ')[-1].strip()}', then "
          f"'{twice.stdout.split(': ')[-1].strip()}'")
    run_id = twice.stdout.strip().split(" as ")[-1]
    shown = subprocess.run([YARDSTICK, "history", "show", run_id, "--json",
                            f"--history={history}"], capture_output=True).stdout
    print(f"{name}: read back byte-equal to its file: {shown == open(base, 'rb').read()}")


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    if "PGHOST" not in os.environ and shutil.which("pg_virtualenv") and \
            not os.environ.get("HISTORY_FIGURES_INNER"):
        os.environ["HISTORY_FIGURES_INNER"] = "1"
        os.execvp("pg_virtualenv", ["pg_virtualenv", sys.executable, *sys.argv])
    with tempfile.TemporaryDirectory() as work:
        base = build(work)
        report("sqlite", base, work, os.path.join(work, "h.sqlite"), runs)
        if "PGHOST" in os.environ:
            subprocess.run(["createdb", "yardstick_figures"], check=True)
            try:
                report("postgres", base, work, "postgres:///yardstick_figures?sslmode=disable",
                       runs)
            finally:
                subprocess.run(["dropdb", "yardstick_figures"])
        else:
            print("postgres: no server (PGHOST unset, no pg_virtualenv): not measured")


if __name__ == "__main__":
    main()
