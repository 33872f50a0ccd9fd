#!/usr/bin/env node
/**
 * Full-page PNGs of a built site at every width the layouts must hold
 * (375, 768, 1280, 1440 and 1920 px), for looking at layout changes.
 *
 *   node scripts/e2e/screenshots.mjs <dist> <outDir> [--widths 375,1280] [path...]
 *
 * Without paths it shoots one page of every type: home, search, a search
 * landing page, a car page, contact, a location, offers, an offer, models,
 * a model, sign-in, watchlist and the 404 page (scripts/lib/page-types.mjs,
 * read from <dist>/../src/data). The home page is shot as a returning
 * shopper's (the popup already seen). The edge API is answered in the
 * browser like a signed-out visit, so nothing leaves 127.0.0.1. Each file is
 * named <width>_<path>.png; the document's scrollWidth is printed next to it
 * (wider than the viewport = sideways scrolling).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { answerApi } from '../lib/browser-api.mjs';
import { pageTypes, siteData, VIEWPORTS } from '../lib/page-types.mjs';
import { serveInWorkerd } from '../lib/workerd-site.mjs';
import { popupSeen } from './common.mjs';

const args = process.argv.slice(2);
let widths = VIEWPORTS.map((v) => v.width);
const widthsAt = args.indexOf('--widths');
if (widthsAt >= 0) {
  widths = (args[widthsAt + 1] ?? '').split(',').map(Number).filter((n) => n > 0);
  args.splice(widthsAt, 2);
}
const [distArg, outArg, ...paths] = args;
if (!distArg || !outArg || widths.length === 0) {
  console.error('usage: screenshots.mjs <dist> <outDir> [--widths 375,1280] [path...]');
  process.exit(2);
}
const dist = path.resolve(distArg);
const out = path.resolve(outArg);
fs.mkdirSync(out, { recursive: true });
const targets = paths.length ? paths.map((p) => ({ name: p, path: p })) : pageTypes(dist);
const server = await serveInWorkerd(dist);
const { origin } = server;
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-shots-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  args: CHROMIUM_ARGS,
  serviceWorkers: 'block',
});
try {
  // Signed out, but signed in with two saved cars on the watchlist page (which would send a visitor to sign in).
  const { cars, site } = siteData(dist);
  await popupSeen(context, site);
  let signedIn = false;
  await answerApi(context, { cars, signedIn: () => signedIn });
  const page = context.pages()[0] ?? (await context.newPage());
  for (const width of widths) {
    const height = VIEWPORTS.find((v) => v.width === width)?.height ?? 900;
    await page.setViewportSize({ width, height });
    for (const t of targets) {
      // Leave the previous page first, so its pending session call does not see the new answer.
      if ((t.path === '/watchlist/') !== signedIn) await page.goto('about:blank');
      signedIn = t.path === '/watchlist/';
      await page.goto(origin + t.path, { waitUntil: 'networkidle' });
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      const name = `${width}${t.path.replace(/[^a-z0-9]+/gi, '_')}.png`;
      await page.screenshot({ path: path.join(out, name), fullPage: true });
      console.log(`${path.join(out, name)}  scrollWidth ${scrollWidth}${scrollWidth > width ? `  OVERFLOW +${scrollWidth - width}px` : ''}`);
    }
  }
} finally {
  await context.close();
  await server.close();
  fs.rmSync(profile, { recursive: true, force: true });
}
