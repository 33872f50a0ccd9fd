#!/usr/bin/env bash
# One command for a newcomer: install everything, then build the bundled demo
# dealer into sites/brisbane-motor-group/dist (open its index.html, or run
# `node scripts/serve.mjs sites/brisbane-motor-group/dist`).
set -euo pipefail
source "$(dirname "$0")/lib/env.sh"
cd "$DEALERGEN_ROOT"
bash scripts/install.sh
cargo build --release -p dealergen
DEMO=${DEMO:-brisbane-motor-group}
target/release/dealergen build --dealer "$DEMO"
echo
echo "Demo site: $DEALERGEN_ROOT/sites/$DEMO/dist/index.html"
echo "Serve it:  node scripts/serve.mjs sites/$DEMO/dist"
