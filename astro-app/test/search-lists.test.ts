/** Facet lists, counts, cache, history, promo tiles and card rules. */
import { describe, expect, it } from 'vitest';
import { ResultCache } from '../src/lib/search/cache';
import { cardActions, cardNotes, showToggle, type CardSettings } from '../src/lib/search/cards';
import { displayCount, facetEntries, modelsOfMake, splitPopular, withSeparators } from '../src/lib/search/facet-lists';
import { addToHistory, loadHistory, recordSearch } from '../src/lib/search/history';
import { layoutResults, tileActive } from '../src/lib/search/promo';
import type { PromoTile } from '../src/types/site';

describe('facet lists', () => {
  it('orders car types new, demo, used', () => {
    expect(facetEntries('car_type', { used: 50, demo: 2, new: 9 }).map((e) => e.value)).toEqual(['new', 'demo', 'used']);
  });
  it('orders other values by count, keeps refined values with 0 cars', () => {
    const e = facetEntries('make', { Kia: 3, Toyota: 9, Audi: 3 }, ['Ford']);
    expect(e.map((x) => [x.value, x.count, x.refined])).toEqual([
      ['Toyota', 9, false],
      ['Audi', 3, false],
      ['Kia', 3, false],
      ['Ford', 0, true],
    ]);
  });
  it('caps city at 20 and location at 40 values, keeping a refined value past the cap', () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`c${String(i).padStart(2, '0')}`, 100 - i]));
    expect(facetEntries('city', many)).toHaveLength(20);
    expect(facetEntries('location_name', many)).toHaveLength(40);
    expect(facetEntries('make', many)).toHaveLength(50);
    expect(facetEntries('city', many, ['c45']).map((e) => e.value)).toContain('c45');
  });
  it('shows 7 makes (or the popular count) before Show all makes', () => {
    const list = Array.from({ length: 10 }, (_, i) => i);
    expect(splitPopular(list).shown).toHaveLength(7);
    expect(splitPopular(list).extra).toHaveLength(3);
    expect(splitPopular(list, 4).shown).toHaveLength(4);
  });
  it('lists at most 30 models of one make', () => {
    const mm = Object.fromEntries(Array.from({ length: 35 }, (_, i) => [`Toyota|M${i}`, i + 1]));
    mm['Kia|Rio'] = 99;
    const models = modelsOfMake(mm, 'Toyota');
    expect(models).toHaveLength(30);
    expect(models[0]).toEqual({ value: 'M34', count: 35 });
    expect(models.some((m) => m.value === 'Rio')).toBe(false);
  });
  it('puts a separator after 20 dropdown items', () => {
    const items = withSeparators(Array.from({ length: 45 }, (_, i) => i));
    expect(items.filter((i) => i.kind === 'separator')).toHaveLength(2);
    expect(items[20]).toEqual({ kind: 'separator' });
  });
  it('replaces a count above 1999 by the configured count or the facet sum', () => {
    const facets = { car_type: { new: 1500, used: 1200 } };
    expect(displayCount(1999, facets, null)).toBe(1999);
    expect(displayCount(2000, facets, 4321)).toBe(4321);
    expect(displayCount(2000, facets, null)).toBe(2700);
  });
});

describe('result cache', () => {
  it('holds 10 entries and evicts the oldest first', () => {
    const c = new ResultCache<number>();
    for (let i = 0; i < 11; i++) c.set(`k${i}`, i);
    expect(c.size).toBe(10);
    expect(c.get('k0')).toBeUndefined();
    expect(c.get('k1')).toBe(1);
    expect(c.keys()[0]).toBe('k1');
  });
});

