#!/usr/bin/env bash
# Wall time and peak memory of the default micro suite (all reference probes,
# 30 + 3 iterations, calibration twice), build excluded, plus the harness's
# own cost per iteration. Prints the figures the core issue asks for.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --bench micro --no-run --locked 2>/dev/null
bin=$(cargo bench --bench micro --no-run --locked --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "micro" and m.get("executable"):
        print(m["executable"])')
python3 - "$bin" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
done = subprocess.run([sys.argv[1], "--bench", "--no-baseline", "-q"], stdout=subprocess.DEVNULL)
wall = time.monotonic() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"default suite: {wall:.1f} s wall (target < 60 s), exit {done.returncode}")
print(f"default suite: peak resident memory {peak:.1f} MB (probes' data included)")
PY
cargo run --release --quiet --example harness_cost
