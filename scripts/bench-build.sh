#!/usr/bin/env bash
# Build benchmark (not a test): times `dealergen build` on the demo dealer,
# on every bundled dealer, and on a synthetic 2,000-car dealer, and prints
# pages/s, dist size and the JavaScript the site ships (gzip).
#   bash scripts/bench-build.sh [runs, default 3]
set -euo pipefail
source "$(dirname "$0")/lib/env.sh"
cd "$DEALERGEN_ROOT"
runs=${1:-3}
cargo build --quiet --release -p dealergen
bin=target/release/dealergen
demo=brisbane-motor-group

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null; t1=$(date +%s%N); awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", (b - a) / 1e9}'; }
div() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.0f", a / b}'; }
js_gzip_kb() { find "$1/_astro" -name '*.js' -exec cat {} + 2>/dev/null | gzip -9 | wc -c | awk '{printf "%.1f", $1/1024}'; }
pages() { find "$1" -name '*.html' | wc -l; }

echo "== demo dealer ($demo), $runs runs"
times=$(for _ in $(seq "$runs"); do timed $bin build --dealer $demo; done | median)
p=$(pages sites/$demo/dist)
printf 'build --dealer %s: median %.2fs, %d pages, %s pages/s\n' $demo "$times" "$p" "$(div "$p" "$times")"
printf 'dist: %s, %d files; all JS in the site: %s KB gzip\n' "$(du -sh sites/$demo/dist | cut -f1)" "$(find sites/$demo/dist -type f | wc -l)" "$(js_gzip_kb sites/$demo/dist)"
car=$(find sites/$demo/dist/cars -name index.html -print -quit)
printf 'one car page HTML: %d bytes, %d gzip\n' "$(wc -c < "$car")" "$(gzip -9 < "$car" | wc -c)"

echo
echo "== every bundled dealer"
t=$(timed $bin build --all)
total=0; for d in sites/*/dist; do total=$((total + $(pages "$d"))); done
printf 'build --all: %.2fs, %d pages, %s pages/s\n' "$t" "$total" "$(div "$total" "$t")"

echo
echo "== synthetic 2,000-car dealer"
bench=target/bench
rm -rf "$bench" && mkdir -p "$bench/dealers/stock" "$bench/sites"
sed "s#stock/$demo.json#stock/big.json#" dealers/$demo.yaml > "$bench/dealers/big-dealer.yaml"
node -e '
  const cars = require(process.argv[1]);
  const out = [];
  for (let i = 0; out.length < 2000; i++) {
    const c = cars[i % cars.length];
    out.push({ ...c, id: 900000 + i, slug: `${c.slug}-x${i}`, status: "in_stock", show_on_dealer_website: true });
  }
  require("fs").writeFileSync(process.argv[2], JSON.stringify(out));
' "$PWD/dealers/stock/$demo.json" "$bench/dealers/stock/big.json"
t=$(timed $bin --dealers-dir "$bench/dealers" --sites-dir "$bench/sites" build --dealer big-dealer)
p=$(pages "$bench/sites/big-dealer/dist")
printf 'build 2,000 cars: %.2fs, %d pages, %s pages/s\n' "$t" "$p" "$(div "$p" "$t")"
