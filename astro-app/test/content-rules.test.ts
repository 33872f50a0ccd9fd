// @vitest-environment jsdom
/**
 * The content rules of docs/behaviour/content.md: offer text collapse (over 200 characters,
 * 160 shown), model ordering (preferred keywords then alphabetical, groups
 * in the spec's order, All Vehicles up to 10, scrolling above 6), star
 * ratings (at most 4 full stars plus a partial), content windows judged at
 * view time, the popup (once, inside its window), the sliders' stepping.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { collapse, paragraphs } from '../src/lib/content/collapse';
import { ALL_VEHICLES_LIMIT, groupModels, menuCategories, menuOrder, SCROLL_ABOVE } from '../src/lib/content/models';
import { ratingLabel, starFills } from '../src/lib/content/stars';
import { applyWindows, inWindow } from '../src/lib/content/windows';
import { armPopup, markShown, POPUP_DELAY_MS, POPUP_KEYBOARD_WALK_TABS, POPUP_SCROLL_SCREENS, popupDue, showPopup } from '../src/lib/content/popup';
import { step } from '../src/lib/content/slider';
import type { ModelCard } from '../src/types/site';

describe('offer text collapse', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

  it('200 characters or fewer stay whole', () => {
    const text = 'x'.repeat(200);
    expect(collapse(text, 200, 160)).toEqual({ full: text, short: null });
  });

  it('over 200 shows at most 160, cut at a word, with an ellipsis', () => {
    const text = words(40); // ~270 characters
    const c = collapse(text, 200, 160);
    expect(c.full).toBe(text);
    expect(c.short!.endsWith('…')).toBe(true);
    const shown = c.short!.slice(0, -1);
    expect(shown.length).toBeLessThanOrEqual(160);
    expect(text.startsWith(shown)).toBe(true);
    // Cut between words, never inside one.
    expect(text[shown.length]).toBe(' ');
  });

  it('a limit that falls exactly on a space keeps the whole last word', () => {
    const text = `${'a'.repeat(159)} ${'b'.repeat(100)}`;
    expect(collapse(text, 200, 159).short).toBe(`${'a'.repeat(159)}…`);
  });

  it('the limits are the dealer’s: 0 never collapses', () => {
    const text = words(60);
    expect(collapse(text, 0, 160).short).toBeNull();
    expect(collapse(text, 500, 160).short).toBeNull();
    expect(collapse('one two three four five', 10, 8).short).toBe('one two…');
  });

  it('counts characters as shoppers do (an emoji is one)', () => {
    const text = `${'🚗'.repeat(150)}${'x'.repeat(60)}`;
    expect(collapse(text, 200, 160).short).not.toBeNull();
    expect(collapse('🚗'.repeat(200), 200, 160).short).toBeNull();
  });

  it('blank lines separate paragraphs', () => {
    expect(paragraphs('One\nline.\n\n  Two.  \n\n\n')).toEqual(['One line.', 'Two.']);
  });
});

function model(name: string, body: string, rank: number, extra: Partial<ModelCard> = {}): ModelCard {
  return {
    name,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    manufacturer: 'Toyota',
    status: 'available',
    status_label: 'All-New',
    body,
    body_label: body,
    body_rank: rank,
    image: '/m.svg',
    description: '',
    explore: { label: `Explore ${name}`, href: '/models/x/', external: false },
    accessories: null,
    stock: null,
    stock_count: 0,
    ...extra,
  };
}

describe('model ordering', () => {
  const models = [
    model('Yaris', 'hatch-sedans', 1),
    model('LandCruiser 300', 'suvs-4wds', 2),
    model('Camry', 'hatch-sedans', 1),
    model('RAV4', 'suvs-4wds', 2),
    model('bZ4X', 'electrified', 5),
    model('Corolla Cross', 'suvs-4wds', 2),
    model('Corolla', 'hatch-sedans', 1),
    model('HiLux', 'utes-vans', 3),
    model('LandCruiser FJ', 'upcoming', 6, { status: 'coming_soon', status_label: 'Upcoming' }),
    model('Land Cruiser 76', 'discontinued', 7),
  ];

  it('preferred keywords first, in their order, then alphabetically', () => {
    const names = menuOrder(models, ['Corolla', 'RAV4', 'landcruiser']).map((m) => m.name);
    expect(names).toEqual(['Corolla', 'Corolla Cross', 'RAV4', 'LandCruiser 300', 'LandCruiser FJ', 'bZ4X', 'Camry', 'HiLux', 'Land Cruiser 76', 'Yaris']);
    // No preferences: alphabetical, case-insensitive.
    expect(menuOrder(models, []).map((m) => m.name).slice(0, 3)).toEqual(['bZ4X', 'Camry', 'Corolla']);
  });

  it('/models groups follow the spec’s order, whatever the YAML order', () => {
    const groups = groupModels(models, ['Corolla']);
    expect(groups.map((g) => g.key)).toEqual(['hatch-sedans', 'suvs-4wds', 'utes-vans', 'electrified', 'upcoming', 'discontinued']);
    expect(groups[0]!.models.map((m) => m.name)).toEqual(['Corolla', 'Camry', 'Yaris']);
  });

  it('the mega-menu starts with All Vehicles: at most 10, no discontinued model', () => {
    const many = Array.from({ length: 14 }, (_, i) => model(`Model ${String.fromCharCode(65 + i)}`, 'cars', 0));
    const cats = menuCategories([...many, model('Old', 'discontinued', 7)], []);
    expect(cats[0]!.key).toBe('all');
    expect(cats[0]!.label).toBe('All Vehicles');
    expect(cats[0]!.models).toHaveLength(ALL_VEHICLES_LIMIT);
    expect(cats[0]!.models.some((m) => m.name === 'Old')).toBe(false);
    expect(cats.map((c) => c.key)).toEqual(['all', 'cars', 'discontinued']);
    expect(cats[1]!.models.length).toBeGreaterThan(SCROLL_ABOVE);
    expect(SCROLL_ABOVE).toBe(6);
  });
});

describe('star ratings', () => {
  it('at most four full stars plus a partial one', () => {
    expect(starFills(4.7)).toEqual([1, 1, 1, 1, 0.7]);
    expect(starFills(5)).toEqual([1, 1, 1, 1, 1]);
    expect(starFills(3.25)).toEqual([1, 1, 1, 0.25, 0]);
    expect(starFills(4)).toEqual([1, 1, 1, 1, 0]);
    expect(starFills(0)).toEqual([0, 0, 0, 0, 0]);
    expect(starFills(7)).toEqual([1, 1, 1, 1, 1]);
    expect(starFills(Number.NaN)).toEqual([0, 0, 0, 0, 0]);
  });

  it('says the rating in words', () => {
    expect(ratingLabel(4.7, 1410)).toBe('Rated 4.7 out of 5 from 1,410 reviews');
    expect(ratingLabel(5, 1)).toBe('Rated 5.0 out of 5 from 1 review');
    expect(ratingLabel(4)).toBe('Rated 4.0 out of 5');
  });
});

describe('content windows', () => {
  it('start and expiry are inclusive; either may be open-ended', () => {
    expect(inWindow({ starts_at: 100, expires_at: 200 }, 100)).toBe(true);
    expect(inWindow({ starts_at: 100, expires_at: 200 }, 200)).toBe(true);
    expect(inWindow({ starts_at: 100, expires_at: 200 }, 99)).toBe(false);
    expect(inWindow({ starts_at: 100, expires_at: 200 }, 201)).toBe(false);
    expect(inWindow({ starts_at: null, expires_at: null }, 0)).toBe(true);
  });

  it('hides what expired since the build, shows what started, and says when none is left', () => {
    document.body.innerHTML = `
      <div data-window-list>
        <p data-window-empty hidden>No offers</p>
        <ul>
          <li id="old" data-window data-expires-at="1000">Old</li>
          <li id="soon" data-window data-starts-at="3000" hidden>Soon</li>
          <li id="always" data-window>Always</li>
        </ul>
      </div>`;
    expect(applyWindows(document, 2_000_000)).toBe(1);
    expect(document.getElementById('old')!.hidden).toBe(true);
    expect(document.getElementById('soon')!.hidden).toBe(true);
    expect(document.querySelector<HTMLElement>('[data-window-empty]')!.hidden).toBe(true);
    applyWindows(document, 3_000_000);
    expect(document.getElementById('soon')!.hidden).toBe(false);
    document.getElementById('always')!.remove();
    document.getElementById('soon')!.setAttribute('data-expires-at', '3500');
    applyWindows(document, 4_000_000);
    expect(document.querySelector<HTMLElement>('[data-window-empty]')!.hidden).toBe(false);
  });
});

describe('the popup', () => {
  beforeEach(() => {
    localStorage.clear();
    document.body.innerHTML = `
      <dialog data-popup="k1" data-starts-at="1000" data-expires-at="5000"><button data-popup-close>Close</button><h2>Sale</h2></dialog>`;
    // jsdom has no modal dialogs: open/close as the browser would.
    HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
      this.open = true;
    };
    // As in a browser, `close` is fired a task after the dialog closed.
    HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
      if (!this.open) return;
      this.open = false;
      setTimeout(() => this.dispatchEvent(new Event('close')), 0);
    };
  });

  it('shows inside its window only, once per device', () => {
    const info = { key: 'k1', starts_at: 1000, expires_at: 5000 };
    expect(popupDue(info, 999_000, localStorage)).toBe(false);
    expect(popupDue(info, 5_001_000, localStorage)).toBe(false);
    expect(popupDue(info, 2_000_000, localStorage)).toBe(true);
    markShown('k1', localStorage);
    expect(popupDue(info, 2_000_000, localStorage)).toBe(false);
    // A changed popup (another key) shows again.
    expect(popupDue({ ...info, key: 'k2' }, 2_000_000, localStorage)).toBe(true);
    // No storage (blocked): it shows, nothing to remember with.
    expect(popupDue(info, 2_000_000, null)).toBe(true);
  });

  it('is rendered closed, opens when due, is dismissed, and stays closed on the next page', () => {
    const dialog = document.querySelector('dialog')!;
    expect(dialog.open).toBe(false);
    expect(showPopup(document, 6_000_000)).toBe(false);
    expect(dialog.open).toBe(false);
    expect(showPopup(document, 2_000_000)).toBe(true);
    expect(dialog.open).toBe(true);
    document.querySelector<HTMLButtonElement>('[data-popup-close]')!.click();
    expect(dialog.open).toBe(false);
    expect(showPopup(document, 2_500_000)).toBe(false);
    expect(dialog.open).toBe(false);
  });

  const scrollTo = (y: number) => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    window.dispatchEvent(new Event('scroll'));
  };
  afterEach(() => {
    vi.useRealTimers();
    scrollTo(0);
  });

  it('is not opened by a key press, a click or a touch (meant for the page), only by half a screen of scrolling', () => {
    const dialog = document.querySelector('dialog')!;
    armPopup(document, () => 2_000_000);
    expect(dialog.open).toBe(false);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    window.dispatchEvent(new Event('pointerdown'));
    window.dispatchEvent(new Event('touchstart'));
    window.dispatchEvent(new Event('wheel'));
    expect(dialog.open).toBe(false);
    scrollTo(window.innerHeight * POPUP_SCROLL_SCREENS - 10);
    expect(dialog.open).toBe(false);
    scrollTo(window.innerHeight * POPUP_SCROLL_SCREENS);
    expect(dialog.open).toBe(true);
    dialog.close();
    // Armed once: more scrolling does not open it again.
    scrollTo(window.innerHeight * 3);
    expect(dialog.open).toBe(false);
  });

  it('never interrupts a walk with the keyboard: after a second Tab neither scrolling nor the delay opens it', () => {
    vi.useFakeTimers();
    const dialog = document.querySelector('dialog')!;
    armPopup(document, () => 2_000_000);
    expect(POPUP_KEYBOARD_WALK_TABS).toBe(2);
    // The first Tab (to the skip link) leaves it armed...
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true }));
    // ...the second is a walk: focus moving down the page scrolls it, and the popup stays away.
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true }));
    scrollTo(window.innerHeight * 3);
    vi.runAllTimers();
    expect(dialog.open).toBe(false);
  });

  it('opens after POPUP_DELAY_MS without scrolling, but not while the shopper is typing in a field: when they leave it', () => {
    vi.useFakeTimers();
    document.body.insertAdjacentHTML('beforeend', '<input id="q" type="text"><a id="next" href="#x">Next</a>');
    const dialog = document.querySelector('dialog')!;
    armPopup(document, () => 2_000_000);
    vi.advanceTimersByTime(POPUP_DELAY_MS - 1);
    expect(dialog.open).toBe(false);
    document.getElementById('q')!.focus();
    vi.advanceTimersByTime(1);
    expect(dialog.open).toBe(false);
    document.getElementById('next')!.focus();
    vi.runAllTimers();
    expect(dialog.open).toBe(true);
  });

  it('gives focus back where it was when closed; with nothing focused before, to the page (the next Tab starts at the top)', () => {
    document.body.insertAdjacentHTML('afterbegin', '<a id="skip" href="#main">Skip to content</a>');
    const dialog = document.querySelector('dialog')!;
    const skip = document.getElementById('skip')!;
    skip.focus();
    expect(showPopup(document, 2_000_000)).toBe(true);
    dialog.querySelector<HTMLButtonElement>('[data-popup-close]')!.focus();
    dialog.querySelector<HTMLButtonElement>('[data-popup-close]')!.click();
    expect(document.activeElement).toBe(skip);

    // Nothing focused before: the page has focus as soon as the button closed it, before the browser's `close` event (a Tab pressed at once starts at the top).
    localStorage.clear();
    skip.blur();
    expect(showPopup(document, 2_000_000)).toBe(true);
    dialog.querySelector<HTMLButtonElement>('[data-popup-close]')!.focus();
    dialog.querySelector<HTMLButtonElement>('[data-popup-close]')!.click();
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(document.body);
    expect(document.body.hasAttribute('tabindex')).toBe(false);

    // Escape (the browser's `cancel`, then it closes the dialog): the same, at once.
    localStorage.clear();
    expect(showPopup(document, 2_000_000)).toBe(true);
    dialog.querySelector<HTMLButtonElement>('[data-popup-close]')!.focus();
    dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(document.body);

    // Closed some other way: the `close` event gives focus back.
    vi.useFakeTimers();
    localStorage.clear();
    skip.focus();
    expect(showPopup(document, 2_000_000)).toBe(true);
    dialog.querySelector<HTMLButtonElement>('[data-popup-close]')!.focus();
    dialog.close();
    vi.runAllTimers();
    expect(document.activeElement).toBe(skip);
  });
});

describe('sliders', () => {
  it('steps wrap round', () => {
    expect(step(0, 1, 3)).toBe(1);
    expect(step(2, 1, 3)).toBe(0);
    expect(step(0, -1, 3)).toBe(2);
    expect(step(0, 1, 0)).toBe(0);
  });
});
