#!/usr/bin/env node
/**
 * A dealer's old addresses, asked of its built site in workerd (as
 * Cloudflare serves it: scripts/lib/workerd-site.mjs) and of
 * `dealergen migrate-check`: the two must give the same answer for every
 * address, and no address of the older platform (the routes the three
 * spec documents name, filled in with the dealer's own cars, locations,
 * models and offers) may end at a missing page or take more than 2 hops.
 *
 *   node --test-reporter=spec scripts/e2e/migrate.mjs sites/<slug>/dist...
 *   node scripts/e2e/migrate.mjs --print sites/<slug>/dist   (the filled-in list only)
 *
 * The list also holds the cases migrate-check must tell apart: a page, a
 * page without its slash, a static and a dynamic redirect of the dealer's,
 * a query string the site worker reads, one a redirect keeps, and an
 * address that is missing (it must say so, as workerd does).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dealergenBin } from '../lib/dealergen.mjs';
import { serveInWorkerd } from '../lib/workerd-site.mjs';
import { assert, createRunner, need } from './common.mjs';

/** Redirects followed before an address counts as a loop (migrate-check's MAX_HOPS). */
const MAX_HOPS = 10;
/** The most hops a shopper or a crawler should wait for. */
const HOPS_GOAL = 2;
/** An address no site has: it must answer missing, in both. */
const MISSING = '/this-page-never-existed-anywhere';
/** An old WordPress upload: missing everywhere, accepted by Brisbane's migration.accept_missing (/wp-content/*). */
const UPLOAD = '/wp-content/uploads/2019/brochure.pdf';

/**
 * The older platform's addresses (spec 000, 001, 002 "Routes"), with the
 * dealer's data put in: `{car_id}`, `{car_slug}`, `{sold}` (a sold car's
 * slug, redirected to its closest search), `{location}`, `{model}`,
 * `{offer}`, `{make}`, `{make_model}`, `{body}`. A line whose data the
 * dealer lacks (no models, no offers) is left out.
 */
export const OLD_ADDRESSES = `
/
/search/used-cars
/search/new-cars
/search/demo-cars
/search/new-used-and-demo-cars
/search/new-used-and-demo-cars/
/search/new-and-demo-cars
/new-used-and-demo-cars?car_type=used&make={make}
/used-car/list
/used-car/new-cars
/search/{make}
/search/{make_model}
/search/{body}
/search/?refinementList[make][0]={make}&page=2
/cars/{car_slug}
/cars/{car_slug}/
/cars/{car_slug}/checkout
/cars/{car_slug}/print
/cars/{sold}
/cars/{sold}/
/print?car_id={sold}
/checkout-journey?car_id={car_slug}
/cars/trade-in?car_id={car_id}
/print?car_id={car_id}
/trade-in
/sell-your-car
/sell-my-car
/warranty
/book-test-drive
/models
/models?body={body}
/models/get-quote
/{model}
/{model}/accessories
/contact
/contact-us
/contact-us/{location}
/locations/{location}
/teams/sales-team
/fleet
/blog
/blog/vehicle-reviews
/terms-and-conditions
/privacy-policy
/finance
/finance-enquiry
/apply-for-finance
/car-finance/
/pages/unsubscribe
/pages/complaint-handling
/pages/handling-complaint
/pages/complaint-handling-process
/service
/roadside-assist
/genuine-service
/vehicle-parts-and-accessories/
/parts/search
/special-offers/
/offers/{offer}
/success?category=enquiry&car_type=used
/customer-feedback-survey
`;

/** The dealer's data for the placeholders, from the built site's own data. */
function facts(dist) {
  const data = path.join(dist, '..', 'src', 'data');
  const site = JSON.parse(fs.readFileSync(path.join(data, 'site.json'), 'utf8'));
  const cars = JSON.parse(fs.readFileSync(path.join(data, 'cars.json'), 'utf8'));
  const pages = site.pages;
  const segment = (prefix) => pages.filter((p) => p.startsWith(prefix) && p.split('/').length === prefix.split('/').length + 1).map((p) => p.slice(prefix.length, -1));
  const car = need(cars.find((c) => c.in_stock), 'a car in stock');
  const landing = (depth) => pages.filter((p) => p.startsWith('/search/') && p.split('/').length === 3 + depth).map((p) => p.slice('/search/'.length, -1));
  const redirects = fs.readFileSync(path.join(dist, '_redirects'), 'utf8');
  const sold = need(/^\/cars\/([a-z0-9-]+-\d+) /m.exec(redirects)?.[1], 'a sold car with a redirect');
  return {
    slug: site.slug,
    values: {
      sold,
      car_id: String(car.id),
      car_slug: car.slug,
      location: need(segment('/contact-us/')[0], 'a location page'),
      model: segment('/models/')[0],
      offer: pages.find((p) => p.startsWith('/offers/'))?.slice('/offers/'.length, -1),
      make: need(landing(1)[0], 'a make landing page'),
      make_model: need(landing(2)[0], 'a make and model landing page'),
      body: landing(1).find((s) => ['hatch', 'suv', 'sedan', 'ute', 'wagon', 'caravan', 'cab-chassis'].includes(s)) ?? 'suv',
    },
  };
}

