/**
 * The home page popup (spec 002 §2.11, §4): an image, title, description
 * and button that shows once per shopper, is dismissible, and never shows
 * after its expiry or before the page's script has run (it is rendered
 * hidden). Once shown, a mark on the shopper's device (localStorage, by the
 * popup's key, so a changed popup shows again) keeps it from showing again.
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
