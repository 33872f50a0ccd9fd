// @vitest-environment jsdom
/**
 * Every spec analytics event id and the action that sends it
 * (docs/behaviour/analytics.md). The doc's table must list every id
 * of the shared table under its name; the events a page declares in its
 * markup (lib/event-clicks.ts) and the masked number's Call Now are
 * performed here on a page as the car page builds it; the events the
 * islands send are performed by their own tests, which must check the
 * dataLayer entry (named below, and checked to say so).
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initEventClicks } from '../src/lib/event-clicks';
import { revealAndCall } from '../src/lib/car-page/reveal-call';
import { EVENTS } from '../src/lib/events';
import { mockApi } from './helpers/api-mock';

const DOC = fs.readFileSync(`${__dirname}/../../docs/behaviour/analytics.md`, 'utf8');
/** id -> [name, action] from the doc's table. */
const DOCUMENTED = new Map(
  [...DOC.matchAll(/^\| (\d+) \| (\w+) \| ([^|]+) \|/gm)].map((m) => [Number(m[1]), [m[2]!, m[3]!.trim()] as const]),
);

/** Events an island sends, and the test file that performs the action and checks the dataLayer entry. */
const ISLAND_TESTS: Record<number, string> = {
  14: 'forms-enquiry.test.tsx',
  15: 'forms-enquiry.test.tsx',
  17: 'forms-enquiry.test.tsx',
  19: 'search-extras.test.tsx',
  22: 'forms-islands.test.tsx',
  26: 'FinanceCalculator.test.tsx',
  39: 'SaveCarButton.test.tsx',
  51: 'forms-islands.test.tsx',
};

type Entry = { event: string; event_id: number; car_id?: string };
const dataLayer = () => ((window as { dataLayer?: Entry[] }).dataLayer ?? []).map((e) => e.event_id);

/** A car page's declared events, as the car page and the layout build them. */
function carPage(sink: boolean): void {
  document.head.innerHTML = `<meta name="dealergen:events" data-api-base="https://api.example.com" data-sink="${sink}" data-car="414878">`;
  document.body.innerHTML = `
    <header><a href="tel:0735550100" id="header-phone">(07) 3555 0100</a></header>
    <div class="car-page" data-event-load="4">
      <a href="https://history.example/report" data-event="18" id="history">History report</a>
      <a href="https://facebook.example/share" data-event="49" id="share">Facebook</a>
      <button type="button" data-copy-link data-event="49" id="copy">Copy link</button>
      <button type="button" data-print data-event="48" id="print">Print</button>
      <a href="/photo-1.jpg" data-viewer-open="0" data-event="61" id="photo"><img alt=""></a>
      <a href="tel:0735550103" data-event="" id="revealed">Call (07) 3555 0103</a>
      <div id="content"><p>Call us on <a href="tel:0735550100" id="content-phone">(07) 3555 0100</a></p></div>
      <button type="button" id="plain">Show more</button>
    </div>`;
}

const click = (id: string) => document.getElementById(id)!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
// jsdom cannot follow links: the click's default is stopped after the page's listeners saw it.
const noNavigation = (e: Event) => e.preventDefault();

