#!/usr/bin/env bash
# One command for a newcomer: install everything, then build the bundled demo
# dealer into sites/brisbane-motor-group/dist (open its index.html, or run
# `node scripts/serve.mjs sites/brisbane-motor-group/dist`).
set -euo pipefail
source "$(dirname "$0")/lib/env.sh"
cd "$DEALERGEN_ROOT"
# dealergen is built with the dev profile, the build the test command runs
# (Cargo.toml [profile.dev]), so scripts/test.sh reuses most of its
# dependencies (not all: the tests' dev-dependencies turn on more features
# of some crates, which cargo then builds again). `cargo build --release -p dealergen` gives
# target/release/dealergen, the faster build the CI workflows and the
# benchmarks run. It needs nothing install.sh brings (crates come from
# crates.io), so it compiles while the tools install.
mkdir -p .tmp
build_log=.tmp/setup-build.log
cargo build -p dealergen >"$build_log" 2>&1 &
build_pid=$!
if ! bash scripts/install.sh; then
    kill "$build_pid" 2>/dev/null || true; wait "$build_pid" 2>/dev/null || true
    exit 1
fi
echo "== cargo build -p dealergen (log: $build_log)" >&2
if ! wait "$build_pid"; then
    cat "$build_log" >&2
    echo "setup: the build of dealergen failed (above)" >&2
    exit 1
fi
tail -n 1 "$build_log" >&2
# The demo stock's photos: real-size JPEGs in the sizes the pages ask for (generated, not committed).
node scripts/demo-stock/photos.mjs
DEMO=${DEMO:-brisbane-motor-group}
# The demo stock is dated (scripts/demo-stock/as-of.mjs): build it as of that
# day so its sold-recently cars, new arrivals and promo windows show as meant.
target/debug/dealergen build --dealer "$DEMO" --as-of "$(node scripts/demo-stock/as-of.mjs)"
echo
echo "Demo site: $DEALERGEN_ROOT/sites/$DEMO/dist/index.html"
echo "Serve it:  node scripts/serve.mjs sites/$DEMO/dist"
