// @vitest-environment jsdom
/**
 * The header menus' keyboard rules: Escape closes the innermost
 * open menu and returns focus to its toggle, focus or a click leaving a
 * menu closes it, and one dropdown is open at a time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initMenus } from '../src/components/header-menus';

let undo: () => void = () => {};

beforeEach(() => {
  document.body.innerHTML = `
    <header data-menus>
      <a href="/" id="brand">Home</a>
      <details id="stock"><summary id="stock-toggle">Stock</summary><a href="/search/" id="all">All stock</a><a href="/search/used-cars/" id="used">Used</a></details>
      <details id="service"><summary id="service-toggle">Service</summary><a href="/service/" id="book">Book</a></details>
      <details id="menu"><summary id="menu-toggle">Menu</summary>
        <details id="inner"><summary id="inner-toggle">Company</summary><a href="/about/" id="about">About</a></details>
        <a href="/contact-us/" id="contact">Contact</a>
      </details>
    </header>
    <main><a href="/x/" id="outside">Outside</a><p id="text">Text</p></main>`;
  undo = initMenus(document);
});
afterEach(() => undo());

const el = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const details = (id: string) => el<HTMLDetailsElement>(id);
const escape = () => document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
/** Moves focus the way the browser does: focusout (with relatedTarget) on the old element, then focus. */
function tabTo(id: string) {
  const from = document.activeElement as HTMLElement;
  const to = el(id);
  from.dispatchEvent(new FocusEvent('focusout', { bubbles: true, relatedTarget: to }));
  to.focus();
}

describe('header menus', () => {
  it('Escape closes the open dropdown and puts focus back on its toggle', () => {
    details('stock').open = true;
    el('used').focus();
    escape();
    expect(details('stock').open).toBe(false);
    expect(document.activeElement).toBe(el('stock-toggle'));
  });

  it('Escape closes the innermost menu first, then the one around it', () => {
    details('menu').open = true;
    details('inner').open = true;
    el('about').focus();
    escape();
    expect(details('inner').open).toBe(false);
    expect(details('menu').open).toBe(true);
    expect(document.activeElement).toBe(el('inner-toggle'));
    escape();
    expect(details('menu').open).toBe(false);
    expect(document.activeElement).toBe(el('menu-toggle'));
  });

  it('Escape with the focus elsewhere closes an open menu and leaves the focus alone', () => {
    details('service').open = true;
    el('outside').focus();
    escape();
    expect(details('service').open).toBe(false);
    expect(document.activeElement).toBe(el('outside'));
  });

  it('closes a menu when focus moves out of it, not while it moves inside it', () => {
    details('stock').open = true;
    el('all').focus();
    tabTo('used');
    expect(details('stock').open).toBe(true);
    tabTo('service-toggle');
    expect(details('stock').open).toBe(false);
  });

  it('the Menu disclosure closes when Tab leaves its last link, so it never covers the focused element', () => {
    details('menu').open = true;
    el('contact').focus();
    tabTo('outside');
    expect(details('menu').open).toBe(false);
  });

  it('closes on a click outside, not on a click inside', () => {
    details('menu').open = true;
    el('contact').click();
    expect(details('menu').open).toBe(true);
    el('text').click();
    expect(details('menu').open).toBe(false);
  });

  it('opening a dropdown closes the other one but not the menu around it', async () => {
    // jsdom queues 'toggle' like browsers do.
    const toggled = () => new Promise((r) => setTimeout(r, 0));
    details('stock').open = true;
    await toggled();
    details('menu').open = true;
    await toggled();
    expect(details('stock').open).toBe(false);
    details('inner').open = true;
    await toggled();
    expect(details('menu').open).toBe(true);
    expect(details('inner').open).toBe(true);
  });
});
