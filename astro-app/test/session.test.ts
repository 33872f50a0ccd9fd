import { beforeEach, describe, expect, it } from 'vitest';
import { getSession, isGatedPath, resetSession, safePath, shouldRedirectToSignIn, signInHref, verifyCode } from '../src/lib/session';
import { mockApi } from './helpers/api-mock';

beforeEach(() => resetSession());

describe('sign-in link', () => {
  it('carries type, redirect and back', () => {
    const href = signInHref('watchlist', '/cars/a-car/', '/search/?page=2');
    expect(href.startsWith('/sign-in/?')).toBe(true);
    const q = new URLSearchParams(href.split('?')[1]);
    expect([q.get('type'), q.get('redirect'), q.get('back')]).toEqual(['watchlist', '/cars/a-car/', '/search/?page=2']);
  });

  it('only ever redirects within the site', () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '', null, undefined]) {
      expect(safePath(bad)).toBe('/');
    }
    expect(safePath('/cars/x/?a=1')).toBe('/cars/x/?a=1');
    expect(new URLSearchParams(signInHref('watchlist', '//evil.example', '/')).get('redirect')).toBe('/');
  });
});

describe('gated routes', () => {
  const patterns = ['/cars/{slug}/checkout', '/my-garage', '/cars/trade-in?car_id'];
  it('match with {slug} as one segment, ignoring trailing slashes and query parts', () => {
    expect(isGatedPath('/cars/2021-toyota-hilux-1/checkout/', patterns)).toBe(true);
    expect(isGatedPath('/my-garage', patterns)).toBe(true);
    expect(isGatedPath('/my-garage/', patterns)).toBe(true);
    expect(isGatedPath('/cars/trade-in/', patterns)).toBe(true);
  });
  it('do not match other pages', () => {
    expect(isGatedPath('/cars/2021-toyota-hilux-1/', patterns)).toBe(false);
    expect(isGatedPath('/cars/a/b/checkout/', patterns)).toBe(false);
    expect(isGatedPath('/my-garage/extra/', patterns)).toBe(false);
    expect(isGatedPath('/', patterns)).toBe(false);
    expect(isGatedPath('/my-garage/', [])).toBe(false);
  });
  it('redirect only when not logged in, finished loading, and gated (docs/behaviour/content.md §4)', () => {
    expect(shouldRedirectToSignIn({ loading: false, signedIn: false, gated: true })).toBe(true);
    expect(shouldRedirectToSignIn({ loading: true, signedIn: false, gated: true })).toBe(false);
    expect(shouldRedirectToSignIn({ loading: false, signedIn: true, gated: true })).toBe(false);
    expect(shouldRedirectToSignIn({ loading: false, signedIn: false, gated: false })).toBe(false);
  });
});

describe('session', () => {
  it('asks /api/auth/me once per page and reads the phone', async () => {
    const { fetchImpl, calls } = mockApi({ 'GET /api/auth/me': { body: { signed_in: true, phone_number: '0412345678' } } });
    expect(await getSession('', fetchImpl)).toEqual({ signedIn: true, phone: '0412345678' });
    await getSession('', fetchImpl);
    expect(calls).toHaveLength(1);
  });
  it('counts a refused call (4xx) as signed out', async () => {
    const { fetchImpl } = mockApi({ 'GET /api/auth/me': { status: 403, body: { error: 'x' } } });
    expect(await getSession('', fetchImpl)).toEqual({ signedIn: false });
  });
  it('a failed check (5xx, 429, offline) is unknown, not signed out, and is asked again next time', async () => {
    for (const status of [500, 503, 429]) {
      resetSession();
      const { fetchImpl, calls } = mockApi({ 'GET /api/auth/me': { status, body: {} } });
      expect(await getSession('', fetchImpl)).toEqual({ signedIn: false, unknown: true });
      await getSession('', fetchImpl);
      expect(calls).toHaveLength(2);
    }
    resetSession();
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    expect(await getSession('', offline)).toEqual({ signedIn: false, unknown: true });
    const { fetchImpl } = mockApi({ 'GET /api/auth/me': { body: { signed_in: true, phone_number: '0412345678' } } });
    expect(await getSession('', fetchImpl)).toEqual({ signedIn: true, phone: '0412345678' });
  });
  it('a verified code makes the page signed in without another call', async () => {
    const { fetchImpl, calls } = mockApi({
      'GET /api/auth/me': { body: { signed_in: false } },
      'POST /api/auth/verify': { body: { success: true, phone_number: '0412345678' } },
    });
    expect(await getSession('', fetchImpl)).toEqual({ signedIn: false });
    expect((await verifyCode('', '0412 345 678', '123456', fetchImpl)).ok).toBe(true);
    expect(calls[1]!.body).toEqual({ phone_number: '0412 345 678', code: '123456' });
    expect(await getSession('', fetchImpl)).toEqual({ signedIn: true, phone: '0412345678' });
    expect(calls).toHaveLength(2);
  });
});
