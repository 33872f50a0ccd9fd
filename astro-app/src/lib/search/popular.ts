/**
 * Popular searches from what shoppers really search: the search page
 * reports each keyword search once the shopper submits it (Enter, a
 * suggestion) or stops typing for a while, with the number of cars it
 * found, to the edge (`POST /api/search/queries`), which counts it per
 * dealer and day without keeping who searched. The keyword box then offers
 * the dealer's most searched queries (`GET /api/search/popular`: found
 * cars, searched by at least 3 visitors) that still find cars in the stock
 * on screen.
 *
 * A chunk of its own, loaded when the keyword box gets focus or the first
 * keyword search is reported: nothing here costs the page's first load.
 * The edge applies the same rules again (edge/core/src/search_queries.rs);
 * both are checked against vocabulary/query-cases.json.
 */
import { api } from '../api';
import type { Suggestion } from './suggest';
import type { SearchResponse } from './types';

/** Longest query kept once normalised, in characters, and most words (as the edge). */
export const QUERY_MAX = 60;
export const WORDS_MAX = 6;
/** A search is reported once the box has been still this long (ms), unless submitted sooner. */
export const PAUSE_MS = 2000;
/** Popular queries asked for, and at most checked against the stock. */
export const POPULAR_ASKED = 8;

export type Dropped = 'personal' | 'empty' | 'long' | 'unsupported';

/** Lower case without accents, as text.ts `fold`. */
const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
const isYear = (g: string) => g.length === 4 && (g.startsWith('19') || g.startsWith('20'));
const isRound = (g: string) => g.length >= 4 && g.endsWith('000') && !g.startsWith('0');

/**
 * Whether a query as typed looks like personal data rather than a car
 * search: an e-mail address, a phone number or another run of 7 or more
 * digits (groups joined by up to 3 spaces, dashes, dots, brackets, plus
 * signs or slashes) unless it is only years or only round amounts, or an
 * identifier-like word (8+ characters, 4+ digits and a letter).
 */
export function looksPersonal(raw: string): boolean {
  if (raw.includes('@')) return true;
  const lower = raw.toLowerCase();
  for (const run of lower.match(/\d+(?:[ \-.()+/]{1,3}\d+)*/g) ?? []) {
    const groups = run.match(/\d+/g)!;
    const digits = groups.join('').length;
    if (digits >= 7 && !groups.every(isYear) && !groups.every(isRound)) return true;
  }
  return lower.split(/[^a-z0-9]+/).some((w) => w.length >= 8 && (w.match(/\d/g)?.length ?? 0) >= 4 && /[a-z]/.test(w));
}

/** What may be reported of a query as typed: its normalised form, or why not. */
export function judge(raw: string): { query: string } | { dropped: Dropped } {
  if (looksPersonal(raw)) return { dropped: 'personal' };
  // Only Latin text, by code point as the edge reads it (search_queries.rs
  // `normalise`): Latin-1 and general punctuation separate words; a
  // Latin-1 or Latin Extended-A letter must fold to a-z; anything else
  // (another script, æ, ø, ß, an emoji) is not reported.
  for (const ch of raw) {
    const c = ch.codePointAt(0)!;
    if (c < 0xc0 || (c >= 0x2000 && c <= 0x206f) || c === 0xd7 || c === 0xf7) continue;
    if (c > 0x17f || !/^[a-z]$/.test(fold(ch))) return { dropped: 'unsupported' };
  }
  // The keyword search's own words (text.ts, repeated here so that the
  // planner's chunk keeps no shared dependency).
  const ws = fold(raw).split(/[^a-z0-9]+/).filter(Boolean);
  const query = ws.join(' ');
  if (!query) return { dropped: 'empty' };
  if (query.length > QUERY_MAX || ws.length > WORDS_MAX) return { dropped: 'long' };
  return { query };
}

export interface ReporterOptions {
  apiBase: string;
  fetchImpl?: typeof fetch;
  pauseMs?: number;
}

/**
 * Reports searches: a submitted one at once, one the shopper paused on
 * after `pauseMs` unless another search comes first (so "hil" on the way
 * to "hilux" is not counted); each query once per page visit; nothing
 * that `judge` drops ever leaves the device.
 */
export function createReporter({ apiBase, fetchImpl, pauseMs = PAUSE_MS }: ReporterOptions) {
  const sent = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = (query: string, hits: number) => {
    if (sent.has(query)) return;
    sent.add(query);
    void api(apiBase, '/api/search/queries', { body: { query, hits }, fetchImpl });
  };
  return {
    searched(raw: string, hits: number, submitted: boolean): void {
      clearTimeout(timer);
      const judged = judge(raw);
      if (!('query' in judged)) return;
      if (submitted) send(judged.query, hits);
      else timer = setTimeout(() => send(judged.query, hits), pauseMs);
    },
    cancel(): void {
      clearTimeout(timer);
    },
  };
}

let reporter: ReturnType<typeof createReporter> | undefined;

/** The page's reporter (one per page visit). */
export function reportSearch(apiBase: string, raw: string, hits: number, submitted: boolean): void {
  (reporter ??= createReporter({ apiBase })).searched(raw, hits, submitted);
}

/** A report still waiting when the search island goes is not sent. */
export function cancelReports(): void {
  reporter?.cancel();
}

/**
 * The dealer's popular queries that find cars in this stock, as
 * suggestions with their counts: each is searched here first, and one the
 * stock has no car for, or with a word the search does not know, is left
 * out. Empty when the edge cannot answer.
 */
export async function popularSuggestions(apiBase: string, search: (query: string) => Promise<SearchResponse>, fetchImpl?: typeof fetch): Promise<Suggestion[]> {
  const r = await api<{ queries?: unknown }>(apiBase, `/api/search/popular?limit=${POPULAR_ASKED}`, { fetchImpl });
  const queries = r.ok && Array.isArray(r.data.queries) ? r.data.queries.filter((q): q is string => typeof q === 'string').slice(0, POPULAR_ASKED) : [];
  const out: Suggestion[] = [];
  for (const query of queries) {
    const judged = judge(query);
    if (!('query' in judged)) continue;
    const found = await search(judged.query).catch(() => undefined);
    const info = found?.query;
    if (found && found.nbHits > 0 && !info?.unmatched.length && !info?.ignored.length) out.push({ query: judged.query, count: found.nbHits, kind: 'popular' });
  }
  return out;
}
