/**
 * Long offer texts collapse (docs/behaviour/content.md §4, §9): a description longer than 200
 * characters shows its first 160 (cut at a word, with an ellipsis) behind
 * "View more"; a disclaimer longer than 200 likewise behind "View full
 * disclaimer". Both limits are the dealer's (`offers_display`); 0 never
 * collapses.
 */

export interface Collapsed {
  /** The whole text. */
  full: string;
  /** What shows while collapsed; null when the text does not collapse. */
  short: string | null;
}

/** Characters as a shopper counts them (an emoji is one, not two UTF-16 units). */
const chars = (s: string) => [...s];

/**
 * `text` collapsed when it is longer than `over` characters, to at most
 * `length` characters ending at a word, plus "…". A first word longer than
 * `length` is cut inside it rather than shown whole.
 */
export function collapse(text: string, over: number, length: number): Collapsed {
  const full = text.trim();
  const all = chars(full);
  if (over <= 0 || all.length <= over) return { full, short: null };
  const head = all.slice(0, length).join('');
  // Cut at the last space when the limit falls inside a word.
  const atWord = /\s/.test(all[length] ?? ' ') ? head : head.replace(/\s+\S*$/, '');
  const short = (atWord.length > 0 ? atWord : head).replace(/[\s,;:.\-–—]+$/, '');
  return { full, short: `${short}…` };
}

/** Paragraphs of a plain text (blank lines separate them; single newlines are spaces). */
export function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}
