"""What a new user pays to adopt a bench harness: a new crate with one
probe in its bench, built from clean by `cargo bench`, for yardstick (by
path), divan and criterion, in one sitting.

Prints, per tool, the crates cargo compiled, the seconds `cargo bench`
took to build, and then to the first line of the bench's table. Sources are fetched
before the clock starts, so the figures are compile time, not download
time. The tools run in turn, ROUNDS times (default 1), each round in a
fresh target folder; the table shows each round's figures.

    python3 scripts/adoption-cost.py [ROUNDS]
    ADOPT_YARDSTICK=before=/tmp/old,after=. python3 scripts/adoption-cost.py
    python3 scripts/adoption-cost.py --regex [ROUNDS]

`--regex` measures one part of the difference alone: the regex crate as
the calibration loop builds it (its default features: every engine, so
no other crate's features can change the loop's work) and as criterion
0.7 builds it (`default-features = false, features = ["std"]`), each a
`cargo build --release` of a library that uses it, in a fresh target
folder: wall seconds and the CPU seconds of the build's processes.
"""

import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The same work for each tool: join 1,000 short words.
WORK = "(0..1000).map(|i| (i % 97).to_string()).collect::<Vec<_>>().join(\" \")"

YARDSTICK_BENCH = f"""yardstick::probe! {{
    name: join_words,
    run: || {WORK},
}}

yardstick::main!();
"""


def user_crate(checkout):
    """The folder of the crate a bench depends on: `crates/yardstick` since
    the command became a crate of its own, the checkout's root before."""
    crate = pathlib.Path(checkout) / "crates" / "yardstick"
    return crate if (crate / "Cargo.toml").is_file() else checkout


def yardsticks():
    """yardstick checkouts to measure: this one, or NAME=PATH pairs, comma
    separated, from ADOPT_YARDSTICK (to measure two commits side by side)."""
    given = os.environ.get("ADOPT_YARDSTICK")
    pairs = [p.split("=", 1) for p in given.split(",")] if given else [("", ROOT)]
    return {
        f"yardstick{'@' + name if name else ''}": {
            "dep": f'yardstick = {{ path = "{user_crate(path)}" }}',
            "bench": YARDSTICK_BENCH,
            # The table's header row.
            "first": re.compile(r"^\s*probe\b"),
        }
        for name, path in pairs
    }


TOOLS = {
    **yardsticks(),
    "divan": {
        "dep": 'divan = "0.1"',
        "bench": f"""#[divan::bench]
fn join_words() -> String {{
    {WORK}
}}

fn main() {{
    divan::main();
}}
""",
        "first": re.compile(r"fastest"),
    },
    "criterion": {
        "dep": 'criterion = "0.7"',
        "bench": f"""use criterion::{{criterion_group, criterion_main, Criterion}};

fn join_words(c: &mut Criterion) {{
    c.bench_function("join_words", |b| b.iter(|| {WORK}));
}}

criterion_group!(benches, join_words);
criterion_main!(benches);
""",
        "first": re.compile(r"time:\s+\["),
    },
}


def new_crate(folder, name, dependencies, lib="", bench=None):
    """A crate of one library (and one bench target, when given) in
    `folder`, its sources fetched before any clock starts."""
    (folder / "src").mkdir(parents=True)
    (folder / "src/lib.rs").write_text(lib)
    targets = ""
    if bench is not None:
        (folder / "benches").mkdir()
        (folder / "benches/one.rs").write_text(bench)
        targets = '\n[lib]\nbench = false\n\n[[bench]]\nname = "one"\nharness = false\n'
    (folder / "Cargo.toml").write_text(f"""[package]
name = "{name}"
version = "0.1.0"
edition = "2024"
publish = false
{targets}
[{"dev-dependencies" if bench is not None else "dependencies"}]
{dependencies}

[workspace]
""")
    subprocess.run(["cargo", "fetch", "-q"], cwd=folder, check=True)
    return folder


