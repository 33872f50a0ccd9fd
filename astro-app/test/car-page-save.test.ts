// @vitest-environment jsdom
/**
 * The car page's Save to Watchlist button and toast without React
 * (components/car/SaveCarButton.astro, lib/car-page/save-car.ts,
 * lib/toast-host.ts): the same rules as the search cards' React button
 * (SaveCarButton.test.tsx covers lib/save-car.ts through it), wired to the
 * page's own markup.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { wireSaveButtons } from '../src/lib/car-page/save-car';
import { resetSession } from '../src/lib/session';
import { toastStore } from '../src/lib/toast';
import { mountToastHost } from '../src/lib/toast-host';
import { resetWatchlist } from '../src/lib/watchlist';
import { deferred, mockApi, type Answer } from './helpers/api-mock';

const NAME = '2023 Toyota Corolla Ascent Sport';
const signedIn = (ids: string[] = []): Record<string, Answer> => ({
  'GET /api/auth/me': { body: { signed_in: true, phone_number: '0412345678' } },
  'GET /api/watchlist': { body: { success: true, car_ids: ids } },
});

/** The button and host as SaveCarButton.astro writes them (the e2e suites press the built page's). */
function page(sold = false): HTMLButtonElement {
  document.body.innerHTML = `<button type="button" class="button button--outline save-car" data-save-car="1001" data-car-name="${NAME}" data-api-base=""${sold ? ' data-sold="true" hidden' : ''} data-saved="false"><span data-save-label>Save to Watchlist</span><span class="visually-hidden"> ${NAME}</span></button><div class="toast-host" data-toast-host></div>`;
  return document.querySelector('button')!;
}
const label = (b: HTMLButtonElement) => b.querySelector('[data-save-label]')!.textContent;

beforeEach(() => {
  resetSession();
  resetWatchlist();
  toastStore.reset();
  window.history.replaceState({}, '', '/cars/2023-toyota-corolla-1001/');
});
afterEach(() => {
  document.body.innerHTML = '';
});

