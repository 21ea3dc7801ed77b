#!/usr/bin/env python3
"""Prints the functions and files that exceed the size a reader holds in mind.

Issue "One clear architecture" bounds library code: no function over ~60 lines
and no file over ~450 lines, both outside tests. This script measures both with
a brace-matching scan (comments, strings and char literals are skipped), drops
`#[cfg(test)]` items, and prints what is over the bounds, longest first.

    scripts/shape.py [--functions N] [--files N] [DIR...]   (default: src crates evaluate/src demo-site/src)
"""
import argparse
import pathlib
import re
import sys

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)")


def code_mask(text):
    """Per character: True where it is code (not comment, string or char literal)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            for k in range(i, j):
                mask[k] = False
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = text.find('"' + m.group(1), i + len(m.group(0)))
            end = n if end < 0 else end + 1 + len(m.group(1))
            for k in range(i, end):
                mask[k] = False
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            for k in range(i, min(j + 1, n)):
                mask[k] = False
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:
                for k in range(i, i + len(m.group(0))):
                    mask[k] = False
                i += len(m.group(0))
            else:
                i += 1
        else:
            i += 1
    return mask


def block_end(text, mask, start):
    """Index just past the `{...}` block whose `{` is the first code brace at or after start."""
    i = start
    while i < len(text) and not (mask[i] and text[i] in "{;"):
        i += 1
    if i >= len(text) or text[i] == ";":
        return i + 1
    depth = 0
    while i < len(text):
        if mask[i]:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    return i + 1
        i += 1
    return i


def without_tests(text):
    mask = code_mask(text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]", text):
        if m.start() < i or not mask[m.start()]:
            continue
        out.append(text[i:m.start()])
        i = block_end(text, mask, m.end())
    out.append(text[i:])
    return "".join(out)


def functions(text):
    mask = code_mask(text)
    lines = text.splitlines(keepends=True)
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line)
    for number, line in enumerate(lines):
        m = FN.match(line)
        if not m or not mask[offsets[number] + m.start(7)]:
            continue
        end = block_end(text, mask, offsets[number] + m.end())
        last = text.count("\n", 0, end - 1)
        yield m.group(7), number + 1, last - number + 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=60)
    parser.add_argument("--files", type=int, default=450)
    parser.add_argument("dirs", nargs="*", default=["src", "crates", "evaluate/src", "demo-site/src"])
    args = parser.parse_args()
    long_files, long_fns = [], []
    for d in args.dirs:
        paths = sorted(pathlib.Path(d).rglob("*.rs"))
        test_modules = set()
        for path in paths:
            for m in re.finditer(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+(\w+)\s*;", path.read_text()):
                folder = path.parent if path.name in ("mod.rs", "lib.rs", "main.rs") else path.with_suffix("")
                test_modules.add(folder / f"{m.group(3)}.rs")
                test_modules.add(folder / m.group(3) / "mod.rs")
        for path in paths:
            if path.name == "tests.rs" or "tests" in path.parts[:-1] or path in test_modules:
                continue
            code = without_tests(path.read_text())
            count = code.count("\n")
            if count > args.files:
                long_files.append((count, str(path)))
            for name, line, length in functions(code):
                if length > args.functions:
                    long_fns.append((length, f"{path}:{line}", name))
    for count, path in sorted(long_files, reverse=True):
        print(f"file {count:5} lines  {path}")
    for length, place, name in sorted(long_fns, reverse=True):
        print(f"fn   {length:5} lines  {place}  {name}")
    print(f"{len(long_files)} files over {args.files} lines, {len(long_fns)} functions over {args.functions} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
