#!/usr/bin/env bash
# Installs what HTTP mode's tests and speed example use: nginx for the
# end-to-end test (which starts its own nginx on a loopback port), and the
# load tools `yardstick http --tool=...` hands pages to: ab (apache2-utils),
# wrk and h2load (nghttp2-client) from Debian, and oha, which no Debian
# package carries, from crates.io at a pinned version. Only what is missing
# is installed.
set -euo pipefail

missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v ab >/dev/null 2>&1 || missing+=(apache2-utils)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v h2load >/dev/null 2>&1 || missing+=(nghttp2-client)

if [ "${#missing[@]}" -gt 0 ]; then
  echo "http-setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# oha's build takes about 4.5 minutes (266 s measured) on the 2-core VM, once per
# machine (cargo install keeps it in ~/.cargo/bin); the version is pinned
# so that the adapter's end-to-end test meets the oha its fixtures came
# from (tests/fixtures/http/oha-1.16.0/).
if ! command -v oha >/dev/null 2>&1; then
  echo "http-setup: installing oha 1.16.0 from crates.io"
  cargo install oha --locked --version 1.16.0 --quiet
fi
echo "http-setup: nginx $(nginx -v 2>&1 | sed 's/.*nginx\///' || true), $(command -v ab wrk h2load oha | tr '\n' ' ')$(oha --version 2>/dev/null || true)"
