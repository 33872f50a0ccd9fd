/**
 * The detail page's tabs (Dealer Comments, What's Included, Why Buy From
 * Us, Reserve Online, Protect Your Car, Features), the WAI-ARIA tabs
 * pattern: one Tab stop for the tab list, arrow keys move between tabs and
 * show each (wrapping), Home and End jump to the ends, Tab goes on into the
 * panel. Without JavaScript a <noscript> style lists every panel under its
 * own heading.
 */

/** Index of the tab a key moves to, or null for keys the tab list leaves alone. */
export function tabAfterKey(key: string, index: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return (index + 1) % count;
    case 'ArrowLeft':
    case 'ArrowUp':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

function tabsOf(list: Element): HTMLElement[] {
  return [...list.querySelectorAll<HTMLElement>('[role="tab"]')];
}

/** Shows the panel of `tab` and hides the others; the selected tab is the list's one Tab stop. */
export function selectTab(tab: HTMLElement, focus: boolean): void {
  const list = tab.closest('[role="tablist"]');
  if (!list) return;
  const doc = tab.ownerDocument;
  for (const t of tabsOf(list)) {
    const selected = t === tab;
    t.setAttribute('aria-selected', String(selected));
    t.tabIndex = selected ? 0 : -1;
    const panel = doc.getElementById(t.getAttribute('aria-controls') ?? '');
    if (panel) panel.hidden = !selected;
  }
  if (focus) tab.focus();
}

/** A click on a tab shows it. */
export function onTabClick(event: Event): void {
  const tab = (event.target as Element | null)?.closest?.<HTMLElement>('[role="tab"]');
  if (tab) selectTab(tab, false);
}

/** Arrow keys, Home and End in a tab list. */
export function onTabKey(event: Event): void {
  if (!(event instanceof KeyboardEvent)) return;
  const tab = (event.target as Element | null)?.closest?.<HTMLElement>('[role="tab"]');
  const list = tab?.closest('[role="tablist"]');
  if (!tab || !list) return;
  const tabs = tabsOf(list);
  const next = tabAfterKey(event.key, tabs.indexOf(tab), tabs.length);
  if (next === null) return;
  event.preventDefault();
  selectTab(tabs[next]!, true);
}

/** Wires every tab list under `root`; returns a function that unwires it. */
export function initTabs(root: Document | HTMLElement): () => void {
  root.addEventListener('click', onTabClick);
  root.addEventListener('keydown', onTabKey);
  return () => {
    root.removeEventListener('click', onTabClick);
    root.removeEventListener('keydown', onTabKey);
  };
}
