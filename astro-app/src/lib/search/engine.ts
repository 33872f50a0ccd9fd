/**
 * The embedded search engine: filters, disjunctive facet counts, range
 * statistics, sorting and paging over the generator's index
 * (/search-index.json), answering in the hosted service's response shape.
 *
 * Speed (scripts/bench-search.mjs): columns are typed arrays, a refined
 * facet is a lookup table of allowed codes, each search is one pass that
 * counts how many filter groups a car fails; cars failing none are hits and
 * count for every facet, cars failing exactly one refined facet (or range)
 * count only for that facet (disjunctive faceting, as InstantSearch does,
 * so the other values of a refined facet keep their counts). Sort orders
 * are computed once per index, so a search never sorts.
 */
import type { BaseFilters, SearchIndex, SortOption } from '../../types/site';
import { matchesBaseFilters } from './base-filters';
import {
  FACET_ATTRIBUTES,
  RANGE_ATTRIBUTES,
  sortKeyOf,
  type FacetStatsValue,
  type Hit,
  type SearchResponse,
  type SearchState,
  type SortKey,
} from './types';

export const INDEX_VERSION = 1;

interface Column {
  values: string[];
  codes: Int32Array;
}

/** The decoded index: one typed column per attribute. */
export interface Decoded {
  n: number;
  facet: Record<string, Column>;
  text: Record<string, Column>;
  num: Record<string, Float64Array>;
  str: Record<string, string[]>;
  locations: SearchIndex['locations'];
  /** Lower-case words of each car, space-prefixed, for prefix matching of the keyword box. */
  haystack: string[];
}

function column(values: string[], codes: ArrayLike<number>): Column {
  return { values, codes: Int32Array.from(codes) };
}

/** Dictionary column from per-car values (for attributes the index stores otherwise). */
function derived(n: number, valueOf: (i: number) => string): Column {
  const raw = Array.from({ length: n }, (_, i) => valueOf(i));
  const values = [...new Set(raw.filter((v) => v !== ''))].sort();
  const code = new Map(values.map((v, i) => [v, i]));
  return column(
    values,
    raw.map((v) => code.get(v) ?? -1),
  );
}

export function decodeIndex(index: SearchIndex): Decoded {
  if (index.version !== INDEX_VERSION) throw new Error(`search index version ${index.version}, expected ${INDEX_VERSION}`);
  const n = index.count;
  const text: Record<string, Column> = {};
  for (const [k, c] of Object.entries(index.text)) if (c) text[k] = column(c.values, c.codes);
  const num: Record<string, Float64Array> = {};
  for (const [k, v] of Object.entries(index.numbers)) if (v) num[k] = Float64Array.from(v);
  const str: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(index.strings)) if (v) str[k] = v;
  const loc = num.location ?? new Float64Array(n);
  const locAt = (i: number) => index.locations[loc[i]!];
  const facet: Record<string, Column> = {};
  for (const attr of FACET_ATTRIBUTES) {
    if (attr === 'city') facet[attr] = derived(n, (i) => locAt(i)?.city ?? '');
    else if (attr === 'location_name') facet[attr] = derived(n, (i) => locAt(i)?.name ?? '');
    else if (attr === 'state') facet[attr] = derived(n, (i) => locAt(i)?.state ?? '');
    else if (attr === 'make_model')
      facet[attr] = derived(n, (i) => `${text.make?.values[text.make.codes[i]!] ?? ''}|${text.model?.values[text.model.codes[i]!] ?? ''}`);
    else if (attr === 'year') facet[attr] = derived(n, (i) => String(num.year?.[i] ?? ''));
    else facet[attr] = text[attr] ?? derived(n, () => '');
  }
  const word = (col: Column | undefined, i: number) => {
    const c = col?.codes[i] ?? -1;
    return c < 0 ? '' : col!.values[c]!;
  };
  const haystack = Array.from({ length: n }, (_, i) => {
    const words = [
      ...['make', 'model', 'badge', 'series', 'car_type', 'body', 'fuel', 'transmission', 'drive', 'colour'].map((a) =>
        word(text[a], i),
      ),
      String(num.year?.[i] ?? ''),
      str.stocknum?.[i] ?? '',
      locAt(i)?.city ?? '',
      locAt(i)?.name ?? '',
    ];
    // Shoppers type "EV" for electric cars (the keyword placeholder suggests it).
    if (/electric/i.test(word(text.fuel, i))) words.push('ev');
    return ` ${words.join(' ').toLowerCase().replace(/[^a-z0-9.]+/g, ' ')}`;
  });
  return { n, facet, text, num, str, locations: index.locations, haystack };
}

