/**
 * The car page's sticky bars (docs/behaviour/content.md §2.6, §9): a bar with the car and
 * Enquire / Call after 900 px of scrolling (`detail_page.sticky_sidebar`),
 * and on phones a footer with Call Now and Enquire after 50 px
 * (`features.sticky_mobile_footer`), which then takes the bar's place.
 * While one shows, the page keeps room for it (scroll padding and a
 * bottom margin), and the focused element is moved above a bar that has
 * just appeared or grown over it, so a bar never covers the element that
 * has focus or the end of the page.
 */

export const STICKY_BAR_AFTER_PX = 900;
export const MOBILE_FOOTER_AFTER_PX = 50;
/** Phones: below the 768 px breakpoint. */
export const PHONE_MAX_WIDTH = 767;

export interface StickyOptions {
  /** `site.detail_page.sticky_sidebar`. */
  bar: boolean;
  /** `site.detail_page.sticky_mobile_footer`. */
  footer: boolean;
}

/** Which bar shows at a scroll position and viewport width. */
export function stickyState(scrollY: number, width: number, opts: StickyOptions): { bar: boolean; footer: boolean } {
  const phoneFooter = opts.footer && width <= PHONE_MAX_WIDTH;
  return {
    footer: phoneFooter && scrollY > MOBILE_FOOTER_AFTER_PX,
    bar: opts.bar && !phoneFooter && scrollY > STICKY_BAR_AFTER_PX,
  };
}

export interface StickyElements {
  bar: HTMLElement | null;
  footer: HTMLElement | null;
}

/**
 * Shows and hides the bars as the page scrolls (passive listener, at most
 * once a frame); `onFooter` runs each time the footer appears (the Call Now
 * state is worked out then). Returns a function that unwires it.
 */
export function initSticky(win: Window, els: StickyElements, opts: StickyOptions, onFooter?: (footer: HTMLElement) => void): () => void {
  const doc = win.document;
  let frame = 0;
  let lastRoom = 0;
  const apply = () => {
    frame = 0;
    const state = stickyState(win.scrollY, win.innerWidth, opts);
    let room = 0;
    for (const [el, show] of [
      [els.bar, state.bar],
      [els.footer, state.footer],
    ] as const) {
      if (!el) continue;
      const was = !el.hidden;
      el.hidden = !show;
      if (show) room = Math.max(room, el.offsetHeight);
      if (show && !was && el === els.footer) onFooter?.(el);
    }
    doc.documentElement.style.scrollPaddingBottom = room ? `${room + 8}px` : '';
    doc.body.style.paddingBottom = room ? `${room}px` : '';
    // A bar that appears, or grows (the footer's Call Now state is filled
    // in after it shows), after the browser brought the focused element
    // into view with less room kept would cover it. Only then is it moved
    // above the bar (the scroll padding is set now), never while the
    // shopper scrolls on their own.
    const grew = room > lastRoom;
    lastRoom = room;
    const focused = doc.activeElement as HTMLElement | null;
    const r = grew && focused && focused !== doc.body ? focused.getBoundingClientRect() : null;
    if (r && r.top < win.innerHeight && r.bottom > win.innerHeight - room) focused!.scrollIntoView({ block: 'nearest' });
  };
  const onScroll = () => {
    if (!frame) frame = win.requestAnimationFrame(apply);
  };
  win.addEventListener('scroll', onScroll, { passive: true });
  win.addEventListener('resize', onScroll, { passive: true });
  // A bar whose height changes while shown (its content filled in later).
  const Observer = (win as Window & typeof globalThis).ResizeObserver as typeof ResizeObserver | undefined;
  const sized = Observer ? new Observer(onScroll) : null;
  for (const el of [els.bar, els.footer]) if (el) sized?.observe(el);
  apply();
  return () => {
    win.removeEventListener('scroll', onScroll);
    win.removeEventListener('resize', onScroll);
    sized?.disconnect();
  };
}
