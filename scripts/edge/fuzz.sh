#!/usr/bin/env bash
# Bounded fuzz run of the edge worker (scripts/edge/fuzz.mjs); a benchmark,
# not part of scripts/test.sh. Installs schemathesis from PyPI into
# .tools/fuzz-venv (once, pinned), builds the worker if needed.
# Usage: scripts/edge/fuzz.sh [RANDOM_REQUESTS=2000] [EXAMPLES_PER_OPERATION=40]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$root/scripts/lib/env.sh"
cd "$root"
SCHEMATHESIS_VERSION=4.32.5
venv=.tools/fuzz-venv
if [ "$("$venv/bin/schemathesis" --version 2>/dev/null | grep -oE '[0-9.]+$' || true)" != "$SCHEMATHESIS_VERSION" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "schemathesis==$SCHEMATHESIS_VERSION"
fi
if [ ! -f edge/build/index_bg.wasm ] || [ -n "$(find edge/src edge/core/src rules/src -newer edge/build/index_bg.wasm -print -quit)" ]; then
    bash scripts/edge/build.sh
fi
exec timeout 900 node scripts/edge/fuzz.mjs "${1:-2000}" "${2:-40}"
