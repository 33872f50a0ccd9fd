import { describe, expect, it, vi } from 'vitest';
import { api, apiUrl, UNEXPECTED_ERROR } from '../src/lib/api';
import { mockApi } from './helpers/api-mock';

describe('api', () => {
  it('joins the base without doubling slashes', () => {
    expect(apiUrl('', '/api/x')).toBe('/api/x');
    expect(apiUrl('https://api.example.com/', '/api/x')).toBe('https://api.example.com/api/x');
  });

  it('sends the session cookie (credentials include) and JSON; GET without a body', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/a': { body: { ok: 1 } }, 'GET /api/b': { body: { ok: 2 } } });
    expect(await api('', '/api/a', { body: { x: 1 }, fetchImpl })).toEqual({ ok: true, status: 200, data: { ok: 1 } });
    expect(calls[0]!.init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"x":1}' });
    expect((calls[0]!.init!.headers as Record<string, string>)['content-type']).toBe('application/json');
    await api('', '/api/b', { fetchImpl });
    expect(calls[1]!.init).toMatchObject({ method: 'GET', credentials: 'include', body: undefined });
  });

  it("turns a JSON error into its message and fields", async () => {
    const { fetchImpl } = mockApi({ 'POST /api/a': { status: 400, body: { error: 'Bad.', fields: { phone_number: 'Not a mobile.', n: 3 } } } });
    expect(await api('', '/api/a', { body: {}, fetchImpl })).toEqual({ ok: false, status: 400, error: 'Bad.', fields: { phone_number: 'Not a mobile.' } });
  });

  it('counts {"success": false} as a failure and reads its message', async () => {
    const { fetchImpl } = mockApi({ 'POST /api/a': { status: 200, body: { success: false, message: 'Nope.' } } });
    expect(await api('', '/api/a', { body: {}, fetchImpl })).toMatchObject({ ok: false, error: 'Nope.' });
  });

  it('never throws: network errors and non-JSON answers give the generic message', async () => {
    const down = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    expect(await api('', '/api/a', { fetchImpl: down })).toEqual({ ok: false, status: 0, error: UNEXPECTED_ERROR, fields: {} });
    const html = vi.fn(async () => new Response('<h1>502</h1>', { status: 502 })) as unknown as typeof fetch;
    expect(await api('', '/api/a', { fetchImpl: html })).toMatchObject({ ok: false, status: 502, error: UNEXPECTED_ERROR });
  });
});
