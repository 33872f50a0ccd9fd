#!/usr/bin/env node
/**
 * The search pages' main-thread work at load on a slow phone (a benchmark,
 * not a test): Chromium at 412 x 823 px, 1.75 device pixels, its CPU slowed
 * 4x and 6x (CDP Emulation.setCPUThrottlingRate), the site served by
 * workerd and the edge API answered empty. Total Blocking Time is summed
 * from the page's long tasks after its first contentful paint (each task's
 * time over 50 ms), over the load and the 3 s after it (the island's
 * hydration and its first search run then); the median of N loads is
 * printed beside the goal (issue 39: under 200 ms at 4x and 6x).
 *
 *   node scripts/bench-search-load.mjs [sites/<slug>/dist] [runs, default 5]
 *
 * A lab figure: Lighthouse's simulated throttling and a real phone differ,
 * and other work on the machine raises it (the walk that set the goal
 * measured 296-558 ms with other work running).
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './lib/chromium.mjs';
import { serveInWorkerd } from './lib/workerd-site.mjs';

const dist = path.resolve(process.argv[2] ?? 'sites/brisbane-motor-group/dist');
const runs = Number(process.argv[3] ?? 5);
const GOAL_MS = 200;
const PAGES = ['/search/', '/search/used-cars/'];
const RATES = [4, 6];

const server = await serveInWorkerd(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
let missed = 0;
try {
  for (const page of PAGES) {
    for (const rate of RATES) {
      const tbts = [];
      const tasks = [];
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, serviceWorkers: 'block' });
        await context.route(/\/api\//, (r) => r.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
        const p = await context.newPage();
        const cdp = await context.newCDPSession(p);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate });
        await p.addInitScript(() => {
          globalThis.__longTasks = [];
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) globalThis.__longTasks.push([e.startTime, e.duration]);
          }).observe({ type: 'longtask', buffered: true });
        });
        await p.goto(`${server.origin}${page}`, { waitUntil: 'load' });
        // The island hydrates and runs its first search after load: its tasks count too.
        await p.waitForTimeout(3000);
        const { long, fcp } = await p.evaluate(() => ({ long: globalThis.__longTasks, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0 }));
        const after = long.filter(([start]) => start >= fcp);
        tbts.push(Math.round(after.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0)));
        tasks.push(after.length);
        await context.close();
      }
      const sorted = [...tbts].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      const ok = median < GOAL_MS;
      if (!ok) missed++;
      console.log(`${ok ? 'ok  ' : 'MISS'} ${page} at ${rate}x CPU: TBT median ${median} ms (goal < ${GOAL_MS} ms; runs ${tbts.join(', ')} ms; long tasks ${tasks.join(', ')})`);
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(missed === 0 ? 'every figure within its goal' : `${missed} figure(s) over the goal`);
