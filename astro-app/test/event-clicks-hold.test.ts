// @vitest-environment jsdom
/**
 * A declared event on a link that leaves the page in this tab (the search
 * page's "Get In Touch", event 19) is recorded before the page unloads:
 * the click is held until the lazily loaded sender has pushed it, then the
 * link is followed (lib/event-clicks.ts). Clicks that leave the page in
 * place are never held. Each test loads a fresh module: the sender, once
 * loaded, is kept for the page's life and no click is held after that.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Entry = { event_id: number };
const dataLayer = () => ((window as { dataLayer?: Entry[] }).dataLayer ?? []).map((e) => e.event_id);

let stop = (): void => {};
let followed: { href: string; events: number[] }[] = [];
/** Whether the page's listeners held each click, as the browser would see it. */
let held: boolean[] = [];
// The browser's part, after every listener of the page: jsdom cannot follow links.
const browser = (e: Event) => {
  held.push(e.defaultPrevented);
  e.preventDefault();
};

async function listen(): Promise<void> {
  vi.resetModules();
  const { initEventClicks } = await import('../src/lib/event-clicks');
  // What the page had recorded when the link was followed.
  stop = initEventClicks(document, (href) => followed.push({ href, events: dataLayer() }));
  window.addEventListener('click', browser);
}

function click(id: string, init: MouseEventInit = {}): boolean {
  document.getElementById(id)!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init }));
  return held.at(-1)!;
}

beforeEach(() => {
  delete (window as { dataLayer?: unknown }).dataLayer;
  followed = [];
  held = [];
  document.head.innerHTML = '<meta name="dealergen:events" data-api-base="" data-sink="false">';
  document.body.innerHTML = `
    <a href="/contact-us/?enquiry=fleet" data-event="19" id="fleet">Get In Touch</a>
    <a href="/contact-us/?enquiry=fleet" data-event="19" target="_blank" id="new-tab">Get In Touch</a>
    <a href="#finance" data-event="19" id="hash">Finance</a>
    <a href="tel:0735550100" id="phone">(07) 3555 0100</a>
    <a href="/photo.jpg" data-event="61" id="photo">Photo</a>`;
});
afterEach(() => {
  stop();
  window.removeEventListener('click', browser);
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('a declared event on a link that leaves the page', () => {
  it('holds the click until the event is in the dataLayer, then follows the link once', async () => {
    await listen();
    expect(click('fleet')).toBe(true);
    expect(followed).toEqual([]);
    await vi.waitFor(() => expect(followed).toHaveLength(1));
    expect(followed[0]).toEqual({ href: 'http://localhost:3000/contact-us/?enquiry=fleet', events: [19] });
  });

  it('once the sender has loaded, records at once and lets the browser follow the link', async () => {
    await listen();
    click('phone');
    await vi.waitFor(() => expect(dataLayer()).toEqual([25]));
    expect(click('fleet')).toBe(false);
    expect(dataLayer()).toEqual([25, 19]);
    expect(followed).toEqual([]);
  });

  it('never holds a click that leaves the page in place: a new tab, a modifier key, a hash on this page, tel:, a click a script took', async () => {
    await listen();
    // A photo's viewer takes its click on the document (lib/car-page/boot.ts).
    const viewer = (e: Event) => (e.target as Element).closest('#photo') && e.preventDefault();
    document.addEventListener('click', viewer);
    const holds = [click('new-tab'), click('fleet', { ctrlKey: true }), click('fleet', { button: 1 }), click('hash'), click('phone'), click('photo')];
    document.removeEventListener('click', viewer);
    // The photo's click is the viewer's (prevented by it), not held for the event.
    expect(holds).toEqual([false, false, false, false, false, true]);
    await vi.waitFor(() => expect(dataLayer()).toEqual([19, 19, 19, 19, 25, 61]));
    expect(followed).toEqual([]);
  });
});
