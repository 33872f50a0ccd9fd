# Sourced by the project's scripts: puts the project's Node 22 (npm package
# `node`, installed by scripts/install.sh) and cargo's bin first on PATH and
# keeps every tool quiet and offline.
DEALERGEN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export DEALERGEN_ROOT
export PATH="$DEALERGEN_ROOT/node_modules/node/bin:$DEALERGEN_ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export ASTRO_TELEMETRY_DISABLED=1
export WRANGLER_SEND_METRICS=false
export CLOUDFLARE_CF_FETCH_ENABLED=false
export XDG_CONFIG_HOME="$DEALERGEN_ROOT/.tools/xdg-config"
export NPM_CONFIG_UPDATE_NOTIFIER=false
export NPM_CONFIG_FUND=false
export NPM_CONFIG_AUDIT=false
