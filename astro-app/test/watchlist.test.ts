import { beforeEach, describe, expect, it, vi } from 'vitest';
import { changeWatchlist, loadWatchlist, removedToast, resetWatchlist, savedToast, showSaveButton } from '../src/lib/watchlist';
import { watchlistCars } from '../src/lib/watchlist-cars';
import type { Car } from '../src/types/site';
import { mockApi } from './helpers/api-mock';

beforeEach(() => resetWatchlist());

describe('watchlist rules', () => {
  it('words the two toasts as the spec does', () => {
    expect(savedToast('2021 Kia Rio')).toEqual({ title: 'Car Saved In Watchlist', text: '2021 Kia Rio is now available in your watchlist' });
    expect(removedToast('2021 Kia Rio')).toEqual({ title: 'Car Removed', text: '2021 Kia Rio is no longer in your watchlist' });
  });

  it('shows no save button for a sold car that is not already saved', () => {
    expect(showSaveButton(true, false)).toBe(false);
    expect(showSaveButton(true, true)).toBe(true);
    expect(showSaveButton(false, false)).toBe(true);
  });
});

describe('watchlist calls', () => {
  it('loads the ids once and keeps them current after save and remove', async () => {
    const { fetchImpl, calls } = mockApi({
      'GET /api/watchlist': { body: { success: true, car_ids: ['1', '2'] } },
      'POST /api/watchlist/save-car': { body: { success: true } },
      'POST /api/watchlist/remove-car': { body: { success: true } },
    });
    expect([...(await loadWatchlist('', fetchImpl))!]).toEqual(['1', '2']);
    await changeWatchlist('', { carId: '3', save: true, phone: '0412345678' }, fetchImpl);
    await changeWatchlist('', { carId: '1', save: false, phone: '0412345678' }, fetchImpl);
    expect([...(await loadWatchlist('', fetchImpl))!]).toEqual(['2', '3']);
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(1);
    expect(calls[1]).toMatchObject({ path: '/api/watchlist/save-car', body: { phone_number: '0412345678', car_id: '3' } });
    expect(calls[2]).toMatchObject({ path: '/api/watchlist/remove-car', body: { phone_number: '0412345678', car_id: '1' } });
  });

  it('a signed-out list is null; a missing phone is only a console warning', async () => {
    const { fetchImpl, calls } = mockApi({
      'GET /api/watchlist': { status: 401, body: { error: 'Sign in first.' } },
      'POST /api/watchlist/save-car': { body: { success: true } },
    });
    expect(await loadWatchlist('', fetchImpl)).toBeNull();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect((await changeWatchlist('', { carId: '9', save: true }, fetchImpl)).ok).toBe(true);
    expect(warn).toHaveBeenCalledOnce();
    expect(calls[1]!.body).toEqual({ car_id: '9' });
    warn.mockRestore();
  });

  it('the watchlist page data keeps id, slug, name, price text and the first photo', () => {
    const car = { id: '7', slug: 'a-7', name: '2020 Kia Rio', price_text: '$9,990', images: ['/a.jpg', '/b.jpg'] } as Car;
    expect(watchlistCars([car, { ...car, id: '8', images: [] }])).toEqual([
      { id: '7', slug: 'a-7', name: '2020 Kia Rio', price_text: '$9,990', image: '/a.jpg' },
      { id: '8', slug: 'a-7', name: '2020 Kia Rio', price_text: '$9,990', image: null },
    ]);
  });

  it("the watchlist's photo is the image host's smallest size, not the full photo", () => {
    const car = { id: '7', slug: 'a-7', name: '2020 Kia Rio', price_text: '$9,990', images: ['/p/a.jpg'] } as Car;
    const images = { url_template: '{base}-{width}.{ext}', width: 640, quality: 75, srcset_widths: [480, 960] };
    expect(watchlistCars([car], images)[0]!.image).toBe('/p/a-480.jpg');
  });
});

describe('toasts (docs/behaviour/content.md §9; docs/behaviour/feedback.md)', () => {
  it('one at a time, with no removal timer: a toast stays until dismissed or replaced', async () => {
    const { toastStore } = await import('../src/lib/toast');
    vi.useFakeTimers();
    try {
      toastStore.reset();
      const first = toastStore.show({ title: 'Car Saved In Watchlist', text: 'a' });
      vi.advanceTimersByTime(60 * 60 * 1000);
      expect(toastStore.get().toast?.id).toBe(first.id);
      const second = toastStore.show({ title: 'Car Removed', text: 'b' });
      expect(toastStore.get().toast?.id).toBe(second.id);
      toastStore.dismiss(first.id); // an old toast's close does not close the new one
      expect(toastStore.get().toast?.id).toBe(second.id);
      toastStore.dismiss(second.id);
      expect(toastStore.get().toast).toBeNull();
    } finally {
      vi.useRealTimers();
      toastStore.reset();
    }
  });
});
