#!/usr/bin/env bash
# A kept history of this repository, made on this machine: the bench at
# every commit of the first-parent line FROM..TO (FROM excluded), RUNS runs
# a commit, in one worktree and one target folder of its own, added to one
# history, then `yardstick history changes` over it. A history made in one
# sitting on one machine class is what `history changes` reads in CI, but
# its commits' runs follow each other within minutes, so a step in the
# machine's weather is a step at some commit too.
#
#   scripts/kept-history.sh FROM TO [BENCH] [RUNS]
#
# BENCH defaults to kernel, RUNS to 2. Output in target/kept-history/:
# runs/COMMIT-K.json, history.sqlite, changes.txt. docs/evaluation.md,
# "Change points", quotes a run of it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
from=$1 to=$2 bench=${3:-kernel} runs=${4:-2}
case $runs in '' | *[!0-9]* | 0) echo "kept-history.sh: RUNS: not a count of runs: $runs" >&2; exit 2 ;; esac
for rev in "$from" "$to"; do
  git rev-parse --verify -q "$rev^{commit}" >/dev/null \
    || { echo "kept-history.sh: $rev: not a commit of this repository" >&2; exit 2; }
done
root=$PWD
out=$root/target/kept-history
tree=$out/worktree
cargo build -q --locked --bin yardstick
rm -rf "$out/runs" "$out/history.sqlite"
mkdir -p "$out/runs"
git worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
git worktree prune
git worktree add -q -f --detach "$tree" "$from"
trap 'git -C "$root" worktree remove --force "$tree" 2>/dev/null || true' EXIT
export CARGO_TARGET_DIR=$out/target
for commit in $(git rev-list --first-parent --reverse "$from..$to"); do
  git -C "$tree" checkout -q --detach "$commit"
  echo "$(date -u +%T) $commit"
  (cd "$tree" && cargo bench -q --locked --bench "$bench" --no-run)
  for k in $(seq 1 "$runs"); do
    (cd "$tree" && cargo bench -q --locked --bench "$bench" -- --no-baseline -q \
      --save="$out/runs/$commit-$k.json" >/dev/null) || echo "  run $k failed"
  done
done
target/debug/yardstick history add "$out"/runs/*.json --history="$out/history.sqlite" >/dev/null
target/debug/yardstick history changes --history="$out/history.sqlite" --rev="$to" \
  | tee "$out/changes.txt"
