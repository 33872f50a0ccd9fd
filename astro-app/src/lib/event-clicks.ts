/**
 * Every page: the analytics events a page declares in its markup rather
 * than sends from an island (docs/behaviour/analytics.md). A click on an
 * element with `data-event="N"` sends event N; a click on any `tel:` link
 * sends event 25 (a phone click, docs/behaviour/search.md §7: the header's, the footer's,
 * a location's, a car's, one in the dealer's own content), unless the link
 * says otherwise (`data-event=""`: a revealed number, whose reveal was the
 * recorded click); `data-event-load="N"` sends N once the page has loaded.
 * The sender (lib/events.ts) loads on the first event, so pages pay only
 * this listener up front.
 */

/** Event 25, a phone click (lib/events.ts EVENTS.phone_click). */
const PHONE_CLICK = 25;

/** Starts listening; returns what stops it. */
export function initEventClicks(doc: Document): () => void {
  const send = (id: number): void => {
    if (id > 0) void import('./events').then((m) => m.sendPageEvent(doc, id));
  };
  const onClick = (event: Event): void => {
    const el = (event.target as Element | null)?.closest?.('[data-event], a[href^="tel:"]');
    if (el) send(Number(el.getAttribute('data-event') ?? PHONE_CLICK));
  };
  doc.addEventListener('click', onClick);
  for (const el of doc.querySelectorAll('[data-event-load]')) send(Number(el.getAttribute('data-event-load')));
  return () => doc.removeEventListener('click', onClick);
}
