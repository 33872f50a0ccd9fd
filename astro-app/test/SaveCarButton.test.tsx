// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SaveCarButton from '../src/islands/SaveCarButton';
import { resetSession } from '../src/lib/session';
import { toastStore } from '../src/lib/toast';
import { resetWatchlist } from '../src/lib/watchlist';
import { deferred, mockApi, type Answer } from './helpers/api-mock';

const NAME = '2023 Toyota Corolla Ascent Sport';
const signedIn = (ids: string[] = []): Record<string, Answer> => ({
  'GET /api/auth/me': { body: { signed_in: true, phone_number: '0412345678' } },
  'GET /api/watchlist': { body: { success: true, car_ids: ids } },
});

beforeEach(() => {
  resetSession();
  resetWatchlist();
  toastStore.reset();
  window.history.replaceState({}, '', '/cars/2023-toyota-corolla-1001/');
});
afterEach(cleanup);

function setup(routes: Record<string, Answer>, props: Partial<Parameters<typeof SaveCarButton>[0]> = {}) {
  const api = mockApi(routes);
  const navigate = vi.fn();
  const alert = vi.fn();
  render(<SaveCarButton apiBase="" carId="1001" carName={NAME} sold={false} analytics={false} fetchImpl={api.fetchImpl} navigate={navigate} alert={alert} {...props} />);
  return { ...api, navigate, alert };
}

