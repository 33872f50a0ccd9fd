/**
 * What the e2e scripts share: the browser's clock, the rule that a case the
 * demo data lacks fails instead of passing, the test runner and asserts,
 * and the set-up of a served site and its browser.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as nodeTest } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { siteData } from '../lib/page-types.mjs';
import { isFile } from '../lib/files.mjs';
import { serveInWorkerd } from '../lib/workerd-site.mjs';
import { popupSeen } from '../lib/browser-api.mjs';

export { popupSeen };

/**
 * What axe checks on every page the suites audit: WCAG 2.2 A/AA plus axe's
 * best practices; target-size is off by default in axe but Lighthouse
 * checks it.
 */
export const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
  rules: { 'target-size': { enabled: true } },
};

/**
 * The instant the site's stock was judged at (site.json built_at: the
 * build's start, or `dealergen build --as-of`). The browser's Date is fixed
 * there (timers still run): the search island re-applies the sold window at
 * the shopper's clock, so any other clock would drop cars the static pages
 * list. The demo stock is dated relative to one instant
 * (scripts/demo-stock/as-of.mjs): built at it, the demo has sold cars and
 * new arrivals whatever today's date.
 */
export function builtAt(site) {
  if (!Number.isInteger(site.built_at)) throw new Error('site.json has no built_at (rebuild the site)');
  return new Date(site.built_at * 1000);
}

/**
 * The number of a car's location as its location page shows it. A car's
 * own `location.phone` is masked where the dealer reveals numbers on
 * request (docs/behaviour/phone-reveal.md): the number the reveal answers
 * is the location's.
 */
export function locationPhone(site, car) {
  return site.locations.find((l) => l.id === car.location.id)?.phone ?? site.contact.phone;
}

/**
 * The value a test needs from the demo data, or a failure naming the case:
 * a test whose case is missing must not pass without testing anything.
 */
export function need(value, what) {
  if (!value) throw new Error(`case missing from the demo data: ${what}`);
  return value;
}

/**
 * The e2e suites' tests, run by node:test (the runner the edge tests use):
 * `run(main)` is the suite, one top-level test whose set-up (servers,
 * browser) `main` does; `test(name, fn)` inside it is a subtest; `step` is
 * a subtest of a chain: once a step fails, the later steps are skipped,
 * saying why (they would only time out). `context()` adds a line to a
 * failure (e.g. the page it happened on). A set-up failure fails the suite;
 * `shutdown` runs whether or not anything failed; the exit code is
 * node:test's. `E2E_ONLY=<regex>` runs only the tests whose name matches
 * (while working on one).
 */
export function createRunner({ context = () => '' } = {}) {
  let suite;
  let chainBroken = false;
  const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : undefined;
  async function test(name, fn, { inChain = false } = {}) {
    if (!suite) throw new Error(`test "${name}" outside run()`);
    if (only && !only.test(name)) return true;
    let ok = false;
    const skip = inChain && chainBroken ? 'an earlier step it depends on failed' : false;
    await suite.test(name, { skip }, async () => {
      try {
        await fn();
        ok = true;
      } catch (error) {
        const where = context();
        if (where && error instanceof Error) error.message += `\n${where}`;
        throw error;
      }
    });
    return ok;
  }
  async function step(name, fn) {
    if (!(await test(name, fn, { inChain: true }))) chainBroken = true;
  }
  function run(main, { shutdown } = {}) {
    const name = path.basename(process.argv[1] ?? 'e2e');
    return nodeTest(name, async (t) => {
      suite = t;
      try {
        await main();
      } finally {
        await shutdown?.();
      }
    });
  }
  return { test, step, run };
}

/**
 * Waits for something another process does later (a worker's queue, a
 * build staging its release): `read` is polled every `every` ms until it
 * gives a truthy value, which is returned; fails naming `what` after `ms`.
 */
export async function eventually(read, what, ms = 30_000, every = 250) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

export function assertEqual(actual, expected, what) {
  if (actual !== expected) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** As assertEqual, for arrays and objects: equal when their JSON is. */
export function assertJsonEqual(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/**
 * A built site, served on 127.0.0.1 by workerd as a deployed site worker
 * serves it (scripts/lib/workerd-site.mjs): `{ dist, site, cars, pages,
 * origin, close }`, its site.json, cars.json and page table read from the
 * dist's ../src/data.
 * Fails when the dist has no index.html.
 */
export async function serveSite(dist) {
  assert(isFile(path.join(dist, 'index.html')), `no built site at ${dist} (index.html missing)`);
  const { site, cars, pages } = siteData(dist);
  const { origin, close } = await serveInWorkerd(dist);
  return { dist, site, cars, pages, origin, close };
}

/**
 * Serves each dist (serveSite) and opens Chromium on them in a persistent
 * context of its own (a fresh profile named after `name`): the viewport,
 * service workers blocked, a 10 s default timeout, the clock fixed to the
 * first site's builtAt, and with `popupSeen: true` the site's popup marked
 * seen. Runs `fn({ sites, site, cars, origin, context, page })` (site,
 * cars and origin: the first site's), then closes the browser and the
 * servers and removes the profile, whether or not `fn` failed.
 */
export async function withSites(dists, { name, viewport = { width: 1280, height: 900 }, popupSeen: seen = false }, fn) {
  const sites = [];
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), `dealergen-${name}-`));
  let context;
  try {
    for (const dist of dists) sites.push(await serveSite(dist));
    const [{ site, cars, origin }] = sites;
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      viewport,
      serviceWorkers: 'block',
    });
    context.setDefaultTimeout(10_000);
    await context.clock.setFixedTime(builtAt(site));
    if (seen) await popupSeen(context, site);
    const page = context.pages()[0] ?? (await context.newPage());
    await fn({ sites, site, cars, origin, context, page });
  } finally {
    await context?.close().catch(() => {});
    for (const s of sites) await s.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * Waits for `n` rendering frames of `page`: what a scroll, a resize or a
 * class change schedules for the next frame (the sticky bars' scroll
 * handler runs in requestAnimationFrame) has run after two; a check that
 * something did NOT happen waits for this instead of a fixed time.
 */
export function frames(page, n = 3) {
  return page.evaluate(
    (count) =>
      new Promise((done) => {
        const step = (left) => (left === 0 ? done() : requestAnimationFrame(() => step(left - 1)));
        step(count);
      }),
    n,
  );
}

/**
 * Waits until the page's main thread is idle (requestIdleCallback) and its
 * network too: islands hydrated "on idle" have loaded, and whatever the
 * page would ask for by itself has been asked for.
 */
export async function settled(page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done(), { timeout: 5000 })));
  await page.waitForLoadState('networkidle');
}
