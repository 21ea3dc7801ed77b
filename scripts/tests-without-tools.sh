#!/usr/bin/env bash
# Runs the tests that need an outside tool twice: as found on this
# machine (PostgreSQL through pg_virtualenv, as .ci/run does), then with
# k6, nginx, Chromium and the PostgreSQL server out of reach, and prints
# how many passed and how many were reported ignored each way. A test
# whose tool is missing must be ignored, never passed (CONTRIBUTING.md,
# "Tests that need a tool").
#
#   scripts/tests-without-tools.sh
#
# Chromium is found at a fixed path, so the second run moves
# /usr/bin/chromium aside for its duration (root only; put back on exit).
set -euo pipefail
cd "$(dirname "$0")/.."
unset YARDSTICK_REQUIRE_TOOLS
tests=(--test http_k6 --test http_cli --test http_nginx --test http_tool_runs
  --test history_postgres --test report_cli --test counts_cli --test history_cli)

count() {
  # Sums libtest's result lines: passed, failed and ignored, and lists the
  # ignored tests with the tool each needs.
  awk '/^test result:/ { p += $4; f += $6; i += $8 }
       /\[needs / { print "  " $0 }
       END { printf "  %d passed, %d failed, %d ignored\n", p, f, i }'
}

run_both() {
  cargo test -q --no-fail-fast -p yardstick-cli "${tests[@]}" 2>&1
  cargo test -q --no-fail-fast -p demo-site --test browser 2>&1
}

cargo test -q --no-run -p yardstick-cli "${tests[@]}" 2>/dev/null
cargo test -q --no-run -p demo-site --test browser 2>/dev/null

echo "with the tools found here:"
if command -v pg_virtualenv >/dev/null 2>&1; then
  export -f run_both
  export tests_list="${tests[*]}"
  pg_virtualenv bash -c 'tests=($tests_list); run_both' | count
else
  run_both | count
fi

echo "without k6, nginx, Chromium and a PostgreSQL server:"
hidden=""
if [ -e /usr/bin/chromium ]; then
  mv /usr/bin/chromium /usr/bin/chromium.hidden-by-tests
  hidden=/usr/bin/chromium
  trap 'mv /usr/bin/chromium.hidden-by-tests "$hidden"' EXIT
fi
path=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do
  [ -x "$d/k6" ] || printf '%s:' "$d"
done)
(
  export PATH=${path%:} YARDSTICK_NGINX=/nonexistent
  unset PGHOST
  run_both
) | count
