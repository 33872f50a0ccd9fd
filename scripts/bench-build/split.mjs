/**
 * Where one build's time went, from its Astro log (a project's build.log)
 * and the run's wall time: Astro's build info, Vite's two bundles, the
 * pages (rendered: the sum of the per-page "(+N ms)" lines; restored from
 * the page cache: the rest of that stage), and everything outside Astro's
 * own stages (Node's start, dealergen's data, checks and publish).
 *
 *   node scripts/bench-build/split.mjs <build.log> <wall seconds> [--json]
 *
 * Part of scripts/bench-build.sh's one-price case (never a test).
 */
import fs from 'node:fs';

const [logFile, wallArg, flag] = process.argv.slice(2);
const wall = Number(wallArg);
if (!logFile || !Number.isFinite(wall)) {
  console.error('usage: node scripts/bench-build/split.mjs <build.log> <wall seconds> [--json]');
  process.exit(2);
}
const log = fs.readFileSync(logFile, 'utf8');
const secs = (text) => {
  const m = /([\d.]+)(ms|s)\b/.exec(text);
  return m ? Number(m[1]) / (m[2] === 'ms' ? 1000 : 1) : 0;
};
const lines = log.split('\n');
/** The "✓ Completed in" line after the first line matching `start`. */
const stage = (start) => {
  const at = lines.findIndex((l) => start.test(l));
  if (at < 0) return 0;
  const done = lines.slice(at + 1).find((l) => /✓ Completed in/.test(l));
  return done ? secs(done.slice(done.indexOf('Completed in'))) : 0;
};
const info = stage(/Collecting build info/);
const vite = lines.filter((l) => /\[vite\] ✓ built in/.test(l)).reduce((t, l) => t + secs(l.slice(l.indexOf('built in'))), 0);
const pages = stage(/generating static routes/);
const rendered = lines.reduce((t, l) => t + Number(/[├└]─ \S+ \(\+(\d+)ms\)/.exec(l)?.[1] ?? 0), 0) / 1000;
const restored = Math.max(0, pages - rendered);
const outside = Math.max(0, wall - info - vite - pages);
const split = { wall, build_info: info, vite_bundles: vite, pages_rendered: rendered, pages_restored: restored, outside_astro_stages: outside };
if (flag === '--json') console.log(JSON.stringify(split));
else {
  const s = (x) => `${x.toFixed(2)}s`;
  console.log(
    `build info ${s(info)}, Vite bundles ${s(vite)}, pages ${s(pages)} (rendered ${s(rendered)}, restored and written ${s(restored)}), outside Astro's stages ${s(outside)} (Node's start, data, checks, publish)`,
  );
}
