#!/usr/bin/env python3
"""Prints the workspace's crates by size, for the crate split (issue 60).

For each crate: its production lines (non-blank lines of the .rs files
under its src/, without test code), its in-file test lines (each
`#[cfg(test)]` item, the files of modules declared `#[cfg(test)]`, and
every `tests.rs` file or `tests/` folder under src/), and the share of the project's production lines it holds. Then the
`cfg(feature` lines of every crate and the `pub` items of the user's crate
`yardstick` (its production code; `pub(crate)` and `pub(super)` are not
public), all of them and those outside the modules declared
`#[doc(hidden)]`, which the `yardstick` command reads through and a
user's documentation does not show.

    python3 scripts/crate-sizes.py
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEST_ATTR = re.compile(r"#\[cfg\((test|all\(test)")


def production(code):
    """`code` without its test-only items, and the test lines apart."""
    out, tests = [], []
    rest = code
    while True:
        m = TEST_ATTR.search(rest)
        if not m:
            out.append(rest)
            break
        out.append(rest[: m.start()])
        item = rest[m.start():]
        brace, semi = item.find("{"), item.find(";")
        if semi != -1 and (brace == -1 or semi < brace):
            end = semi + 1
        elif brace != -1:
            depth, end = 0, len(item)
            for i, c in enumerate(item[brace:], brace):
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        end = i + 1
                        break
        else:
            end = len(item)
        tests.append(item[:end])
        rest = item[end:]
    return "".join(out), "".join(tests)


def lines(text):
    return sum(1 for l in text.splitlines() if l.strip())


def rust_files(top):
    for dirpath, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d != "target"]
        for f in files:
            if f.endswith(".rs"):
                yield os.path.join(dirpath, f)


HIDDEN_MOD = re.compile(r"#\[doc\(hidden\)\]\s*pub mod (\w+)\s*;")
TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))? )?mod (\w+)\s*;")


def modules(src, declared):
    """The folders and files under `src` of the modules `declared` matches."""
    found = []
    for path in rust_files(src):
        here = os.path.dirname(path)
        name = os.path.basename(path)
        if name not in ("lib.rs", "mod.rs"):
            here = os.path.join(here, name[:-3])
        for m in declared.finditer(open(path, encoding="utf-8").read()):
            found.append(os.path.join(here, m.group(1)))
    return found


def within(path, mods):
    """Whether the file `path` is one of the modules `mods`, or under one."""
    stem = path[:-3]
    if os.path.basename(path) == "mod.rs":
        stem = os.path.dirname(path)
    return any(stem == m or stem.startswith(m + os.sep) for m in mods)


def main():
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version=1", "--no-deps", "--offline"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout
    )
    rows = []
    for package in meta["packages"]:
        src = os.path.join(os.path.dirname(package["manifest_path"]), "src")
        prod = test = 0
        features = 0
        pub_items = shown_items = 0
        hidden = modules(src, HIDDEN_MOD)
        test_only = modules(src, TEST_MOD)
        for path in rust_files(src):
            code = open(path, encoding="utf-8").read()
            parts = os.path.relpath(path, src).split(os.sep)
            if parts[-1] == "tests.rs" or "tests" in parts[:-1] or within(path, test_only):
                test += lines(code)
                continue
            kept, dropped = production(code)
            prod += lines(kept)
            test += lines(dropped)
            features += len(re.findall(r"cfg(_attr)?\((not\()?(any\(|all\()?feature", code))
            features += len(re.findall(r"cfg!\(feature", code))
            items = len(
                re.findall(
                    r"^\s*pub (?:unsafe )?(?:async )?(fn|struct|enum|mod|const|static|trait|type|use|macro)\b",
                    kept, re.M,
                )
            )
            items += len(re.findall(r"^\s*pub [a-z_][a-z_0-9]*\s*:", kept, re.M))
            items += len(re.findall(r"#\[macro_export\]", kept))
            pub_items += items
            if not within(path, hidden):
                shown_items += items
        rows.append((package["name"], prod, test, features, (pub_items, shown_items)))
    total = sum(r[1] for r in rows)
    print(f"{'crate':<22} {'production':>10} {'in-file tests':>13} {'share':>7} {'cfg(feature':>12}")
    for name, prod, test, features, _ in sorted(rows, key=lambda r: -r[1]):
        print(f"{name:<22} {prod:>10} {test:>13} {100 * prod / total:>6.1f}% {features:>12}")
    print(f"{'all':<22} {total:>10} {sum(r[2] for r in rows):>13}")
    print(f"cfg(feature lines, all crates: {sum(r[3] for r in rows)}")
    user = [r for r in rows if r[0] == "yardstick"]
    if user:
        every, shown = user[0][4]
        print(f"pub items of yardstick (fields and variants' fields included): {every}, "
              f"{shown} outside its #[doc(hidden)] modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