/** Keeps the cars passing the base filters at `now` (unix seconds). */
export function applyBaseFilters(d: Decoded, rules: BaseFilters, now: number): Uint8Array {
  const keep = new Uint8Array(d.n);
  const status = d.text.status;
  for (let i = 0; i < d.n; i++) {
    const sold = d.num.sold_at?.[i] ?? 0;
    keep[i] = matchesBaseFilters(
      {
        status: status ? (status.values[status.codes[i]!] ?? '') : 'in_stock',
        sold_at: sold > 0 ? sold : null,
        show_on_dealer_website: true,
        photos_count: d.num.photos_count?.[i] ?? 0,
        make: d.facet.make!.values[d.facet.make!.codes[i]!] ?? '',
        car_type: d.facet.car_type!.values[d.facet.car_type!.codes[i]!] ?? '',
        stocknum: d.str.stocknum?.[i] || null,
      },
      rules,
      now,
    )
      ? 1
      : 0;
  }
  return keep;
}

export interface EngineOptions {
  hitsPerPage: number;
  /** Price low-to-high leaves out price 0 (a dealer setting). */
  priceAscExcludesZero: boolean;
  /** The dealer's sort options (site.search.sort_options): which order a URL `sortBy` names. */
  sortOptions: readonly SortOption[];
  /** Cars to consider (base filters at the shopper's time); all when absent. */
  keep?: Uint8Array;
  /** Clock for processingTimeMS. */
  clock?: () => number;
}

/** A filter group: a car passes or fails it. */
type Group =
  | { kind: 'facet'; attr: string; allowed: Uint8Array; codes: Int32Array }
  | { kind: 'range'; attr: string; col: Float64Array; min: number; max: number }
  | { kind: 'query'; words: string[] }
  | { kind: 'priced'; col: Float64Array };

export interface Engine {
  decoded: Decoded;
  search(state: SearchState): SearchResponse;
}

