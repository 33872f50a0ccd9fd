/**
 * The review-feedback page (/review-feedback; spec 001 §5 "Review feedback
 * landing block", docs/behaviour/forms.md § "Parts, feedback and
 * unsubscribe"): a dealer's after-sale or after-service message links here
 * with `?first_name=Jo&dealership_name=…`. The page thanks the customer by
 * name ("Valued Customer" without one) for their visit to the dealership
 * it names (the dealer's own name without one: the old platform served many
 * dealers from one page and said "Our Dealership"; this site knows whose it
 * is), then offers the dealer's review page or, after a bad experience, the
 * feedback survey with the name carried along.
 *
 * The names come from a link anyone can write: they are shown as text
 * (never markup), cut to a sane length and stripped of control characters.
 */

/** The greeting without a name. */
export const DEFAULT_NAME = 'Valued Customer';
/** Longest first name shown, in characters. */
export const NAME_MAX = 40;
/** Longest dealership name shown, in characters. */
export const DEALERSHIP_MAX = 80;

function clean(raw: string | null, max: number): string | null {
  if (raw === null) return null;
  // eslint-disable-next-line no-control-regex
  const text = raw.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, ' ').replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  return [...text].slice(0, max).join('').trim();
}

/** A `first_name` from the link as the page shows it, or null when there is none. */
export function greetingName(raw: string | null): string | null {
  return clean(raw, NAME_MAX);
}

/** A `dealership_name` from the link as the page shows it, or null when there is none. */
export function dealershipName(raw: string | null): string | null {
  return clean(raw, DEALERSHIP_MAX);
}

/**
 * Puts the link's names into the page (`[data-feedback-name]`,
 * `[data-feedback-dealership]`) and carries the first name to the survey
 * link (`[data-feedback-survey]`); the server-rendered defaults stay where
 * the link gives none. 
 */
export function fillFeedback(doc: Document, search: string): void {
  const q = new URLSearchParams(search);
  const name = greetingName(q.get('first_name'));
  const dealership = dealershipName(q.get('dealership_name'));
  if (name) for (const el of doc.querySelectorAll('[data-feedback-name]')) el.textContent = name;
  if (dealership) for (const el of doc.querySelectorAll('[data-feedback-dealership]')) el.textContent = dealership;
  if (name) {
    for (const a of doc.querySelectorAll<HTMLAnchorElement>('a[data-feedback-survey]')) {
      const url = new URL(a.getAttribute('href') ?? '/', doc.location?.href ?? 'https://x.invalid/');
      url.searchParams.set('first_name', name);
      a.setAttribute('href', `${url.pathname}${url.search}`);
    }
  }
}
