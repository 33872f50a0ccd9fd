#!/usr/bin/env bash
# Bounded loopback load test of the edge worker (see scripts/bench-edge.mjs).
# Not part of scripts/test.sh: it is a benchmark. Builds the worker if needed.
# Usage: scripts/bench-edge.sh [N=500] [C=16] [FLOOD=0] [STEP_UP=0] (FLOOD: posts of the
# flood case, e.g. 10000; STEP_UP: junk posts of the step-up case, e.g. 3000)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/lib/env.sh"
cd "$root"
if [ ! -f edge/build/index_bg.wasm ] || [ -n "$(find edge/src edge/core/src rules/src -newer edge/build/index_bg.wasm -print -quit)" ]; then
    bash scripts/edge/build.sh
fi
exec timeout 900 node scripts/bench-edge.mjs "${1:-500}" "${2:-16}" "${3:-0}" "${4:-0}"
