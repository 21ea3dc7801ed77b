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
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$self")/.."
if [ $# -lt 2 ]; then
  sed -n '2,14p' "$self" | sed 's/^# \{0,1\}//'
  exit 2
fi
from=$1 to=$2 bench=${3:-kernel} runs=${4:-2}
case $runs in '' | *[!0-9]* | 0) echo "kept-history.sh: RUNS: not a count of runs: $runs" >&2; exit 2 ;; esac
for rev in "$from" "$to"; do
  git rev-parse --verify -q "$rev^{commit}" >/dev/null \
    || { echo "kept-history.sh: $rev: not a commit of this repository" >&2; exit 2; }
done
git merge-base --is-ancestor "$from" "$to" \
  || { echo "kept-history.sh: FROM $from is not an ancestor of TO $to" >&2; exit 2; }
commits=$(git rev-list --first-parent --reverse "$from..$to")
[ -n "$commits" ] || { echo "kept-history.sh: $from..$to: no commit on the first-parent line" >&2; exit 2; }
root=$PWD
out=$root/target/kept-history
tree=$out/worktree
# The yardstick command of this checkout reads the runs, whatever the
# commits measured.
yardstick() { cargo run -q --locked --bin yardstick -- "$@"; }
rm -rf "$out/runs" "$out/history.sqlite"
mkdir -p "$out/runs"
git worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
git worktree prune
git worktree add -q -f --detach "$tree" "$from"
trap 'git -C "$root" worktree remove --force "$tree" 2>/dev/null || true' EXIT
export CARGO_TARGET_DIR=$out/target
for commit in $commits; do
  git -C "$tree" checkout -q --detach "$commit"
  echo "$(date -u +%T) $commit"
  if ! (cd "$tree" && cargo bench -q --locked --bench "$bench" --no-run); then
    echo "  the bench did not build: no runs of $commit"
    continue
  fi
  for k in $(seq 1 "$runs"); do
    (cd "$tree" && cargo bench -q --locked --bench "$bench" -- --no-baseline -q \
      --save="$out/runs/$commit-$k.json" >/dev/null) || echo "  run $k failed"
  done
done
runs=("$out"/runs/*.json)
[ -e "${runs[0]}" ] || { echo "kept-history.sh: no run was made" >&2; exit 1; }
unset CARGO_TARGET_DIR
yardstick history add "${runs[@]}" --history="$out/history.sqlite" >/dev/null
yardstick history changes --history="$out/history.sqlite" --rev="$to" | tee "$out/changes.txt"
