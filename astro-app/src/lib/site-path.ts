/**
 * The page's path on the dealer's site. A batched build (`dealergen build
 * --all`) renders several dealers in one Astro run under
 * `/dealergen-batch/<slug>/…` and moves each dealer's output to the root of its
 * own site afterwards; the pages must see the path they are published at.
 */
export const BATCH_PREFIX = /^\/dealergen-batch\/[^/]+(?=\/)/;

export function sitePath(pathname: string): string {
  return pathname.replace(BATCH_PREFIX, '');
}
