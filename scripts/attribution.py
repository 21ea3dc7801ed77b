#!/usr/bin/env python3
"""Does a counted verdict name the function that moved? Ten regressions
are planted in the reference suite, each in one function
(probes/src/faults.rs, built only with the feature `faults`). Each probe is
counted once without a fault, and once with each fault planted in it; the
comparison of the two is read for the functions it names.

    python3 scripts/attribution.py [--metric=instructions|estimated-cycles] [--out=DIR]

Prints, per fault: the probe, the function it was planted in, the count's
change, the function the verdict names first with its share of the change,
and how the planted function was found: named first by its own count
("itself"), named first as the smallest call subtree holding the change,
which leads the verdict when no one function's own count holds most of it
("within": a fault that works through the C library, a copy or an
allocation, moves several routines a part each), as the caller the first
moved through ("via"), or not ("no"). Then the size of the
per-function data of the probes counted. Counts are exact, so one run of each is the figure; about
two minutes on two cores after the build. With --out, the saved runs, the
comparisons and this output are kept in DIR.
"""
import json
import os
import subprocess
import sys
import tempfile

# (fault as PROBES_FAULT names it, probe it slows, function it is in)
FAULTS = [
    ("compiler_copy", "template_compile", "probes::template::compile::Compiler::emit_text"),
    ("catalogue_hash", "i18n_lookup", "probes::i18n::catalogue::Catalogue::find"),
    ("router_quadratic", "uri_parse", "probes::router::registry::Registry::route"),
    ("settings_rescan", "ini_parse", "probes::settings::lex::classify"),
    ("date_recheck", "datatype_validate", "probes::datatype::date::validate_date"),
    ("class_map_hash", "autoload_map", "probes::autoload::read::Reader::string"),
    ("candidate_rescan", "autoload_miss", "probes::autoload::lookup::candidate"),
    ("location_recheck", "i18n_load", "probes::i18n::loader::attributes::parse_line"),
    ("scope_hash", "template_render", "probes::template::scope::Scope::resolve"),
    ("escape_alloc", "template_page_kernel", "probes::template::ops::text::escape_html_into"),
]


def bench(metric, save, probes, fault=None):
    env = dict(os.environ)
    env.pop("YARDSTICK_INJECT", None)
    env.pop("PROBES_FAULT", None)
    if fault:
        env["PROBES_FAULT"] = fault
    args = ["cargo", "bench", "-q", "--locked", "--bench", "micro", "--features", "probes/faults",
            "--", f"--metric={metric}", "--no-baseline", f"--save={save}", "-q", "--exact", *probes]
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL)


def compared(base, run):
    out = subprocess.run(["target/debug/yardstick", "compare", "--format=json", base, run],
                         capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"attribution: yardstick compare failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    metric, out_dir = "instructions", None
    for arg in sys.argv[1:]:
        if arg.startswith("--metric="):
            metric = arg.split("=", 1)[1]
        elif arg.startswith("--out="):
            out_dir = arg.split("=", 1)[1]
        else:
            sys.exit(f"attribution: unknown argument {arg}")
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    subprocess.run(["cargo", "build", "-q", "--locked", "--bin", "yardstick"], check=True)
    work = out_dir or tempfile.mkdtemp(prefix="attribution-")
    os.makedirs(work, exist_ok=True)
    probes = sorted({p for _, p, _ in FAULTS})
    base = os.path.join(work, "base.json")
    bench(metric, base, probes)
    lines = [f"{len(FAULTS)} faults, each in one function, counted by {metric}:", "",
             "| fault | probe | planted in | change | first named | share | found |",
             "|---|---|---|--:|---|--:|---|"]
    found = {"itself": 0, "within": 0, "via": 0, "no": 0}
    for fault, probe, function in FAULTS:
        run = os.path.join(work, f"{fault}.json")
        bench(metric, run, [probe], fault)
        c = compared(base, run)
        with open(os.path.join(work, f"{fault}.comparison.json"), "w") as f:
            json.dump(c, f, indent=1)
        check = next((k for k in c["checks"] if k["key"] == probe), None)
        attribution = (check or {}).get("attribution", {})
        moved = attribution.get("moved", [])
        within = attribution.get("within", {}).get("name")
        first = moved[0] if moved else {}
        if first.get("name") == function:
            verdict = "itself"
        elif within == function:
            verdict = "within"
        elif first.get("via") == function:
            verdict = "via"
        else:
            verdict = "no"
        found[verdict] += 1
        change = f"{check['change_pct']:+.1f} %" if check else "-"
        lead = attribution.get("within") or first
        named = f"within {within}" if within else first.get("name", "-")
        if verdict == "via":
            named += f" (via {first['via']})"
        share = f"{lead['share_pct']:.0f} %" if lead else "-"
        lines.append(f"| {fault} | {probe} | {function} | {change} | {named} | {share} | {verdict} |")
    first = found["itself"] + found["within"]
    lines += ["", f"named first: {first} of {len(FAULTS)} ({found['itself']} by their own count, "
              f"{found['within']} as the subtree holding the change); {found['via']} as the caller "
              f"of the first; {found['no']} not found"]
    with open(base) as f:
        rows = json.load(f)["rows"]
    size = sum(len(json.dumps(r.get("functions"), separators=(",", ":"))) for r in rows)
    kept = sum(len(r.get("functions", {}).get("top", [])) for r in rows)
    lines.append(f"per-function data of the {len(rows)} probes counted: {kept} functions, "
                 f"{size / 1024:.0f} KiB as compact JSON")
    text = "\n".join(lines)
    print(text)
    if out_dir:
        with open(os.path.join(out_dir, "report.md"), "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