describe('SaveCarButton', () => {
  it('a failed session check does not block saving: the save is tried and succeeds', async () => {
    const { calls, navigate, alert } = setup({
      'GET /api/auth/me': { status: 503, body: { error: 'Service unavailable.' } },
      'POST /api/watchlist/save-car': { body: { success: true } },
    });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/auth/me')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: /^Save to Watchlist/ }));
    expect(await screen.findByText('Car Saved In Watchlist')).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Remove from Watchlist/ })).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
    expect(alert).not.toHaveBeenCalled();
    // The failed check was not kept: the click asked again.
    expect(calls.filter((c) => c.path === '/api/auth/me')).toHaveLength(2);
    expect(calls.find((c) => c.path === '/api/watchlist/save-car')!.body).toEqual({ car_id: '1001' });
  });

  it('a failed session check and a signed-out shopper: the save answers 401 and sign-in follows', async () => {
    const { navigate, alert } = setup({
      'GET /api/auth/me': { status: 502, body: {} },
      'POST /api/watchlist/save-car': { status: 401, body: { success: false, error: 'Please sign in to use your watchlist.' } },
    });
    fireEvent.click(screen.getByRole('button', { name: /^Save to Watchlist/ }));
    await waitFor(() => expect(navigate).toHaveBeenCalledOnce());
    expect((navigate.mock.calls[0]![0] as string).startsWith('/sign-in/?')).toBe(true);
    expect(alert).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /^Save to Watchlist/ })).toBeTruthy();
  });

  it('offline: the save fails with the correctly spelt generic message', async () => {
    const fetchImpl = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const navigate = vi.fn();
    const alert = vi.fn();
    render(<SaveCarButton apiBase="" carId="1001" carName={NAME} sold={false} analytics={false} fetchImpl={fetchImpl} navigate={navigate} alert={alert} />);
    fireEvent.click(screen.getByRole('button', { name: /^Save to Watchlist/ }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('An unexpected error occurred.'));
    expect(navigate).not.toHaveBeenCalled();
  });

  it('signed out: goes to sign-in with this page as redirect and back', async () => {
    const { navigate, calls } = setup({ 'GET /api/auth/me': { body: { signed_in: false } } });
    fireEvent.click(screen.getByRole('button', { name: /^Save to Watchlist/ }));
    await waitFor(() => expect(navigate).toHaveBeenCalledOnce());
    const href = navigate.mock.calls[0]![0] as string;
    const q = new URLSearchParams(href.split('?')[1]);
    expect(href.startsWith('/sign-in/?')).toBe(true);
    expect([q.get('type'), q.get('redirect'), q.get('back')]).toEqual(['watchlist', '/cars/2023-toyota-corolla-1001/', '/cars/2023-toyota-corolla-1001/']);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('signed in: flips before the call answers, then shows the saved toast with View List and sends event 39', async () => {
    const held = deferred<{ body: unknown }>();
    const { calls } = setup({ ...signedIn(), 'POST /api/watchlist/save-car': () => held.promise, 'POST /api/events': { status: 202, body: {} } }, { analytics: true });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/watchlist')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: /^Save to Watchlist/ }));
    await screen.findByRole('button', { name: /^Remove from Watchlist/ }); // optimistic
    expect(screen.queryByText('Car Saved In Watchlist')).toBeNull();
    expect(calls.find((c) => c.path === '/api/watchlist/save-car')!.body).toEqual({ phone_number: '0412345678', car_id: '1001' });
    await act(async () => held.resolve({ body: { success: true } }));
    expect(await screen.findByText('Car Saved In Watchlist')).toBeTruthy();
    expect(screen.getByText(`${NAME} is now available in your watchlist`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View List' }).getAttribute('href')).toBe('/watchlist/');
    expect(screen.getByRole('status').getAttribute('aria-live')).toBe('polite');
    expect(calls.find((c) => c.path === '/api/events')!.body).toMatchObject({ event_id: 39, car_id: '1001' });
  });

  it('a click before the list arrives is not undone by the list', async () => {
    const list = deferred<{ body: unknown }>();
    const { calls } = setup({
      'GET /api/auth/me': { body: { signed_in: true, phone_number: '0412345678' } },
      'GET /api/watchlist': () => list.promise,
      'POST /api/watchlist/save-car': { body: { success: true } },
    });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/watchlist')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: /^Save to Watchlist/ }));
    await act(async () => list.resolve({ body: { success: true, car_ids: [] } }));
    await screen.findByText('Car Saved In Watchlist');
    expect(screen.getByRole('button', { name: /^Remove from Watchlist/ })).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/watchlist/save-car')).toHaveLength(1);
  });

  it('without the analytics sink: event 39 goes to the dataLayer only', async () => {
    const w = window as { dataLayer?: { event_id: number }[] };
    delete w.dataLayer;
    const { calls } = setup({ ...signedIn(), 'POST /api/watchlist/save-car': { body: { success: true } } });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/watchlist')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: /^Save to Watchlist/ }));
    await screen.findByText('Car Saved In Watchlist');
    expect(calls.some((c) => c.path === '/api/events')).toBe(false);
    expect(w.dataLayer).toEqual([{ event: 'dealergen_save_car', event_id: 39, car_id: '1001' }]);
    delete w.dataLayer;
  });

  it('a saved car removes, with the Car Removed toast', async () => {
    const { calls } = setup({ ...signedIn(['1001']), 'POST /api/watchlist/remove-car': { body: { success: true } } });
    fireEvent.click(await screen.findByRole('button', { name: /^Remove from Watchlist/ }));
    expect(await screen.findByText('Car Removed')).toBeTruthy();
    expect(screen.getByText(`${NAME} is no longer in your watchlist`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View List' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Save to Watchlist/ })).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/events')).toBe(false);
  });

  it('failure: flips back and alerts the server message, no toast', async () => {
    const { alert, calls } = setup({ ...signedIn(), 'POST /api/watchlist/save-car': { status: 403, body: { success: false, message: 'You can only change your own watchlist.', error: 'You can only change your own watchlist.' } } });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/watchlist')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: /^Save to Watchlist/ }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('You can only change your own watchlist.'));
    expect(screen.getByRole('button', { name: /^Save to Watchlist/ })).toBeTruthy();
    expect(screen.queryByText('Car Saved In Watchlist')).toBeNull();
  });

  it('an expired session (401) goes to sign-in instead of alerting', async () => {
    const { alert, navigate, calls } = setup({ ...signedIn(), 'POST /api/watchlist/save-car': { status: 401, body: { error: 'Please sign in.' } } });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/watchlist')).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: /^Save to Watchlist/ }));
    await waitFor(() => expect(navigate).toHaveBeenCalledOnce());
    expect(alert).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /^Save to Watchlist/ })).toBeTruthy();
  });

  it('a sold car: no button unless already saved', async () => {
    expect(renderToString(<SaveCarButton apiBase="" carId="1" carName="x" sold analytics={false} />)).not.toContain('button');
    const { calls } = setup(signedIn(), { sold: true });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/watchlist')).toBe(true));
    await act(async () => {});
    expect(screen.queryByRole('button')).toBeNull();
    cleanup();
    resetSession();
    resetWatchlist();
    setup(signedIn(['1001']), { sold: true });
    expect(await screen.findByRole('button', { name: /^Remove from Watchlist/ })).toBeTruthy();
  });

  it('two buttons on a page: one list call, and at most one toast', async () => {
    const api = mockApi({ ...signedIn(), 'POST /api/watchlist/save-car': { body: { success: true } } });
    render(
      <>
        <SaveCarButton apiBase="" carId="1" carName="Car One" sold={false} analytics={false} fetchImpl={api.fetchImpl} />
        <SaveCarButton apiBase="" carId="2" carName="Car Two" sold={false} analytics={false} fetchImpl={api.fetchImpl} />
      </>,
    );
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/api/watchlist')).toHaveLength(1));
    const [one, two] = screen.getAllByRole('button', { name: /^Save to Watchlist/ });
    fireEvent.click(one!);
    await screen.findByText('Car One is now available in your watchlist');
    fireEvent.click(two!);
    await screen.findByText('Car Two is now available in your watchlist');
    expect(document.querySelectorAll('.toast')).toHaveLength(1);
    expect(document.querySelectorAll('[role="status"]')).toHaveLength(1);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(document.querySelectorAll('.toast')).toHaveLength(0);
  });
});
