/**
 * Promo tiles and the CTA card among the results (docs/behaviour/content.md §2.11, §4, §9):
 * a tile shows only between its start and expiry, within its daily window
 * (judged in the dealer's time zone), and for searches limited to its car
 * types (the promo's display; without strictDisplay also for searches
 * limited to no type); it takes its 1-based slots in the page's list.
 * Judged at the shopper's clock: the island re-checks after hydration.
 */
import type { PromoTile } from '../../types/site';

/** Minutes after local midnight at `nowMs` in `timeZone`. */
export function localMinutes(nowMs: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-AU', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(nowMs);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/** Whether the tile's dates and daily window let it show at `nowMs`. */
export function tileOpen(tile: PromoTile, nowMs: number): boolean {
  const s = nowMs / 1000;
  if (s < tile.starts_at || s > tile.expires_at) return false;
  if (tile.daily_minutes) {
    const m = localMinutes(nowMs, tile.timezone);
    if (m < tile.daily_minutes[0] || m >= tile.daily_minutes[1]) return false;
  }
  return true;
}

/** Whether the tile shows for a search refined to `carTypes` (empty: all types). */
export function tileFits(tile: PromoTile, carTypes: string[]): boolean {
  if (tile.car_types.length > 0) {
    // A type-limited tile needs a search limited to some of its types;
    // without strict display, a search limited to no type will do too.
    if (carTypes.length === 0) return !tile.strict_display;
    if (!carTypes.every((t) => (tile.car_types as string[]).includes(t))) return false;
  }
  return true;
}

/** Whether the tile shows at `nowMs` for a search refined to `carTypes` (empty: all types). */
export function tileActive(tile: PromoTile, nowMs: number, carTypes: string[]): boolean {
  return tileOpen(tile, nowMs) && tileFits(tile, carTypes);
}

export type ResultItem<H> = { kind: 'car'; hit: H } | { kind: 'promo'; tile: PromoTile } | { kind: 'cta' };

/**
 * The page's list: cars in order, each active tile at its slots (a slot past
 * the end of a short page is dropped) and the CTA card at its slot, or last
 * when the page is shorter (0 hides it). Two tiles wanting one slot: the
 * first listed wins.
 */
export function layoutResults<H>(hits: H[], tiles: PromoTile[], ctaPosition: number): ResultItem<H>[] {
  const bySlot = new Map<number, PromoTile>();
  for (const t of tiles) for (const p of t.positions) if (!bySlot.has(p)) bySlot.set(p, t);
  const items: ResultItem<H>[] = [];
  let next = 0;
  while (next < hits.length) {
    const slot = items.length + 1;
    const tile = bySlot.get(slot);
    if (tile) items.push({ kind: 'promo', tile });
    else if (ctaPosition > 0 && slot === ctaPosition) items.push({ kind: 'cta' });
    else items.push({ kind: 'car', hit: hits[next++]! });
  }
  if (ctaPosition > 0 && !items.some((i) => i.kind === 'cta') && hits.length > 0) items.push({ kind: 'cta' });
  return items;
}
