#!/usr/bin/env bash
# Integration tests of the edge worker in workerd (wrangler dev --local) with
# local D1 and KV in a fresh temporary directory: edge/tests/*.test.mjs.
# Rebuilds the worker first unless edge/build/ is newer than every source
# it depends on (EDGE_REBUILD=1 forces a build).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
# Node >= 22 (wrangler 4 refuses older) comes from the root node_modules.
export PATH="$root/node_modules/.bin:$PATH"

wasm=edge/build/index_bg.wasm
stale=""
if [ "${EDGE_REBUILD:-0}" = 1 ] || [ ! -f "$wasm" ] || [ ! -f edge/build/worker/shim.mjs ]; then
    stale=yes
else
    stale="$(find edge/src edge/Cargo.toml edge/core/src edge/core/Cargo.toml rules/src rules/Cargo.toml Cargo.lock Cargo.toml -newer "$wasm" -print -quit)"
fi
if [ -n "$stale" ]; then
    scripts/edge/build.sh
else
    echo "edge test: reusing $wasm (up to date)"
fi

# Wrangler's own state and config stay inside the project; no telemetry.
export WRANGLER_SEND_METRICS=false CLOUDFLARE_CF_FETCH_ENABLED=false
export XDG_CONFIG_HOME="$root/.wrangler/config"
# The test files run three at a time (node's default on two cores is one):
# each starts its own wrangler dev with its own port, D1 and KV, and most
# of a file's time is spent waiting on the worker, the queue or the cron.
exec node --test --test-concurrency="${EDGE_TEST_JOBS:-3}" --test-reporter=spec "edge/tests/**/*.test.mjs"
