#!/usr/bin/env python3
"""Writes tests/fixtures/criterion/<version>/ from the real tool: builds a tiny
criterion bench at each pinned version from the registry, runs it three times
and copies the JSON files criterion wrote under target/criterion/.

    python3 scripts/criterion-fixtures.py [--check] [VERSION...]

The three runs, of three benches in group `tiny` (`sum`, `xor`, `sort`):
1. as they are, saved as criterion's default baseline: `base/`;
2. as they are, saved as the named baseline `fast` (--save-baseline);
3. with `xor` doing 1.5 times the work (TINY_SLOW=1), compared with `fast`
   (--baseline): `new/`, and criterion's own estimate of the change in
   `change/`.

The tests read the committed files, so `cargo test` neither builds criterion
nor needs the registry. With --check, the files are written to a temporary
folder and only their layout is compared with the committed one (the
figures differ from run to run): what .ci/run may use to see that the
script still works.
"""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "criterion"
# The versions whose layout yardstick reads (crates/document/src/import/criterion.rs).
VERSIONS = ["0.5.1", "0.6.0", "0.7.0", "0.8.2"]
KEPT = {"benchmark.json", "estimates.json", "sample.json", "tukey.json"}

MANIFEST = """[package]
name = "tiny"
version = "0.0.0"
edition = "2021"
publish = false

[dev-dependencies]
criterion = {{ version = "={version}", default-features = false, features = ["cargo_bench_support"] }}

[[bench]]
name = "tiny"
harness = false
"""

BENCH = """use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;

fn mix(n: u64) -> u64 {
    (0..n).fold(0u64, |a, x| a.rotate_left(5) ^ x.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

fn benches(c: &mut Criterion) {
    let slow = std::env::var_os("TINY_SLOW").is_some();
    let mut g = c.benchmark_group("tiny");
    g.bench_function("sum", |b| b.iter(|| (0..black_box(3000u64)).sum::<u64>()));
    g.bench_function("xor", |b| {
        b.iter(|| mix(black_box(if slow { 3000 } else { 2000 })))
    });
    g.bench_function("sort", |b| {
        b.iter(|| {
            let mut v: Vec<u64> = (0..black_box(500u64)).map(|x| mix(x) % 1000).collect();
            v.sort_unstable();
            v
        })
    });
    g.finish();
}

criterion_group! {
    name = tiny;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = benches
}
criterion_main!(tiny);
"""


def run(cmd, cwd, env=None):
    done = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit(f"criterion-fixtures: {' '.join(cmd)} failed:\n{done.stdout[-3000:]}")


def generate(version, out):
    with tempfile.TemporaryDirectory(prefix="tiny-criterion-") as tmp:
        project = pathlib.Path(tmp)
        (project / "benches").mkdir()
        (project / "Cargo.toml").write_text(MANIFEST.format(version=version))
        (project / "benches" / "tiny.rs").write_text(BENCH)
        bench = ["cargo", "bench", "-q", "--bench", "tiny", "--"]
        # criterion writes under the target folder: this project's own.
        env = dict(os.environ, CARGO_TARGET_DIR=str(project / "target"))
        run(bench, project, env)
        run(bench + ["--save-baseline", "fast"], project, env)
        env["TINY_SLOW"] = "1"
        run(bench + ["--baseline", "fast"], project, env)
        written = project / "target" / "criterion"
        for path in sorted(written.rglob("*.json")):
            if path.name in KEPT and "report" not in path.parts:
                target = out / path.relative_to(written)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)


def layout(folder):
    """Each file's path with the keys of its object, which yardstick reads:
    a renamed field is a change of layout, as a moved file is."""
    import json
    files = []
    for path in sorted(folder.rglob("*.json")):
        data = json.loads(path.read_text())
        keys = sorted(data) if isinstance(data, dict) else []
        files.append((path.relative_to(folder).as_posix(), keys))
    return files


def main():
    args = sys.argv[1:]
    check = "--check" in args
    named = [a for a in args if a != "--check"]
    unknown = [v for v in named if v not in VERSIONS]
    if unknown:
        sys.exit(f"criterion-fixtures: {', '.join(unknown)} is not one of {', '.join(VERSIONS)}")
    for version in named or VERSIONS:
        if check:
            with tempfile.TemporaryDirectory() as tmp:
                generate(version, pathlib.Path(tmp))
                if layout(pathlib.Path(tmp)) != layout(FIXTURES / version):
                    sys.exit(f"criterion-fixtures: criterion {version} wrote another layout "
                             "than the committed fixtures")
            print(f"criterion {version}: the layout matches the committed fixtures")
        else:
            out = FIXTURES / version
            shutil.rmtree(out, ignore_errors=True)
            generate(version, out)
            print(f"criterion {version}: {len(layout(out))} files in {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
