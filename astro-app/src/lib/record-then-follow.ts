/**
 * A link whose click is an analytics event and which leaves the page in
 * this tab (the search page's Fleet Enquiry "Get In Touch", event 19).
 * The sender (lib/events.ts) is loaded on the first event; the page would
 * unload before it has, and the event would be lost. So the click is held
 * until the event is recorded (at most `HOLD_MS`), then the link is
 * followed. A click that leaves this page in place (a modifier key opening
 * another tab, not the main button, one a script already took) records
 * the event without holding anything.
 *
 * The page-wide listener (lib/event-clicks.ts) serves `data-event` links
 * that stay on the page or open another tab; it loads on every page, so it
 * carries none of this (docs/behaviour/analytics.md).
 */

/** The longest a click waits for the sender before the link is followed anyway. */
export const HOLD_MS = 1_000;

/** What a click handler needs of the click (a DOM or a React event). */
interface LinkClick {
  currentTarget: EventTarget & { href: string };
  defaultPrevented: boolean;
  button: number;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  preventDefault(): void;
}

/**
 * A click handler for a link: sends event `id` for the page, then follows
 * the link. `navigate` is the browser's navigation (the tests' stand-in).
 */
export function recordThenFollow(id: number, navigate: (href: string) => void = (href) => window.location.assign(href)): (event: LinkClick) => void {
  return (event) => {
    const href = event.currentTarget.href;
    const recorded = import('./events').then((m) => m.sendPageEvent(document, id));
    if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) {
      recorded.catch(() => {});
      return;
    }
    event.preventDefault();
    let followed = false;
    const follow = (): void => {
      if (followed) return;
      followed = true;
      navigate(href);
    };
    const timer = setTimeout(follow, HOLD_MS);
    recorded.catch(() => {}).finally(() => {
      clearTimeout(timer);
      follow();
    });
  };
}
