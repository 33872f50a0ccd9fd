/**
 * Intents in a keyword query: the parts a shopper types as a limit rather
 * than as words a car is described by ("under 30k", "below $25,000",
 * "less than 40000", "2019", "2018-2021", "2020 onwards", "under 50,000 km",
 * "7 seater", "seven seater", "people mover", "under twenty thousand",
 * "under 25 grand", "low kms", "near new", "cheap", "white").
 * Numbers may be written as words. Each becomes a price, year, km or seats
 * range (7 seats: at least 7) or a colour family, shown as a removable
 * filter chip; the rest of the query stays keywords. The words come from
 * vocabulary/intents.json (shared with the tests). Their meanings:
 *
 * - "low" (or "lower") with a kilometre word ("low kms", "low klms", "low
 *   odo") or "mileage"/"miles": at most 40,000 km; "near new", "as new":
 *   at most 15,000 km.
 * - "cheap", "bargain", "affordable"...: the lower-priced quarter of the
 *   cars the rest of the search matches, at least five of them (a price
 *   limit the engine works out, `cheap`; engine.ts; the plan's `notes` say
 *   what it came to).
 * - a colour word ("white", "silver", "grey"): the colour family, which the
 *   generator gives every car from its feed colour ("Crystal White Pearl"
 *   is white; dealer_rules::colour_families).
 *
 * A bare year is an intent only when the stock has cars of that year, and a
 * colour word only when the stock has cars of that family: a year or colour
 * the stock lacks is an unknown word (ignored and said so), not a filter
 * that empties the page.
 */
import table from './vocabulary/intents.json';

export type IntentAttr = 'price' | 'km' | 'year' | 'seats' | 'colour_family';

export interface Intent {
  attr: IntentAttr;
  min?: number;
  max?: number;
  /** A facet value the intent refines to (colour_family: "White"). */
  value?: string;
  /**
   * "cheap": a price limit of the lower-priced quarter of what the rest of
   * the search matches; the engine sets `max` when it has the matches.
   */
  cheap?: boolean;
  /** The words as typed, e.g. "under 30k". */
  text: string;
}

/** What the stock has, for the words that mean something only when it does. */
export interface StockFacts {
  /** Model years of the stock's cars. */
  years: ReadonlySet<number>;
  /** Colour families of the stock's cars ("White", "Silver/Grey"). */
  families?: ReadonlySet<string>;
}

export interface Understood {
  /** The query without the intents' words. */
  rest: string;
  intents: Intent[];
}

interface Tok {
  v: string;
  /** Span in the original query. */
  s: number;
  e: number;
}

interface Num {
  value: number;
  /** "$" or a thousand word: money, never a year. */
  money: boolean;
  km: boolean;
  /** A plain 4-digit number in the year span of the table. */
  year: boolean;
  /** Times a thousand ("30k", "thirty thousand"). */
  thousands: boolean;
  /** Token index after the number and its units. */
  next: number;
}

const phrases = (list: string[]) => list.map((p) => p.split(' ')).sort((a, b) => b.length - a.length);
type Lists = Exclude<keyof typeof table, 'years' | 'numbers' | 'seat_needs' | 'colour_families'>;
const { years: span, numbers: NUMBER_WORDS, seat_needs: needs, colour_families: families, ...lists } = table;
/** Every phrase list of the table, longest phrase first. */
const P = Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, phrases(v.map(String))])) as Record<Lists, string[][]>;
const [FIRST_YEAR, LAST_YEAR] = span as [number, number];
/** Numbers written as words ("seven", "twenty five"): the words' values. */
const WORDS: Record<string, number> = NUMBER_WORDS;
/** Needs that are a number of seats ("people mover": at least 7), longest phrase first. */
const NEEDS: Array<[string[], number]> = Object.entries(needs as Record<string, number>)
  .map(([p, n]): [string[], number] => [p.split(' '), n])
  .sort((a, b) => b[0].length - a[0].length);
/** "low kms", "low mileage": at most this many km. */
export const LOW_KM = 40_000;
/** "near new": at most this many km. */
export const NEAR_NEW_KM = 15_000;
/**
 * A shopper's colour word and its family as the index names it ("silver":
 * "Silver/Grey"): the words of the family's name and the table's others.
 */
const COLOUR_WORDS = new Map(
  Object.entries(families as Record<string, string[]>).flatMap(([family, more]) => [...family.toLowerCase().split('/'), ...more].map((w): [string, string] => [w, family])),
);
const NUMBER = /^(\$?)(\d+(?:\.\d+)?)(k|km|kms)?$/;

