#!/usr/bin/env node
/**
 * Runs several e2e suites at once, each in its own process with its own
 * served site and browser, and prints each suite's output whole when it
 * ends (never interleaved), then one line per suite with its time. Exits
 * non-zero when any suite failed.
 *
 * The suites it is given must be independent: none writes what another
 * reads (the read-only suites of the built demo sites are; the full-stack
 * and `dealergen dev` suites are not, and run alone). Most of a suite's
 * time is spent waiting on the browser and the served site, so two or
 * three at once finish sooner on two cores than one after another.
 *
 *   node scripts/e2e/run.mjs [--jobs N] 'suite arg...' ['suite arg...' ...]
 *     e.g. node scripts/e2e/run.mjs --jobs 3 'site sites/x/dist' 'search sites/x/dist'
 *   E2E_JOBS=N sets --jobs' default (3).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const HERE = import.meta.dirname;

function parse(argv) {
  let jobs = Number(process.env.E2E_JOBS ?? 3);
  const suites = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--jobs') jobs = Number(argv[++i]);
    else suites.push(argv[i].split(/\s+/).filter(Boolean));
  }
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs must be a whole number of 1 or more, not ${jobs}`);
  if (suites.length === 0) throw new Error("usage: node scripts/e2e/run.mjs [--jobs N] 'suite arg...' ...");
  return { jobs, suites };
}

/** Runs one suite; resolves with its exit code, output and seconds. */
function runSuite([name, ...args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test-reporter=spec', path.join(HERE, `${name}.mjs`), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('close', (code, signal) => {
      resolve({ name, args, code: code ?? 1, signal, output: Buffer.concat(chunks).toString(), secs: (Date.now() - started) / 1000 });
    });
    child.on('error', (error) => {
      chunks.push(Buffer.from(`could not start ${name}: ${error.message}\n`));
    });
  });
}

async function main() {
  const { jobs, suites } = parse(process.argv.slice(2));
  const queue = [...suites];
  const results = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const result = await runSuite(next);
      process.stdout.write(`\n==== e2e ${[result.name, ...result.args].join(' ')}\n${result.output}`);
      results.push(result);
    }
  };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: Math.min(jobs, suites.length) }, worker));
  // A failed suite's end again, so the last lines of the run (all a CI
  // record may keep) say what failed.
  for (const r of results.filter((x) => x.code !== 0)) {
    process.stdout.write(`\n==== e2e ${r.name} failed; its last 30 lines:\n${r.output.trimEnd().split('\n').slice(-30).join('\n')}\n`);
  }
  process.stdout.write(`\n==== e2e suites (${jobs} at once, ${((Date.now() - t0) / 1000).toFixed(0)} s in all)\n`);
  for (const r of results) {
    const how = r.code === 0 ? 'ok    ' : `FAILED${r.signal ? ` (${r.signal})` : ''}`;
    process.stdout.write(`${how} ${r.name} (${r.secs.toFixed(0)} s)\n`);
  }
  const failed = results.filter((r) => r.code !== 0).length;
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error.message);
  process.exitCode = 2;
});
