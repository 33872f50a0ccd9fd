/**
 * The car page's one up-front script, kept small: the sticky bars' scroll
 * listener, the share buttons and Print (a share window or the clipboard is allowed
 * only straight from the click), the not-found photo and the photo strip's
 * deferred photos and keys, and a masked number's Call Now. Everything else
 * loads on the first interaction that needs it (lib/car-page/interact.ts:
 * Show more toggles, tabs, dialogs, the photo viewer), and the opening-hours
 * check when the phone footer first appears.
 */
import { deferGalleryPhotos, initGalleryKeys } from './gallery';
import { installPhotoFallback } from './photo-fallback';
import { copyLink, openShareWindow } from './share';
import { initSticky } from './sticky';

/** What the interaction module handles: a click or key on one of these loads it. */
const LAZY = '[data-disclosure-toggle], [role="tab"], [data-dialog-open], [data-dialog-close], dialog[data-info-dialog], [data-viewer-open]';
const TAB_KEYS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'];

export function initCarPage(win: Window): void {
  const doc = win.document;
  installPhotoFallback(doc);
  deferGalleryPhotos(doc);
  initGalleryKeys(doc);

  const bar = doc.querySelector<HTMLElement>('[data-sticky-bar]');
  const footer = doc.querySelector<HTMLElement>('[data-mobile-footer]');
  if (bar || footer) {
    let timer: ReturnType<typeof setInterval> | undefined;
    initSticky(win, { bar, footer }, { bar: !!bar, footer: !!footer }, (el) => {
      void import('./call-now').then(({ updateCallNow }) => {
        updateCallNow(el, new Date());
        // Opening and closing times pass while the page is open.
        timer ??= setInterval(() => updateCallNow(el, new Date()), 60_000);
      });
    });
  }

  // Clicks and keys that need lib/car-page/interact.ts: kept until it has loaded, then replayed.
  let wired = false;
  let loading: Promise<void> | null = null;
  const pending: Event[] = [];
  const lazy = (event: Event) => {
    const target = event.target as Element | null;
    if (wired || !target?.closest?.(LAZY)) return;
    if (event instanceof KeyboardEvent) {
      if (!target.closest('[role="tab"]') || !TAB_KEYS.includes(event.key)) return;
      event.preventDefault();
    }
    // A photo is a link to its full-size copy: the viewer opens instead.
    if (target.closest('[data-viewer-open]')) event.preventDefault();
    pending.push(event);
    loading ??= import('./interact').then((m) => {
      wired = true;
      m.wire(doc, pending.splice(0));
    });
  };
  doc.addEventListener('click', lazy);
  doc.addEventListener('keydown', lazy);

  doc.addEventListener('click', (event) => {
    const target = event.target as Element | null;
    const popup = target?.closest?.<HTMLAnchorElement>('a[data-share-popup]');
    if (popup && openShareWindow(win, popup.href)) event.preventDefault();
    const copy = target?.closest?.<HTMLElement>('[data-copy-link]');
    if (copy) void copyLink(copy);
    if (target?.closest?.('[data-print]')) win.print();
    // A masked number's Call Now (sticky bars): revealed on the first press, then called.
    const revealCall = target?.closest?.<HTMLElement>('[data-reveal-call]');
    if (revealCall) {
      const call = (tel: string): void => win.location.assign(tel);
      const revealed = revealCall.dataset['revealed'];
      if (revealed) call(revealed);
      else void import('./reveal-call').then((m) => m.revealAndCall(revealCall, call));
    }
  });
  // Print needs a script to open the dialog: shown only now.
  for (const item of doc.querySelectorAll<HTMLElement>('[data-print-item]')) item.hidden = false;
  // "Save as PDF" names the file after the document's title: the car's
  // slug while printing (docs/behaviour/car-page.md: the download is named after the slug).
  const printName = doc.querySelector<HTMLElement>('[data-print-name]')?.dataset['printName'];
  if (printName) {
    let title = doc.title;
    win.addEventListener('beforeprint', () => {
      title = doc.title;
      doc.title = printName;
    });
    win.addEventListener('afterprint', () => {
      doc.title = title;
    });
  }
}
