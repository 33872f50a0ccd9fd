// @vitest-environment jsdom
/**
 * The car page's view-time rules (docs/behaviour/car-page.md §2, content.md §2.6, §4, §9): Show
 * More/Less and Show All/Hide, tabs with the keyboard, the sticky bar after
 * 900 px and the phone footer after 50 px, share links and the 550 x 400
 * window, "Copied" for 1.5 s, the photo viewer (keyboard, swipe, Escape,
 * focus trapped and returned), information dialogs, the not-found photo,
 * and Call Now only while the location is open in its own time zone.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { updateCallNow } from '../src/lib/car-page/call-now';
import { initDialogs } from '../src/lib/car-page/dialogs';
import { initDisclosures, toggleDisclosure } from '../src/lib/car-page/disclosure';
import { installPhotoFallback } from '../src/lib/car-page/photo-fallback';
import { COPIED_MS, copyLink, SHARE_WINDOW, shareLinks, shareWindowFeatures } from '../src/lib/car-page/share';
import { initSticky, MOBILE_FOOTER_AFTER_PX, STICKY_BAR_AFTER_PX, stickyState } from '../src/lib/car-page/sticky';
import { initTabs, tabAfterKey } from '../src/lib/car-page/tabs';
import { galleryPhotos, PhotoViewer, swipeStep, wrap } from '../src/lib/car-page/viewer';

// jsdom has no modal dialogs: the browser's behaviour that matters here.
beforeAll(() => {
  const proto = HTMLDialogElement.prototype as HTMLDialogElement & { showModal(): void; close(): void };
  proto.showModal = function (this: HTMLDialogElement) {
    this.open = true;
  };
  proto.close = function (this: HTMLDialogElement) {
    if (!this.open) return;
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
});

let undo: Array<() => void> = [];
afterEach(() => {
  undo.forEach((u) => u());
  undo = [];
  document.body.innerHTML = '';
  vi.useRealTimers();
});

const $ = <T extends HTMLElement = HTMLElement>(sel: string) => document.querySelector(sel) as T;
const key = (el: Element, k: string, shift = false) =>
  el.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey: shift, bubbles: true, cancelable: true }));

describe('Show more / Show all toggles', () => {
  beforeEach(() => {
    document.body.innerHTML = `
      <div data-disclosure id="list"><ul><li>1</li><li data-extra>9</li></ul>
        <button type="button" data-disclosure-toggle aria-expanded="false" data-more="Show All" data-less="Hide"><span data-toggle-label>Show All</span><span class="vh"> features</span></button></div>`;
    undo.push(initDisclosures(document));
  });

  it('opens and closes the block, with aria-expanded and the right label', () => {
    const button = $('button');
    button.click();
    expect($('#list').hasAttribute('data-open')).toBe(true);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.textContent).toBe('Hide features');
    expect(toggleDisclosure(button)).toBe(false);
    expect($('#list').hasAttribute('data-open')).toBe(false);
    expect(button.textContent).toBe('Show All features');
  });
});

describe('tabs', () => {
  beforeEach(() => {
    document.body.innerHTML = `
      <div role="tablist">
        ${['a', 'b', 'c'].map((t, i) => `<button role="tab" id="tab-${t}" aria-controls="panel-${t}" aria-selected="${i === 0}" tabindex="${i === 0 ? 0 : -1}">${t}</button>`).join('')}
      </div>
      ${['a', 'b', 'c'].map((t, i) => `<section role="tabpanel" id="panel-${t}" ${i ? 'hidden' : ''}>${t}</section>`).join('')}`;
    undo.push(initTabs(document));
  });

  it('arrow keys wrap, Home and End jump, other keys are left alone', () => {
    expect(tabAfterKey('ArrowRight', 2, 3)).toBe(0);
    expect(tabAfterKey('ArrowLeft', 0, 3)).toBe(2);
    expect(tabAfterKey('Home', 2, 3)).toBe(0);
    expect(tabAfterKey('End', 0, 3)).toBe(2);
    expect(tabAfterKey('Enter', 0, 3)).toBeNull();
  });

  it('moving with the keyboard shows the tab, focuses it and makes it the one Tab stop', () => {
    $('#tab-a').focus();
    key($('#tab-a'), 'ArrowLeft');
    expect(document.activeElement?.id).toBe('tab-c');
    expect($('#tab-c').getAttribute('aria-selected')).toBe('true');
    expect([$('#tab-a').tabIndex, $('#tab-c').tabIndex]).toEqual([-1, 0]);
    expect([$('#panel-a').hidden, $('#panel-c').hidden]).toEqual([true, false]);
    $('#tab-b').click();
    expect([$('#panel-b').hidden, $('#panel-c').hidden]).toEqual([false, true]);
  });
});

describe('sticky bars', () => {
  const both = { bar: true, footer: true };

  it('the bar shows after 900 px; on phones the footer after 50 px takes its place', () => {
    expect(stickyState(STICKY_BAR_AFTER_PX, 1280, both)).toEqual({ bar: false, footer: false });
    expect(stickyState(STICKY_BAR_AFTER_PX + 1, 1280, both)).toEqual({ bar: true, footer: false });
    expect(stickyState(MOBILE_FOOTER_AFTER_PX, 375, both)).toEqual({ bar: false, footer: false });
    expect(stickyState(MOBILE_FOOTER_AFTER_PX + 1, 375, both)).toEqual({ bar: false, footer: true });
    expect(stickyState(2000, 375, both)).toEqual({ bar: false, footer: true });
    // Without the footer, phones get the bar after 900 px; each switch alone.
    expect(stickyState(2000, 375, { bar: true, footer: false })).toEqual({ bar: true, footer: false });
    expect(stickyState(2000, 1280, { bar: false, footer: true })).toEqual({ bar: false, footer: false });
  });

  it('shows the bar on scroll, keeps room for it, and tells when the footer appears', () => {
    document.body.innerHTML = '<div id="bar" hidden></div><div id="footer" hidden></div>';
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => (frames.push(cb), frames.length));
    Object.defineProperty($('#bar'), 'offsetHeight', { value: 64 });
    Object.defineProperty($('#footer'), 'offsetHeight', { value: 56 });
    const shown: HTMLElement[] = [];
    const scrollTo = (y: number, width: number) => {
      Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
      Object.defineProperty(window, 'innerWidth', { value: width, configurable: true });
      window.dispatchEvent(new Event('scroll'));
      frames.splice(0).forEach((f) => f(0));
    };
    undo.push(initSticky(window, { bar: $('#bar'), footer: $('#footer') }, both, (el) => shown.push(el)));
    scrollTo(950, 1280);
    expect([$('#bar').hidden, $('#footer').hidden]).toEqual([false, true]);
    expect(document.documentElement.style.scrollPaddingBottom).toBe('72px');
    expect(document.body.style.paddingBottom).toBe('64px');
    scrollTo(100, 375);
    expect([$('#bar').hidden, $('#footer').hidden]).toEqual([true, false]);
    scrollTo(120, 375);
    scrollTo(0, 375);
    expect($('#footer').hidden).toBe(true);
    expect(document.body.style.paddingBottom).toBe('');
    scrollTo(60, 375);
    expect(shown.length).toBe(2);
  });

  it('a bar that appears over the focused element moves that element above it', () => {
    document.body.innerHTML = '<div id="bar" hidden></div><button id="b">Enquire</button><button id="top">Top</button>';
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => (frames.push(cb), frames.length));
    Object.defineProperty($('#bar'), 'offsetHeight', { value: 64 });
    Object.defineProperty(window, 'innerHeight', { value: 800, configurable: true });
    Object.defineProperty(window, 'innerWidth', { value: 1280, configurable: true });
    const at = (el: HTMLElement, top: number) =>
      (el.getBoundingClientRect = () => ({ top, bottom: top + 40, left: 0, right: 100, width: 100, height: 40, x: 0, y: top, toJSON() {} }));
    const moved: string[] = [];
    for (const el of [$('#b'), $('#top')]) el.scrollIntoView = () => moved.push(el.id);
    at($('#b'), 750); // its bottom (790) is where the 64 px bar will be
    at($('#top'), 100);
    undo.push(initSticky(window, { bar: $('#bar'), footer: null }, { bar: true, footer: false }));
    const scroll = (y: number) => {
      Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
      window.dispatchEvent(new Event('scroll'));
      frames.splice(0).forEach((f) => f(0));
    };
    $('#b').focus();
    scroll(950);
    expect(moved).toEqual(['b']);
    // While the bar stays, the page is the shopper's to scroll: an element
    // that passes under the bar is not pulled back.
    scroll(970);
    expect(moved).toEqual(['b']);
    // When the bar appears again, an element well above it stays put.
    scroll(0);
    $('#top').focus();
    scroll(950);
    expect(moved).toEqual(['b']);
  });

  it('a bar that grows while shown (its content filled in later) moves the focused element it now covers', () => {
    document.body.innerHTML = '<div id="footer" hidden></div><button id="b">Save</button>';
    const frames: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => (frames.push(cb), frames.length));
    let resized: (() => void) | undefined;
    const observed: Element[] = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: () => void) {
          resized = cb;
        }
        observe(el: Element) {
          observed.push(el);
        }
        disconnect() {}
      },
    );
    let height = 48;
    Object.defineProperty($('#footer'), 'offsetHeight', { get: () => height, configurable: true });
    Object.defineProperty(window, 'innerHeight', { value: 800, configurable: true });
    Object.defineProperty(window, 'innerWidth', { value: 375, configurable: true });
    Object.defineProperty(window, 'scrollY', { value: 300, configurable: true });
    // Its bottom (750) is clear of the 48 px footer, not of a 64 px one.
    $('#b').getBoundingClientRect = () => ({ top: 710, bottom: 750, left: 0, right: 100, width: 100, height: 40, x: 0, y: 710, toJSON() {} });
    const moved: string[] = [];
    $('#b').scrollIntoView = () => moved.push('b');
    $('#b').focus();
    undo.push(initSticky(window, { bar: null, footer: $('#footer') }, { bar: false, footer: true }));
    expect(observed).toEqual([$('#footer')]);
    expect([$('#footer').hidden, moved]).toEqual([false, []]);
    height = 64;
    resized?.();
    frames.splice(0).forEach((f) => f(0));
    expect(document.documentElement.style.scrollPaddingBottom).toBe('72px');
    expect(moved).toEqual(['b']);
    vi.unstubAllGlobals();
  });
});

describe('share bar', () => {
  const url = 'https://www.example.com.au/cars/2021-toyota-rav4-gx-7/';

  it('links to Facebook, X, WhatsApp, e-mail and SMS with the page address; X can be hidden', () => {
    const links = shareLinks(url, '2021 Toyota RAV4 GX', { hideX: false });
    expect(links.map((l) => l.kind)).toEqual(['facebook', 'x', 'whatsapp', 'email', 'sms']);
    for (const l of links) expect(decodeURIComponent(l.href)).toContain(url);
    expect(links[0]!.href).toBe(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`);
    expect(links.find((l) => l.kind === 'sms')!.href.startsWith('sms:')).toBe(true);
    expect(links.find((l) => l.kind === 'email')!.href.startsWith('mailto:?subject=2021%20Toyota%20RAV4%20GX')).toBe(true);
    expect(links.filter((l) => l.popup).map((l) => l.kind)).toEqual(['facebook', 'x', 'whatsapp']);
    expect(shareLinks(url, 'x', { hideX: true }).map((l) => l.kind)).toEqual(['facebook', 'whatsapp', 'email', 'sms']);
  });

  it('opens the share window at 550 x 400, centred', () => {
    expect(SHARE_WINDOW).toEqual({ width: 550, height: 400 });
    expect(shareWindowFeatures({ screenX: 0, screenY: 0, outerWidth: 1550, outerHeight: 1400 })).toBe(
      'width=550,height=400,left=500,top=500,resizable=yes,scrollbars=yes',
    );
  });

  it('copy link says "Copied" for 1.5 seconds and puts the address on the clipboard', async () => {
    vi.useFakeTimers();
    const written: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void written.push(t) }, configurable: true });
    document.body.innerHTML = `<button data-copy-link data-url="${url}" data-idle="Copy link" aria-describedby="s"><span data-label>Copy link</span></button><p id="s" role="status"></p>`;
    const button = $('button');
    expect(await copyLink(button)).toBe(true);
    expect(written).toEqual([url]);
    expect(button.textContent).toBe('Copied');
    expect($('#s').textContent).toBe('Link copied');
    vi.advanceTimersByTime(COPIED_MS - 1);
    expect(button.textContent).toBe('Copied');
    vi.advanceTimersByTime(1);
    expect(button.textContent).toBe('Copy link');
    expect($('#s').textContent).toBe('');
  });

  it('a refused clipboard says so instead of "Copied"', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => Promise.reject(new Error('denied')) }, configurable: true });
    (document as Document & { execCommand: () => boolean }).execCommand = () => false;
    document.body.innerHTML = `<button data-copy-link data-url="${url}"><span data-label>Copy link</span></button>`;
    expect(await copyLink($('button'))).toBe(false);
    expect($('button').textContent).toBe('Copy failed');
  });
});

describe('photo viewer', () => {
  let viewer: PhotoViewer;
  beforeEach(() => {
    document.body.innerHTML = `
      <section data-gallery>${[1, 2, 3]
        .map((n) => `<button data-viewer-open="${n - 1}" data-src="/p${n}-640.jpg" data-srcset="/p${n}-480.jpg 480w"><img alt="Car – photo ${n} of 3"></button>`)
        .join('')}</section>
      <dialog data-viewer><p data-viewer-count></p><button data-viewer-close>Close</button>
        <div data-viewer-stage></div><button data-viewer-prev>Prev</button><button data-viewer-next>Next</button></dialog>`;
    viewer = new PhotoViewer($('dialog') as HTMLDialogElement, galleryPhotos($('[data-gallery]')));
  });
  const img = () => $<HTMLImageElement>('.viewer__img');

  it('reads the photos from the strip and wraps around', () => {
    expect(galleryPhotos($('[data-gallery]')).map((p) => p.src)).toEqual(['/p1-640.jpg', '/p2-640.jpg', '/p3-640.jpg']);
    expect([wrap(3, 3), wrap(-1, 3)]).toEqual([0, 2]);
  });

  it('opens at the photo chosen, with focus inside, and moves with the arrow keys, Home and End', () => {
    const opener = $('[data-viewer-open="1"]');
    opener.focus();
    viewer.open(1, opener);
    expect(viewer.isOpen).toBe(true);
    expect(img().getAttribute('src')).toBe('/p2-640.jpg');
    expect(img().alt).toBe('Car – photo 2 of 3');
    expect($('[data-viewer-count]').textContent).toBe('Photo 2 of 3');
    expect(document.activeElement).toBe($('[data-viewer-close]'));
    key(document.activeElement!, 'ArrowRight');
    expect(viewer.index).toBe(2);
    key(document.activeElement!, 'ArrowRight');
    expect(viewer.index).toBe(0);
    key(document.activeElement!, 'End');
    expect(img().getAttribute('src')).toBe('/p3-640.jpg');
    expect(img().getAttribute('srcset')).toBe('/p3-480.jpg 480w');
    key(document.activeElement!, 'Home');
    expect(viewer.index).toBe(0);
    $('[data-viewer-prev]').click();
    expect(viewer.index).toBe(2);
  });

  it('traps Tab inside and gives focus back to the photo that opened it', () => {
    const opener = $('[data-viewer-open="2"]');
    viewer.open(2, opener);
    $('[data-viewer-next]').focus();
    key($('[data-viewer-next]'), 'Tab');
    expect(document.activeElement).toBe($('[data-viewer-close]'));
    key($('[data-viewer-close]'), 'Tab', true);
    expect(document.activeElement).toBe($('[data-viewer-next]'));
    $('[data-viewer-close]').click();
    expect(viewer.isOpen).toBe(false);
    expect(document.activeElement).toBe(opener);
  });

  it('Escape closes it (the dialog cancel) and focus returns', () => {
    const opener = $('[data-viewer-open="0"]');
    viewer.open(0, opener);
    // The browser turns Escape into the dialog's close.
    ($('dialog') as HTMLDialogElement).close();
    expect(document.activeElement).toBe(opener);
  });

  it('a sideways swipe moves, a tap or a scroll does not', () => {
    expect([swipeStep(-80, 5), swipeStep(80, 5), swipeStep(-20, 0), swipeStep(-60, 90)]).toEqual([1, -1, 0, 0]);
    viewer.open(0, null);
    const stage = $('[data-viewer-stage]');
    const pointer = (type: string, x: number, y: number) => {
      const e = new MouseEvent(type, { clientX: x, clientY: y, bubbles: true });
      stage.dispatchEvent(Object.assign(e, {}) as Event);
    };
    pointer('pointerdown', 300, 200);
    pointer('pointerup', 200, 210);
    expect(viewer.index).toBe(1);
    pointer('pointerdown', 100, 200);
    pointer('pointerup', 260, 200);
    expect(viewer.index).toBe(0);
    pointer('pointerdown', 100, 200);
    pointer('pointerup', 110, 200);
    expect(viewer.index).toBe(0);
  });
});

describe('information dialog', () => {
  it('opens from its button, closes with Close or the backdrop, and focus returns', () => {
    document.body.innerHTML = `<button data-dialog-open="info" id="badge">Certified</button>
      <dialog id="info" data-info-dialog><h2>Certified</h2><button data-dialog-close>Close</button></dialog>`;
    undo.push(initDialogs(document));
    const dialog = $('#info') as HTMLDialogElement;
    $('#badge').click();
    expect(dialog.open).toBe(true);
    expect(document.activeElement).toBe($('[data-dialog-close]'));
    $('[data-dialog-close]').click();
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe($('#badge'));
    $('#badge').click();
    dialog.click(); // the backdrop
    expect(dialog.open).toBe(false);
    $('#badge').click();
    $('h2').click(); // inside: stays open
    expect(dialog.open).toBe(true);
  });
});

describe('not-found photo', () => {
  it('a photo that fails to load shows the placeholder, without its srcset', () => {
    document.body.innerHTML = '<img data-photo src="/missing-640.jpg" srcset="/missing-480.jpg 480w" alt=""><img src="/logo.svg" alt="">';
    undo.push(installPhotoFallback(document));
    const [photo, logo] = [...document.querySelectorAll('img')];
    photo!.dispatchEvent(new Event('error'));
    logo!.dispatchEvent(new Event('error'));
    expect(photo!.getAttribute('src')).toBe('/images/no-photo.svg');
    expect(photo!.hasAttribute('srcset')).toBe(false);
    expect(logo!.getAttribute('src')).toBe('/logo.svg');
  });
});

describe('Call Now on the mobile footer', () => {
  const hours = {
    timezone: 'Australia/Perth',
    special_hours: [],
    closed_text: 'Closed',
    // Index 0 = Sunday, as site.json's `week`.
    hours: [
      {
        department: 'sales',
        lines: [{ days: 'Mon-Fri', text: '8:30am - 5:30pm' }, { days: 'Sat', text: 'Closed' }, { days: 'Sun', text: 'Closed' }],
        week: [null, [510, 1050], [510, 1050], [510, 1050], [510, 1050], [510, 1050], null],
        appointment_saturdays_from: null,
      },
    ],
  };
  beforeEach(() => {
    document.body.innerHTML = `<div data-mobile-footer data-hours='${JSON.stringify(hours)}'>
      <a data-call data-tel="tel:0895550201" aria-disabled="true">Call Now<span data-call-status> · Closed now</span></a></div>`;
  });

  it('is a tel: link only while the location is open in its own time zone', () => {
    const footer = $('[data-mobile-footer]');
    const call = $<HTMLAnchorElement>('[data-call]');
    // Monday 23 November 2026 09:00 in Perth (+8) is 01:00Z: open, though Brisbane would say 11:00 too.
    expect(updateCallNow(footer, new Date('2026-11-23T01:00:00Z'))).toBe(true);
    expect(call.getAttribute('href')).toBe('tel:0895550201');
    expect(call.hasAttribute('aria-disabled')).toBe(false);
    expect($('[data-call-status]').hidden).toBe(true);
    // 08:00 in Perth (00:00Z) is before opening, although it is 10:00 in Sydney.
    expect(updateCallNow(footer, new Date('2026-11-23T00:00:00Z'))).toBe(false);
    expect(call.hasAttribute('href')).toBe(false);
    expect(call.getAttribute('aria-disabled')).toBe('true');
    expect($('[data-call-status]').hidden).toBe(false);
    // Saturday: closed all day.
    expect(updateCallNow(footer, new Date('2026-11-28T03:00:00Z'))).toBe(false);
  });

  it('unreadable hours count as closed', () => {
    $('[data-mobile-footer]').dataset['hours'] = '{oops';
    expect(updateCallNow($('[data-mobile-footer]'), new Date('2026-11-23T01:00:00Z'))).toBe(false);
  });
});

describe('the up-front module', () => {
  it('loads the interactions on the first click that needs them and does not lose that click', async () => {
    const { initCarPage } = await import('../src/lib/car-page/boot');
    document.body.innerHTML = `
      <div data-disclosure id="list"><ul><li>1</li><li data-extra>9</li></ul>
        <button type="button" data-disclosure-toggle aria-expanded="false" data-more="Show All" data-less="Hide"><span data-toggle-label>Show All</span></button></div>
      <section data-gallery><a href="/p1-1280.jpg" data-viewer-open="0" data-src="/p1-640.jpg" data-srcset=""><img alt="one"></a>
        <a href="/p2-1280.jpg" data-viewer-open="1" data-src="/p2-640.jpg" data-srcset=""><img alt="two"></a></section>
      <dialog data-viewer><p data-viewer-count></p><button data-viewer-close>Close</button><div data-viewer-stage></div></dialog>`;
    initCarPage(window);
    $('[data-disclosure-toggle]').click();
    await vi.waitFor(() => expect($('#list').hasAttribute('data-open')).toBe(true));
    // Later clicks are handled once, by the loaded module.
    $('[data-disclosure-toggle]').click();
    expect($('#list').hasAttribute('data-open')).toBe(false);
    // A photo opens the viewer rather than following its link.
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    $('[data-viewer-open="1"]').dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(($('dialog') as HTMLDialogElement).open).toBe(true);
    expect($('[data-viewer-count]').textContent).toBe('Photo 2 of 2');
  });
});

describe('photo strip', () => {
  it('gives the third and later photos their address only when the strip is scrolled', async () => {
    const { deferGalleryPhotos, revealDeferred } = await import('../src/lib/car-page/gallery');
    document.body.innerHTML = `<ul class="gallery__track">
      <li><img src="/p1-640.jpg"></li><li><img src="/p2-640.jpg"></li>
      <li><img src="data:," data-src="/p3-640.jpg" data-srcset="/p3-480.jpg 480w" data-sizes="(max-width: 640px) 100vw, 640px" data-deferred></li></ul>`;
    deferGalleryPhotos(document);
    const third = document.querySelectorAll('img')[2]!;
    expect(third.getAttribute('src')).toBe('data:,');
    // HTML allows sizes only beside a srcset: the deferred photo has neither yet.
    expect(third.hasAttribute('sizes')).toBe(false);
    $('.gallery__track').dispatchEvent(new Event('scroll'));
    expect(third.getAttribute('src')).toBe('/p3-640.jpg');
    expect(third.getAttribute('srcset')).toBe('/p3-480.jpg 480w');
    expect(third.getAttribute('sizes')).toBe('(max-width: 640px) 100vw, 640px');
    expect(third.hasAttribute('data-deferred')).toBe(false);
    expect(revealDeferred(document)).toBe(0);
  });
});
