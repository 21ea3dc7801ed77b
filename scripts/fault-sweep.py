#!/usr/bin/env python3
"""Re-runs the bad-input and fault cases of the issue "Bad input and faults"
against the release binaries and prints each case's outcome, then a count.

    python3 scripts/fault-sweep.py

A case passes when the command exits as expected (2 for bad input) within
its time, says so in one line on stderr naming the file or option, writes
nothing it should not, and never panics (exit 101).
"""

import json
import os
import pathlib
import stat
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def build():
    out = subprocess.run(
        ["cargo", "bench", "--bench", "micro", "--no-run", "--locked", "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    bench = next(json.loads(l)["executable"] for l in out.splitlines()
                 if '"compiler-artifact"' in l and json.loads(l)["target"]["name"] == "micro"
                 and json.loads(l).get("executable"))
    return bench, str(pathlib.Path(bench).parent.parent / "yardstick")


def run(cmd, timeout=60):
    start = time.monotonic()
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None, b"", b"", timeout
    return done.returncode, done.stdout, done.stderr, time.monotonic() - start


def main():
    bench, ys = build()
    results = []

    def case(name, cmd, code=2, names=None, seconds=30, absent=None, check=None):
        got, out, err, took = run(cmd, timeout=seconds)
        lines = err.decode("utf-8", "replace").strip().splitlines()
        ok = got == code
        why = f"exit {got}" if got is not None else f"still running after {seconds} s"
        if ok and code == 2:
            ok = len(lines) == 1 and (names is None or names.encode() in err)
            why = f"stderr: {lines[-1] if lines else '(empty)'}"
        if ok and absent is not None and pathlib.Path(absent).exists():
            ok, why = False, f"{absent} was written"
        if ok and check is not None:
            ok, why = check()
        results.append(ok)
        print(f"{'ok  ' if ok else 'FAIL'} {name} ({took:.1f} s): {why}"[:200])

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        good = tmp / "good.json"
        subprocess.run([bench, "--bench", "-q", "--repeat=3", "--warmup=1", "--no-baseline",
                        f"--save={good}"], check=True, capture_output=True)
        doc = json.loads(good.read_text())

        def variant(name, edit):
            d = json.loads(json.dumps(doc))
            edit(d)
            p = tmp / name
            p.write_text(json.dumps(d))
            return str(p)

        out = str(tmp / "out.json")
        case("bench: --probe=<non-UTF-8>", [bench, "--bench", b"--probe=\xff"])
        case("bench: a filter that is not UTF-8", [bench, "--bench", b"\xff"])
        odd_path = str(tmp).encode() + b"/\xff.json"
        case("bench: --save=<non-UTF-8 path> saves there", [bench, "--bench", "-q", "--no-baseline",
             "--repeat=3", b"--save=" + odd_path], code=0,
             check=lambda: (os.path.exists(odd_path), "saved under its non-UTF-8 name"))
        for dev in ["/dev/urandom", "/dev/zero"]:
            case(f"show {dev}", [ys, "show", dev], names=dev, seconds=5)
        case("--min-batch=9223372036854775807", [bench, "--bench", "--min-batch=9223372036854775807"],
             names="--min-batch", seconds=5)
        for name, edit, says in [
            ("http-mode.json", lambda d: d.update(mode="http"), "an HTTP run"),
            ("counts.json", lambda d: d.update(metric="instructions"), "instruction counts"),
            ("zero-loop.json", lambda d: d["calibration"].update(median=0.0), "calibration.median"),
            ("negative.json", lambda d: d["rows"][0]["samples"].__setitem__(0, -1.0), "samples[0]"),
            ("zeros.json", lambda d: d["rows"][0].update(samples=[0.0] * len(d["rows"][0]["samples"])), "samples[0]"),
            ("tiny.json", lambda d: d["rows"][0]["samples"].__setitem__(0, 1e-308), "samples[0]"),
            ("huge.json", lambda d: d["rows"][0].update(median=1e308), "median"),
            ("twice.json", lambda d: d["rows"].append(d["rows"][0]), "appears twice"),
            ("format-text.json", lambda d: d.update(format="1"), "not a version number"),
            ("format-float.json", lambda d: d.update(format=1.0), "not a version number"),
        ]:
            path = variant(name, edit)
            case(f"baseline {name} refused before measuring", [bench, "--bench", "-q",
                 f"--baseline={path}", f"--save={out}"], names=says, seconds=10, absent=out)
        http_base = variant("micro-for-http.json", lambda d: None)
        case("http --baseline=<micro run> refused before any request",
             [ys, "http", "--url=http://127.0.0.1:9/", f"--baseline={http_base}"], names="micro run")
        case("compare BASE RUN names the RUN of another mode",
             [ys, "compare", str(good), str(tmp / "http-mode.json")], names="http-mode.json: an HTTP run")
        os.mkfifo(tmp / "fifo")
        (tmp / "dir").mkdir()
        for target in ["/dev/full", str(tmp / "fifo"), str(tmp / "dir"), "/proc/version"]:
            case(f"--save={target} refused before measuring",
                 [bench, "--bench", "-q", "--no-baseline", f"--save={target}"], names=target, seconds=10)

        def full_is_a_device():
            kind = os.stat("/dev/full").st_mode
            return stat.S_ISCHR(kind), "/dev/full is still a character device"
        case("/dev/full stays a device", ["true"], code=0, check=full_is_a_device)
        real = tmp / "real.json"
        real.write_text("old")
        os.chmod(real, 0o640)
        link = tmp / "link.json"
        link.symlink_to(real)

        def followed():
            ok = link.is_symlink() and json.loads(real.read_text())["tool"] == "yardstick" \
                and stat.S_IMODE(os.stat(real).st_mode) == 0o640
            return ok, "the link kept, its file replaced, mode 0640 kept"
        case("--save onto a symlink follows it", [bench, "--bench", "-q", "--no-baseline",
             "--repeat=3", f"--save={link}"], code=0, check=followed)
        fresh = tmp / "new" / "run.json"

        def mode_0644():
            m = stat.S_IMODE(os.stat(fresh).st_mode)
            return m == 0o644, f"a new save is {oct(m)}"
        case("a new save is 0644", [bench, "--bench", "-q", "--no-baseline", "--repeat=3",
             f"--save={fresh}"], code=0, check=mode_0644)

    print(f"{sum(results)} of {len(results)} cases as expected")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
