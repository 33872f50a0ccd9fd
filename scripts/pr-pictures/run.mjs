#!/usr/bin/env node
/**
 * Before/after pictures of the pages a change alters, for a marketer's
 * pull request:
 *
 *   node scripts/pr-pictures/run.mjs (--before <dist> | --new) --after <dist> --out <dir>
 *        [--dealer <name>] [--max 8] [--widths 375,1280] [--as-of <instant>]
 *        [--link <url of the pictures> [--artifact <the workflow artifact holding them>]]
 *
 * <before> is the site as published (the base revision built), <after> the
 * pull request's, both built at the same instant (`dealergen build
 * --as-of`), so that only the change tells them apart. The pages whose HTML
 * differs (pages.mjs) are shot in Chromium at each width, both sites served
 * by workerd as in production (`--new`: a dealer not yet published, every
 * page added); where the pictures differ is outlined
 * (regions.mjs). At most --max pages, most-visited kinds first. Writes to
 * <dir>:
 *   pictures.json    every changed, added and removed page; the pages shot,
 *                    with their pictures and outlined regions
 *   pictures.md      the pull-request comment's section
 *   contact-sheet.png, sheet.html   the pages side by side, before | after
 *   pages/           the full pictures, outlined
 * A change that alters no page writes "No page changes" and no pictures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { answerApi, popupSeen } from '../lib/browser-api.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { siteData } from '../lib/page-types.mjs';
import { serveInWorkerd } from '../lib/workerd-site.mjs';
import { comparePages, kindOf, pick } from './pages.mjs';
import { compareInBrowser, diffRegions, GAP, OUTLINE, TOLERANCE } from './regions.mjs';
import { markdown, sheetHtml } from './sheet.mjs';

/** Rows of a page the contact sheet shows around its first change, per width. */
const WINDOW = { 375: 812, 1280: 900 };

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    new: { type: 'boolean', default: false },
    after: { type: 'string' },
    out: { type: 'string' },
    dealer: { type: 'string' },
    max: { type: 'string', default: '8' },
    widths: { type: 'string', default: '375,1280' },
    'as-of': { type: 'string' },
    link: { type: 'string' },
    artifact: { type: 'string' },
  },
});
const max = Number(values.max);
const widths = values.widths.split(',').map(Number);
if (!values.before === !values.new || !values.after || !values.out || !(max > 0) || widths.some((w) => !(w >= 200 && w <= 3840))) {
  console.error('usage: run.mjs (--before <dist> | --new) --after <dist> --out <dir> [--dealer <name>] [--max 8] [--widths 375,1280] [--as-of <instant>]');
  process.exit(2);
}
const after = path.resolve(values.after);
const before = values.new ? null : path.resolve(values.before);
for (const d of before ? [before, after] : [after]) {
  if (!fs.existsSync(path.join(d, 'index.html'))) {
    console.error(`${d} is not a built site (no index.html)`);
    process.exit(2);
  }
}
const out = path.resolve(values.out);
// The folder is ours to empty only if it is new or a previous run's: never a folder of other files.
if (fs.existsSync(out) && fs.readdirSync(out).length > 0 && !fs.existsSync(path.join(out, 'pictures.json'))) {
  console.error(`${out} holds other files: give --out a new folder (or one an earlier run wrote)`);
  process.exit(2);
}
for (const name of ['pages', 'pictures.json', 'pictures.md', 'sheet.html', 'contact-sheet.png']) fs.rmSync(path.join(out, name), { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'pages'), { recursive: true });

const dealer = values.dealer ?? path.basename(path.dirname(after));
// The site's data beside a dealer's own dist (scripts/lib/page-types.mjs);
// a release's dist has none: then no clock from it and no saved cars.
const data = fs.existsSync(path.join(after, '..', 'src', 'data', 'site.json')) ? siteData(after) : null;
const site = data?.site ?? null;
const instant = values['as-of'] ? new Date(values['as-of']) : site?.built_at ? new Date(site.built_at * 1000) : null;
if (instant && Number.isNaN(instant.getTime())) {
  console.error(`--as-of ${values['as-of']} is not an instant (e.g. 2026-12-01T00:00:00Z)`);
  process.exit(2);
}

