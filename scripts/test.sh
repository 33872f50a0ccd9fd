#!/usr/bin/env bash
# Runs every test and quality gate (what CI runs through .ci/run):
# installs what is missing, then formatting, lints, Rust tests, TypeScript,
# Vitest, astro check, the demo build, end-to-end tests in Chromium, size
# budgets and the worker's integration tests. Prints a summary; exits
# non-zero when any gate failed.
set -uo pipefail
source "$(dirname "$0")/lib/env.sh"
cd "$DEALERGEN_ROOT"

bash scripts/install.sh || { echo "install failed" >&2; exit 1; }
source scripts/edge/tools.sh >/dev/null || { echo "edge tools missing" >&2; exit 1; }

passed=0; failed=0; failures=(); failure_logs=(); timings=()
# Each gate's output also goes to a file, so that the end of the run can
# repeat what a failed gate printed: a CI record often keeps only the last
# lines of a long run.
GATE_LOGS=.tmp/gates
rm -rf "$GATE_LOGS"; mkdir -p "$GATE_LOGS"
gate() {
    local name=$1; shift
    printf '\n==== %s\n' "$name"
    local t0=$SECONDS log ok out tee_pid
    log="$GATE_LOGS/$(( passed + failed + 1 )).log"
    # Through tee on a descriptor of its own, not a pipe: a process a gate
    # left behind, holding its output, would keep a pipe's gate from ending.
    # tee is given up to 5 s to finish. ($! is set reliably only by exec.)
    exec {out}> >(tee "$log")
    tee_pid=$!
    "$@" >&"$out" 2>&1
    ok=$?
    exec {out}>&-
    for _ in $(seq 50); do kill -0 "$tee_pid" 2>/dev/null || break; sleep 0.1; done
    record "$name" "$ok" "$((SECONDS - t0))s" "$log"
}
# record <name> <exit code> <time shown> <log>: the gate's line in the summary.
record() {
    if [ "$2" -eq 0 ]; then
        passed=$((passed + 1)); timings+=("ok     $1 ($3)")
    else
        failed=$((failed + 1)); failures+=("$1"); failure_logs+=("$4"); timings+=("FAILED $1 ($3)")
    fi
}

# Gates that run together: each started with gate_start (its output to its
# own log), then gates_wait waits for them in the order they started and
# shows each one's output whole, with its own time. For checks that each
# keep one core busy (tsc, ESLint, astro check are single-threaded): two
# or three at once use both cores.
bg_names=(); bg_pids=(); bg_logs=(); bg_count=0
gate_start() {
    local name=$1; shift
    # Numbered over the whole run, not per group: a later group's gate must
    # not overwrite the log of an earlier group's failed one (the summary
    # repeats it at the end).
    bg_count=$((bg_count + 1))
    local log="$GATE_LOGS/bg-$bg_count.log"
    (
        t0=$SECONDS
        "$@" >"$log" 2>&1
        rc=$?
        echo "$rc $((SECONDS - t0))" >"$log.end"
    ) &
    bg_names+=("$name"); bg_pids+=("$!"); bg_logs+=("$log")
}
gates_wait() {
    local i rc secs
    for i in "${!bg_names[@]}"; do
        wait "${bg_pids[$i]}"
        printf '\n==== %s\n' "${bg_names[$i]}"
        cat "${bg_logs[$i]}"
        read -r rc secs <"${bg_logs[$i]}.end" || { rc=1; secs=0; }
        record "${bg_names[$i]}" "$rc" "${secs}s, together" "${bg_logs[$i]}"
    done
    bg_names=(); bg_pids=(); bg_logs=()
}

# The gates run the debug build of dealergen that cargo test compiles and
# leaves at target/debug/dealergen (its dependencies optimised, Cargo.toml
# [profile.dev]): the code is compiled once for a check, not again with the
# release profile. Not `cargo run`: its build (the dev profile) differs
# from cargo test's (the test profile) and would compile the crate again.
export DEALERGEN_BIN="$DEALERGEN_ROOT/target/debug/dealergen"
dealergen() { "$DEALERGEN_BIN" "$@"; }

