/**
 * Cloudflare Turnstile (`features.captcha`), loaded late: the widget's
 * script is added only when a shopper first focuses a form (or sends it),
 * never with the page, so no visitor who does not fill in a form pays for
 * it. Explicit rendering (`?render=explicit`): the script runs no code of
 * its own on load and no inline script is needed, which keeps the site's
 * Content-Security-Policy strict (it allows challenges.cloudflare.com for
 * script-src and frame-src). The worker verifies the token with the
 * siteverify API (`cf-turnstile-response`).
 */

export const TURNSTILE_SCRIPT = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
/** How long a send waits for a token before telling the shopper. */
export const TOKEN_WAIT_MS = 15_000;
export const CAPTCHA_FAILED = 'The security check could not be completed. Please try again.';

export interface TurnstileApi {
  render(container: HTMLElement, options: Record<string, unknown>): string | undefined;
  reset(widgetId?: string): void;
  remove?(widgetId?: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let loading: Promise<TurnstileApi> | null = null;

/** Adds the script once per page; resolves with `window.turnstile`. */
export function loadTurnstile(doc: Document = document): Promise<TurnstileApi> {
  const w = doc.defaultView as Window | null;
  if (w?.turnstile) return Promise.resolve(w.turnstile);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.addEventListener('load', () => (w?.turnstile ? resolve(w.turnstile) : reject(new Error('turnstile missing'))));
    script.addEventListener('error', () => {
      loading = null; // a later focus may try again
      reject(new Error('turnstile failed to load'));
    });
    doc.head.append(script);
  });
  return loading;
}

/** For tests: forget the loaded script. */
export function resetTurnstileLoader(): void {
  loading = null;
}

/**
 * One widget of a form: `start()` loads and renders it (idempotent),
 * `token()` resolves with a token, waiting for the challenge when needed
 * (rejects after `TOKEN_WAIT_MS`), `reset()` asks for a fresh token after
 * one was used (a token is good for one verification).
 */
export class TurnstileWidget {
  private current: string | null = null;
  private waiters: ((t: string) => void)[] = [];
  private widgetId: string | undefined;
  private started = false;

  constructor(
    private readonly container: () => HTMLElement | null,
    private readonly siteKey: string,
    private readonly action: string,
    private readonly load: () => Promise<TurnstileApi> = () => loadTurnstile(),
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    void this.load()
      .then((api) => {
        const el = this.container();
        if (!el) return;
        this.widgetId = api.render(el, {
          sitekey: this.siteKey,
          action: this.action.slice(0, 32).replace(/[^A-Za-z0-9_-]/g, '_'),
          // The token goes in the JSON body; the widget's own hidden input is for the no-JS post only.
          'response-field': false,
          callback: (token: string) => this.got(token),
          'expired-callback': () => (this.current = null),
          'error-callback': () => (this.current = null),
        });
      })
      .catch(() => {
        this.started = false;
      });
  }

  private got(token: string): void {
    this.current = token;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w(token);
  }

  token(waitMs = TOKEN_WAIT_MS): Promise<string> {
    this.start();
    if (this.current) return Promise.resolve(this.current);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== done);
        reject(new Error(CAPTCHA_FAILED));
      }, waitMs);
      const done = (t: string) => {
        clearTimeout(timer);
        resolve(t);
      };
      this.waiters.push(done);
    });
  }

  /** After a send: the token was spent. */
  reset(): void {
    this.current = null;
    const w = this.container()?.ownerDocument.defaultView as Window | null | undefined;
    if (this.widgetId !== undefined) w?.turnstile?.reset(this.widgetId);
  }
}
