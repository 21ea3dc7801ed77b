#!/usr/bin/env bash
# Runs `cargo test --workspace` N times in a row and stops at the first
# failure: a test that depends on the machine's speed shows up here, not
# in someone else's CI run.
#
#   scripts/flake-check.sh N          # on the machine as it is
#   scripts/flake-check.sh N --hog    # with a CPU hog on every core
#
# The hog is one `yes > /dev/null` per online CPU (not per CPU this shell
# may use), started before the first run and ended by its process id when
# the script exits; each also stops by itself after two hours, should the
# script be killed outright. The tests are built once first, so every run
# times only the tests, with the tools .ci/run installs required as there
# (run .ci/http-setup.sh first, and install valgrind). Each failed
# run's output is kept in target/flake-check/.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/flake-check.sh N [--hog]" >&2
  exit 2
}
[ $# -ge 1 ] || usage
runs=$1
[[ $runs =~ ^[1-9][0-9]*$ ]] || usage
hog=0
case "${2:-}" in
  "") ;;
  --hog) hog=1 ;;
  *) usage ;;
esac

out=target/flake-check
mkdir -p "$out"
export YARDSTICK_REQUIRE_TOOLS="nginx ab wrk h2load valgrind"
cargo test --workspace --locked --no-run --quiet

hogs=()
stop_hogs() {
  for pid in "${hogs[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${hogs[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
}
trap stop_hogs EXIT
if [ "$hog" = 1 ]; then
  cores=$(getconf _NPROCESSORS_ONLN)
  for _ in $(seq "$cores"); do
    timeout 7200 yes >/dev/null &
    hogs+=("$!")
  done
  echo "flake-check: CPU hog on $cores cores (processes ${hogs[*]})"
fi

passed=0
for k in $(seq "$runs"); do
  log="$out/run-$k.log"
  start=$(date +%s)
  if cargo test --workspace --locked >"$log" 2>&1; then
    passed=$((passed + 1))
    echo "flake-check: run $k of $runs passed in $(($(date +%s) - start)) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
    rm -f "$log"
  else
    echo "flake-check: run $k of $runs FAILED in $(($(date +%s) - start)) s; output in $log"
    grep -E "^test .* FAILED|^---- |panicked at" "$log" | head -20 || true
    echo "flake-check: $passed passed, 1 failed$([ "$hog" = 1 ] && echo ' (CPU hog)')"
    exit 1
  fi
done
echo "flake-check: $passed passed, 0 failed$([ "$hog" = 1 ] && echo ' (CPU hog)')"
