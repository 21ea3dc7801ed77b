"""The path of an executable cargo builds, for the evidence scripts."""

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
