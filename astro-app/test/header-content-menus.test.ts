// @vitest-environment jsdom
/**
 * The header's content menus (docs/behaviour/content.md §2.1, §2.2): the dropdown-open
 * marker, dropdowns opening on hover for dealers with
 * `features.hover_dropdowns` (and only then, and only for a mouse), and
 * the New Vehicles mega-menu, whose cards are fetched when it is first
 * opened (never on page load), with category buttons showing one group.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initMenus } from '../src/components/header-menus';
import { installMegaMenu, loadMegaMenu } from '../src/components/mega-menu';

const toggled = () => new Promise((r) => setTimeout(r, 0));
let undo: () => void = () => {};
afterEach(() => {
  undo();
  vi.unstubAllGlobals();
});

function header(hover: boolean) {
  document.body.innerHTML = `
    <header data-menus ${hover ? 'data-hover-dropdowns' : ''}>
      <nav><ul class="nav nav--bar">
        <li><details id="stock"><summary id="stock-toggle">Stock</summary><a href="/search/">All</a></details></li>
        <li><details id="models" data-mega-menu="/menus/models/"><summary>New Vehicles</summary>
          <div data-mega-slot><ul><li><a id="fallback" href="/models/">All models</a></li></ul></div></details></li>
      </ul></nav>
    </header>
    <main><p id="text">Text</p></main>`;
  // jsdom has no matchMedia: a desktop with a mouse.
  window.matchMedia = ((q: string) => ({ matches: true, media: q })) as unknown as typeof window.matchMedia;
}
const details = (id: string) => document.getElementById(id) as HTMLDetailsElement;
const pointer = (el: Element, type: string, pointerType = 'mouse') => {
  const e = new Event(type) as Event & { pointerType: string };
  e.pointerType = pointerType;
  el.dispatchEvent(e);
};

const MENU_HTML = `<!DOCTYPE html><div class="mega" data-mega-menu-content>
  <div role="group"><button type="button" data-mega-category="all" aria-pressed="true" aria-controls="panel-all">All Vehicles</button>
  <button type="button" data-mega-category="suvs-4wds" aria-pressed="false" aria-controls="panel-suvs-4wds">SUVs &amp; 4WDs</button></div>
  <div id="panel-all" data-mega-panel="all"><a href="/models/rav4/">RAV4</a></div>
  <div id="panel-suvs-4wds" data-mega-panel="suvs-4wds" hidden><a href="/models/kluger/">Kluger</a></div></div>`;

describe('header content menus', () => {
  it('the header carries a dropdown-open marker while a menu is open', async () => {
    header(false);
    vi.stubGlobal('fetch', vi.fn(async () => new Response(MENU_HTML)));
    undo = initMenus(document);
    const h = document.querySelector('header')!;
    expect(h.hasAttribute('data-dropdown-open')).toBe(false);
    details('stock').open = true;
    await toggled();
    expect(h.hasAttribute('data-dropdown-open')).toBe(true);
    details('stock').open = false;
    await toggled();
    expect(h.hasAttribute('data-dropdown-open')).toBe(false);
  });

  it('hover opens and closes a dropdown only for dealers who want it, and only for a mouse', () => {
    header(false);
    undo = initMenus(document);
    pointer(details('stock'), 'pointerenter');
    expect(details('stock').open).toBe(false);
    undo();
    header(true);
    undo = initMenus(document);
    pointer(details('stock'), 'pointerenter', 'touch');
    expect(details('stock').open).toBe(false);
    pointer(details('stock'), 'pointerenter');
    expect(details('stock').open).toBe(true);
    pointer(details('stock'), 'pointerleave');
    expect(details('stock').open).toBe(false);
  });

  it('a click on a dropdown the pointer opened keeps it open, and then it stays open when the pointer leaves', () => {
    header(true);
    undo = initMenus(document);
    pointer(details('stock'), 'pointerenter');
    document.getElementById('stock-toggle')!.click();
    expect(details('stock').open).toBe(true);
    pointer(details('stock'), 'pointerleave');
    expect(details('stock').open).toBe(true);
    // A click elsewhere still closes it.
    document.getElementById('text')!.click();
    expect(details('stock').open).toBe(false);
  });

  it('no hover on a touch screen even for dealers who want it', () => {
    header(true);
    window.matchMedia = ((q: string) => ({ matches: false, media: q })) as unknown as typeof window.matchMedia;
    undo = initMenus(document);
    pointer(details('stock'), 'pointerenter');
    expect(details('stock').open).toBe(false);
  });

  it('the mega-menu fetches its cards when first opened, not before, and only once', async () => {
    header(false);
    const fetchMock = vi.fn(async () => new Response(MENU_HTML));
    vi.stubGlobal('fetch', fetchMock);
    undo = initMenus(document);
    await toggled();
    expect(fetchMock).not.toHaveBeenCalled();
    details('models').open = true;
    await toggled();
    await vi.waitFor(() => expect(details('models').dataset.megaState).toBe('loaded'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/menus/models/');
    expect(document.getElementById('fallback')).toBeNull();
    expect(details('models').textContent).toContain('RAV4');
    details('models').open = false;
    await toggled();
    details('models').open = true;
    await toggled();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a failed fetch leaves the fallback links', async () => {
    header(false);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('gone', { status: 404 })));
    // Another address than the other tests' (fetched menus are kept for the page's life).
    details('models').dataset.megaMenu = '/menus/gone/';
    await loadMegaMenu(details('models'));
    expect(details('models').dataset.megaState).toBe('failed');
    expect(document.getElementById('fallback')).not.toBeNull();
  });

  it('category buttons show one group at a time, ids unique per copy', () => {
    header(false);
    const menu = details('models');
    expect(installMegaMenu(menu, MENU_HTML)).toBe(true);
    const suv = menu.querySelector<HTMLButtonElement>('[data-mega-category="suvs-4wds"]')!;
    const panel = (key: string) => menu.querySelector<HTMLElement>(`[data-mega-panel="${key}"]`)!;
    expect(panel('suvs-4wds').hidden).toBe(true);
    suv.click();
    expect(suv.getAttribute('aria-pressed')).toBe('true');
    expect(menu.querySelector('[data-mega-category="all"]')!.getAttribute('aria-pressed')).toBe('false');
    expect(panel('suvs-4wds').hidden).toBe(false);
    expect(panel('all').hidden).toBe(true);
    // aria-controls still points at the (renamed) panel.
    expect(document.getElementById(suv.getAttribute('aria-controls')!)).toBe(panel('suvs-4wds'));
    expect(panel('all').id).toMatch(/^mega\d+-panel-all$/);
  });
});