/** The filled-in list: every old address, then the cases of the dealer's own redirects and a missing one. */
export function addressesFor(dist, dealerFile) {
  const { slug, values } = facts(dist);
  const lines = [];
  for (const line of OLD_ADDRESSES.trim().split('\n')) {
    const names = [...line.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (names.some((n) => !values[n])) continue;
    lines.push(line.replace(/\{(\w+)\}/g, (_, n) => values[n]));
  }
  // The dealer's own redirects (a static one and a placeholder one), as the old site linked them.
  const own = fs.readFileSync(dealerFile, 'utf8').match(/\{ from: "?(\/[^",}]+)"?,/g) ?? [];
  for (const m of own) {
    const from = m.replace(/^\{ from: "?|"?,$/g, '').replace(/:\w+/, 'jo-smith');
    lines.push(from);
    // A query-string one as a campaign linked it too: the slash, and a name of its own after the pairs.
    if (from.includes('?')) lines.push(from.replace('?', '/?') + '&utm_source=newsletter');
  }
  // The dealer's pages that keep their old address (`path:`), with and without the slash.
  const pagesDir = path.join(path.dirname(dealerFile), slug, 'pages');
  for (const file of fs.existsSync(pagesDir) ? fs.readdirSync(pagesDir) : []) {
    const kept = /^path: *(\/[^\s]+)$/m.exec(fs.readFileSync(path.join(pagesDir, file), 'utf8'))?.[1];
    if (kept) lines.push(kept, kept.replace(/\/$/, ''));
  }
  // Once each (a body may be a landing page's make slug too), as migrate-check reads a list.
  const unique = [...new Set(lines)];
  return { slug, oldAddresses: unique.length, list: [...unique, UPLOAD, MISSING] };
}

/** workerd's answer for one address, following the site's own redirects. */
async function workerdAnswer(origin, address) {
  let at = address;
  const chain = [];
  let last = null;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    const res = await fetch(new URL(at, origin), { redirect: 'manual' });
    await res.body?.cancel();
    if (res.status >= 300 && res.status < 400) {
      const location = res.headers.get('location');
      const to = new URL(location, new URL(at, origin));
      // As migrate-check writes a Location on the site: its path, query and fragment.
      last = to.origin === origin ? `${to.pathname}${to.search}${to.hash}` : to.href;
      chain.push(`${res.status} ${last}`);
      if (to.origin !== origin) return { answer: 'redirect', to: last, hops: chain.length, chain };
      at = `${to.pathname}${to.search}`;
      continue;
    }
    const answer = res.status === 200 ? (chain.length ? 'redirect' : 'page') : 'missing';
    return { answer, to: chain.length ? last : null, hops: chain.length, chain };
  }
  return { answer: 'missing', to: at, hops: chain.length, chain };
}

const dists = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (process.argv.includes('--print')) {
  for (const dist of dists) {
    const slug = path.basename(path.dirname(path.resolve(dist)));
    console.log(addressesFor(dist, path.join('dealers', `${slug}.yaml`)).list.join('\n'));
  }
} else {
  const { test, run } = createRunner();
  await run(async () => {
    for (const dist of dists.length ? dists : ['sites/brisbane-motor-group/dist']) {
      const slug = path.basename(path.dirname(path.resolve(dist)));
      const { list, oldAddresses } = addressesFor(dist, path.join('dealers', `${slug}.yaml`));
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-migrate-')), 'old-addresses.txt');
      fs.writeFileSync(file, `# ${slug}: the older platform's addresses, filled in with its own data\n${list.join('\n')}\n`);
      // Exit 1: the missing address (the test wants it said).
      let out;
      try {
        out = execFileSync(dealergenBin(), ['migrate-check', '--dealer', slug, '--dist', dist, '--urls', file, '--format', 'json'], { encoding: 'utf8' });
        throw new Error('migrate-check passed a list with a missing address');
      } catch (error) {
        if (error.status !== 1) throw error;
        out = error.stdout;
      }
      const checked = JSON.parse(out);
      const site = await serveInWorkerd(dist);
      try {
        await test(`${slug}: migrate-check answers ${list.length} addresses as workerd does`, async () => {
          assert(checked.length === list.length, `${checked.length} answers for ${list.length} addresses`);
          const differ = [];
          for (const c of checked) {
            const w = await workerdAnswer(site.origin, c.url);
            const mine = { answer: c.answer, to: c.to, hops: c.hops, chain: c.chain };
            if (JSON.stringify(mine) !== JSON.stringify(w)) differ.push(`${c.url}\n    migrate-check: ${JSON.stringify(mine)} (${c.rule})\n    workerd:       ${JSON.stringify(w)}`);
          }
          assert(differ.length === 0, `${differ.length} answer(s) differ:\n  ${differ.join('\n  ')}`);
        });
        await test(`${slug}: every old address ends at a page within ${HOPS_GOAL} hops; the missing one is said`, () => {
          const old = checked.slice(0, oldAddresses);
          const bad = old.filter((c) => c.answer === 'missing' || c.hops > HOPS_GOAL).map((c) => `${c.url}: ${c.answer}, ${c.hops} hop(s) ${c.chain.join(' → ')} (${c.rule})`);
          assert(bad.length === 0, `${bad.length} of ${old.length} old addresses fail:\n  ${bad.join('\n  ')}`);
          const last = checked.at(-1);
          assert(last.url === MISSING && last.answer === 'missing' && !last.accepted, `the missing address: ${JSON.stringify(last)}`);
          // Only a dealer whose migration.accept_missing names it accepts the old upload.
          const upload = checked.at(-2);
          const accepts = /accept_missing:[^\n]*\/wp-content\/\*/.test(fs.readFileSync(path.join('dealers', `${slug}.yaml`), 'utf8'));
          assert(upload.url === UPLOAD && upload.answer === 'missing' && upload.accepted === accepts, `the old upload (accepted: ${accepts}): ${JSON.stringify(upload)}`);
          if (accepts) {
            // Nothing else missing: migrate-check passes.
            fs.writeFileSync(file, `${UPLOAD}\n/about-us\n`);
            execFileSync(dealergenBin(), ['migrate-check', '--dealer', slug, '--dist', dist, '--urls', file], { encoding: 'utf8' });
          }
        });
      } finally {
        await site.close();
      }
    }
  });
}