/**
 * Lower-cased tokens with their spans in `q`: words and numbers (a comma
 * between digits and an apostrophe are dropped, so "$25,000" is one token
 * and "k's" is "ks"), and the signs < > + - on their own.
 */
function tokenise(q: string): Tok[] {
  const out: Tok[] = [];
  let cur: Tok | undefined;
  const end = () => {
    if (cur) out.push(cur);
    cur = undefined;
  };
  for (let i = 0; i < q.length; i++) {
    const c = q[i]!.toLowerCase();
    if ((c === ',' && /\d/.test(q[i - 1] ?? '') && /\d/.test(q[i + 1] ?? '')) || c === "'" || c === '’') {
      if (cur) cur.e = i + 1;
      continue;
    }
    if (/[a-z0-9$.]/.test(c)) {
      cur ??= { v: '', s: i, e: i };
      cur.v += c;
      cur.e = i + 1;
    } else {
      end();
      if ('<>+-–'.includes(c)) out.push({ v: c === '–' ? '-' : c, s: i, e: i + 1 });
    }
  }
  end();
  return out.map((t) => ({ ...t, v: t.v.replace(/\.$/, '') }));
}

/** Intents of `query`; `stock` says what the stock has (a bare year or colour outside it stays a word). */
export function understand(query: string, stock: StockFacts): Understood {
  const { years, families: stockFamilies = new Set<string>() } = stock;
  const toks = tokenise(query);
  const used = new Uint8Array(toks.length);
  const intents: Intent[] = [];

  /** Tokens of a phrase of `list` starting at i (0 when none). */
  const at = (i: number, list: string[][]) => {
    for (const p of list) if (p.every((w, k) => toks[i + k]?.v === w)) return p.length;
    return 0;
  };
  /** A number in words at i ("seven", "twenty five", "one hundred"): its value and the token after it. */
  const spelt = (i: number): { value: number; next: number } | undefined => {
    const w = (k: number) => WORDS[toks[k]?.v ?? ''];
    let value = w(i);
    if (value === undefined || value === 100) return undefined;
    let next = i + 1;
    const unit = w(next);
    if (value >= 20 && unit !== undefined && unit < 10) {
      value += unit;
      next++;
    }
    if (w(next) === 100) {
      value *= 100;
      next++;
    }
    return { value, next };
  };
  const num = (i: number): Num | undefined => {
    const m = toks[i] && NUMBER.exec(toks[i]!.v);
    const words = m ? undefined : spelt(i);
    if (!m && !words) return undefined;
    let value = m ? Number(m[2]) : words!.value;
    const unit = m?.[3];
    let money = m?.[1] === '$';
    let km = unit === 'km' || unit === 'kms';
    let next = m ? i + 1 : words!.next;
    let k = unit === 'k' ? 1 : at(next, P.thousand);
    const thousands = unit === 'k' || k > 0;
    if (thousands) {
      value *= 1000;
      money = true;
      next += unit === 'k' ? 0 : k;
    }
    if (!km && (k = at(next, P.km))) {
      km = true;
      // "60 k's" is 60,000 km.
      if (toks[next]!.v === 'ks' && value < 1000) value *= 1000;
      next += k;
    }
    if (km) money = false;
    const year = !!m && !money && !km && /^\d{4}$/.test(m[2]!) && value >= FIRST_YEAR && value <= LAST_YEAR;
    return { value, money, km, year, next, thousands };
  };
  const take = (from: number, to: number, attr: IntentAttr, min?: number, max?: number, more?: Pick<Intent, 'value' | 'cheap'>) => {
    for (let k = from; k < to; k++) used[k] = 1;
    intents.push({ attr, min, max, text: query.slice(toks[from]!.s, toks[to - 1]!.e), ...more });
  };
  /** The first of a pair takes the second's thousands: "20 to 30k" is $20,000 to $30,000. */
  const scaled = (a: Num, b: Num): Num => (b.thousands && !a.thousands && !a.year && a.value < 1000 ? { ...a, value: a.value * 1000, money: true } : a);
  /** Price (money or a figure of 500 and more) or km; undefined when neither. */
  const kindOf = (n: Num): IntentAttr | undefined => (n.km ? 'km' : n.money || n.value >= 500 ? 'price' : undefined);

  for (let i = 0; i < toks.length; i++) {
    let k: number;
    let a: Num | undefined;
    let b: Num | undefined;
    // "between 20k and 30k", "from 2018 to 2021"
    if ((k = at(i, P.between)) && (a = num(i + k))) {
      const j = at(a.next, P.joiners);
      if (j && (b = num(a.next + j))) {
        a = scaled(a, b);
        const both = { ...b, km: a.km || b.km, money: a.money || b.money };
        const attr: IntentAttr | undefined = a.year && b.year ? 'year' : kindOf(both);
        if (attr) {
          take(i, b.next, attr, Math.min(a.value, b.value), Math.max(a.value, b.value));
          i = b.next - 1;
          continue;
        }
      }
    }
    // "2018-2021", "20k-30k", "$20,000 to $30,000"
    if ((a = num(i)) && (k = at(a.next, P.joiners)) && (b = num(a.next + k))) {
      a = scaled(a, b);
      const attr: IntentAttr | undefined = a.year && b.year ? 'year' : a.year || b.year ? undefined : kindOf({ ...b, km: a.km || b.km, money: a.money || b.money });
      if (attr) {
        take(i, b.next, attr, Math.min(a.value, b.value), Math.max(a.value, b.value));
        i = b.next - 1;
        continue;
      }
    }
    // "after 2018", "before 2015", "since 2019"
    for (const [list, lo, hi] of [
      [P.year_after, 1, undefined],
      [P.year_before, undefined, -1],
      [P.year_since, 0, undefined],
    ] as const) {
      if ((k = at(i, list)) && (a = num(i + k))?.year) {
        take(i, a.next, 'year', lo === undefined ? undefined : a.value + lo, hi === undefined ? undefined : a.value + hi);
        i = a.next - 1;
        break;
      }
    }
    if (used[i]) continue;
    // "people mover": room for at least 7.
    const need = NEEDS.find(([p]) => p.every((w, j) => toks[i + j]?.v === w));
    if (need) {
      take(i, i + need[0].length, 'seats', need[1]);
      i += need[0].length - 1;
      continue;
    }
    // "under 30k", "less than 40000", "over 2018", "under 50,000 km"
    const most = at(i, P.at_most);
    const least = most ? 0 : at(i, P.at_least);
    if ((most || least) && (a = num(i + most + least))) {
      const attr = a.year ? 'year' : kindOf(a);
      if (attr) {
        take(i, a.next, attr, least ? a.value : undefined, most ? a.value : undefined);
        i = a.next - 1;
        continue;
      }
    }
    // "low kms", "low mileage", "near new": a kilometre limit.
    if ((k = at(i, P.low_km))) {
      const unit = at(i + k, P.km) || at(i + k, P.mileage);
      if (unit) {
        take(i, i + k + unit, 'km', undefined, LOW_KM);
        i += k + unit - 1;
        continue;
      }
    }
    if ((k = at(i, P.near_new))) {
      take(i, i + k, 'km', undefined, NEAR_NEW_KM);
      i += k - 1;
      continue;
    }
    // "cheap": the engine works out the limit from what the rest matches.
    if ((k = at(i, P.cheap))) {
      take(i, i + k, 'price', undefined, undefined, { cheap: true });
      i += k - 1;
      continue;
    }
    // "white", "silver": the colour family, when the stock has cars of it.
    const family = COLOUR_WORDS.get(toks[i]!.v);
    if (family && stockFamilies.has(family)) {
      take(i, i + 1, 'colour_family', undefined, undefined, { value: family });
      continue;
    }
    if (!(a = num(i))) continue;
    // "7 seater", "2020 onwards", "2020+"
    if (!a.money && !a.km && a.value >= 2 && a.value <= 12 && (k = at(a.next, P.seats))) {
      // "7 seater": room for at least 7.
      take(i, a.next + k, 'seats', a.value);
      i = a.next + k - 1;
    } else if (a.year && (k = at(a.next, P.year_onwards))) {
      take(i, a.next + k, 'year', a.value);
      i = a.next + k - 1;
    } else if (a.year) {
      // "2019": only a year the stock has.
      if (years.has(a.value)) take(i, a.next, 'year', a.value, a.value);
    } else if (a.km || (a.money && a.value >= 500)) {
      // "30k" or "$25,000" alone is a budget; "50000km" a km limit.
      take(i, a.next, a.km ? 'km' : 'price', undefined, a.value);
      i = a.next - 1;
    }
  }

  const rest = toks.length ? cut(query, toks, used) : query.trim();
  return { rest, intents };
}

/** `query` without the spans of used tokens, spaces collapsed. */
function cut(query: string, toks: Tok[], used: Uint8Array): string {
  let out = '';
  let from = 0;
  toks.forEach((t, i) => {
    if (!used[i]) return;
    out += query.slice(from, t.s) + ' ';
    from = t.e;
  });
  return (out + query.slice(from)).replace(/\s+/g, ' ').trim();
}
