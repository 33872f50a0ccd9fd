/**
 * The embedded search engine: keyword relevance, filters, disjunctive facet
 * counts, range statistics, sorting and paging over the generator's index
 * (/search-index.json), answering in the hosted service's response shape.
 *
 * The keyword half (query-plan.ts: the stock's vocabulary, typos,
 * synonyms, intents, scores) is a separate module the client loads on the
 * first keyword (or when the keyword box gets focus): a shopper who only
 * filters never downloads it, nor waits for the vocabulary to be built.
 *
 * Speed (scripts/bench-search.mjs): columns are typed arrays; a keyword
 * costs the cars it matches, not a scan of every car. Each search
 * is one pass that records, per car, the filter groups it fails (a bit
 * mask); cars failing none are hits and count for every facet, cars
 * failing only a refined facet's own groups count for that facet alone
 * (disjunctive faceting, as InstantSearch does, so the other values of a
 * refined facet keep their counts). Facets are then counted over the hits
 * and those near misses only. Sort orders are computed once per index.
 */
import type { BaseFilters, SearchIndex, SortOption } from '../../types/site';
import { matchesBaseFilters } from './base-filters';
import { column, derived, valueAt, type Column } from './columns';
import type { Intent } from './intents';
import { band, PRICE_BANDS, WEEKLY_BANDS } from './price-ranges';
import { PRICED } from './priced';
import type { Planner } from './query-plan';
import {
  FACET_ATTRIBUTES,
  OWN_ALSO,
  RANGE_ATTRIBUTES,
  SET_ATTRIBUTES,
  sortKeyOf,
  type FacetStatsValue,
  type Hit,
  type RangeRefinement,
  type SearchResponse,
  type SearchState,
  type SortKey,
} from './types';

export const INDEX_VERSION = 2;
const DAY_MS = 86_400_000;
/** Cars listed within this many days get the new-arrival tag (docs/behaviour/search.md §9). */
export const NEW_ARRIVAL_DAYS = 8;

/** A facet with several values per car (bit v of a car's mask: it has value v). */
interface SetColumn {
  values: string[];
  masks: Int32Array;
}

/** The decoded index: one typed column per attribute. */
export interface Decoded {
  n: number;
  facet: Record<string, Column>;
  sets: Record<string, SetColumn>;
  text: Record<string, Column>;
  num: Record<string, Float64Array>;
  str: Record<string, string[]>;
  locations: SearchIndex['locations'];
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
  const sets: Record<string, SetColumn> = {};
  for (const attr of SET_ATTRIBUTES) {
    const s = index.sets[attr];
    sets[attr] = s ? { values: s.values, masks: Int32Array.from(s.masks) } : { values: [], masks: new Int32Array(n) };
  }
  const loc = num.location ?? new Float64Array(n);
  const locAt = (i: number) => index.locations[loc[i]!];
  const count = (attr: string, i: number) => {
    const v = num[attr]?.[i] ?? 0;
    return v > 0 ? String(v) : '';
  };
  const facet: Record<string, Column> = {};
  for (const attr of FACET_ATTRIBUTES) {
    if (attr === 'city') facet[attr] = derived(n, (i) => locAt(i)?.city ?? '');
    else if (attr === 'location_name') facet[attr] = derived(n, (i) => locAt(i)?.name ?? '');
    else if (attr === 'state') facet[attr] = derived(n, (i) => locAt(i)?.state ?? '');
    else if (attr === 'make_model') facet[attr] = derived(n, (i) => `${valueAt(text.make, i)}|${valueAt(text.model, i)}`);
    else if (attr === 'year' || attr === 'seats') facet[attr] = derived(n, (i) => count(attr, i));
    else if (attr === 'certified') facet[attr] = derived(n, (i) => (num.certified?.[i] ? 'true' : ''));
    else if (attr === 'price_range') facet[attr] = derived(n, (i) => band(num.price?.[i] ?? 0, PRICE_BANDS));
    else if (attr === 'weekly_price_range') facet[attr] = derived(n, (i) => band(num.subscription_price?.[i] ?? 0, WEEKLY_BANDS));
    else facet[attr] = text[attr] ?? derived(n, () => '');
  }
  return { n, facet, sets, text, num, str, locations: index.locations };
}

