/**
 * The home page popup (docs/behaviour/content.md §2.11, §4): an image, title, description
 * and button that shows once per shopper, is dismissible, and never shows
 * after its expiry or before the page's script has run (it is rendered
 * hidden). Once shown, a mark on the shopper's device (localStorage, by the
 * popup's key, so a changed popup shows again) keeps it from showing again.
 *
 * It opens when the shopper has scrolled half a screen down, or a while
 * after the page loaded (`armPopup`), never at load: a modal image over a
 * page nobody has started to use would be the page's largest paint (LCP),
 * and Lighthouse measured the Brisbane home page at 86-93 with it (95
 * without). Never on a key press or click either: the key or click was
 * meant for the page (the first Tab goes to the skip link, not into the
 * popup), and never while the shopper is typing in a field. A shopper who
 * walks the page with the keyboard (a second Tab) is not interrupted by it
 * at all on that page: focus moving down the page scrolls it, and the
 * popup would take focus mid-walk; it shows on a later page. Closed, focus
 * goes back where it was (with nothing focused before, the next Tab starts
 * from the top of the page again).
 */
import { inWindow, type Window } from './windows';

export interface PopupInfo extends Window {
  key: string;
}

const storageKey = (key: string) => `dealergen:popup:${key}`;

/** Whether the popup should show at `nowMs` given what the device remembers. */
export function popupDue(p: PopupInfo, nowMs: number, storage: Pick<Storage, 'getItem'> | null): boolean {
  if (!inWindow(p, Math.floor(nowMs / 1000))) return false;
  if (!storage) return true;
  try {
    return storage.getItem(storageKey(p.key)) === null;
  } catch {
    // Storage refused (private mode): show it, it cannot be remembered anyway.
    return true;
  }
}

/** Remembers that the popup was shown. */
export function markShown(key: string, storage: Pick<Storage, 'setItem'> | null): void {
  try {
    storage?.setItem(storageKey(key), '1');
  } catch {
    // Nothing to remember with.
  }
}

function storageOf(win: Window & typeof globalThis): Storage | null {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}

/** Opens the page's `dialog[data-popup]` when it is due; marks it shown. */
export function showPopup(doc: Document, nowMs: number): boolean {
  const dialog = doc.querySelector<HTMLDialogElement>('dialog[data-popup]');
  const win = doc.defaultView as (Window & typeof globalThis) | null;
  if (!dialog || !win) return false;
  const num = (a: string) => {
    const v = dialog.getAttribute(a);
    return v === null || v === '' ? null : Number(v);
  };
  const info: PopupInfo = { key: dialog.dataset.popup ?? '', starts_at: num('data-starts-at'), expires_at: num('data-expires-at') };
  const storage = storageOf(win);
  if (!info.key || !popupDue(info, nowMs, storage)) return false;
  markShown(info.key, storage);
  const before = doc.activeElement instanceof win.HTMLElement && doc.activeElement !== doc.body ? doc.activeElement : null;
  // Focus goes back in the same task as the dialog closes: the browser fires
  // `close` a task later, and a Tab pressed in between would start from the
  // closed dialog (the footer follows it). `close` stays as the fallback for
  // any other way the dialog closes.
  let dismissed = false;
  const dismiss = () => {
    if (dismissed) return;
    dismissed = true;
    dialog.close();
    returnFocus(doc, before);
  };
  dialog.addEventListener('close', dismiss, { once: true });
  // Escape: `cancel` comes just before the browser closes the dialog.
  dialog.addEventListener('cancel', dismiss, { once: true });
  for (const close of dialog.querySelectorAll('[data-popup-close]')) close.addEventListener('click', dismiss);
  // A click on the backdrop (the dialog itself, outside its content) dismisses it too.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dismiss();
  });
  dialog.showModal();
  return true;
}

/**
 * Focus back where it was before the popup opened. With nothing focused
 * before, the browser would leave the next Tab's start at the closed
 * dialog (the footer follows it): the page itself takes focus and lets go,
 * so the next Tab starts from the top (the skip link).
 */
export function returnFocus(doc: Document, before: HTMLElement | null): void {
  const to = before?.isConnected ? before : doc.body;
  // <body> takes focus only with a tabindex, given for the moment.
  if (to === doc.body && !to.hasAttribute('tabindex')) {
    to.tabIndex = -1;
    to.focus({ preventScroll: true });
    to.removeAttribute('tabindex');
  } else to.focus({ preventScroll: true });
}

/** How far the shopper scrolls down before the popup opens, in screen heights. */
export const POPUP_SCROLL_SCREENS = 0.5;
/** Or how long after the page's script ran, in milliseconds. */
export const POPUP_DELAY_MS = 15_000;

/** Whether the shopper is typing or choosing in a field (the popup waits until they leave it). */
const editing = (doc: Document): boolean => !!doc.activeElement?.matches('textarea, select, [contenteditable], input:not([type=button], [type=submit], [type=reset], [type=checkbox], [type=radio], [type=image], [type=range], [type=color], [type=file])');

/** Tabs after which the shopper is walking the page with the keyboard: the popup stays away. (The first Tab goes to the skip link.) */
export const POPUP_KEYBOARD_WALK_TABS = 2;

/**
 * Opens the popup (when due) once the shopper has scrolled
 * POPUP_SCROLL_SCREENS down or POPUP_DELAY_MS have passed, whichever is
 * first; while a field has focus, when the shopper leaves it; never once
 * the shopper walks the page with Tab (POPUP_KEYBOARD_WALK_TABS).
 */
export function armPopup(doc: Document, now: () => number = Date.now, delayMs: number = POPUP_DELAY_MS): void {
  const win = doc.defaultView;
  if (!win || !doc.querySelector('dialog[data-popup]')) return;
  let wanted = false;
  let done = false;
  let tabs = 0;
  const disarm = () => {
    done = true;
    win.removeEventListener('scroll', onScroll);
    doc.removeEventListener('focusout', onLeave);
    doc.removeEventListener('keydown', onKey, true);
  };
  const open = () => {
    wanted = true;
    if (done || editing(doc)) return;
    disarm();
    showPopup(doc, now());
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Tab' && ++tabs >= POPUP_KEYBOARD_WALK_TABS) disarm();
  };
  const onScroll = () => {
    if (win.scrollY >= win.innerHeight * POPUP_SCROLL_SCREENS) open();
  };
  // focusout comes before the next element has focus: look once it has.
  const onLeave = () => {
    if (wanted) win.setTimeout(open, 0);
  };
  win.setTimeout(open, delayMs);
  win.addEventListener('scroll', onScroll, { passive: true });
  doc.addEventListener('focusout', onLeave);
  // Captured: a Tab counts even where a widget stops its key events.
  doc.addEventListener('keydown', onKey, true);
}
