/**
 * The keyword box of the embedded engine: the stock's own vocabulary
 * (built when the index is decoded, so nothing extra ships), the words of a
 * query matched against it, and field-weighted scores.
 *
 * - A car's words: every word of its make, model, badge, series, body,
 *   fuel, drive, transmission, colour, ... plus the joined forms of 2 and 3
 *   neighbouring words ("Land Cruiser" also gives "landcruiser", "CX-5"
 *   "cx5") and the model's last word joined to the badge's first ("i30" +
 *   "N Line" gives "i30n"), so joined and split spellings meet.
 * - A query word matches exactly; else as the prefix of a word; else with
 *   typos (text.ts typoBudget). Exact scores above prefix above fuzzy; a
 *   match scores its field's weight (model and make above badge and
 *   series, above body, fuel, drive, colour).
 * - Neighbouring query words that join into a word of the stock are one
 *   term ("land cruiser", "bt 50"); synonym phrases ("four wheel drive")
 *   are one term matching any phrase of their group.
 */
import { distance, typoBudget, words } from './text';
import table from './vocabulary/synonyms.json';

/** One searchable field: its weight and, per distinct value, the cars having it. */
export interface Field {
  weight: number;
  values: string[];
  /** Cars of value v: cars[start[v] .. start[v + 1]). */
  start: Int32Array;
  cars: Int32Array;
}

/** A query word's match: field, value, and how well (exact 1, synonym 0.9, prefix 0.6, fuzzy 0.45/0.35). */
export type Match = [field: number, value: number, quality: number];

export interface Vocabulary {
  fields: Field[];
  /** Word → its [field, value] pairs, flattened. */
  postings: Map<string, number[]>;
  /** The words, sorted (prefix look-ups). */
  sorted: string[];
}

export const QUALITY = { exact: 1, synonym: 0.9, prefix: 0.6, fuzzy: 0.45 };

/**
 * Inverted lists of a field: from per-car value codes (-1: none), or from
 * per-car bit masks (bit v: the car has value v) for a field with several
 * values per car.
 */
export function field(weight: number, values: string[], codes: Int32Array, isMask = false): Field {
  const n = codes.length;
  const count = new Int32Array(values.length + 1);
  const each = (f: (car: number, v: number) => void) => {
    for (let i = 0; i < n; i++) {
      const c = codes[i]!;
      if (!isMask) {
        if (c >= 0) f(i, c);
      } else for (let m = c, v = 0; m; m >>>= 1, v++) if (m & 1) f(i, v);
    }
  };
  each((_, v) => count[v + 1]!++);
  for (let v = 0; v < values.length; v++) count[v + 1]! += count[v]!;
  const start = Int32Array.from(count);
  const cars = new Int32Array(count[values.length]!);
  each((i, v) => (cars[count[v]!++] = i));
  return { weight, values, start, cars };
}

/** The words a value is found by: its words and the joins of 2 and 3 neighbours. */
export function wordsOf(value: string): Set<string> {
  const ws = words(value);
  const out = new Set(ws);
  for (let len = 2; len <= 3; len++) for (let i = 0; i + len <= ws.length; i++) out.add(ws.slice(i, i + len).join(''));
  out.add(ws.join(''));
  return out;
}

export function vocabulary(fields: Field[]): Vocabulary {
  const postings = new Map<string, number[]>();
  fields.forEach((f, fi) =>
    f.values.forEach((v, vi) => {
      if (f.start[vi + 1] === f.start[vi]) return;
      for (const w of wordsOf(v)) {
        const list = postings.get(w);
        if (list) list.push(fi, vi);
        else postings.set(w, [fi, vi]);
      }
    }),
  );
  return { fields, postings, sorted: [...postings.keys()].sort() };
}

/** Synonym phrases (words joined by a space) → the joined words they also find. */
export type Synonyms = Map<string, string[]>;

const join = (phrase: string) => words(phrase).join('');
const key = (phrase: string) => words(phrase).join(' ');

/** The shared table plus the dealer's groups (`search.synonyms` in the YAML). */
export function synonyms(dealerGroups: readonly (readonly string[])[] = []): Synonyms {
  const out: Synonyms = new Map();
  const add = (from: string, to: readonly string[]) => {
    const k = key(from);
    if (k) out.set(k, [...new Set([...(out.get(k) ?? [join(from)]), ...to.map(join)])]);
  };
  for (const g of [...table.groups, ...dealerGroups]) for (const p of g) add(p, g);
  for (const [from, to] of Object.entries(table.one_way)) add(from, to);
  return out;
}

