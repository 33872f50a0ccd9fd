// @vitest-environment jsdom
/**
 * Favourites and compare (docs/behaviour/search.md §2, §5; 001 favourite record): the
 * device store and its limit, the shareable compare address, the car
 * summaries and comparison rows, the car page's Favourite button, the
 * /compare/ view (from the address or the shopper's list; a car gone since
 * says so) and the /favourites/ list.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CompareView from '../src/islands/search/CompareView';
import { wireFavourites } from '../src/lib/car-page/favourite';
import FavouritesList from '../src/islands/search/FavouritesList';
import { carTypeLabel, formatKm } from '../src/lib/format';
import { carSummary, compareRows, type CarSummary } from '../src/lib/search/car-summary';
import {
  COMPARE_KEY,
  COMPARE_LIMIT,
  compareHref,
  FAVOURITES_KEY,
  loadCompared,
  loadFavourites,
  slugsOf,
  toggleCompared,
  toggleFavourite,
  type Favourite,
} from '../src/lib/search/saved';
import type { Car } from '../src/types/site';

const cars = JSON.parse(fs.readFileSync(`${__dirname}/fixtures/site/src/data/cars.json`, 'utf8')) as Car[];
const summaries = new Map(cars.map((c) => [c.slug, carSummary(c)]));
const fav = (c: Car): Favourite => ({ id: c.id, name: c.name, slug: c.slug, make: c.make, model: c.model, primary_image_url: c.images[0] ?? '' });
const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

let fetched: string[] = [];
beforeEach(() => {
  localStorage.clear();
  fetched = [];
  history.replaceState(null, '', '/');
  vi.stubGlobal('fetch', async (url: string) => {
    fetched.push(url);
    const slug = decodeURIComponent(url.replace(/^\/cars\/(.+)\.json$/, '$1'));
    const s = summaries.get(slug);
    return s ? new Response(JSON.stringify(s), { status: 200 }) : new Response('not found', { status: 404 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the device store', () => {
  it('keeps favourites as the spec record, toggled by id, and survives junk', () => {
    expect(toggleFavourite(localStorage, fav(cars[0]!))).toHaveLength(1);
    expect(toggleFavourite(localStorage, fav(cars[1]!)).map((f) => f.id)).toEqual([cars[0]!.id, cars[1]!.id]);
    expect(toggleFavourite(localStorage, fav(cars[0]!)).map((f) => f.id)).toEqual([cars[1]!.id]);
    localStorage.setItem(FAVOURITES_KEY, '{nope');
    expect(loadFavourites(localStorage)).toEqual([]);
    localStorage.setItem(FAVOURITES_KEY, JSON.stringify([{ id: 1 }, fav(cars[2]!)]));
    expect(loadFavourites(localStorage)).toEqual([fav(cars[2]!)]);
  });
  it(`compares at most ${COMPARE_LIMIT} cars: a further one is refused, the list unchanged`, () => {
    for (const c of cars.slice(0, COMPARE_LIMIT)) expect(toggleCompared(localStorage, c).full).toBe(false);
    const r = toggleCompared(localStorage, cars[COMPARE_LIMIT]!);
    expect(r.full).toBe(true);
    expect(loadCompared(localStorage).map((c) => c.id)).toEqual(cars.slice(0, COMPARE_LIMIT).map((c) => c.id));
    expect(toggleCompared(localStorage, cars[0]!).list).toHaveLength(COMPARE_LIMIT - 1);
  });
  it('writes a shareable address of slugs and reads it back', () => {
    const list = cars.slice(0, 2).map((c) => ({ id: c.id, slug: c.slug }));
    const href = compareHref(list);
    expect(href).toBe(`/compare/?cars=${cars[0]!.slug},${cars[1]!.slug}`);
    expect(slugsOf(href.slice(href.indexOf('?')))).toEqual([cars[0]!.slug, cars[1]!.slug]);
    expect(slugsOf('?cars=a,,b,a,c,d,e,f')).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('comparison rows', () => {
  it('start with the price, list every spec label once, mark the rows that differ', () => {
    const a = carSummary(cars[0]!);
    const b = carSummary(cars[1]!);
    const rows = compareRows([a, b], carTypeLabel, formatKm);
    expect(rows[0]).toMatchObject({ label: 'Price' });
    const labels = rows.map((r) => r.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const s of [...a.specs, ...b.specs]) if (!['Odometer'].includes(s.label)) expect(labels).toContain(s.label);
    expect(rows.find((r) => r.label === 'Make')?.differs).toBe(a.make !== b.make);
    expect(rows.at(-1)?.label).toBe('Location');
    // A single car differs from nothing.
    expect(compareRows([a], carTypeLabel, formatKm).some((r) => r.differs)).toBe(false);
  });
});

describe('car page Favourite button (components/car/FavouriteButton.astro, lib/car-page/favourite.ts)', () => {
  it('adds and removes the car, links the list once added, and follows changes from elsewhere', () => {
    const car = fav(cars[0]!);
    document.body.innerHTML = `<div class="favourite" data-favourite='${JSON.stringify(car).replaceAll("'", '&#39;')}'><button type="button" class="toggle" aria-pressed="false">Favourite<span class="visually-hidden"> ${car.name}</span></button><a class="favourite__list" href="/favourites/" hidden>View favourites</a></div>`;
    const stop = wireFavourites(document, localStorage);
    // (jsdom's name computation drops the space before the hidden car name; a browser keeps it.)
    const name = new RegExp(`^Favourite ?${cars[0]!.name}$`);
    const button = screen.getByRole('button', { name });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('link', { name: 'View favourites' })).toBeNull();
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    // The same name pressed: only the pressed state says it changed.
    expect(screen.getByRole('button', { name, pressed: true })).toBe(button);
    expect(loadFavourites(localStorage)).toEqual([car]);
    expect(screen.getByRole('link', { name: 'View favourites' }).getAttribute('href')).toBe('/favourites/');
    // Removed elsewhere on the page (the list): the button follows.
    toggleFavourite(localStorage, car);
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryByRole('link', { name: 'View favourites' })).toBeNull();
    stop();
    // A page opened with the car already a favourite starts pressed.
    toggleFavourite(localStorage, car);
    const again = wireFavourites(document, localStorage);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    again();
  });
});

describe('/compare/', () => {
  it('shows the cars the address names side by side; a car gone since says so and can be removed', async () => {
    history.replaceState(null, '', `/compare/?cars=${cars[0]!.slug},gone-car-1,${cars[3]!.slug}`);
    render(<CompareView />);
    await settle();
    await settle();
    expect(screen.getByRole('heading', { name: 'Comparing 3 cars' })).toBeTruthy();
    const table = screen.getByRole('table');
    const cols = within(table).getAllByRole('columnheader');
    expect(cols.map((c) => c.textContent)).toEqual([expect.stringContaining(cars[0]!.name), expect.stringContaining('no longer listed'), expect.stringContaining(cars[3]!.name)]);
    const price = within(table).getByRole('rowheader', { name: /^Price/ }).closest('tr')!;
    expect(price.textContent).toContain(cars[0]!.price_text);
    expect(price.textContent).toContain(cars[3]!.price_text);
    fireEvent.click(within(cols[1]!).getByRole('button'));
    expect(location.search).toBe(`?cars=${cars[0]!.slug},${cars[3]!.slug}`);
    expect(screen.getByRole('heading', { name: 'Comparing 2 cars' })).toBe(document.activeElement);
  });

  it("without an address, compares the shopper's list and writes its shareable address", async () => {
    for (const c of cars.slice(1, 3)) toggleCompared(localStorage, c);
    history.replaceState(null, '', '/compare/');
    render(<CompareView />);
    await settle();
    expect(location.search).toBe(`?cars=${cars[1]!.slug},${cars[2]!.slug}`);
    expect(fetched).toEqual([`/cars/${cars[1]!.slug}.json`, `/cars/${cars[2]!.slug}.json`]);
    fireEvent.click(within(screen.getAllByRole('columnheader')[0]!).getByRole('button'));
    expect(JSON.parse(localStorage.getItem(COMPARE_KEY) ?? '[]').map((c: { slug: string }) => c.slug)).toEqual([cars[2]!.slug]);
  });

  it('says how to start when there is nothing to compare', async () => {
    history.replaceState(null, '', '/compare/');
    render(<CompareView />);
    await settle();
    expect(screen.getByRole('heading', { name: 'No cars to compare yet' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'our stock' }).getAttribute('href')).toBe('/search/');
  });
});

describe('/favourites/', () => {
  it('lists the favourites with their current price, removes one, and links a comparison', async () => {
    for (const c of cars.slice(0, 3)) toggleFavourite(localStorage, fav(c));
    toggleFavourite(localStorage, { ...fav(cars[4]!), slug: 'sold-and-gone-9', id: 'x9' });
    render(<FavouritesList compare />);
    await settle();
    await settle();
    expect(screen.getByRole('heading', { name: '4 favourites' })).toBeTruthy();
    const items = screen.getAllByRole('listitem');
    expect(items[0]!.textContent).toContain(cars[0]!.price_text);
    expect(items[3]!.textContent).toContain('No longer listed');
    expect(within(items[0]!).getByRole('link', { name: cars[0]!.name }).getAttribute('href')).toBe(`/cars/${cars[0]!.slug}/`);
    const compare = screen.getByRole('link', { name: 'Compare these side by side' });
    expect(compare.getAttribute('href')).toBe(compareHref(loadFavourites(localStorage).slice(0, COMPARE_LIMIT)));
    fireEvent.click(within(items[1]!).getByRole('button', { name: /^Remove/ }));
    expect(screen.getByRole('heading', { name: '3 favourites' })).toBe(document.activeElement);
    expect(loadFavourites(localStorage).map((f) => f.id)).not.toContain(cars[1]!.id);
  });

  it('without compare offered, no comparison link; empty, a way back to the stock', async () => {
    for (const c of cars.slice(0, 2)) toggleFavourite(localStorage, fav(c));
    const { unmount } = render(<FavouritesList compare={false} />);
    await settle();
    expect(screen.queryByRole('link', { name: /Compare/ })).toBeNull();
    unmount();
    localStorage.clear();
    render(<FavouritesList compare />);
    await settle();
    expect(screen.getByRole('heading', { name: 'No favourites yet' })).toBeTruthy();
  });
});

it('a car summary carries what the comparison shows', () => {
  const s: CarSummary = carSummary(cars[0]!);
  expect(s).toMatchObject({ id: cars[0]!.id, slug: cars[0]!.slug, price_text: cars[0]!.price_text, image: cars[0]!.images[0] ?? '', specs: cars[0]!.specs });
});
