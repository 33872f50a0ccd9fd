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
 *
 * A link that leaves the page in this tab (the search page's "Get In
 * Touch") would unload the page before the sender has loaded, and its
 * event would be lost: such a click waits for the sender (at most
 * `HOLD_MS`), records the event, then follows the link.
 */

type Sender = typeof import('./events');

/** Event 25, a phone click (lib/events.ts EVENTS.phone_click). */
const PHONE_CLICK = 25;
/** The longest a link waits for the sender before it is followed anyway. */
const HOLD_MS = 1_000;

let sender: Sender | undefined;
const loadSender = (): Promise<Sender> => import('./events').then((m) => (sender = m));

/**
 * The link a click follows in this tab, leaving the page; null when the
 * page stays (another tab or window, a download, `tel:` or `mailto:`, a
 * hash on this page, or a script that took the click).
 */
function leavingLink(el: Element, event: MouseEvent, here: Location): HTMLAnchorElement | null {
  const link = el.closest<HTMLAnchorElement>('a[href]');
  const stays =
    !link ||
    event.defaultPrevented ||
    event.button !== 0 ||
    event.ctrlKey ||
    event.metaKey ||
    event.shiftKey ||
    event.altKey ||
    (link.target && link.target !== '_self') ||
    link.hasAttribute('download') ||
    !/^https?:$/.test(link.protocol) ||
    (link.hash && link.origin + link.pathname + link.search === here.origin + here.pathname + here.search);
  return stays ? null : link;
}

/**
 * Starts listening; returns what stops it. `navigate` follows a held link
 * (the tests' stand-in for the browser's navigation).
 */
export function initEventClicks(doc: Document, navigate: (href: string) => void = (href) => doc.defaultView?.location.assign(href)): () => void {
  const send = (id: number): void => {
    if (id <= 0) return;
    if (sender) sender.sendPageEvent(doc, id);
    else void loadSender().then((m) => m.sendPageEvent(doc, id));
  };
  const onClick = (event: Event): void => {
    const el = (event.target as Element | null)?.closest?.('[data-event], a[href^="tel:"]');
    if (!el) return;
    const id = Number(el.getAttribute('data-event') ?? PHONE_CLICK);
    const here = doc.defaultView?.location;
    const link = id > 0 && !sender && here && event instanceof MouseEvent ? leavingLink(el, event, here) : null;
    if (!link) {
      send(id);
      return;
    }
    event.preventDefault();
    let followed = false;
    const follow = (): void => {
      if (followed) return;
      followed = true;
      navigate(link.href);
    };
    const timer = setTimeout(follow, HOLD_MS);
    void loadSender()
      .then((m) => m.sendPageEvent(doc, id))
      .catch(() => {})
      .finally(() => {
        clearTimeout(timer);
        follow();
      });
  };
  // On the window, so that it runs after the page's own click handlers on
  // the document (a photo's viewer, a share popup): a click one of them
  // took (defaultPrevented) is never held and followed.
  const target = doc.defaultView ?? doc;
  target.addEventListener('click', onClick);
  for (const el of doc.querySelectorAll('[data-event-load]')) send(Number(el.getAttribute('data-event-load')));
  return () => target.removeEventListener('click', onClick);
}
