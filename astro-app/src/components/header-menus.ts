/**
 * What the header's <details> menus (the Menu disclosure and the nav
 * dropdowns) need beyond opening without JavaScript:
 * - Escape closes the innermost open menu and puts focus on its toggle;
 * - a menu closes when focus moves out of it (Tab past its last link) or a
 *   click lands outside it, so an open menu never covers the element that
 *   has focus;
 * - opening a menu closes the other open ones (its parents stay open).
 * Loaded as a small module on every page (no framework): a header with no
 * JavaScript still works, it just does not close by itself.
 */

const OPEN = 'details[open]';

function menusOf(header: Element): HTMLDetailsElement[] {
  return [...header.querySelectorAll<HTMLDetailsElement>(OPEN)];
}

function close(menu: HTMLDetailsElement, focusToggle: boolean): void {
  menu.open = false;
  if (focusToggle) menu.querySelector<HTMLElement>(':scope > summary')?.focus();
}

/** Wires every `[data-menus]` element of `doc`; returns a function that unwires them (tests). */
export function initMenus(doc: Document): () => void {
  const headers = [...doc.querySelectorAll('[data-menus]')];
  const undo: Array<() => void> = [];

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
      if (!(opened instanceof HTMLDetailsElement) || !opened.open) return;
      for (const m of menusOf(header)) if (m !== opened && !m.contains(opened) && !opened.contains(m)) close(m, false);
    };
    header.addEventListener('focusout', onFocusOut as EventListener);
    header.addEventListener('toggle', onToggle, true);
    undo.push(() => {
      header.removeEventListener('focusout', onFocusOut as EventListener);
      header.removeEventListener('toggle', onToggle, true);
    });
  }
  return () => undo.forEach((f) => f());
}