const found = comparePages(before, after);
const all = [
  ...found.changed.map((address) => ({ address, status: 'changed', size: found.sizes[address] })),
  ...found.added.map((address) => ({ address, status: 'added' })),
  ...found.removed.map((address) => ({ address, status: 'removed' })),
];
const chosen = pick(all, max);
const record = {
  dealer,
  instant: instant?.toISOString() ?? null,
  changed: found.changed,
  added: found.added,
  removed: found.removed,
  unchanged: found.unchanged,
  widths,
  shot: [],
};

if (chosen.length > 0) {
  const servers = await Promise.all([before ? serveInWorkerd(before) : null, serveInWorkerd(after)]);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-pictures-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    serviceWorkers: 'block',
    reducedMotion: 'reduce',
  });
  try {
    if (instant) await context.clock.setFixedTime(instant);
    if (site) await popupSeen(context, site);
    await answerApi(context, { cars: data?.cars ?? [] });
    const page = context.pages()[0] ?? (await context.newPage());
    const diffSource = diffRegions.toString();
    for (const p of chosen) {
      const entry = { address: p.address, status: p.status, kind: kindOf(p.address), widths: {} };
      for (const width of widths) {
        await page.setViewportSize({ width, height: WINDOW[width] ?? 900 });
        const shoot = async (origin) => {
          await page.goto(origin + p.address, { waitUntil: 'networkidle' });
          await settle(page);
          return `data:image/png;base64,${(await page.screenshot({ fullPage: true })).toString('base64')}`;
        };
        const beforeUrl = p.status === 'added' ? null : await shoot(servers[0].origin);
        const afterUrl = p.status === 'removed' ? null : await shoot(servers[1].origin);
        await page.goto('about:blank');
        const pictures = await page.evaluate(compareInBrowser, {
          beforeUrl,
          afterUrl,
          window: WINDOW[width] ?? 900,
          outline: OUTLINE,
          diffSource,
          tolerance: TOLERANCE,
          gap: GAP,
        });
        const name = `${width}${p.address.replace(/[^a-z0-9]+/gi, '_')}`;
        const files = {};
        for (const [key, url] of Object.entries(pictures)) {
          if (key === 'regions' || !url) continue;
          const file = `pages/${name}_${key.replace('Crop', '-crop')}.png`;
          fs.writeFileSync(path.join(out, file), Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
          files[key] = file;
        }
        entry.widths[width] = { regions: pictures.regions, files };
      }
      record.shot.push(entry);
      console.log(`${p.status.padEnd(7)} ${p.address}  ${widths.map((w) => `${w}px: ${entry.widths[w].regions.length} region(s)`).join(', ')}`);
    }
    fs.writeFileSync(path.join(out, 'sheet.html'), sheetHtml(record));
    await page.goto(`file://${path.join(out, 'sheet.html')}`, { waitUntil: 'load' });
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.screenshot({ path: path.join(out, 'contact-sheet.png'), fullPage: true });
  } finally {
    await context.close();
    await Promise.all(servers.map((s) => s?.close()));
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
fs.writeFileSync(path.join(out, 'pictures.json'), JSON.stringify(record, null, 2));
fs.writeFileSync(path.join(out, 'pictures.md'), markdown(record, { link: values.link, artifact: values.artifact }));
console.log(
  all.length === 0
    ? `${dealer}: no page changes (${found.unchanged} pages compared), no pictures`
    : `${dealer}: ${found.changed.length} changed, ${found.added.length} added, ${found.removed.length} removed; ${record.shot.length} shot into ${out}`,
);

/**
 * Waits until what a shopper would see has arrived: lazy pictures loaded
 * (made eager: a full-page picture is taller than the window that would
 * load them) and the fonts ready.
 */
async function settle(page) {
  await page.evaluate(async () => {
    const images = [...document.images];
    for (const img of images) img.loading = 'eager';
    await Promise.all(images.map((img) => (img.complete ? null : img.decode().catch(() => null))));
    await document.fonts.ready;
  });
}