DEMO=brisbane-motor-group
# The demo feeds are dated relative to one instant; building at it gives the
# same visible cars (sold ones inside their window, new arrivals) on every
# run, whatever today's date (scripts/demo-stock/as-of.mjs). The e2e tests
# set the browser's clock to it too (site.json built_at).
AS_OF=$(node scripts/demo-stock/as-of.mjs)
# astro check: the .astro components and pages, which tsc does not read and
# astro build does not type-check. Warnings fail too (hints are shown only).
astro_check() { npx astro check --root "$1" --minimumFailingSeverity warning; }
# An e2e suite: node:test (scripts/e2e/common.mjs createRunner), one line per test.
e2e() { node --test-reporter=spec "scripts/e2e/$1.mjs" "${@:2}"; }
gate "cargo fmt --check"   cargo fmt --all --check
gate "cargo clippy"        cargo clippy --workspace --all-targets --quiet -- -D warnings
gate "cargo test"          cargo test --workspace --quiet
# The static checks of the scripts and the site's code, together.
gate_start "CI workflows (actionlint)" bash scripts/ci-lint.sh
# No crate has a loop between its modules or its files (the checker's own case first).
gate_start "module loops"  sh -c 'node scripts/module-cycles.mjs --self-test && node scripts/module-cycles.mjs'
gate_start "tsc --noEmit"  npx tsc --noEmit -p astro-app
# The JS/TS linter (eslint.config.mjs): the site's code and the scripts; React hooks rules included.
gate_start "eslint"        npx eslint --max-warnings 0 .
gate_start "astro check (astro-app)" astro_check astro-app
gates_wait
gate "vitest"              npx vitest run --root astro-app
# The demo stock's photos (real-size JPEGs and their sizes; generated, not committed).
gate "demo photos"         node scripts/demo-stock/photos.mjs
gate "dealergen check --all" dealergen check --all
gate "dealergen build --all" dealergen build --all --as-of "$AS_OF"
# These only read the built demo sites; together.
gate_start "site.json fields read by pages" node scripts/site-data-reads.mjs
# The generated site's tsconfig takes in its route files and astro-app/src,
# typed against this dealer's data.
gate_start "astro check (sites/$DEMO)" astro_check "sites/$DEMO"
gate_start "budgets" node scripts/budget.mjs "sites/$DEMO/dist"
# The W3C Nu Html Checker on every page type and state of the three demo dealers.
gate_start "valid HTML (W3C Nu checker)" node scripts/html-check.mjs
# Every car page's JSON-LD against Google's vehicle listing properties.
gate_start "structured data (Google vehicle listing)" node scripts/structured-data-check.mjs
# The older platform's addresses on each demo dealer, in workerd and by
# `dealergen migrate-check`: the same answers, each a page within 2 hops.
gate_start "migrate-check = workerd (old addresses)" e2e migrate \
    sites/brisbane-motor-group/dist sites/perth-auto-collective/dist sites/sunshine-coast-toyota/dist
gates_wait
# The suites that only read the built demo sites, three at a time (each
# with its own served site and browser; scripts/e2e/run.mjs prints each
# suite's output whole and its time). The car page's cases are spread
# over the three demo dealers (certified Toyotas, caravans, the phone
# footer...): each must be in one of them. Forms: every shopper form (the
# API answered in the browser), and Turnstile on the demo dealer that has
# the captcha on. PR pictures builds its fixture dealer and the head of a
# demo pull request (the built demo site is its base).
# The worker's wasm (the worker's size profile; from a fresh clone its
# dependencies too, 9 to 11 min beside the suites here) builds while those
# suites run: they spend much of their time waiting on their browsers. The
# edge gate waits for it and shows its output.
edge_build_log="$GATE_LOGS/edge-build.log"
bash scripts/edge/build.sh >"$edge_build_log" 2>&1 &
edge_build_pid=$!
edge_integration() {
    local rc=0
    wait "$edge_build_pid" || rc=$?
    cat "$edge_build_log"
    [ "$rc" -eq 0 ] || { echo "the edge build failed (above)"; return "$rc"; }
    bash scripts/edge/test.sh
}
gate "e2e site, keyboard, search, car page, forms, content, PR pictures (Chromium)" \
    node scripts/e2e/run.mjs --jobs 3 \
    "pictures sites/$DEMO/dist" \
    "site sites/$DEMO/dist" \
    "car-page sites/brisbane-motor-group/dist sites/perth-auto-collective/dist sites/sunshine-coast-toyota/dist" \
    "search sites/$DEMO/dist" \
    "forms sites/$DEMO/dist sites/sunshine-coast-toyota/dist" \
    "keyboard sites/$DEMO/dist" \
    "content sites/$DEMO/dist"
gate "edge build + integration" edge_integration
# `dealergen dev`: the case with the worker needs edge/build (built by the
# gate above), so cargo test leaves it out; the overlay and reload in Chromium.
# --workspace, not -p dealergen: the same features as the cargo test gate,
# so nothing is compiled again (-p dealergen rebuilt three crates, ~30 s).
gate "dealergen dev + worker" cargo test --workspace --quiet --test integration dev:: -- --ignored
gate "e2e dealergen dev (Chromium)" e2e dev
gate "e2e full stack (site + worker)" e2e fullstack "sites/$DEMO/dist"

printf '\n==== summary\n'
printf '%s\n' "${timings[@]}"
# The budget of the whole run: every engineer and every CI run
# waits for it, so passing it is said, not hidden in the timings above.
TEST_BUDGET_SECS=${TEST_BUDGET_SECS:-1200}
printf 'total: %dm %02ds (budget %dm)\n' $((SECONDS / 60)) $((SECONDS % 60)) $((TEST_BUDGET_SECS / 60))
if [ "$SECONDS" -gt "$TEST_BUDGET_SECS" ]; then
    echo "warning: the test command took longer than its budget of $((TEST_BUDGET_SECS / 60)) minutes: look at the slowest gates above"
fi
# What each failed gate printed last, then the count again as the last line.
for i in "${!failures[@]}"; do
    printf '\n==== failed: %s (its last 40 lines)\n' "${failures[$i]}"
    tail -n 40 "${failure_logs[$i]}"
done
echo "gates: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
