/**
 * A fetch double for the edge API: answers by "METHOD /path" (query
 * ignored) and records every call with its parsed JSON body.
 */
import { vi } from 'vitest';

export type Answer = { status?: number; body: unknown } | (() => Promise<{ status?: number; body: unknown }>);

export interface Call {
  method: string;
  path: string;
  url: string;
  body: unknown;
  init: RequestInit | undefined;
}

export function mockApi(routes: Record<string, Answer>) {
  const calls: Call[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const path = new URL(url, 'http://site.test').pathname;
    calls.push({ method, path, url, body: init?.body ? JSON.parse(String(init.body)) : undefined, init });
    const route = routes[`${method} ${path}`];
    if (!route) return new Response(JSON.stringify({ error: `no route ${method} ${path}` }), { status: 404 });
    const answer = typeof route === 'function' ? await route() : route;
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
  return { fetchImpl, calls };
}

/** A promise and its resolve, to hold an answer back. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
