#!/usr/bin/env bash
# Installs what building the edge worker needs, skipping whatever is already
# there at the right version:
#   - the wasm32-unknown-unknown Rust target,
#   - worker-build 0.8.7 (matches the `worker` 0.8.x crate),
#   - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock.
# worker-build would otherwise download wasm-bindgen, wasm-opt and esbuild from
# GitHub, which these machines cannot reach; it reads WASM_BINDGEN_BIN,
# WASM_OPT_BIN and ESBUILD_BIN first. When sourced, this script exports them
# (wasm-opt and esbuild come from the root node_modules: npm binaryen@132 and
# wrangler's esbuild; run `npm ci` at the repo root first).
#
# Usage: scripts/edge/tools.sh              (install only)
#        scripts/edge/tools.sh --cargo-only (the Rust target and the two cargo
#                                            installs; no check of node_modules)
#        source scripts/edge/tools.sh       (install, then export the variables)

WORKER_BUILD_VERSION=0.8.7

_edge_tools() {
    local root cargo_bin wb_version lock_version have
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)" || return 1
    cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
    case ":$PATH:" in *":$cargo_bin:"*) ;; *) export PATH="$cargo_bin:$PATH" ;; esac

    if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
        echo "edge tools: adding Rust target wasm32-unknown-unknown" >&2
        rustup target add wasm32-unknown-unknown || return 1
    fi

    # Both tools are build-time helpers run once or twice per test run, so
    # they are compiled for a quick install, not for speed: opt-level 0,
    # no LTO, no debug info (their own release profiles ask for fat LTO and
    # one codegen unit). They share one target folder so common crates
    # build once.
    local -x CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
        CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=0 \
        CARGO_PROFILE_RELEASE_INCREMENTAL=false
    local -x CARGO_TARGET_DIR="$root/.tools/cargo-install-target"
    wb_version="$(_edge_version worker-build)"
    if [ "$wb_version" != "$WORKER_BUILD_VERSION" ]; then
        echo "edge tools: installing worker-build $WORKER_BUILD_VERSION (was: ${wb_version:-none}; 4 to 5 min on 2 cores)" >&2
        cargo install worker-build --version "$WORKER_BUILD_VERSION" --locked || return 1
    fi

    # The lock file names the wasm-bindgen the worker links against; the CLI
    # must be the very same version or the generated glue does not match.
    lock_version="$(_edge_lock_version "$root/Cargo.lock")"
    if [ -z "$lock_version" ]; then
        (cd "$root" && cargo metadata --format-version 1 >/dev/null) || return 1
        lock_version="$(_edge_lock_version "$root/Cargo.lock")"
    fi
    if [ -z "$lock_version" ]; then
        echo "edge tools: no wasm-bindgen in Cargo.lock (is edge/ a workspace member?)" >&2
        return 1
    fi
    have="$(_edge_version "$cargo_bin/wasm-bindgen")"
    if [ "$have" != "$lock_version" ]; then
        echo "edge tools: installing wasm-bindgen-cli $lock_version (was: ${have:-none})" >&2
        # The crates wasm-bindgen spends its run in (reading, rewriting and
        # writing the worker's wasm) at opt-level 1: at 0 its run on the
        # worker is several times slower.
        local hot=() crate
        for crate in walrus wasmparser wasm-encoder wasm-bindgen-cli-support wasm-bindgen-wasm-interpreter \
            wasm-bindgen-externref-xform wasm-bindgen-multi-value-xform wasm-bindgen-threads-xform \
            wasm-bindgen-wasm-conventions id-arena leb128 leb128fmt gimli hashbrown indexmap; do
            hot+=(--config "profile.release.package.$crate.opt-level=1")
        done
        # Not --locked: its lock pins a webpki-roots that no longer builds.
        # Only the wasm-bindgen binary (not the test runner nor wasm2es6js),
        # and without the TLS stack its default feature brings (rustls and
        # ring): it downloads nothing here.
        cargo "${hot[@]}" install wasm-bindgen-cli --version "=$lock_version" --force \
            --no-default-features --bin wasm-bindgen || return 1
    fi

    # Compiling is all the background install in install.sh asks for; the
    # npm binaries below may still be on their way.
    [ "${1:-}" = --cargo-only ] && return 0

    export WASM_BINDGEN_BIN="$cargo_bin/wasm-bindgen"
    export WASM_OPT_BIN="$root/node_modules/binaryen/bin/wasm-opt"
    export ESBUILD_BIN="$root/node_modules/@esbuild/linux-x64/bin/esbuild"
    local bin
    for bin in "$WASM_OPT_BIN" "$ESBUILD_BIN"; do
        if [ ! -x "$bin" ]; then
            echo "edge tools: $bin is missing; run 'npm ci' at the repo root" >&2
            return 1
        fi
    done
}

# Prints the x.y.z in `<tool> --version`, or nothing if the tool is missing.
_edge_version() {
    { "$1" --version 2>/dev/null || true; } | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n1 || true
}

_edge_lock_version() {
    awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' "$1"
}

if (return 0 2>/dev/null); then
    _edge_tools
else
    set -euo pipefail
    _edge_tools "$@"
fi
