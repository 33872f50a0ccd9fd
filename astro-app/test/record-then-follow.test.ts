// @vitest-environment jsdom
/**
 * The search page's "Get In Touch" (event 19) leaves the page in this
 * tab: its click is held until the lazily loaded sender has recorded the
 * event, then the link is followed (lib/record-then-follow.ts). A click
 * that leaves the page in place is recorded without holding anything.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HOLD_MS, recordThenFollow } from '../src/lib/record-then-follow';

const dataLayer = () => ((window as { dataLayer?: { event_id: number }[] }).dataLayer ?? []).map((e) => e.event_id);

let followed: { href: string; events: number[] }[] = [];
/** Whether the handler held each click, as the browser would see it. */
let held: boolean[] = [];
// The browser's part, after the handler: jsdom cannot follow links.
const browser = (e: Event) => {
  held.push(e.defaultPrevented);
  e.preventDefault();
};

function click(id: string, init: MouseEventInit = {}): boolean {
  document.getElementById(id)!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init }));
  return held.at(-1)!;
}

beforeEach(() => {
  delete (window as { dataLayer?: unknown }).dataLayer;
  followed = [];
  held = [];
  document.head.innerHTML = '<meta name="dealergen:events" data-api-base="" data-sink="false">';
  document.body.innerHTML = '<a href="/contact-us/?enquiry=fleet" id="fleet">Get In Touch</a>';
  // What the page had recorded when the link was followed.
  const handler = recordThenFollow(19, (href) => followed.push({ href, events: dataLayer() }));
  document.getElementById('fleet')!.addEventListener('click', (e) => handler(e as unknown as MouseEvent & { currentTarget: HTMLAnchorElement }));
  window.addEventListener('click', browser);
});
afterEach(() => {
  window.removeEventListener('click', browser);
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('a link that records its event, then leaves the page', () => {
  it('holds a plain click until the event is in the dataLayer, then follows the link once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      expect(click('fleet')).toBe(true);
      expect(followed).toEqual([]);
      await vi.waitFor(() => expect(followed).toHaveLength(1));
      expect(followed[0]).toEqual({ href: 'http://localhost:3000/contact-us/?enquiry=fleet', events: [19] });
      // The hold's own deadline passes: the link is not followed again.
      vi.advanceTimersByTime(HOLD_MS * 2);
      expect(followed).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('records without holding a click that leaves the page in place: a modifier key, another button, one a script took', async () => {
    const taken = (e: Event) => e.preventDefault();
    const holds = [click('fleet', { ctrlKey: true }), click('fleet', { metaKey: true }), click('fleet', { shiftKey: true }), click('fleet', { button: 1 })];
    document.body.addEventListener('click', taken, { capture: true });
    holds.push(click('fleet'));
    document.body.removeEventListener('click', taken, { capture: true });
    // The last one was taken by the script before the handler: held by it, not by the handler.
    expect(holds).toEqual([false, false, false, false, true]);
    await vi.waitFor(() => expect(dataLayer()).toEqual([19, 19, 19, 19, 19]));
    expect(followed).toEqual([]);
  });
});
