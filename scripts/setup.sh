#!/usr/bin/env bash
# One command for a newcomer: install everything, then build the bundled demo
# dealer into sites/brisbane-motor-group/dist (open its index.html, or run
# `node scripts/serve.mjs sites/brisbane-motor-group/dist`).
set -euo pipefail
source "$(dirname "$0")/lib/env.sh"
cd "$DEALERGEN_ROOT"
bash scripts/install.sh
cargo build --release -p dealergen
# The demo stock's photos: real-size JPEGs in the sizes the pages ask for (generated, not committed).
node scripts/demo-stock/photos.mjs
DEMO=${DEMO:-brisbane-motor-group}
# The demo stock is dated (scripts/demo-stock/as-of.mjs): build it as of that
# day so its sold-recently cars, new arrivals and promo windows show as meant.
target/release/dealergen build --dealer "$DEMO" --as-of "$(node scripts/demo-stock/as-of.mjs)"
echo
echo "Demo site: $DEALERGEN_ROOT/sites/$DEMO/dist/index.html"
echo "Serve it:  node scripts/serve.mjs sites/$DEMO/dist"
