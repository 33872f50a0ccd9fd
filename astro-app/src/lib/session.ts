/**
 * Who is signed in (the worker's HttpOnly session cookie, read through
 * GET /api/auth/me), the sign-in calls, the /sign-in/ link with its
 * redirect/back parameters, and the gated-route rule (docs/behaviour/content.md §2.5, §4).
 */
import { api, type ApiResult } from './api';

export interface Session {
  signedIn: boolean;
  /** National format, e.g. "0412345678"; only when signed in. */
  phone?: string;
  /**
   * The check itself failed (offline, timed out, 5xx): the shopper may well
   * be signed in. Callers must not treat this as signed out (a save is tried
   * and the worker's 401 decides); it is not cached, the next call asks again.
   */
  unknown?: boolean;
}

/** Statuses that say nothing about the session: no answer, too many requests, the server's fault. */
const inconclusive = (status: number) => status === 0 || status === 408 || status === 429 || status >= 500;

/** The sign-in page (trailingSlash "always": /sign-in would cost a 301). */
export const SIGN_IN_PATH = '/sign-in/';
/** Where saved cars are listed (the spec leaves the path open). */
export const WATCHLIST_PATH = '/watchlist/';

// One /api/auth/me per page view, shared by every island on the page
// (islands are separate React roots but share this module).
let cached: Promise<Session> | null = null;

export function getSession(apiBase: string, fetchImpl?: typeof fetch): Promise<Session> {
  if (cached) return cached;
  const asked: Promise<Session> = api<{ signed_in?: boolean; phone_number?: string }>(apiBase, '/api/auth/me', { fetchImpl }).then((r) => {
    if (r.ok) return r.data.signed_in === true ? { signedIn: true, phone: r.data.phone_number } : { signedIn: false };
    if (!inconclusive(r.status)) return { signedIn: false }; // refused (4xx): signed out, the shopper can sign in
    if (cached === asked) cached = null;
    return { signedIn: false, unknown: true };
  });
  cached = asked;
  return asked;
}

/** Forget the cached answer (after signing in or out, and between tests). */
export function resetSession(session?: Session): void {
  cached = session ? Promise.resolve(session) : null;
}

/**
 * A same-site path to go to after signing in, or `fallback`. Only "/x"
 * paths: "//evil.example" or "https://evil.example" would make the sign-in
 * page an open redirect.
 */
export function safePath(value: string | null | undefined, fallback = '/'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}

/** `/sign-in/?type=…&redirect=…&back=…` (docs/behaviour/search.md §2). */
export function signInHref(type: string, redirect: string, back: string): string {
  const q = new URLSearchParams({ type, redirect: safePath(redirect), back: safePath(back) });
  return `${SIGN_IN_PATH}?${q.toString()}`;
}

/** The current page as a path with its query: where to come back to. */
export function herePath(loc: { pathname: string; search: string; hash?: string } = window.location): string {
  return `${loc.pathname}${loc.search}`;
}

/** Asks for a sign-in code; `captchaToken`: the Turnstile token, when the dealer has the captcha on. */
export function requestCode(
  apiBase: string,
  phone: string,
  fetchImpl?: typeof fetch,
  captchaToken?: string,
): Promise<ApiResult<{ expires_in?: number }>> {
  const body: Record<string, string> = { phone_number: phone };
  if (captchaToken) body['cf-turnstile-response'] = captchaToken;
  return api(apiBase, '/api/auth/request-code', { body, fetchImpl });
}

export async function verifyCode(
  apiBase: string,
  phone: string,
  code: string,
  fetchImpl?: typeof fetch,
): Promise<ApiResult<{ phone_number?: string }>> {
  const result = await api<{ phone_number?: string }>(apiBase, '/api/auth/verify', { body: { phone_number: phone, code }, fetchImpl });
  if (result.ok) resetSession({ signedIn: true, phone: result.data.phone_number });
  return result;
}

const trimSlashes = (p: string) => p.replace(/\/+$/, '') || '/';

/**
 * Whether `pathname` is one of the dealer's gated routes. Patterns are site
 * paths; "{name}" matches one path segment, a query part ("?car_id") is
 * ignored, trailing slashes do not matter.
 */
export function isGatedPath(pathname: string, patterns: readonly string[]): boolean {
  const path = trimSlashes(pathname).split('/');
  return patterns.some((pattern) => {
    const parts = trimSlashes(pattern.split('?')[0] ?? '').split('/');
    return parts.length === path.length && parts.every((part, i) => (/^\{\w+\}$/.test(part) ? path[i] !== '' : part === path[i]));
  });
}

/** docs/behaviour/content.md §4: redirect when not logged in, loading has finished and the route is gated. */
export function shouldRedirectToSignIn(state: { loading: boolean; signedIn: boolean; gated: boolean }): boolean {
  return state.gated && !state.loading && !state.signedIn;
}
