/**
 * A finance disclaimer collapsed as docs/behaviour/car-page.md describes it: the first 197
 * characters show, the rest behind Show More / Show Less. The remainder is
 * kept in the same paragraph (hidden by CSS while collapsed), so the text
 * reads as one and the build's compliance check sees a stated rate and its
 * comparison rate together even when the cut falls between them.
 */
export const DISCLAIMER_LIMIT = 197;

export interface Collapsed {
  /** Always shown. */
  head: string;
  /** Shown after Show More; "" when the text fits. */
  rest: string;
}

/** Splits on characters (code points), never inside one. */
export function collapse(text: string, limit = DISCLAIMER_LIMIT): Collapsed {
  const chars = Array.from(text.trim());
  if (chars.length <= limit) return { head: chars.join(''), rest: '' };
  return { head: chars.slice(0, limit).join(''), rest: chars.slice(limit).join('') };
}
