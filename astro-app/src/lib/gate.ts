/**
 * The sign-in gate of a gated page (docs/behaviour/content.md §2.5, §4). BaseLayout decides
 * at build time which pages are gated and only those load this script (no
 * React); it redirects a signed-out visitor to /sign-in/ once the session
 * call has answered. Parameters come from <meta name="dealergen:gate">.
 */
import { getSession, herePath, safePath, shouldRedirectToSignIn, signInHref } from './session';

/** The referrer as a path when it is this site's own page, for "back". */
export function backPath(referrer: string, origin: string): string {
  try {
    const url = new URL(referrer);
    return url.origin === origin ? safePath(`${url.pathname}${url.search}`) : '/';
  } catch {
    return '/';
  }
}

export async function runGate(
  doc: Document = document,
  loc: Pick<Location, 'pathname' | 'search' | 'origin' | 'replace'> = window.location,
  fetchImpl?: typeof fetch,
): Promise<boolean> {
  const meta = doc.querySelector('meta[name="dealergen:gate"]');
  if (!meta) return false;
  const apiBase = meta.getAttribute('data-api-base') ?? '';
  const type = meta.getAttribute('data-type') || 'gated';
  const session = await getSession(apiBase, fetchImpl);
  if (!shouldRedirectToSignIn({ loading: false, signedIn: session.signedIn, gated: true })) return false;
  const here = herePath(loc);
  loc.replace(signInHref(type, here, backPath(doc.referrer, loc.origin)));
  return true;
}
