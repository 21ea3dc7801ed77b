#!/usr/bin/env python3
"""Prints the evidence that wall time is judged only within a machine class.

    python3 scripts/class-evidence.py OTHER_BASELINE.json [RUNS]

Runs the reference suite (release build) RUNS times (default 10) against each
of three baselines and counts the verdicts:

- OTHER_BASELINE.json, a baseline made on another machine or before machine
  classes were recorded (for example `git show dbb65bb:baselines/micro.json`);
- this machine's committed baseline with its class and CPU doctored to
  another model;
- this machine's committed baseline, `baselines/micro/<class>.json`.

Then it records the machine class in RUNS runs pinned to CPU 0 (taskset)
and RUNS unpinned, and says whether they agree.
"""

import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def bench_binary():
    out = subprocess.run(
        ["cargo", "bench", "--bench", "micro", "--no-run", "--locked",
         "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if (msg.get("reason") == "compiler-artifact"
                and msg["target"]["name"] == "micro" and msg.get("executable")):
            return msg["executable"]
    sys.exit("class-evidence: cargo built no micro bench")


def run(cmd):
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    doc = json.loads(done.stdout) if done.stdout.strip() else {}
    return done.returncode, doc, done.stderr


def verdicts(bench, baseline, runs):
    codes, words, largest, notes = [], {}, 0.0, set()
    for _ in range(runs):
        code, doc, stderr = run([bench, "--bench", "-q", "--json",
                                 f"--baseline={baseline}"])
        codes.append(code)
        for line in stderr.splitlines():
            for word in ("FAIL", "PASS", "NO VERDICT", "INFO"):
                if line.startswith(word):
                    words[word] = words.get(word, 0) + 1
        for check in doc.get("comparison", {}).get("checks", []):
            if check["metric"] == "median/calib":
                largest = max(largest, abs(check["change_pct"]))
        machines = doc.get("comparison", {}).get("machines")
        if machines:
            notes.add(f"{machines['baseline_class']} -> {machines['current_class']}")
    return codes, words, largest, notes


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    other = pathlib.Path(sys.argv[1]).resolve()
    runs = int(sys.argv[2]) if len(sys.argv) == 3 else 10
    bench = bench_binary()
    yardstick = str(pathlib.Path(bench).parent.parent / "yardstick")
    cls = subprocess.run([yardstick, "machine", "--class"], capture_output=True,
                         text=True, check=True).stdout.strip()
    committed = ROOT / "baselines" / "micro" / f"{cls}.json"
    if not committed.is_file():
        sys.exit(f"class-evidence: no committed baseline for this class ({committed})")
    doc = json.loads(committed.read_text())
    doc["environment"]["machine_class"] = "intel-xeon-platinum-8375c-64cpu-0badc0de"
    doc["environment"]["cpu"] = {"vendor": "GenuineIntel", "id": "6/106/6",
                                 "model_name": "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz"}
    with tempfile.TemporaryDirectory() as tmp:
        doctored = pathlib.Path(tmp) / "doctored.json"
        doctored.write_text(json.dumps(doc))
        print(f"machine class {cls}; {runs} runs against each baseline")
        print("baseline | exit codes | verdict lines | largest |change| (judged or not) | classes")
        for name, path in [("other machine / no class", other),
                           ("doctored to another CPU", doctored),
                           ("committed for this class", committed)]:
            codes, words, largest, notes = verdicts(bench, path, runs)
            tally = ", ".join(f"{w} {n}" for w, n in sorted(words.items()))
            exits = ", ".join(f"{c}: {codes.count(c)}" for c in sorted(set(codes)))
            print(f"{name} | {exits} | {tally} | {largest:.1f} % | {'; '.join(sorted(notes)) or 'same'}")
    classes = {}
    for pinned in (False, True):
        seen = set()
        for _ in range(runs):
            prefix = ["taskset", "-c", "0"] if pinned else []
            _, doc, _ = run(prefix + [bench, "--bench", "-q", "--json", "--no-baseline",
                                      "--probe=uri_parse", "--repeat=3"])
            env = doc.get("environment", {})
            seen.add((env.get("machine_class"), env.get("cpus")))
        classes["pinned to CPU 0" if pinned else "unpinned"] = seen
    for how, seen in classes.items():
        print(f"{how}: {runs} runs, (machine_class, cpus) seen: {sorted(seen)}")
    same = len(set().union(*classes.values())) == 1
    print("the class is the same in every run" if same else "THE CLASS MOVED")


if __name__ == "__main__":
    main()
