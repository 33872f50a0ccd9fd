/**
 * What the header's <details> menus (the Menu disclosure and the nav
 * dropdowns) need beyond opening without JavaScript:
 * - Escape closes the innermost open menu and puts focus on its toggle;
 * - a menu closes when focus moves out of it (Tab past its last link) or a
 *   click lands outside it, so an open menu never covers the element that
 *   has focus;
 * - opening a menu closes the other open ones (its parents stay open);
 * - the header carries `data-dropdown-open` while a menu is open (docs/behaviour/content.md
 *   §2.1), for styles that dim or pin the page under it;
 * - with `data-hover-dropdowns` (the dealer's `features.hover_dropdowns`)
 *   the bar's dropdowns also open while a mouse is over them; a click on a
 *   dropdown opened that way keeps it open (the click was not meant to
 *   close what the pointer just opened);
 * - a `[data-mega-menu]` dropdown (the New Vehicles models menu) fetches
 *   its cards when first opened, not on page load (./mega-menu.ts). Its
 *   code (~0.6 KB gzip) stays in this module: a lazily imported chunk
 *   would pull in Vite's preload helper (~0.9 KB) on every page instead.
 * Loaded as a small module on every page (no framework): a header with no
 * JavaScript still works, it just does not close by itself.
 */

import { loadMegaMenu } from './mega-menu';

const OPEN = 'details[open]';

function menusOf(header: Element): HTMLDetailsElement[] {
  return [...header.querySelectorAll<HTMLDetailsElement>(OPEN)];
}

function close(menu: HTMLDetailsElement, focusToggle: boolean): void {
  menu.open = false;
  if (focusToggle) menu.querySelector<HTMLElement>(':scope > summary')?.focus();
}

/** The header is marked while one of its menus is open. */
function mark(header: Element): void {
  header.toggleAttribute('data-dropdown-open', menusOf(header).length > 0);
}

/**
 * A bar dropdown that would leave the screen (a wrapped bar puts any item
 * at either edge) opens towards the other side.
 */
function keepOnScreen(menu: HTMLDetailsElement): void {
  const sub = menu.querySelector<HTMLElement>(':scope > .nav__sub:not(.nav__mega)');
  const win = menu.ownerDocument.defaultView;
  if (!sub || !win) return;
  sub.classList.remove('nav__sub--start', 'nav__sub--end');
  const r = sub.getBoundingClientRect();
  if (r.left < 0) sub.classList.add('nav__sub--start');
  else if (r.right > win.innerWidth) sub.classList.add('nav__sub--end');
}

/** Loads the mega-menu's cards once per dropdown (a failure leaves its fallback links). */
function loadMega(menu: HTMLDetailsElement): void {
  if (menu.dataset.megaState) return;
  menu.dataset.megaState = 'loading';
  void loadMegaMenu(menu);
}

/** Wires every `[data-menus]` element of `doc`; returns a function that unwires them (tests). */
export function initMenus(doc: Document): () => void {
  const headers = [...doc.querySelectorAll('[data-menus]')];
  const undo: Array<() => void> = [];
  const win = doc.defaultView;
  /** Dropdowns opened by the pointer hovering them (not yet clicked). */
  const hoverOpened = new WeakSet<HTMLDetailsElement>();

  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    const active = doc.activeElement;
    for (const header of headers) {
      const open = menusOf(header);
      if (open.length === 0) continue;
      // The innermost open menu holding the focus; none holds it: close them all.
      const holding = open.filter((m) => active && m.contains(active));
      const innermost = holding.at(-1);
      if (innermost) close(innermost, true);
      else open.forEach((m) => close(m, false));
      event.preventDefault();
      return;
    }
  };
  doc.addEventListener('keydown', onKey);
  undo.push(() => doc.removeEventListener('keydown', onKey));

  const onClick = (event: MouseEvent) => {
    const target = event.target;
    if (!(target instanceof Node)) return;
    for (const header of headers) for (const m of menusOf(header)) if (!m.contains(target)) close(m, false);
  };
  doc.addEventListener('click', onClick);
  undo.push(() => doc.removeEventListener('click', onClick));

  for (const header of headers) {
    const onFocusOut = (event: FocusEvent) => {
      // null: the window lost focus or a click on nothing focusable (the click handler decides).
      const next = event.relatedTarget;
      if (!(next instanceof Node)) return;
      for (const m of menusOf(header)) if (!m.contains(next)) close(m, false);
    };
    // 'toggle' does not bubble: listen in the capture phase.
    const onToggle = (event: Event) => {
      const opened = event.target;
      if (!(opened instanceof HTMLDetailsElement)) return;
      if (opened.open) {
        for (const m of menusOf(header)) if (m !== opened && !m.contains(opened) && !opened.contains(m)) close(m, false);
        if (opened.hasAttribute('data-mega-menu')) loadMega(opened);
        keepOnScreen(opened);
      } else {
        hoverOpened.delete(opened);
      }
      mark(header);
    };
    header.addEventListener('focusout', onFocusOut as EventListener);
    header.addEventListener('toggle', onToggle, true);
    undo.push(() => {
      header.removeEventListener('focusout', onFocusOut as EventListener);
      header.removeEventListener('toggle', onToggle, true);
    });

    // Closed dropdowns keep a layout box in some browsers: place them all now and on resizes.
    const fit = () => header.querySelectorAll<HTMLDetailsElement>('.nav--bar details').forEach(keepOnScreen);
    fit();
    win?.addEventListener('resize', fit);
    undo.push(() => win?.removeEventListener('resize', fit));

    // Hover: only for a real mouse on a screen wide enough for the bar.
    const canHover = () => !win?.matchMedia || win.matchMedia('(hover: hover) and (pointer: fine)').matches;
    if (!header.hasAttribute('data-hover-dropdowns')) continue;
    for (const menu of header.querySelectorAll<HTMLDetailsElement>('.nav--bar details')) {
      const enter = (event: PointerEvent) => {
        if (event.pointerType !== 'mouse' || !canHover() || menu.open) return;
        hoverOpened.add(menu);
        menu.open = true;
      };
      const leave = (event: PointerEvent) => {
        if (event.pointerType !== 'mouse' || !hoverOpened.has(menu)) return;
        hoverOpened.delete(menu);
        menu.open = false;
      };
      const summary = menu.querySelector(':scope > summary');
      const click = (event: Event) => {
        // The pointer opened it a moment ago: the click keeps it open instead of closing it.
        if (!hoverOpened.has(menu)) return;
        hoverOpened.delete(menu);
        event.preventDefault();
      };
      menu.addEventListener('pointerenter', enter as EventListener);
      menu.addEventListener('pointerleave', leave as EventListener);
      summary?.addEventListener('click', click);
      undo.push(() => {
        menu.removeEventListener('pointerenter', enter as EventListener);
        menu.removeEventListener('pointerleave', leave as EventListener);
        summary?.removeEventListener('click', click);
      });
    }
  }
  return () => undo.forEach((f) => f());
}
