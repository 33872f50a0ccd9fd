/**
 * The New Vehicles mega-menu (docs/behaviour/content.md §2.2), loaded by header-menus.ts
 * when its dropdown is first opened: the cards come as HTML from the page
 * the build writes at the dropdown's `data-mega-menu` address (/menus/models/),
 * so no page carries them (nor their images) until a shopper opens the menu.
 * Until they arrive (and if they never do) the dropdown shows its fallback
 * links to /models/.
 *
 * Categories (All Vehicles, then each body group) are toggle buttons: one
 * pressed at a time, its cards shown. The same cards go into the desktop
 * bar and the phone menu, so ids are made unique per copy.
 */

const cache = new Map<string, Promise<string>>();

function fetchMenu(url: string): Promise<string> {
  let p = cache.get(url);
  if (!p) {
    p = fetch(url, { credentials: 'same-origin' }).then((r) => {
      if (!r.ok) throw new Error(`${url}: ${r.status}`);
      return r.text();
    });
    // A failure may be retried on the next open.
    p.catch(() => cache.delete(url));
    cache.set(url, p);
  }
  return p;
}

let copies = 0;

/** Shows the category `key` of a loaded menu and presses its button. */
export function selectCategory(root: ParentNode, key: string): void {
  for (const b of root.querySelectorAll<HTMLButtonElement>('[data-mega-category]')) b.setAttribute('aria-pressed', String(b.dataset.megaCategory === key));
  for (const p of root.querySelectorAll<HTMLElement>('[data-mega-panel]')) p.hidden = p.dataset.megaPanel !== key;
}

/** Puts the fetched cards into `menu`'s slot and wires the category buttons. */
export function installMegaMenu(menu: HTMLDetailsElement, html: string): boolean {
  const slot = menu.querySelector<HTMLElement>('[data-mega-slot]');
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const content = doc.querySelector<HTMLElement>('[data-mega-menu-content]');
  if (!slot || !content) return false;
  const prefix = `mega${++copies}-`;
  for (const el of content.querySelectorAll<HTMLElement>('[id]')) el.id = prefix + el.id;
  for (const el of content.querySelectorAll<HTMLElement>('[aria-controls]')) el.setAttribute('aria-controls', prefix + el.getAttribute('aria-controls'));
  const node = menu.ownerDocument.importNode(content, true);
  node.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('[data-mega-category]');
    if (button?.dataset.megaCategory) selectCategory(node, button.dataset.megaCategory);
  });
  // A keyboard user already on a fallback link keeps a focus: the first category.
  const hadFocus = slot.contains(menu.ownerDocument.activeElement);
  slot.replaceChildren(node);
  if (hadFocus) node.querySelector<HTMLElement>('[data-mega-category]')?.focus();
  return true;
}

/** Fetches and installs the menu's cards (once per dropdown). */
export async function loadMegaMenu(menu: HTMLDetailsElement): Promise<void> {
  const url = menu.dataset.megaMenu;
  if (!url) return;
  try {
    const html = await fetchMenu(url);
    menu.dataset.megaState = installMegaMenu(menu, html) ? 'loaded' : 'failed';
  } catch {
    // Leave the fallback links; the next page load tries again.
    menu.dataset.megaState = 'failed';
  }
}