def make_crate(parent, tool):
    """A new crate whose one bench target uses `tool`."""
    spec = TOOLS[tool]
    name = f"adopt-{tool.replace('@', '-')}"
    return new_crate(parent / name, name, spec["dep"], bench=spec["bench"])


def first_table(crate, tool, target):
    """Crates compiled, seconds of `cargo bench --no-run` in a clean target
    folder, then seconds from `cargo bench` (built) to the first line of
    the table."""
    env = {**os.environ, "CARGO_TARGET_DIR": str(target)}
    start = time.monotonic()
    built = subprocess.run(["cargo", "bench", "--bench", "one", "--no-run"],
                           cwd=crate, env=env, capture_output=True, text=True)
    build = time.monotonic() - start
    if built.returncode != 0:
        sys.exit(f"adoption-cost.py: {tool}'s bench did not build:\n{built.stderr[-2000:]}")
    start = time.monotonic()
    child = subprocess.Popen(["cargo", "bench", "--bench", "one"], cwd=crate, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    table = None
    for line in child.stdout:
        if TOOLS[tool]["first"].search(line):
            table = time.monotonic() - start
            break
    child.kill()
    child.communicate()
    if table is None:
        sys.exit(f"adoption-cost.py: {tool}'s bench printed no table")
    return built.stderr.count("Compiling "), build, table


REGEX_BUILDS = {
    "regex as the calibration loop builds it": 'regex = "1"',
    "regex as criterion 0.7 builds it":
        'regex = { version = "1", default-features = false, features = ["std"] }',
}


def regex_cost(rounds):
    """Wall and CPU seconds of building regex each way, in turn."""
    import resource
    with tempfile.TemporaryDirectory(prefix="adoption-regex-") as tmp:
        tmp = pathlib.Path(tmp)
        crates = {}
        for i, (name, dep) in enumerate(REGEX_BUILDS.items()):
            crates[name] = new_crate(
                tmp / f"regex-{i}", f"regex-{i}", dep,
                lib="pub fn compiles(p: &str) -> bool { regex::Regex::new(p).is_ok() }\n")
        figures = {name: [] for name in crates}
        for r in range(rounds):
            for name, crate in crates.items():
                target = tmp / f"target-{crate.name}-{r}"
                env = {**os.environ, "CARGO_TARGET_DIR": str(target)}
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.monotonic()
                subprocess.run(["cargo", "build", "--release", "-q"], cwd=crate, env=env,
                               check=True)
                wall = time.monotonic() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                figures[name].append((wall, cpu))
                subprocess.run(["rm", "-rf", str(target)], check=True)
        print("| build | wall s | CPU s |")
        print("|---|---|---|")
        for name, rows in figures.items():
            print(f"| {name} | {', '.join(f'{w:.1f}' for w, _ in rows)}"
                  f" | {', '.join(f'{c:.1f}' for _, c in rows)} |")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--regex":
        regex_cost(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
        return
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    with tempfile.TemporaryDirectory(prefix="adoption-") as tmp:
        tmp = pathlib.Path(tmp)
        crates = {tool: make_crate(tmp, tool) for tool in TOOLS}
        figures = {tool: [] for tool in TOOLS}
        for r in range(rounds):
            for tool, crate in crates.items():
                target = tmp / f"target-{tool.replace('@', '-')}-{r}"
                figures[tool].append(first_table(crate, tool, target))
                subprocess.run(["rm", "-rf", str(target)], check=True)
        print("| tool | crates compiled | build s | then to the first table, s | total s |")
        print("|---|---|---|---|---|")
        for tool, rows in figures.items():
            def column(f):
                return ", ".join(f(row) for row in rows)
            print(f"| {tool} | {column(lambda r: str(r[0]))} | {column(lambda r: f'{r[1]:.1f}')}"
                  f" | {column(lambda r: f'{r[2]:.1f}')} | {column(lambda r: f'{r[1] + r[2]:.1f}')} |")


if __name__ == "__main__":
    main()
