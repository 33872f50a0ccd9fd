/**
 * The hosted client against a local stand-in of the search service's
 * documented multi-query endpoint (POST /1/indexes/{*}/queries on
 * 127.0.0.1, an OS-chosen port): the main search pages with offset and
 * length and refines with facetFilters and numericFilters, with the
 * dealer's base filters. The stand-in implements just what the client sends.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostedClient, type HostedOptions } from '../src/lib/search/hosted';
import { EMPTY_STATE } from '../src/lib/search/types';

type Rec = Record<string, unknown>;
const cars: Rec[] = Array.from({ length: 50 }, (_, i) => ({
  objectID: String(i + 1),
  slug: `car-${i + 1}`,
  make: i % 2 ? 'Kia' : 'Toyota',
  model: i % 2 ? 'Rio' : 'HiLux',
  year: 2020,
  car_type: 'used',
  status: 'in_stock',
  price: 10_000 + i * 1000,
}));
const seen: Array<{ indexName: string; params: URLSearchParams; apiKey: string }> = [];

const get = (r: Rec, path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o as Rec | undefined)?.[k], r);
function matches(r: Rec, p: URLSearchParams): boolean {
  const ff = JSON.parse(p.get('facetFilters') ?? '[]') as string[][];
  const nf = JSON.parse(p.get('numericFilters') ?? '[]') as string[];
  const facetOk = ff.every((any) =>
    any.some((f) => {
      const [attr, value] = [f.slice(0, f.indexOf(':')), f.slice(f.indexOf(':') + 1)];
      const v = get(r, attr);
      return Array.isArray(v) ? v.includes(value) : v === value;
    }),
  );
  const numOk = nf.every((f) => {
    // The service's numeric operators (Algolia's numericFilters: <, <=, =, !=, >=, >).
    const m = /^(\w+)(>=|<=|!=|>|<|=)(-?[\d.]+)$/.exec(f)!;
    const v = Number(get(r, m[1]!));
    const x = Number(m[3]);
    return { '>=': v >= x, '<=': v <= x, '!=': v !== x, '>': v > x, '<': v < x, '=': v === x }[m[2]!];
  });
  return facetOk && numOk;
}

let server: http.Server;
let origin = '';
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/1/indexes/*/queries') {
        res.writeHead(404).end();
        return;
      }
      const { requests } = JSON.parse(body) as { requests: Array<{ indexName: string; params: string }> };
      const results = requests.map(({ indexName, params }) => {
        const p = new URLSearchParams(params);
        seen.push({ indexName, params: p, apiKey: String(req.headers['x-algolia-api-key']) });
        const all = cars.filter((r) => matches(r, p));
        const offset = Number(p.get('offset') ?? 0);
        const length = Number(p.get('length') ?? 20);
        const facets: Record<string, Record<string, number>> = {};
        for (const attr of JSON.parse(p.get('facets') ?? '[]') as string[]) {
          for (const r of all) {
            const v = get(r, attr);
            for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) (facets[attr] ??= {})[String(x)] = (facets[attr]?.[String(x)] ?? 0) + 1;
          }
        }
        return { hits: all.slice(offset, offset + length), nbHits: all.length, offset, length, facets, processingTimeMS: 1 };
      });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ results }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const options = (): HostedOptions => ({
  config: { host: 'unused.example', app_id: 'APP', index: 'Car_production', public_key: 'search-only' },
  baseFilters: { include_sold_days: 3, min_photos: 0, in_stock_only: false, exclude_makes: [], exclude_car_types: [], exclude_stock_numbers: [] },
  hitsPerPage: 21,
  priceAscExcludesZero: false,
  sortOptions: [{ key: 'relevance', label: 'Most relevant', value: 'Car_production' }],
  rules: { electric_hybrid_tag: false, certified_badge_make: null, certified_badge_image: null, new_arrival_text: 'New Arrival', sold_text: 'SOLD', no_price_text: 'Enquire for price.', subscriptions: false },
  origin,
  now: () => 1_763_596_800,
});

describe('hosted search against a stand-in service', () => {
  it('pages the main search by offset and refines by facetFilters and numericFilters', async () => {
    const client = createHostedClient(options());
    const r = await client.search({ ...EMPTY_STATE, refinementList: { make: ['Toyota'] }, range: { price: { max: 40_000 } }, page: 2 });
    // Toyotas are the even ids: 10,000, 12,000, ... up to 40,000 is 16 cars; page 2 of 21 is empty.
    expect(r.nbHits).toBe(16);
    expect([r.page, r.nbPages, r.hits.length]).toEqual([1, 1, 0]);
    const first = await client.search({ ...EMPTY_STATE, refinementList: { make: ['Toyota'] }, range: {} });
    expect(first.hits.every((h) => h.make === 'Toyota')).toBe(true);
    expect(first.facets.make).toEqual({ Toyota: 25, Kia: 25 });
    expect(seen.at(-1)?.apiKey).toBe('search-only');
    // The dealer's base filters go with every query.
    expect(seen.at(-1)!.params.get('filters')).toMatch(/^show_on_dealer_website:true/);
  });
});