describe('search history', () => {
  it('keeps the last 5, newest first, without repeating a path', () => {
    let list = [] as ReturnType<typeof loadHistory>;
    for (let i = 0; i < 7; i++) list = addToHistory(list, { refinements: { make: [`M${i}`] }, path: `/search/?p=${i}` });
    expect(list.map((e) => e.path)).toEqual(['/search/?p=6', '/search/?p=5', '/search/?p=4', '/search/?p=3', '/search/?p=2']);
    list = addToHistory(list, { refinements: {}, path: '/search/?p=4' });
    expect(list.map((e) => e.path).slice(0, 2)).toEqual(['/search/?p=4', '/search/?p=6']);
    expect(list).toHaveLength(5);
  });
  it('stores in and reads from local storage, tolerating junk', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    recordSearch(storage, { refinements: { make: ['Kia'] }, path: '/search/?a' });
    expect(loadHistory(storage)).toEqual([{ refinements: { make: ['Kia'] }, path: '/search/?a' }]);
    store.set('dealergen:search-history', '{nope');
    expect(loadHistory(storage)).toEqual([]);
  });
});

const tile = (t: Partial<PromoTile>): PromoTile => ({
  id: 't',
  positions: [3],
  starts_at: Date.UTC(2025, 7, 20, 22, 30) / 1000,
  expires_at: Date.UTC(2025, 8, 30, 7, 30) / 1000,
  daily_minutes: null,
  timezone: 'Australia/Brisbane',
  car_types: [],
  strict_display: true,
  image: '/x.svg',
  alt: 'x',
  href: '/x',
  ...t,
});

describe('promo tiles', () => {
  it('show only inside their start/expiry window', () => {
    const t = tile({});
    expect(tileActive(t, Date.UTC(2025, 7, 20, 22, 29), [])).toBe(false);
    expect(tileActive(t, Date.UTC(2025, 7, 20, 22, 30), [])).toBe(true);
    expect(tileActive(t, Date.UTC(2025, 8, 30, 7, 31), [])).toBe(false);
  });
  it('respect the daily hours in the dealer time zone (08:30-17:30 Brisbane = 22:30-07:30 UTC)', () => {
    const t = tile({ daily_minutes: [510, 1050] });
    expect(tileActive(t, Date.UTC(2025, 8, 1, 22, 29), [])).toBe(false); // 08:29 local
    expect(tileActive(t, Date.UTC(2025, 8, 1, 22, 30), [])).toBe(true); // 08:30
    expect(tileActive(t, Date.UTC(2025, 8, 2, 7, 29), [])).toBe(true); // 17:29
    expect(tileActive(t, Date.UTC(2025, 8, 2, 7, 30), [])).toBe(false); // 17:30
  });
  it('limited to car types show only for searches limited to those types', () => {
    const t = tile({ car_types: ['used'] });
    const now = Date.UTC(2025, 8, 1, 23, 0);
    expect(tileActive(t, now, [])).toBe(false);
    expect(tileActive(t, now, ['used'])).toBe(true);
    expect(tileActive(t, now, ['used', 'new'])).toBe(false);
  });
  it('limited to car types without strict display also show while no type is chosen (promo display / strictDisplay)', () => {
    const t = tile({ car_types: ['used'], strict_display: false });
    const now = Date.UTC(2025, 8, 1, 23, 0);
    expect(tileActive(t, now, [])).toBe(true);
    expect(tileActive(t, now, ['used'])).toBe(true);
    expect(tileActive(t, now, ['new'])).toBe(false);
    expect(tileActive(t, now, ['used', 'new'])).toBe(false);
  });
  it('take their slots among the cars, the CTA card at its slot or last', () => {
    const hits = Array.from({ length: 6 }, (_, i) => i);
    const items = layoutResults(hits, [tile({ positions: [2, 5, 40] })], 4);
    expect(items.map((i) => (i.kind === 'car' ? i.hit : i.kind))).toEqual([0, 'promo', 1, 'cta', 'promo', 2, 3, 4, 5]);
    expect(layoutResults(hits, [], 30).at(-1)).toEqual({ kind: 'cta' });
    expect(layoutResults(hits, [], 0).some((i) => i.kind === 'cta')).toBe(false);
    expect(layoutResults([], [tile({})], 30)).toEqual([]);
  });
});