/** Keeps the cars passing the base filters at `now` (unix seconds). */
export function applyBaseFilters(d: Decoded, rules: BaseFilters, now: number): Uint8Array {
  const keep = new Uint8Array(d.n);
  const status = d.text.status;
  for (let i = 0; i < d.n; i++) {
    const sold = d.num.sold_at?.[i] ?? 0;
    keep[i] = matchesBaseFilters(
      {
        status: status ? valueAt(status, i) : 'in_stock',
        sold_at: sold > 0 ? sold : null,
        show_on_dealer_website: true,
        photos_count: d.num.photos_count?.[i] ?? 0,
        make: valueAt(d.facet.make, i),
        car_type: valueAt(d.facet.car_type, i),
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
  /**
   * A refinement or range on an attribute the index does not have (a typo
   * in a link, a facet this stock lacks): true throws (development, tests),
   * false warns once and leaves it out (a shopper's old link still shows cars).
   */
  strict?: boolean;
  /** The new-arrival tag text (site.search.hit_rules.new_arrival_text); none when absent. */
  newArrivalText?: string;
  /** The shopper's clock in ms, for the new-arrival tag (judged per search, not at build time). */
  now?: () => number;
}

/** A filter group: a car passes or fails it. */
type Group =
  | { kind: 'facet'; attr: string; allowed: Uint8Array; codes: Int32Array }
  | { kind: 'set'; attr: string; allowed: number; masks: Int32Array }
  | { kind: 'range'; attr: string; col: Float64Array; min: number; max: number }
  | { kind: 'query' }
  | { kind: 'priced'; col: Float64Array };

export interface Engine {
  decoded: Decoded;
  /**
   * One search. A keyword needs the keyword planner (query-plan.ts, loaded
   * on demand): without one the keyword is left out (strict: an error).
   */
  search(state: SearchState, planner?: Planner): SearchResponse;
}

/** A car excluded by the base filters: fails everything. */
const OUT = -1;

export function createEngine(d: Decoded, options: EngineOptions): Engine {
  const clock = options.clock ?? (() => (typeof performance === 'undefined' ? Date.now() : performance.now()));
  const orders = new Map<SortKey, Int32Array>();
  const zeros = new Float64Array(d.n);
  const warned = new Set<string>();
  let relPos: Int32Array | undefined;

  /** Car indices in sort order; ties keep the relevance order (custom_rank, then the index order). */
  function order(key: SortKey): Int32Array {
    let o = orders.get(key);
    if (o) return o;
    const rank = d.num.custom_rank ?? zeros;
    const idx = Array.from({ length: d.n }, (_, i) => i);
    const by = (col: Float64Array | undefined, dir: 1 | -1) => {
      const c = col ?? zeros;
      idx.sort((a, b) => dir * (c[a]! - c[b]!) || rank[b]! - rank[a]! || a - b);
    };
    if (key === 'latest') by(d.num.created_at, -1);
    else if (key === 'price_desc') by(d.num.price, -1);
    else if (key === 'price_asc') by(d.num.price, 1);
    else if (key === 'km_desc') by(d.num.km, -1);
    else if (key === 'km_asc') by(d.num.km, 1);
    else by(undefined, 1);
    o = Int32Array.from(idx);
    orders.set(key, o);
    return o;
  }

  function unknown(what: string): void {
    const message = `search: no attribute "${what}" in this index; left out`;
    if (options.strict) throw new Error(message);
    if (!warned.has(what)) console.warn(message);
    warned.add(what);
  }

  function groupsOf(state: SearchState, intents: Intent[]): Group[] {
    const groups: Group[] = [];
    // The URL's refinements, then a colour word's family ("white"): a group
    // of its own besides the URL's, so both apply.
    const refined: Array<[string, readonly string[]]> = Object.entries(state.refinementList);
    for (const it of intents) if (it.value !== undefined) refined.push([it.attr, [it.value]]);
    for (const [attr, values] of refined) {
      if (values.length === 0) continue;
      const col = d.facet[attr];
      const set = d.sets[attr];
      if (set) {
        let allowed = 0;
        for (const v of values) {
          const bit = set.values.indexOf(v);
          if (bit >= 0) allowed |= 1 << bit;
        }
        groups.push({ kind: 'set', attr, allowed, masks: set.masks });
      } else if (col) {
        const allowed = new Uint8Array(col.values.length);
        for (const v of values) {
          const code = col.values.indexOf(v);
          if (code >= 0) allowed[code] = 1;
        }
        groups.push({ kind: 'facet', attr, allowed, codes: col.codes });
      } else unknown(attr);
    }
    // Typed limits narrow the URL's ranges (both apply).
    const ranges: Record<string, RangeRefinement> = { ...state.range };
    for (const it of intents) {
      if (it.value !== undefined) continue;
      const r = ranges[it.attr] ?? {};
      ranges[it.attr] = {
        min: it.min === undefined ? r.min : Math.max(it.min, r.min ?? -Infinity),
        max: it.max === undefined ? r.max : Math.min(it.max, r.max ?? Infinity),
      };
    }
    for (const [attr, r] of Object.entries(ranges)) {
      if (r.min === undefined && r.max === undefined) continue;
      const col = d.num[attr];
      // A price of 0 is no price ("Enquire for price"), not a cheap car: it
      // is within no price range, so a budget lists priced cars only.
      const min = PRICED.has(attr) ? Math.max(r.min ?? 1, 1) : (r.min ?? -Infinity);
      if (!col) unknown(attr);
      else groups.push({ kind: 'range', attr, col, min, max: r.max ?? Infinity });
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
      case 'set':
        return (g.masks[i]! & g.allowed) !== 0;
      case 'range': {
        const v = g.col[i]!;
        return v >= g.min && v <= g.max;
      }
      case 'priced':
        return g.col[i]! > 0;
      case 'query':
        return true;
    }
  }

  function search(state: SearchState, planner?: Planner): SearchResponse {
    const t0 = clock();
    const n = d.n;
    const keep = options.keep;
    if (state.query.trim() && !planner) unknown('query (no keyword planner loaded)');
    const plan = state.query.trim() ? planner?.(state.query) : undefined;
    // A keyword that matched nothing at all finds nothing (and says why);
    // one that matched some words is a query group decided after the filters.
    const noMatch = plan !== undefined && plan.terms === 0 && plan.info.unmatched.length > 0;
    const kw = plan?.terms ? plan.score() : undefined;
    const intents = plan?.info.intents ?? [];

    /** The groups of the search, and the groups each car fails (0: a hit). */
    function select(): { groups: Group[]; mask: Int32Array } {
      const groups = groupsOf(state, intents);
      const queryBit = plan?.terms || noMatch ? groups.push({ kind: 'query' }) - 1 : -1;
      if (groups.length > 31) throw new Error('search: more than 31 filter groups');
      // Pass 1: the groups each car fails (the query group is decided below).
      const mask = new Int32Array(n);
      let threshold = 0;
      for (let i = 0; i < n; i++) {
        if (keep && keep[i] === 0) {
          mask[i] = OUT;
          continue;
        }
        let m = 0;
        for (let g = 0; g < groups.length; g++) if (g !== queryBit && !passes(groups[g]!, i)) m |= 1 << g;
        mask[i] = m;
        if (m === 0 && kw && kw.covered[i]! > threshold) threshold = kw.covered[i]!;
      }
      // Soft AND: the cars covering the most query terms among those the
      // filters leave; a term none of them has is left out (and said so).
      if (queryBit >= 0) {
        const need = Math.max(1, threshold);
        const bit = 1 << queryBit;
        for (let i = 0; i < n; i++) if (mask[i] !== OUT && (noMatch || kw!.covered[i]! < need)) mask[i]! |= bit;
      }
      return { groups, mask };
    }
    let { groups, mask } = select();
    // "cheap": the plan turns the prices of what the rest matches into a
    // price limit (query-plan.ts); the search is then made with it.
    if (plan?.priced && d.num.price) {
      const prices: number[] = [];
      for (let i = 0; i < n; i++) if (mask[i] === 0 && d.num.price[i]! > 0) prices.push(d.num.price[i]!);
      if (plan.priced(prices)) ({ groups, mask } = select());
    }

    // Hits, and the near misses that fail only refined facets' own groups.
    const hitsList = new Int32Array(n);
    const near = new Int32Array(n);
    let nh = 0;
    let nn = 0;
    let ownUnion = 0;
    const ownOf = (attr: string) => {
      let m = 0;
      const attrs = [attr, ...(OWN_ALSO[attr] ?? [])];
      groups.forEach((g, gi) => {
        if ('attr' in g && attrs.includes(g.attr)) m |= 1 << gi;
      });
      return m;
    };
    for (const g of groups) if ('attr' in g) ownUnion |= ownOf(g.attr);
    for (let i = 0; i < n; i++) {
      const m = mask[i]!;
      if (m === 0) hitsList[nh++] = i;
      else if (m !== OUT && (m & ~ownUnion) === 0) near[nn++] = i;
    }
    /** The cars counted for a facet whose own groups are `own`: the hits, and the near misses failing only those. */
    const counted = (own: number): ArrayLike<number> => {
      if (!own || !nn) return nh === n ? hitsList : hitsList.subarray(0, nh);
      const out = hitsList.slice(0, nh + nn);
      let k = nh;
      for (let j = 0; j < nn; j++) if ((mask[near[j]!]! & ~own) === 0) out[k++] = near[j]!;
      return out.subarray(0, k);
    };

    const facets: Record<string, Record<string, number>> = {};
    for (const attr of FACET_ATTRIBUTES) {
      const col = d.facet[attr]!;
      if (col.values.length === 0) {
        facets[attr] = {};
        continue;
      }
      const counts = new Int32Array(col.values.length);
      const codes = col.codes;
      const cars = counted(ownOf(attr));
      for (let k = 0; k < cars.length; k++) {
        const c = codes[cars[k]!]!;
        if (c >= 0) counts[c]!++;
      }
      facets[attr] = tally(col.values, counts);
    }
    for (const attr of SET_ATTRIBUTES) {
      const set = d.sets[attr]!;
      const counts = new Int32Array(set.values.length);
      if (set.values.length) {
        const cars = counted(ownOf(attr));
        for (let k = 0; k < cars.length; k++) for (let m = set.masks[cars[k]!]!, v = 0; m; m >>>= 1, v++) if (m & 1) counts[v]!++;
      }
      facets[attr] = tally(set.values, counts);
    }
    const facets_stats: Record<string, FacetStatsValue> = {};
    for (const attr of RANGE_ATTRIBUTES) {
      const col = d.num[attr];
      if (!col) continue;
      let min = Infinity;
      let max = -Infinity;
      const cars = counted(ownOf(attr));
      for (let k = 0; k < cars.length; k++) {
        const v = col[cars[k]!]!;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      if (min <= max) facets_stats[attr] = { min, max };
    }

    const key = sortKeyOf(state.sortBy, options.sortOptions);
    const hitsPerPage = options.hitsPerPage;
    const page = Math.max(0, state.page - 1);
    const from = page * hitsPerPage;
    const to = from + hitsPerPage;
    const nbHits = nh;
    const ids: number[] = [];
    if (kw && key === 'relevance') {
      // Score first, then the relevance order (custom_rank, index order):
      // one number per hit, sorted natively.
      const rel = order('relevance');
      if (!relPos) {
        relPos = new Int32Array(n);
        rel.forEach((car, p) => (relPos![car] = p));
      }
      const keys = new Float64Array(nh);
      for (let k = 0; k < nh; k++) keys[k] = -Math.round(kw.score[hitsList[k]!]! * 100) * 2 ** 21 + relPos[hitsList[k]!]!;
      keys.sort();
      for (let k = from; k < Math.min(to, nh); k++) ids.push(rel[((keys[k]! % 2 ** 21) + 2 ** 21) % 2 ** 21]!);
    } else {
      // The order is precomputed: walk it until the page is full.
      let seen = 0;
      for (const i of order(key)) {
        if (mask[i] !== 0) continue;
        if (seen >= from) ids.push(i);
        if (++seen >= to) break;
      }
    }

    if (plan) {
      let covered = 0;
      if (kw) for (let k = 0; k < nh; k++) covered |= kw.which[hitsList[k]!]!;
      plan.finish(nbHits, covered);
    }
    const now = options.now?.() ?? Date.now();
    const response: SearchResponse = {
      hits: ids.map((i) => hitAt(d, i, options.newArrivalText, now)),
      nbHits,
      nbPages: Math.ceil(nbHits / hitsPerPage),
      page,
      hitsPerPage,
      facets,
      facets_stats,
      processingTimeMS: Math.round(clock() - t0),
    };
    if (plan) response.query = plan.info;
    return response;
  }

  return { decoded: d, search };
}

function tally(values: string[], counts: Int32Array): Record<string, number> {
  const out: Record<string, number> = {};
  for (let c = 0; c < counts.length; c++) if (counts[c]! > 0) out[values[c]!] = counts[c]!;
  return out;
}

/** The card fields of car `i`; the new-arrival tag judged at `nowMs` when the dealer has one. */
export function hitAt(d: Decoded, i: number, newArrivalText?: string, nowMs = Date.now()): Hit {
  const t = (a: string) => valueAt(d.text[a], i);
  const s = (a: string) => d.str[a]?.[i] ?? '';
  const num = (a: string) => d.num[a]?.[i] ?? 0;
  const loc = d.locations[num('location')];
  const status = (t('status') || 'in_stock') as Hit['status'];
  // The generator leaves New Arrival to the shopper's clock: a page built
  // a week ago must not still call a car new, nor miss one listed since.
  const age = nowMs - num('created_at') * 1000;
  const fresh = newArrivalText && status !== 'sold' && num('created_at') > 0 && age >= 0 && age < NEW_ARRIVAL_DAYS * DAY_MS;
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
    status,
    price: num('price'),
    price_text: s('price_text'),
    was_price_text: s('was_price_text'),
    price_type: t('price_type'),
    km: num('km'),
    transmission: t('transmission'),
    fuel: t('fuel'),
    body: t('body'),
    tag_banner: t('tag_banner') || (fresh ? newArrivalText : ''),
    reserved: num('reserved') === 1,
    image: s('image'),
    photos_count: num('photos_count'),
    location_name: loc?.name ?? '',
    city: loc?.city ?? '',
    state: loc?.state ?? '',
    phone: loc?.phone ?? '',
  };
}