const STOP = new Set(table.stop_words);

/** One term of a query: the words it stands for and what they match. */
export interface Term {
  text: string;
  matches: Match[];
}

export class Matcher {
  private readonly cache = new Map<string, Match[]>();
  constructor(
    readonly vocab: Vocabulary,
    readonly syn: Synonyms,
  ) {}

  private exact(w: string, quality: number, out: Match[]): void {
    const p = this.vocab.postings.get(w);
    if (p) for (let k = 0; k < p.length; k += 2) out.push([p[k]!, p[k + 1]!, quality]);
  }

  /** Matches of one word: exact, else prefix, else within its typo budget. */
  word(w: string): Match[] {
    let out = this.cache.get(w);
    if (out) return out;
    out = [];
    this.exact(w, QUALITY.exact, out);
    const sorted = this.vocab.sorted;
    if (!out.length && w.length >= 2 && /[a-z]/.test(w)) {
      // Binary search for the first word >= w, then every word starting with it.
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (sorted[mid]! < w) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < sorted.length && sorted[i]!.startsWith(w); i++) this.exact(sorted[i]!, QUALITY.prefix, out);
    }
    const budget = typoBudget(w);
    if (!out.length && budget) {
      for (const t of sorted) {
        if (Math.abs(t.length - w.length) > budget || !typoBudget(t)) continue;
        const d = distance(w, t, budget);
        if (d <= budget) this.exact(t, QUALITY.fuzzy - 0.1 * (d - 1), out);
      }
    }
    if (this.cache.size > 500) this.cache.clear();
    this.cache.set(w, out);
    return out;
  }

  /** The terms of a query (intents already taken out). */
  terms(query: string): Term[] {
    const ws = words(query);
    const terms: Term[] = [];
    const known = (w: string) => this.vocab.postings.has(w);
    for (let i = 0; i < ws.length; ) {
      let done = 0;
      // A synonym phrase, longest first (up to 4 words).
      for (let len = Math.min(4, ws.length - i); len >= 1 && !done; len--) {
        const phrase = ws.slice(i, i + len).join(' ');
        const alts = this.syn.get(phrase);
        if (!alts) continue;
        const matches: Match[] = [];
        for (const a of alts) this.exact(a, a === alts[0] ? QUALITY.exact : QUALITY.synonym, matches);
        // A one-word synonym still gets its prefix and typo matches when the stock has none of its group.
        if (!matches.length && len === 1) matches.push(...this.word(phrase));
        terms.push({ text: phrase, matches });
        done = len;
      }
      // Neighbours that join into a word of the stock ("land cruiser", "bt 50", "i30 n").
      for (let len = Math.min(3, ws.length - i); len >= 2 && !done; len--) {
        const joined = ws.slice(i, i + len).join('');
        if (!known(joined)) continue;
        terms.push({ text: ws.slice(i, i + len).join(' '), matches: this.word(joined) });
        done = len;
      }
      if (!done) {
        const w = ws[i]!;
        if (!STOP.has(w) || known(w)) terms.push({ text: w, matches: this.word(w) });
        done = 1;
      }
      i += done;
    }
    // More terms than a car's coverage mask holds: the rest are dropped (nobody types 31 words).
    return terms.slice(0, 30);
  }

  /**
   * "Did you mean": each word that matched nothing replaced by the closest
   * word of the stock's makes and models (a wider net than the typo rules:
   * up to 2 edits, digits allowed); undefined when nothing is close.
   */
  didYouMean(query: string, unmatched: string[], preferred: ReadonlySet<number>): string | undefined {
    let changed = false;
    const fixed = words(query).map((w) => {
      if (!unmatched.includes(w) || w.length < 3) return w;
      let best: string | undefined;
      let bestD = 3;
      let bestPreferred = false;
      for (const t of this.vocab.sorted) {
        if (/^\d+$/.test(t)) continue;
        const d = distance(w, t, 2);
        if (d > 2) continue;
        const p = this.vocab.postings.get(t)!;
        let pref = false;
        for (let k = 0; k < p.length && !pref; k += 2) pref = preferred.has(p[k]!);
        if (d < bestD || (d === bestD && pref && !bestPreferred)) {
          best = t;
          bestD = d;
          bestPreferred = pref;
        }
      }
      if (best === undefined) return w;
      changed = true;
      return best;
    });
    return changed ? fixed.join(' ') : undefined;
  }
}
