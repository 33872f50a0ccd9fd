#!/usr/bin/env node
/**
 * Full-page PNGs of a built site at phone (390 px) and desktop (1280 px)
 * widths, for looking at layout changes.
 *   node scripts/e2e/screenshots.mjs <dist> <outDir> [path...]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { startServer } from '../lib/static-server.mjs';

const [distArg, outArg, ...paths] = process.argv.slice(2);
if (!distArg || !outArg) {
  console.error('usage: screenshots.mjs <dist> <outDir> [path...]');
  process.exit(2);
}
const dist = path.resolve(distArg);
const out = path.resolve(outArg);
fs.mkdirSync(out, { recursive: true });
const server = await startServer(dist);
const origin = `http://127.0.0.1:${server.address().port}`;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-shots-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  args: CHROMIUM_ARGS,
});
try {
  const page = context.pages()[0] ?? (await context.newPage());
  for (const [label, width, height] of [['phone', 390, 844], ['desktop', 1280, 900]]) {
    await page.setViewportSize({ width, height });
    for (const p of paths.length ? paths : ['/', '/search/', '/contact-us/']) {
      await page.goto(origin + p, { waitUntil: 'networkidle' });
      const name = `${label}${p.replace(/[^a-z0-9]+/gi, '_')}.png`;
      await page.screenshot({ path: path.join(out, name), fullPage: true });
      console.log(path.join(out, name));
    }
  }
} finally {
  await context.close();
  server.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
