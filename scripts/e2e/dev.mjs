#!/usr/bin/env node
/**
 * `dealergen dev` in headless Chromium, on a copy of the tiny fixture dealer
 * in a temporary folder (pages only: --no-edge; the worker behind /api is
 * covered by generator/tests/integration/dev.rs):
 *
 *   node scripts/e2e/dev.mjs      (binary: $DEALERGEN_BIN, default target/debug/dealergen)
 *
 * - the live page (rendered by astro dev) loads with the dev script and
 *   Vite's own client connected through the preview server, without a
 *   console error; the full build that follows publishes files that never
 *   contain the dev script (the published build under its own
 *   Content-Security-Policy, `--built`, is covered by generator/tests/integration/dev.rs);
 * - a saved change to the YAML reloads the open page with the change;
 * - a problem in the YAML shows the overlay (role=alert, the file:line and
 *   the check's text) over the last good build, again after a reload; its
 *   Hide button works from the keyboard;
 * - the fix removes the overlay and reloads;
 * - Ctrl-C stops dealergen dev with exit code 0, and the full build it was
 *   running: no process of it is left, nothing staged in the site.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { watchOutput } from '../lib/output.mjs';
import { assert, assertEqual, assertJsonEqual, createRunner, eventually } from './common.mjs';
import { dealergenBin } from '../lib/dealergen.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = dealergenBin();
const FIXTURES = path.join(ROOT, 'generator/tests/fixtures/dealers');
const BUILD_MS = 180_000;

const { test, step, run } = createRunner({ context: () => (page ? `(page: ${page.url()})` : '') });
let dev;
let browser;
let page;
let tmp;
/** What dealergen dev prints (scripts/lib/output.mjs). */
let output;
function edit(file, from, to) {
  const text = fs.readFileSync(file, 'utf8');
  assert(text.includes(from), `${from} is not in ${file}`);
  fs.writeFileSync(file, text.replace(from, to));
}

