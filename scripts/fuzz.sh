#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for SECONDS each, starting
# from the committed seeds (fuzz/seeds/, made by scripts/fuzz-seeds.py),
# and prints one line per target: executions, executions per second (both
# from libFuzzer's final stats), the working corpus and the result.
#
#   scripts/fuzz.sh 20                 # every target, 20 s each
#   scripts/fuzz.sh 120 router url     # two targets, two minutes each
#   scripts/fuzz.sh --part=1/4 6       # the second quarter of the targets
#                                      # (in `cargo fuzz list` order, every
#                                      # 4th from the second), 6 s each (CI)
#   scripts/fuzz.sh --part=1/4 --build-only   # only build them
#
# With --part, only the chosen targets are built and linked (the
# dependencies, built once for all, take nearly all of the build's time).
# Needs cargo-fuzz (cargo install cargo-fuzz --locked) and a nightly
# compiler: `cargo +nightly` where rustup has one, else RUSTC_BOOTSTRAP=1.
# New inputs go to $CARGO_TARGET_DIR/fuzz-corpus/TARGET (kept between runs,
# never committed); a crash is written to fuzz/artifacts/TARGET/ and makes
# the script exit 1. Reproduce one with
#   (cd fuzz && cargo +nightly fuzz run -a -s none TARGET artifacts/TARGET/crash-...)
set -euo pipefail
cd "$(dirname "$0")/.."

part=
build_only=
while [ "$#" -gt 0 ]; do
  case $1 in
    --part=*) part=${1#--part=} ;;
    --build-only) build_only=1 ;;
    *) break ;;
  esac
  shift
done
if [ -n "$part" ]; then
  index=${part%/*}
  parts=${part#*/}
  case $index/$parts in
    */*/* | /* | */ | *[!0-9/]*) bad=1 ;;
    *) index=$((10#$index)) parts=$((10#$parts)) bad=$(( parts == 0 || index >= parts )) ;;
  esac
  if [ "$bad" -ne 0 ]; then
    echo "scripts/fuzz.sh: --part must be I/N with 0 <= I < N (got '$part')" >&2
    exit 2
  fi
fi

if [ -z "$build_only" ]; then
  seconds=${1:-}
  case $seconds in
    '' | *[!0-9]* | 0)
      echo "scripts/fuzz.sh: SECONDS must be a whole number above 0 (usage: scripts/fuzz.sh [--part=I/N] SECONDS [TARGET...])" >&2
      exit 2
      ;;
  esac
  shift
fi

if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  cargo=(cargo +nightly)
else
  export RUSTC_BOOTSTRAP=1
  cargo=(cargo)
fi
if ! "${cargo[@]}" fuzz --version >/dev/null 2>&1; then
  echo "scripts/fuzz.sh: cargo-fuzz is not installed (cargo install cargo-fuzz --locked)" >&2
  exit 2
fi

root=$PWD
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/fuzz/target}
# Release code with debug assertions (an overflow is a crash too), without
# a sanitizer: the targets are safe Rust, and panics are what is sought.
flags=(-O -a -s none)

cd fuzz
if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <("${cargo[@]}" fuzz list)
fi
if [ -n "$part" ]; then
  chosen=()
  for i in "${!targets[@]}"; do
    if [ $((i % parts)) -eq "$index" ]; then
      chosen+=("${targets[$i]}")
    fi
  done
  echo "scripts/fuzz.sh: part $index of 0-$((parts - 1)): ${chosen[*]} (${#chosen[@]} of ${#targets[@]} targets)"
  targets=("${chosen[@]}")
fi
seeds_of() {
  case $1 in
    template_*) echo template ;;
    tool_*) echo "${1#tool_}" ;;
    run_document) echo run ;;
    compare_runs) echo compare ;;
    *) echo "$1" ;;
  esac
}
for t in "${targets[@]}"; do
  if [ ! -d "seeds/$(seeds_of "$t")" ]; then
    echo "scripts/fuzz.sh: no target $t with seeds in fuzz/seeds/$(seeds_of "$t")" >&2
    exit 2
  fi
done
if [ -n "$part" ] || [ "$#" -gt 0 ]; then
  for t in "${targets[@]}"; do
    "${cargo[@]}" fuzz build "${flags[@]}" "$t"
  done
else
  "${cargo[@]}" fuzz build "${flags[@]}"
fi

if [ -n "$build_only" ]; then
  exit 0
fi

work=$CARGO_TARGET_DIR/fuzz-corpus
crashes=0
printf '%-18s %12s %9s %7s  %s\n' target executions execs/s corpus result
for t in "${targets[@]}"; do
  seeds=seeds/$(seeds_of "$t")
  if [ ! -d "$seeds" ]; then
    echo "scripts/fuzz.sh: no target $t with seeds in fuzz/$seeds" >&2
    exit 2
  fi
  mkdir -p "$work/$t" "artifacts/$t"
  extra=()
  case $t in run_document | compare_runs) extra=(-dict=dicts/run.dict) ;; esac
  log=$work/$t.log
  status=0
  "${cargo[@]}" fuzz run "${flags[@]}" "$t" "$work/$t" "$seeds" -- \
    -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
    "${extra[@]}" >"$log" 2>&1 || status=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  corpus=$(find "$work/$t" -type f | wc -l)
  if [ "$status" -eq 0 ]; then
    result=ok
  else
    crashes=$((crashes + 1))
    artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    result="CRASH (exit $status) ${artifact:-see $log}"
  fi
  printf '%-18s %12s %9s %7s  %s\n' "$t" "${execs:--}" "${rate:--}" "$corpus" "$result"
done
if [ "$crashes" -gt 0 ]; then
  echo "scripts/fuzz.sh: $crashes target(s) crashed; logs in $work" >&2
  exit 1
fi