describe("the car page's Save to Watchlist", () => {
  it('shows the state the list gives, flips at once on a press, then the toast with View List in one live region', async () => {
    const held = deferred<{ body: unknown }>();
    const api = mockApi({ ...signedIn(), 'POST /api/watchlist/save-car': () => held.promise });
    const button = page();
    await wireSaveButtons(document, { fetchImpl: api.fetchImpl });
    expect(button.hasAttribute('data-wired')).toBe(true);
    expect([label(button), button.dataset['saved']]).toEqual(['Save to Watchlist', 'false']);
    // The live region is in the page before any toast, so the toast is announced.
    const region = document.querySelector('[data-toast-host] [role="status"]')!;
    expect([region.getAttribute('aria-live'), region.textContent]).toEqual(['polite', '']);
    button.click();
    await vi.waitFor(() => expect(label(button)).toBe('Remove from Watchlist')); // optimistic
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(document.querySelector('.toast')).toBeNull();
    held.resolve({ body: { success: true } });
    await vi.waitFor(() => expect(document.querySelector('.toast__title')?.textContent).toBe('Car Saved In Watchlist'));
    expect(document.querySelector('.toast__text')!.textContent).toBe(`${NAME} is now available in your watchlist`);
    expect(document.querySelector<HTMLAnchorElement>('.toast__action')!.getAttribute('href')).toBe('/watchlist/');
    expect(button.dataset['saved']).toBe('true');
    expect(button.getAttribute('aria-busy')).toBe('false');
    expect(api.calls.find((c) => c.path === '/api/watchlist/save-car')!.body).toEqual({ phone_number: '0412345678', car_id: '1001' });
    // Escape dismisses it; the region stays for the next.
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(document.querySelector('.toast')).toBeNull();
    expect(document.querySelectorAll('[role="status"]')).toHaveLength(1);
  });

  it('a failure flips it back and alerts the server message, with no toast', async () => {
    const api = mockApi({ ...signedIn(['1001']), 'POST /api/watchlist/remove-car': { status: 500, body: { error: 'The watchlist is unavailable.' } } });
    const alert = vi.fn();
    const button = page();
    await wireSaveButtons(document, { fetchImpl: api.fetchImpl, alert });
    expect(label(button)).toBe('Remove from Watchlist');
    button.click();
    await vi.waitFor(() => expect(alert).toHaveBeenCalledWith('The watchlist is unavailable.'));
    expect([label(button), button.dataset['saved']]).toEqual(['Remove from Watchlist', 'true']);
    expect(document.querySelector('.toast')).toBeNull();
  });

  it('signed out: a press goes to sign-in and back here', async () => {
    const api = mockApi({ 'GET /api/auth/me': { body: { signed_in: false } } });
    const navigate = vi.fn();
    const button = page();
    await wireSaveButtons(document, { fetchImpl: api.fetchImpl, navigate });
    button.click();
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledOnce());
    const q = new URLSearchParams((navigate.mock.calls[0]![0] as string).split('?')[1]);
    expect([q.get('type'), q.get('redirect')]).toEqual(['watchlist', '/cars/2023-toyota-corolla-1001/']);
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('a sold car: no button unless it is saved, and then one to remove it', async () => {
    let button = page(true);
    await wireSaveButtons(document, { fetchImpl: mockApi(signedIn()).fetchImpl });
    expect(button.hidden).toBe(true);
    resetWatchlist();
    resetSession();
    toastStore.reset();
    button = page(true);
    await wireSaveButtons(document, { fetchImpl: mockApi(signedIn(['1001'])).fetchImpl });
    expect([button.hidden, label(button)]).toEqual([false, 'Remove from Watchlist']);
  });

  it('a press before the list arrives is not undone by the list', async () => {
    const list = deferred<{ body: unknown }>();
    const api = mockApi({
      'GET /api/auth/me': { body: { signed_in: true, phone_number: '0412345678' } },
      'GET /api/watchlist': () => list.promise,
      'POST /api/watchlist/save-car': { body: { success: true } },
    });
    const button = page();
    const wired = wireSaveButtons(document, { fetchImpl: api.fetchImpl });
    await vi.waitFor(() => expect(api.calls.some((c) => c.path === '/api/watchlist')).toBe(true));
    button.click();
    list.resolve({ body: { success: true, car_ids: [] } });
    await wired;
    await vi.waitFor(() => expect(document.querySelector('.toast__title')?.textContent).toBe('Car Saved In Watchlist'));
    expect(label(button)).toBe('Remove from Watchlist');
    expect(api.calls.filter((c) => c.path === '/api/watchlist/save-car')).toHaveLength(1);
  });
});

describe('the toast host (lib/toast-host.ts)', () => {
  it('only the first host draws; when it goes, the next one does', () => {
    document.body.innerHTML = '<div id="a"></div><div id="b"></div>';
    const stopA = mountToastHost(document.querySelector<HTMLElement>('#a')!);
    const stopB = mountToastHost(document.querySelector<HTMLElement>('#b')!);
    toastStore.show({ title: 'Car Removed', text: 'x' });
    expect(document.querySelectorAll('.toast')).toHaveLength(1);
    expect(document.querySelector('#a .toast')).not.toBeNull();
    stopA();
    expect(document.querySelector('#a [role="status"]')).toBeNull();
    expect(document.querySelector('#b .toast__title')!.textContent).toBe('Car Removed');
    // Dismiss closes it.
    document.querySelector<HTMLButtonElement>('#b .toast__close')!.click();
    expect(document.querySelector('.toast')).toBeNull();
    stopB();
  });
  it("writes the dealer's words as text, never as markup", () => {
    document.body.innerHTML = '<div id="a"></div>';
    const stop = mountToastHost(document.querySelector<HTMLElement>('#a')!);
    toastStore.show({ title: '<img src=x onerror=alert(1)>', text: '<b>bold</b>' });
    expect(document.querySelector('#a img, #a b')).toBeNull();
    expect(document.querySelector('.toast__title')!.textContent).toBe('<img src=x onerror=alert(1)>');
    stop();
  });
});
