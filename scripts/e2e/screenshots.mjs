#!/usr/bin/env node
/**
 * Full-page PNGs of a built site at phone (390 px) and desktop (1280 px)
 * widths, for looking at layout changes.
 *   node scripts/e2e/screenshots.mjs <dist> <outDir> [path...]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [distArg, outArg, ...paths] = process.argv.slice(2);
if (!distArg || !outArg) {
  console.error('usage: screenshots.mjs <dist> <outDir> [path...]');
  process.exit(2);
}
const dist = path.resolve(distArg);
const out = path.resolve(outArg);
fs.mkdirSync(out, { recursive: true });
const server = http.createServer((req, res) => {
  let p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  if (p.endsWith('/')) p += 'index.html';
  const file = path.join(dist, path.normalize(p));
  if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404, { 'content-type': 'text/html' }).end(fs.readFileSync(path.join(dist, '404.html')));
    return;
  }
  const type = { '.html': 'text/html', '.css': 'text/css', '.js': 'text/javascript', '.svg': 'image/svg+xml' }[path.extname(file)];
  res.writeHead(200, type ? { 'content-type': type } : {}).end(fs.readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-shots-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
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
