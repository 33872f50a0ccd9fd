// The dealers of one batched build (dealergen build --all): their slugs in
// src/data/dealers.json, each dealer's data in src/data/<slug>/ as a
// single-dealer project has it in src/data/. Read from disk once, not
// imported, so the bundle stays small however many dealers share the run.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Car, SearchIndex, SiteData } from '@app/types/site';

export interface Dealer {
  slug: string;
  site: SiteData;
  cars: Car[];
  index: SearchIndex;
}

const dataDir = path.join(process.cwd(), 'src/data');
const read = (slug: string, file: string) => JSON.parse(readFileSync(path.join(dataDir, slug, file), 'utf8'));
let all: Dealer[] | undefined;

export function dealers(): Dealer[] {
  all ??= (JSON.parse(readFileSync(path.join(dataDir, 'dealers.json'), 'utf8')) as string[]).map((slug) => ({
    slug,
    site: read(slug, 'site.json') as SiteData,
    cars: read(slug, 'cars.json') as Car[],
    index: read(slug, 'search-index.json') as SearchIndex,
  }));
  return all;
}

/** One path per dealer: `each(d)` gives that dealer's params and props (null: no page). */
export function perDealer<P extends Record<string, string | undefined>, T>(each: (d: Dealer) => { params: P; props: T }[]) {
  return dealers().flatMap((d) => each(d).map(({ params, props }) => ({ params: { ...params, dealer: d.slug }, props: { ...props, site: d.site } })));
}