/** The processes (pid and command) whose working folder is under `dir` (Linux /proc). */
function processesIn(dir) {
  const found = [];
  for (const pid of fs.readdirSync('/proc').filter((f) => /^\d+$/.test(f))) {
    try {
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) found.push(`${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

async function main() {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-dev-e2e-'));
  const dealers = path.join(tmp, 'dealers');
  fs.mkdirSync(path.join(dealers, 'stock'), { recursive: true });
  for (const f of ['tiny-dealer.yaml', 'stock/tiny.json']) fs.copyFileSync(path.join(FIXTURES, f), path.join(dealers, f));
  const yaml = path.join(dealers, 'tiny-dealer.yaml');

  dev = spawn(BIN, ['--root', ROOT, '--dealers-dir', dealers, '--sites-dir', path.join(tmp, 'sites'),
    'dev', '--dealer', 'tiny-dealer', '--port', '0', '--no-edge', '--as-of', '2026-11-20'], { cwd: dealers, env: { ...process.env, NO_COLOR: '1' } });
  output = watchOutput(dev, 'dealergen dev');
  const [, url] = await output.waitFor(/^serving tiny-dealer at (http:\/\/127\.0\.0\.1:\d+\/)/m, 0, BUILD_MS);

  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  const overlay = page.locator('[data-dealergen-overlay]');
  /** The dev script has its event stream's first message: `ok`, or `failing` (an overlay follows). */
  const connected = async () => {
    await page.waitForFunction(() => document.documentElement.dataset.dealergenConnected);
    return page.evaluate(() => document.documentElement.dataset.dealergenConnected);
  };

  await step('the live page loads with the dev script and Vite connected, the built file without it', async () => {
    // Vite's client in the live page reaches astro dev through the preview
    // server: its WebSocket gets Vite's `connected` message.
    const vite = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Vite\'s WebSocket got no `connected` message in 30 s')), 30_000);
      page.on('websocket', (ws) => ws.on('framereceived', (frame) => {
        if (String(frame.payload).includes('"connected"')) {
          clearTimeout(timer);
          resolve(ws.url());
        }
      }));
    });
    const res = await page.goto(url);
    assertEqual(res.status(), 200, 'status');
    assertEqual(await connected(), 'ok', 'the last build');
    const socket = await vite;
    assert(socket.startsWith(url.replace('http:', 'ws:')), `Vite's WebSocket went to ${socket}, not through ${url}`);
    assertEqual(problems.length, 0, `console errors: ${problems.join(' | ')}`);
    await output.waitFor(/^checked tiny-dealer: built/m, 0, BUILD_MS);
    const built = fs.readFileSync(path.join(tmp, 'sites/tiny-dealer/dist/index.html'), 'utf8');
    assert(!built.includes('__dealergen'), 'the built file has the dev script');
    await page.getByText('(07) 3000 0001').first().waitFor();
  });

  await step('a saved change reloads the page with it', async () => {
    const reloaded = page.waitForEvent('load', { timeout: BUILD_MS });
    edit(yaml, 'contact: { phone: (07) 3000 0001', 'contact: { phone: (07) 3000 0999');
    await reloaded;
    await page.getByText('(07) 3000 0999').first().waitFor();
    await connected();
  });

  await step('a problem shows the overlay with file:line over the last good preview', async () => {
    edit(yaml, 'dealership_id: 77', 'dealership_id: seventy-seven');
    await overlay.waitFor({ timeout: BUILD_MS });
    assertEqual(await overlay.getAttribute('role'), 'alert', 'role');
    const text = await overlay.innerText();
    assert(text.includes('tiny-dealer.yaml:5:16') && text.includes('seventy-seven'), `overlay text: ${text}`);
    // The last good build is underneath.
    assert(await page.getByText('(07) 3000 0999').first().count(), 'the old page is still there');
    assertEqual(problems.length, 0, `console errors: ${problems.join(' | ')}`);
  });

  await step('the overlay comes back after a reload, and hides from the keyboard', async () => {
    await page.reload();
    assertEqual(await connected(), 'failing', 'the hello after a failed build');
    await overlay.waitFor();
    await overlay.getByRole('button', { name: /^Hide/ }).focus();
    await page.keyboard.press('Enter');
    await overlay.waitFor({ state: 'detached' });
    await connected();
  });

  await step('the fix reloads the page without the overlay', async () => {
    await page.reload();
    await overlay.waitFor();
    const reloaded = page.waitForEvent('load', { timeout: BUILD_MS });
    edit(yaml, 'dealership_id: seventy-seven', 'dealership_id: 77');
    await reloaded;
    // Connected to a good build: no overlay is coming.
    assertEqual(await connected(), 'ok', 'the build after the fix');
    assertEqual(await overlay.count(), 0, 'overlays');
    assertEqual(problems.length, 0, `console errors: ${problems.join(' | ')}`);
  });

  await test('Ctrl-C stops it with exit code 0, and the full build it was running with it', async () => {
    // A change starts a full build: Ctrl-C lands while its release is staged.
    edit(yaml, 'contact: { phone: (07) 3000 0999', 'contact: { phone: (07) 3000 0998');
    const releases = path.join(tmp, 'sites/tiny-dealer/releases');
    const staged = () => (fs.existsSync(releases) ? fs.readdirSync(releases).filter((f) => f.startsWith('.staging-')) : []);
    await eventually(() => staged().length > 0, 'a full build staging its release', BUILD_MS, 20);
    // 'close': its output is all read by then.
    const exited = new Promise((resolve) => dev.once('close', (code) => resolve(code)));
    dev.kill('SIGINT');
    assertEqual(await exited, 0, 'exit code');
    assert(output.text.split('\n').includes('stopped'), `output:\n${output.text.split('\n').slice(-5).join('\n')}`);
    // Nothing it started still runs in, or writes into, the dealer's folders.
    assertJsonEqual(processesIn(tmp), [], 'processes still running in the temporary folder');
    assertJsonEqual(staged(), [], 'staged releases left behind');
    assert(!output.text.includes('did not build'), `a stopped build was reported as broken:\n${output.text}`);
  });
}

await run(main, {
  shutdown: async () => {
    await browser?.close();
    if (dev && dev.exitCode === null) dev.kill('SIGKILL');
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  },
});
