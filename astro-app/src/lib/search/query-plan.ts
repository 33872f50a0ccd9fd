/**
 * The keyword half of the embedded engine: what a query means for this
 * stock. Built on the first keyword (the client loads this module then, or
 * when the keyword box gets focus), never shipped as data: the stock's
 * vocabulary comes from the decoded index's own columns (keyword.ts).
 *
 * A plan turns a query into intents (ranges), terms and, per car, a
 * field-weighted score and the terms it covers; once the engine knows the
 * hits it reports the words it left out and, when nothing matched, a
 * "did you mean".
 */
import { derived, valueAt, type Column } from './columns';
import type { Decoded } from './engine';
import { understand } from './intents';
import { field, Matcher, synonyms, vocabulary, type Field, type Term } from './keyword';
import type { QueryInfo } from './types';

/** Per car: the keyword score, how many terms it covers, and which (bit t: term t). */
export interface KeywordScores {
  score: Float32Array;
  covered: Uint8Array;
  which: Int32Array;
}

export interface Plan {
  info: QueryInfo;
  /**
   * With "cheap" in the query: given the prices of the cars the rest of
   * the search matches, sets its price limit and says whether it did.
   */
  priced?: (prices: number[]) => boolean;
  /** Terms that match some car (0: none did, or the query was all intents). */
  terms: number;
  score(): KeywordScores;
  /** Called with the hit count and the terms the hits cover (bit mask): fills `ignored` and "did you mean". */
  finish(nbHits: number, covered: number): void;
}

export type Planner = (query: string) => Plan;

/** "cheap" keeps at least this many of the matching cars (all when fewer match). */
export const CHEAP_AT_LEAST = 5;

/** The price limit "cheap" means among these prices: the lower-priced quarter, at least CHEAP_AT_LEAST (undefined: no price). */
export function cheapLimit(prices: number[]): number | undefined {
  const sorted = [...prices].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(Math.ceil(sorted.length / 4), CHEAP_AT_LEAST)) - 1];
}

/**
 * Keyword fields and weights: a match in the make or model outweighs one in
 * the badge or series, which outweighs body, fuel, drive, transmission and
 * colour; the location and the features last. "model_badge" is the model's
 * last word joined to the badge's first ("i30" + "N Line": "i30n").
 */
export const WEIGHTS: Array<[string, number]> = [
  ['make', 10],
  ['model', 10],
  ['model_badge', 9],
  ['stocknum', 8],
  ['badge', 6],
  ['series', 5],
  ['body', 4],
  ['fuel', 4],
  ['drive', 4],
  ['transmission', 3],
  ['colour', 3],
  ['car_type', 3],
  ['item_type', 3],
  ['year', 3],
  ['tag', 2],
  ['filtered_features', 2],
  ['categories', 2],
  ['city', 1],
  ['location_name', 1],
];

/** The keyword planner of a decoded index; `dealerSynonyms` add to the shared table. */
export function planner(d: Decoded, dealerSynonyms: readonly (readonly string[])[] = []): Planner {
  const n = d.n;
  const extra: Record<string, Column> = {
    model_badge: derived(n, (i) => {
      const m = valueAt(d.text.model, i).split(/[^A-Za-z0-9]+/).filter(Boolean).pop();
      const b = valueAt(d.text.badge, i).split(/[^A-Za-z0-9]+/).find(Boolean);
      return m && b ? `${m}${b}` : '';
    }),
    stocknum: derived(n, (i) => d.str.stocknum?.[i] ?? ''),
    series: d.text.series ?? derived(n, () => ''),
  };
  const fields: Field[] = [];
  const names = new Set<number>();
  for (const [attr, weight] of WEIGHTS) {
    const set = d.sets[attr];
    const col = extra[attr] ?? d.facet[attr]!;
    if (attr === 'make' || attr === 'model') names.add(fields.length);
    fields.push(set ? field(weight, set.values, set.masks, true) : field(weight, col.values, col.codes));
  }
  const years = new Set(Array.from(d.num.year ?? [], Number).filter((y) => y > 0));
  const families = new Set((d.facet.colour_family?.values ?? []).filter(Boolean));
  const matcher = new Matcher(vocabulary(fields), synonyms(dealerSynonyms));
  // Per term, the best score of a car and which term last wrote it.
  const best = new Float32Array(n);
  const stamp = new Int32Array(n);
  let stampId = 0;

  function score(terms: Term[]): KeywordScores {
    const score = new Float32Array(n);
    const covered = new Uint8Array(n);
    const which = new Int32Array(n);
    terms.forEach((t, ti) => {
      const id = ++stampId;
      const touched: number[] = [];
      for (const [f, v, q] of t.matches) {
        const fl = fields[f]!;
        const w = fl.weight * q;
        for (let k = fl.start[v]!, end = fl.start[v + 1]!; k < end; k++) {
          const car = fl.cars[k]!;
          if (stamp[car] !== id) {
            stamp[car] = id;
            best[car] = w;
            touched.push(car);
          } else if (w > best[car]!) best[car] = w;
        }
      }
      // A term counts once per car, by its best match.
      for (const car of touched) {
        score[car]! += best[car]!;
        covered[car]!++;
        which[car]! |= 1 << ti;
      }
    });
    return { score, covered, which };
  }

  return (query) => {
    const u = understand(query, { years, families });
    const all = matcher.terms(u.rest);
    const terms = all.filter((t) => t.matches.length);
    const info: QueryInfo = { rest: u.rest, intents: u.intents, unmatched: all.filter((t) => !t.matches.length).map((t) => t.text), ignored: [] };
    const cheap = u.intents.find((it) => it.cheap);
    return {
      info,
      priced: cheap
        ? (prices) => {
            cheap.max = cheapLimit(prices);
            return cheap.max !== undefined;
          }
        : undefined,
      terms: terms.length,
      score: () => score(terms),
      finish(nbHits, covered) {
        // "cheap" became a price limit (engine.ts): say which and why.
        const cheap = info.intents.filter((it) => it.cheap && it.max !== undefined);
        if (cheap.length) info.notes = cheap.map((it) => `“${it.text}”: up to $${it.max!.toLocaleString('en-AU')}, the lower-priced quarter of what matches.`);
        // Terms no hit covers were left out by the soft AND.
        if (nbHits > 0) info.ignored = terms.filter((_, ti) => !((covered >>> ti) & 1)).map((t) => t.text);
        if (nbHits === 0 || info.unmatched.length) {
          const dym = matcher.didYouMean(info.rest, info.unmatched, names);
          if (dym) info.didYouMean = [dym, ...info.intents.map((it) => it.text)].join(' ');
        }
      },
    };
  };
}
