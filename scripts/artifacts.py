"""What the evidence scripts share: the path of an executable cargo builds,
and the committed count baseline of this machine's valgrind."""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def built(args, target_name, kind):
    """Runs `cargo ARGS --locked --message-format=json` in the workspace and
    returns the executable of target `target_name` of `kind` (bench, bin,
    test) it built; exits naming the target when there is none."""
    out = subprocess.run(
        ["cargo", *args, "--locked", "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if (msg.get("reason") == "compiler-artifact"
                and msg["target"]["name"] == target_name
                and kind in msg["target"]["kind"] and msg.get("executable")):
            return msg["executable"]
    sys.exit(f"{pathlib.Path(sys.argv[0]).name}: cargo built no {target_name}")


def committed_counts():
    """The committed count baseline (baselines/micro/counts/) counted by
    this machine's valgrind; exits naming the version when there is none."""
    version = subprocess.run(["valgrind", "--version"], capture_output=True,
                             text=True).stdout.strip()
    for path in sorted((ROOT / "baselines/micro/counts").glob("*.json")):
        doc = json.loads(path.read_text())
        if doc["settings"].get("valgrind") == version:
            return doc
    sys.exit(f"{pathlib.Path(sys.argv[0]).name}: no committed count baseline of {version}")
