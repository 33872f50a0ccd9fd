/**
 * A star rating (docs/behaviour/content.md §9): at most 4 full stars plus a partial one, so
 * 4.7 shows four full stars and one 70% star, and only a 5.0 fills the
 * fifth. Five slots, each a fill from 0 to 1.
 */
export function starFills(rating: number): number[] {
  const r = Math.min(5, Math.max(0, Number.isFinite(rating) ? rating : 0));
  const full = Math.min(4, Math.floor(r));
  const partial = Math.round(Math.min(1, r - full) * 100) / 100;
  return Array.from({ length: 5 }, (_, i) => (i < full ? 1 : i === full ? partial : 0));
}

/** "Rated 4.7 out of 5 from 1,410 reviews". */
export function ratingLabel(rating: number, count?: number): string {
  const text = `Rated ${rating.toFixed(1)} out of 5`;
  if (count === undefined) return text;
  return `${text} from ${new Intl.NumberFormat('en-AU').format(count)} ${count === 1 ? 'review' : 'reviews'}`;
}