const settings: CardSettings = { buttons: ['enquire', 'test_drive', 'finance', 'reserve', 'trade_in', 'view_details'], checkout: true, checkoutDeposit: 200, checkoutPath: 'checkout' };
const car = { objectID: '7', slug: 'kia-rio-7', status: 'in_stock' as const, phone: '(07) 3000 0001', price: 18990 };

describe('card buttons and toggles', () => {
  it('gives in-stock cars the dealer button set, Reserve Now with the deposit', () => {
    expect(cardActions(car, settings).map((a) => a.label)).toEqual(['Enquire', 'Book a Test Drive', 'Get Finance', 'Reserve Now $200', 'Trade In', 'View Details']);
    expect(cardActions(car, settings).find((a) => a.kind === 'reserve')?.href).toBe('/cars/kia-rio-7/checkout/');
    expect(cardActions(car, settings).find((a) => a.kind === 'trade_in')?.href).toBe('/cars/trade-in/?car_id=7');
  });
  it('leaves the amount off at deposit 0 and Reserve out without checkout', () => {
    expect(cardActions(car, { ...settings, checkoutDeposit: 0 }).map((a) => a.label)).toContain('Reserve Now');
    expect(cardActions(car, { ...settings, checkout: false }).some((a) => a.kind === 'reserve')).toBe(false);
  });
  it('gives sold cars only Find Me Something Similar', () => {
    expect(cardActions({ ...car, status: 'sold' }, settings).map((a) => a.label)).toEqual(['Find Me Something Similar']);
  });
  it('supports the alternative sets (call the dealer, offer, buy online)', () => {
    const alt = cardActions(car, { ...settings, buttons: ['call_dealer', 'enquire', 'finance', 'test_drive', 'make_offer', 'buy_online'] });
    expect(alt.map((a) => a.label)).toEqual(['Call Dealer', 'Enquire', 'Get Finance', 'Book a Test Drive', 'Make an Offer', 'Buy Online']);
    expect(alt[0]!.href).toBe('tel:0730000001');
  });
  it('shows compare/favourite only when on and in stock; strict: used, priced, with photos', () => {
    const used = { status: 'in_stock' as const, car_type: 'used' as const, price: 19990, image: '/a.jpg' };
    expect(showToggle(used, false, false)).toBe(false);
    expect(showToggle(used, true, false)).toBe(true);
    expect(showToggle({ ...used, status: 'sold' }, true, false)).toBe(false);
    expect(showToggle(used, true, true)).toBe(true);
    expect(showToggle({ ...used, car_type: 'new' }, true, true)).toBe(false);
    expect(showToggle({ ...used, price: 0 }, true, true)).toBe(false);
    expect(showToggle({ ...used, image: '' }, true, true)).toBe(false);
    expect(showToggle({ ...used, car_type: 'new', price: 0, image: '' }, true, false)).toBe(true);
  });
});

describe('card notes (docs/behaviour/search.md §9)', () => {
  const used = { ...car, car_type: 'used' as const };
  it('say the deposit is 100% refundable and how long the car is held, where Reserve Now shows', () => {
    expect(cardNotes(used, { ...settings, checkoutHoldHours: 48 })).toEqual(['$200 deposit, 100% refundable: we hold the car for 48 hours.']);
    expect(cardNotes(used, { ...settings, checkout: false, checkoutHoldHours: 48 })).toEqual([]);
    expect(cardNotes({ ...used, status: 'sold' }, { ...settings, checkoutHoldHours: 48 })).toEqual([]);
  });
  it("add the dealer's guarantee to used cars in stock only", () => {
    const s = { ...settings, checkout: false, usedGuarantee: '48 hour money back · 12 months roadside assist' };
    expect(cardNotes(used, s)).toEqual(['48 hour money back · 12 months roadside assist']);
    expect(cardNotes({ ...used, car_type: 'new' }, s)).toEqual([]);
    expect(cardNotes({ ...used, status: 'sold' }, s)).toEqual([]);
    expect(cardNotes(used, { ...s, usedGuarantee: null })).toEqual([]);
  });
});
