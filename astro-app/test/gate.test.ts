// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { backPath, runGate } from '../src/lib/gate';
import { resetSession } from '../src/lib/session';
import { mockApi } from './helpers/api-mock';

const loc = (pathname: string, search = '') => ({ pathname, search, origin: 'http://site.test', replace: vi.fn() });

beforeEach(() => {
  resetSession();
  document.head.innerHTML = '<meta name="dealergen:gate" data-api-base="" data-type="watchlist">';
});

describe('gate script', () => {
  it('sends a signed-out visitor to sign-in, with this page as redirect', async () => {
    const { fetchImpl } = mockApi({ 'GET /api/auth/me': { body: { signed_in: false } } });
    const l = loc('/my-garage/', '?tab=2');
    expect(await runGate(document, l, fetchImpl)).toBe(true);
    const href = l.replace.mock.calls[0]![0] as string;
    const q = new URLSearchParams(href.split('?')[1]);
    expect(href.startsWith('/sign-in/?')).toBe(true);
    expect([q.get('type'), q.get('redirect'), q.get('back')]).toEqual(['watchlist', '/my-garage/?tab=2', '/']);
  });

  it('lets a signed-in shopper stay', async () => {
    const { fetchImpl } = mockApi({ 'GET /api/auth/me': { body: { signed_in: true, phone_number: '0412345678' } } });
    const l = loc('/my-garage/');
    expect(await runGate(document, l, fetchImpl)).toBe(false);
    expect(l.replace).not.toHaveBeenCalled();
  });

  it('does nothing on a page without the gate marker', async () => {
    document.head.innerHTML = '';
    const { fetchImpl, calls } = mockApi({});
    expect(await runGate(document, loc('/'), fetchImpl)).toBe(false);
    expect(calls).toHaveLength(0);
  });

  it('takes "back" from a same-site referrer only', () => {
    expect(backPath('http://site.test/cars/x/?a=1', 'http://site.test')).toBe('/cars/x/?a=1');
    expect(backPath('https://evil.example/cars/x/', 'http://site.test')).toBe('/');
    expect(backPath('', 'http://site.test')).toBe('/');
  });
});
