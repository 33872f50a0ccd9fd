/**
 * The home page popup (spec 002 §2.11, §4): an image, title, description
 * and button that shows once per shopper, is dismissible, and never shows
 * after its expiry or before the page's script has run (it is rendered
 * hidden). Once shown, a mark on the shopper's device (localStorage, by the
 * popup's key, so a changed popup shows again) keeps it from showing again.
 *
 * It opens at the shopper's first touch, click, key or scroll rather than at
 * load (`armPopup`): a modal image over a page nobody has started to use
 * would be the page's largest paint (LCP), and Lighthouse measured the
 * Brisbane home page at 86-93 with it (95 without).
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
  for (const close of dialog.querySelectorAll('[data-popup-close]')) close.addEventListener('click', () => dialog.close());
  // A click on the backdrop (the dialog itself, outside its content) dismisses it too.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.showModal();
  return true;
}

/** What counts as the shopper starting to use the page. */
export const FIRST_USE_EVENTS = ['pointerdown', 'keydown', 'touchstart', 'scroll', 'wheel'] as const;

/** Opens the popup (when due) at the shopper's first use of the page. */
export function armPopup(doc: Document, now: () => number = Date.now): void {
  const win = doc.defaultView;
  if (!win || !doc.querySelector('dialog[data-popup]')) return;
  const open = () => {
    for (const type of FIRST_USE_EVENTS) win.removeEventListener(type, open, true);
    showPopup(doc, now());
  };
  for (const type of FIRST_USE_EVENTS) win.addEventListener(type, open, { capture: true, passive: true });
}