let stop = (): void => {};
beforeEach(() => {
  delete (window as { dataLayer?: unknown }).dataLayer;
  window.addEventListener('click', noNavigation);
});
afterEach(() => {
  stop();
  window.removeEventListener('click', noNavigation);
  vi.unstubAllGlobals();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('every spec event id has one action', () => {
  it('docs/behaviour/analytics.md lists every id of the shared table, under its name', () => {
    expect([...DOCUMENTED.keys()].sort((a, b) => a - b)).toEqual(Object.values(EVENTS).sort((a, b) => a - b));
    for (const [name, id] of Object.entries(EVENTS)) expect(DOCUMENTED.get(id)?.[0], `id ${id}`).toBe(name);
  });

  it('each event an island sends is performed by its own test, which checks the dataLayer entry', () => {
    for (const [id, file] of Object.entries(ISLAND_TESTS)) {
      const text = fs.readFileSync(`${__dirname}/${file}`, 'utf8');
      expect(text, `${file} sends ${id}`).toMatch(new RegExp(`(event_id: |toBe\\(|toEqual\\(\\[)${id}\\b`));
      expect(text, `${file} checks the dataLayer`).toContain('dataLayer');
    }
  });

  it('each id is sent by an action here or by an island test: none is left unsent', () => {
    const here = [4, 18, 25, 48, 49, 60, 61];
    const covered = new Set([...here, ...Object.keys(ISLAND_TESTS).map(Number)]);
    expect([...covered].sort((a, b) => a - b)).toEqual(Object.values(EVENTS).sort((a, b) => a - b));
  });
});

describe('the events a page declares', () => {
  it('4 once the car page has loaded; 18, 48, 49, 61 for their actions; 25 for every tel: link; nothing for other clicks', async () => {
    carPage(false);
    stop = initEventClicks(document);
    await vi.waitFor(() => expect(dataLayer()).toEqual([4]));
    for (const id of ['history', 'share', 'copy', 'print', 'photo', 'header-phone', 'content-phone', 'plain']) click(id);
    await vi.waitFor(() => expect(dataLayer()).toEqual([4, 18, 49, 49, 48, 61, 25, 25]));
    const entries = (window as { dataLayer?: Entry[] }).dataLayer!;
    expect(entries[1]).toEqual({ event: 'dealergen_history_report_open', event_id: 18, car_id: '414878' });
  });

  it('a revealed number is not a second phone click (its reveal was)', async () => {
    carPage(false);
    stop = initEventClicks(document);
    await vi.waitFor(() => expect(dataLayer()).toEqual([4]));
    click('revealed');
    click('print');
    await vi.waitFor(() => expect(dataLayer()).toEqual([4, 48]));
  });

  it('with the sink on, each also goes to the edge with the car', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/events': { status: 202, body: {} } });
    vi.stubGlobal('fetch', fetchImpl);
    carPage(true);
    stop = initEventClicks(document);
    click('photo');
    await vi.waitFor(() => expect(calls.map((c) => (c.body as { event_id: number }).event_id).sort()).toEqual([4, 61]));
    expect(calls[0]!.url).toBe('https://api.example.com/api/events');
    expect(calls.every((c) => (c.body as { car_id: string }).car_id === '414878')).toBe(true);
  });

  it('a page without the sink posts nothing', async () => {
    const { fetchImpl, calls } = mockApi({});
    vi.stubGlobal('fetch', fetchImpl);
    carPage(false);
    stop = initEventClicks(document);
    click('header-phone');
    await vi.waitFor(() => expect(dataLayer()).toEqual([4, 25]));
    expect(calls).toHaveLength(0);
  });
});

describe('60: a car added to the favourites', () => {
  it('adding sends 60, removing nothing (the next add sends the next 60)', async () => {
    const { wireFavourites } = await import('../src/lib/car-page/favourite');
    localStorage.clear();
    carPage(false);
    const car = { id: '414878', slug: '2013-honda-jazz-vti-414878', name: '2013 Honda Jazz VTi', make: 'Honda', model: 'Jazz', primary_image_url: '' };
    document.body.insertAdjacentHTML('beforeend', `<div class="favourite" data-favourite='${JSON.stringify(car)}'><button type="button" class="toggle" aria-pressed="false">Favourite</button><a class="favourite__list" href="/favourites/" hidden>View favourites</a></div>`);
    const stop = wireFavourites(document, localStorage);
    const button = document.querySelector<HTMLButtonElement>('.favourite button')!;
    button.click();
    await vi.waitFor(() => expect(dataLayer()).toEqual([60]));
    expect(button.getAttribute('aria-pressed')).toBe('true');
    button.click();
    expect(button.getAttribute('aria-pressed')).toBe('false');
    button.click();
    await vi.waitFor(() => expect(dataLayer()).toEqual([60, 60]));
    stop();
  });
});

describe("25: a masked number's Call Now (the sticky bars)", () => {
  const button = (disabled = false) => {
    document.body.innerHTML = `<button type="button" data-reveal-call='{"apiBase":"","carId":"414878","locationId":"bmg-springwood","websiteId":"demo"}' ${disabled ? 'aria-disabled="true"' : ''}>Call Now<span data-reveal-status></span></button>`;
    return document.querySelector<HTMLElement>('[data-reveal-call]')!;
  };

  it('reveals, puts 25 in the dataLayer and calls the number; a later press calls without another reveal', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/phone-reveal': { body: { phone: '(07) 3555 0103' } } });
    const call = vi.fn();
    const el = button();
    expect(el.outerHTML).not.toContain('0103');
    await revealAndCall(el, call, fetchImpl);
    expect(calls[0]).toMatchObject({ path: '/api/phone-reveal', body: { car_id: '414878', location_id: 'bmg-springwood', website_id: 'demo' } });
    expect(call).toHaveBeenCalledWith('tel:0735550103');
    expect(dataLayer()).toEqual([25]);
    expect(el.dataset['revealed']).toBe('tel:0735550103');
  });

  it('a failed reveal is logged, says try again and calls nothing', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetchImpl } = mockApi({ 'POST /api/phone-reveal': { status: 429, body: { error: 'Too many.' } } });
    const call = vi.fn();
    const el = button();
    await revealAndCall(el, call, fetchImpl);
    expect(call).not.toHaveBeenCalled();
    expect(el.querySelector('[data-reveal-status]')!.textContent).toBe(' · try again');
    expect(log).toHaveBeenCalledWith('phone reveal failed:', 'Too many.');
    expect(dataLayer()).toEqual([]);
    log.mockRestore();
  });

  it('an inactive Call Now (the location is closed) asks nothing', async () => {
    const { fetchImpl, calls } = mockApi({});
    const call = vi.fn();
    await revealAndCall(button(true), call, fetchImpl);
    expect(calls).toHaveLength(0);
    expect(call).not.toHaveBeenCalled();
  });
});
