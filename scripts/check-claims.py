#!/usr/bin/env python3
"""Checks that every figure README.md and docs/evaluation.md's summary
publish is the figure its committed output gives. It measures nothing: it
reads files.

    python3 scripts/check-claims.py            # exit 1 on a claim that fails

docs/claims.json lists the claims. Each names a document (`in`), a fragment
of it as it is written (`says`), the committed output it comes from
(`source`: a report under evaluate/results/, or a script's output kept
there), and quotes of that output. A claim holds when

- the document contains the fragment, word for word (an edited figure no
  longer matches: the claim fails until the claim is edited too);
- the output contains every quote, word for word;
- every number in the fragment is a number of the quotes, rounded to the
  decimals the fragment writes (93 in the README, 92.86 in the report).

So a published figure cannot drift from its output without this failing, and
a claim cannot be edited to match the README without quoting an output
that says so.
"""

import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# A number stands alone, or after a multiplier's x (x1.02, as the scripts
# print ratios); never inside a word (h2c, box3).
NUMBER = re.compile(r"(?:(?<=\bx)|(?<![\w.]))\d+(?:\.\d+)?")


def numbers(text):
    """The numbers written in `text`, with thousands separators removed."""
    return NUMBER.findall(text.replace(",", ""))


def matches(written, quoted):
    """Whether `written` is `quoted` rounded to the decimals it shows."""
    decimals = len(written.split(".")[1]) if "." in written else 0
    return round(float(quoted), decimals) == float(written)


def problems(claim, documents):
    fragment, source, document = claim["says"], claim["source"], claim["in"]
    if document not in documents:
        path = ROOT / document
        documents[document] = path.read_text(encoding="utf-8") if path.is_file() else None
    text = documents[document]
    if text is None:
        yield f"{document}: no such document"
    elif fragment not in " ".join(text.split()):
        yield f"{document} no longer says {fragment!r}"
    path = ROOT / source
    if not path.is_file():
        yield f"{source}: no such output"
        return
    output = path.read_text(encoding="utf-8")
    for quote in claim["quotes"]:
        if quote not in output:
            yield f"{source} does not say {quote!r}"
    quoted = [n for q in claim["quotes"] for n in numbers(q)]
    for n in numbers(fragment):
        if not any(matches(n, q) for q in quoted):
            yield f"{fragment!r}: {n} is in none of the quotes of {source}"


def main():
    claims = json.loads((ROOT / "docs" / "claims.json").read_text(encoding="utf-8"))
    documents = {}
    failed = 0
    for claim in claims:
        found = list(problems(claim, documents))
        failed += bool(found)
        for p in found:
            print(f"claim failed: {p}")
    print(f"{len(claims) - failed} of {len(claims)} published claims hold")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
