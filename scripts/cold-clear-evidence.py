#!/usr/bin/env python3
"""The figures of `--cold-clear` (docs/evaluation.md, "The page list from
the site, and a cleared cache"): the demo site's pages measured after the
server cleared its view cache, against `--cold` (every request rendered),
with the same build, one after the other.

    python3 scripts/cold-clear-evidence.py [--requests=50]

Builds the release demo site and `yardstick`, starts the demo site with
`--purge-token-file`, and runs `yardstick http --requests=N
--concurrency=1 --rounds=1` twice on the pages the site lists: with
`--cold-clear=FILE`, then with `--cold`. Prints both tables, then per page
the warm-cache median and the max (the one render after the clear) of the
first, and the median of the second, in milliseconds. About a minute once
built.
"""

import argparse
import importlib.util
import pathlib
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("dvn", ROOT / "scripts" / "demo-vs-nginx.py")
dvn = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dvn)


def ms(x):
    return "-" if x is None else f"{x:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=50)
    args = ap.parse_args()
    demo, yardstick = dvn.build()
    with tempfile.TemporaryDirectory(prefix="cold-clear") as tmp:
        folder = pathlib.Path(tmp)
        token = folder / "token"
        token.write_text("a-token-of-this-evidence-run-only\n")
        token.chmod(0o600)
        proc, base = dvn.start_demo(demo, extra=[f"--purge-token-file={token}"])
        try:
            common = [f"--base={base}", f"--requests={args.requests}",
                      "--concurrency=1", "--rounds=1"]
            cleared = dvn.measure(yardstick, [*common, f"--cold-clear={token}"], folder, "cleared")
            cold = dvn.measure(yardstick, [*common, "--cold"], folder, "cold")
        finally:
            dvn.stop(proc)
    cold_of = {r["name"]: r for r in cold}
    print("\n| page | after the clear: median, max | --cold median |")
    print("|---|---|---|")
    for r in cleared:
        c = cold_of.get(r["name"], {})
        print(f"| `{r['name']}` | {ms(r.get('median'))}, {ms(r.get('max'))} "
              f"| {ms(c.get('median'))} |")


if __name__ == "__main__":
    main()
