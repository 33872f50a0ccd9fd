/**
 * The one fetch wrapper every island uses for the edge worker's JSON API
 * (edge/openapi.yaml). Never throws: a result is either the parsed body or
 * the server's error message (and per-field messages), so islands only
 * decide what to show.
 */

/** Shown when the server gives no message (network down, HTML error page...). */
export const UNEXPECTED_ERROR = 'An unexpected error occurred.';

export type ApiResult<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number; error: string; fields: Record<string, string>; captchaSiteKey?: string };

export interface ApiOptions {
  /** JSON body; makes the call a POST unless `method` says otherwise. */
  body?: unknown;
  method?: 'GET' | 'POST';
  /** Injected by tests; the browser's fetch otherwise. */
  fetchImpl?: typeof fetch;
  /** Outlives the page (analytics sent just before navigating away). */
  keepalive?: boolean;
}

/** `${apiBase}${path}`; apiBase "" means the site's own origin (production routes /api/* there). */
export function apiUrl(apiBase: string, path: string): string {
  return `${apiBase.replace(/\/+$/, '')}${path}`;
}

function messageOf(record: Record<string, unknown>): string {
  // The worker's errors carry `error`; the watchlist calls also `message`.
  for (const key of ['error', 'message']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return UNEXPECTED_ERROR;
}

function stringFields(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, message] of Object.entries(value)) if (typeof message === 'string') out[key] = message;
  return out;
}

export async function api<T = Record<string, unknown>>(apiBase: string, path: string, options: ApiOptions = {}): Promise<ApiResult<T>> {
  const { body, fetchImpl = globalThis.fetch.bind(globalThis), keepalive } = options;
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetchImpl(apiUrl(apiBase, path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // The session cookie is HttpOnly and set by the worker: it must travel
      // on every call, also when api_base is another origin.
      credentials: 'include',
      keepalive,
    });
    const parsed: unknown = await response.json().catch(() => null);
    const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    // `{"success": false}` with a 200 is a failure too (the watchlist calls' contract).
    if (response.ok && record['success'] !== false && parsed !== null) {
      return { ok: true, status: response.status, data: parsed as T };
    }
    const failure = { ok: false as const, status: response.status, error: messageOf(record), fields: stringFields(record['fields']) };
    // A step-up under attack (edge/core/src/turnstile.rs): the widget to solve before sending again.
    const key = record['captcha_site_key'];
    return typeof key === 'string' && key !== '' ? { ...failure, captchaSiteKey: key } : failure;
  } catch {
    return { ok: false, status: 0, error: UNEXPECTED_ERROR, fields: {} };
  }
}