export function createEngine(d: Decoded, options: EngineOptions): Engine {
  const clock = options.clock ?? (() => (typeof performance === 'undefined' ? Date.now() : performance.now()));
  const orders = new Map<SortKey, Int32Array>();
  const zeros = new Float64Array(d.n);

  /** Car indices in sort order; ties keep the index order (the relevance rank). */
  function order(key: SortKey): Int32Array {
    let o = orders.get(key);
    if (o) return o;
    const idx = Array.from({ length: d.n }, (_, i) => i);
    const by = (col: Float64Array | undefined, dir: 1 | -1) => {
      const c = col ?? zeros;
      idx.sort((a, b) => dir * (c[a]! - c[b]!) || a - b);
    };
    if (key === 'latest') by(d.num.created_at, -1);
    else if (key === 'price_desc') by(d.num.price, -1);
    else if (key === 'price_asc') by(d.num.price, 1);
    else if (key === 'km_desc') by(d.num.km, -1);
    else if (key === 'km_asc') by(d.num.km, 1);
    o = Int32Array.from(idx);
    orders.set(key, o);
    return o;
  }

  function groupsOf(state: SearchState): Group[] {
    const groups: Group[] = [];
    const words = state.query.toLowerCase().split(/[^a-z0-9.]+/).filter(Boolean);
    if (words.length) groups.push({ kind: 'query', words: words.map((w) => ` ${w}`) });
    for (const [attr, values] of Object.entries(state.refinementList)) {
      const col = d.facet[attr];
      if (!col || values.length === 0) continue;
      const allowed = new Uint8Array(col.values.length);
      for (const v of values) {
        const code = col.values.indexOf(v);
        if (code >= 0) allowed[code] = 1;
      }
      groups.push({ kind: 'facet', attr, allowed, codes: col.codes });
    }
    for (const [attr, r] of Object.entries(state.range)) {
      const col = d.num[attr];
      if (!col || (r.min === undefined && r.max === undefined)) continue;
      groups.push({ kind: 'range', attr, col, min: r.min ?? -Infinity, max: r.max ?? Infinity });
    }
    if (options.priceAscExcludesZero && sortKeyOf(state.sortBy, options.sortOptions) === 'price_asc' && d.num.price) {
      groups.push({ kind: 'priced', col: d.num.price });
    }
    return groups;
  }

  function passes(g: Group, i: number): boolean {
    switch (g.kind) {
      case 'facet': {
        const c = g.codes[i]!;
        return c >= 0 && g.allowed[c] === 1;
      }
      case 'range': {
        const v = g.col[i]!;
        return v >= g.min && v <= g.max;
      }
      case 'query': {
        const h = d.haystack[i]!;
        for (const w of g.words) if (!h.includes(w)) return false;
        return true;
      }
      case 'priced':
        return g.col[i]! > 0;
    }
  }

  function search(state: SearchState): SearchResponse {
    const t0 = clock();
    const groups = groupsOf(state);
    const n = d.n;
    // -1: hit; g >= 0: fails only group g; -2: fails two or more (or excluded by the base filters).
    const fail = new Int32Array(n);
    const keep = options.keep;
    for (let i = 0; i < n; i++) {
      if (keep && keep[i] === 0) {
        fail[i] = -2;
        continue;
      }
      let f = -1;
      for (let g = 0; g < groups.length; g++) {
        if (!passes(groups[g]!, i)) {
          if (f !== -1) {
            f = -2;
            break;
          }
          f = g;
        }
      }
      fail[i] = f;
    }

    // Facet counts: hits count everywhere; a car failing only a refined
    // facet's (or range's) own group counts for that attribute alone.
    const ownGroup = new Map<string, number>();
    groups.forEach((g, gi) => {
      if (g.kind === 'facet' || g.kind === 'range') ownGroup.set(g.attr, gi);
    });
    const facets: Record<string, Record<string, number>> = {};
    for (const attr of FACET_ATTRIBUTES) {
      const col = d.facet[attr]!;
      const own = ownGroup.get(attr) ?? -3;
      const counts = new Int32Array(col.values.length);
      const codes = col.codes;
      for (let i = 0; i < n; i++) {
        const f = fail[i]!;
        if (f === -1 || f === own) {
          const c = codes[i]!;
          if (c >= 0) counts[c]!++;
        }
      }
      const out: Record<string, number> = {};
      for (let c = 0; c < counts.length; c++) if (counts[c]! > 0) out[col.values[c]!] = counts[c]!;
      facets[attr] = out;
    }
    const facets_stats: Record<string, FacetStatsValue> = {};
    for (const attr of RANGE_ATTRIBUTES) {
      const col = d.num[attr];
      if (!col) continue;
      const own = ownGroup.get(attr) ?? -3;
      let min = Infinity;
      let max = -Infinity;
      for (let i = 0; i < n; i++) {
        const f = fail[i]!;
        if (f === -1 || f === own) {
          const v = col[i]!;
          if (v < min) min = v;
          if (v > max) max = v;
        }
      }
      if (min <= max) facets_stats[attr] = { min, max };
    }

    const hitsPerPage = options.hitsPerPage;
    const page = Math.max(0, state.page - 1);
    const from = page * hitsPerPage;
    const ids: number[] = [];
    let nbHits = 0;
    for (const i of order(sortKeyOf(state.sortBy, options.sortOptions))) {
      if (fail[i] !== -1) continue;
      if (nbHits >= from && nbHits < from + hitsPerPage) ids.push(i);
      nbHits++;
    }
    return {
      hits: ids.map((i) => hitAt(d, i)),
      nbHits,
      nbPages: Math.ceil(nbHits / hitsPerPage),
      page,
      hitsPerPage,
      facets,
      facets_stats,
      processingTimeMS: Math.round(clock() - t0),
    };
  }

  return { decoded: d, search };
}

/** The card fields of car `i`. */
export function hitAt(d: Decoded, i: number): Hit {
  const t = (a: string) => {
    const col = d.text[a];
    const c = col?.codes[i] ?? -1;
    return c < 0 ? '' : col!.values[c]!;
  };
  const s = (a: string) => d.str[a]?.[i] ?? '';
  const num = (a: string) => d.num[a]?.[i] ?? 0;
  const loc = d.locations[num('location')];
  return {
    objectID: s('id'),
    slug: s('slug'),
    name: s('name'),
    year: num('year'),
    make: t('make'),
    model: t('model'),
    badge: t('badge'),
    series: t('series'),
    car_type: (t('car_type') || 'used') as Hit['car_type'],
    status: (t('status') || 'in_stock') as Hit['status'],
    price: num('price'),
    price_text: s('price_text'),
    was_price_text: s('was_price_text'),
    price_type: t('price_type'),
    km: num('km'),
    transmission: t('transmission'),
    fuel: t('fuel'),
    body: t('body'),
    tag_banner: t('tag_banner'),
    reserved: num('reserved') === 1,
    image: s('image'),
    photos_count: num('photos_count'),
    location_name: loc?.name ?? '',
    city: loc?.city ?? '',
    state: loc?.state ?? '',
    phone: loc?.phone ?? '',
  };
}
