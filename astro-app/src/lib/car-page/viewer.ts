/**
 * The photo viewer (docs/behaviour/car-page.md §2: cars with 2 or more photos): a modal
 * dialog over the page, opened from a photo of the strip. Arrow keys, Home
 * and End, the on-screen buttons and a sideways swipe move between photos;
 * Escape or Close closes it. Focus stays inside while it is open (Tab
 * wraps) and goes back to the strip's photo last shown (scrolled into
 * view there). Loaded on the first click of a photo, never before.
 */
import { rovePhoto } from './gallery';

export interface Photo {
  src: string;
  srcset: string;
  alt: string;
}

/** A swipe needs this many pixels sideways, more sideways than up or down. */
export const SWIPE_MIN_PX = 40;

/** `i` wrapped into 0..n-1. */
export function wrap(i: number, n: number): number {
  return ((i % n) + n) % n;
}

/** +1 (next) for a swipe to the left, -1 for one to the right, 0 for a tap or a scroll. */
export function swipeStep(dx: number, dy: number): -1 | 0 | 1 {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) <= Math.abs(dy)) return 0;
  return dx < 0 ? 1 : -1;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** Tab at the last control goes to the first, Shift+Tab at the first to the last. */
export function trapTab(event: KeyboardEvent, root: HTMLElement): void {
  if (event.key !== 'Tab') return;
  const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hidden);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  const active = root.ownerDocument.activeElement;
  if (event.shiftKey && (active === first || !root.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !root.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

/** The photos of a gallery, in order, from its open buttons (`data-src`, `data-srcset` and the photo's alt). */
export function galleryPhotos(gallery: Element): Photo[] {
  return [...gallery.querySelectorAll<HTMLElement>('[data-viewer-open]')].map((b) => ({
    src: b.dataset['src'] ?? '',
    srcset: b.dataset['srcset'] ?? '',
    alt: b.querySelector('img')?.getAttribute('alt') ?? '',
  }));
}

export class PhotoViewer {
  index = 0;
  private opener: HTMLElement | null = null;
  private img: HTMLImageElement;
  private startX = 0;
  private startY = 0;

  constructor(
    readonly dialog: HTMLDialogElement,
    readonly photos: Photo[],
  ) {
    const doc = dialog.ownerDocument;
    this.img = doc.createElement('img');
    this.img.className = 'viewer__img';
    this.img.sizes = '100vw';
    // A drag of the photo would start the browser's drag and drop, not a swipe.
    this.img.draggable = false;
    dialog.querySelector('[data-viewer-stage]')?.append(this.img);
    dialog.addEventListener('click', (e) => {
      const t = e.target as Element;
      if (t.closest('[data-viewer-next]')) this.show(this.index + 1);
      else if (t.closest('[data-viewer-prev]')) this.show(this.index - 1);
      else if (t.closest('[data-viewer-close]')) this.close();
    });
    dialog.addEventListener('keydown', (e) => this.onKey(e));
    // Escape (the dialog's cancel) and close() both end here.
    // Focus goes to the strip's link of the photo last shown, scrolled into view.
    dialog.addEventListener('close', () => {
      const track = this.opener?.closest('.gallery__track');
      if (!(track && rovePhoto(track, this.index, true))) this.opener?.focus();
      this.opener = null;
    });
    const stage = dialog.querySelector<HTMLElement>('[data-viewer-stage]') ?? dialog;
    stage.addEventListener('pointerdown', (e) => {
      this.startX = e.clientX;
      this.startY = e.clientY;
    });
    stage.addEventListener('pointerup', (e) => {
      const step = swipeStep(e.clientX - this.startX, e.clientY - this.startY);
      if (step) this.show(this.index + step);
    });
  }

  get isOpen(): boolean {
    return this.dialog.open;
  }

  /** Opens at photo `index`; focus returns to `opener` when it closes. */
  open(index: number, opener: HTMLElement | null): void {
    this.opener = opener;
    this.show(index);
    if (!this.dialog.open) {
      if (typeof this.dialog.showModal === 'function') this.dialog.showModal();
      else this.dialog.setAttribute('open', '');
    }
    this.dialog.querySelector<HTMLElement>('[data-viewer-close]')?.focus();
  }

  show(index: number): void {
    const n = this.photos.length;
    if (n === 0) return;
    this.index = wrap(index, n);
    const photo = this.photos[this.index]!;
    if (photo.srcset) this.img.srcset = photo.srcset;
    else this.img.removeAttribute('srcset');
    this.img.src = photo.src;
    this.img.alt = photo.alt;
    const count = this.dialog.querySelector('[data-viewer-count]');
    if (count) count.textContent = `Photo ${this.index + 1} of ${n}`;
  }

  close(): void {
    if (typeof this.dialog.close === 'function' && this.dialog.open) this.dialog.close();
    else {
      this.dialog.removeAttribute('open');
      this.dialog.dispatchEvent(new Event('close'));
    }
  }

  private onKey(e: KeyboardEvent): void {
    const step: Record<string, () => void> = {
      ArrowRight: () => this.show(this.index + 1),
      ArrowLeft: () => this.show(this.index - 1),
      Home: () => this.show(0),
      End: () => this.show(this.photos.length - 1),
    };
    const act = step[e.key];
    if (act) {
      e.preventDefault();
      act();
    } else if (e.key === 'Escape' && typeof this.dialog.showModal !== 'function') {
      // Browsers without <dialog> close it here; the others fire cancel themselves.
      this.close();
    } else trapTab(e, this.dialog);
  }
}

let shared: PhotoViewer | null = null;

/** A click on a photo of the strip opens the viewer there (one viewer per page). */
export function onViewerClick(event: Event): void {
  const open = (event.target as Element | null)?.closest?.<HTMLElement>('[data-viewer-open]');
  if (!open) return;
  event.preventDefault();
  const doc = open.ownerDocument;
  const dialog = doc.querySelector<HTMLDialogElement>('dialog[data-viewer]');
  const gallery = open.closest('[data-gallery]');
  if (!dialog || !gallery) return;
  if (shared?.dialog !== dialog) shared = new PhotoViewer(dialog, galleryPhotos(gallery));
  shared.open(Number(open.dataset['viewerOpen'] ?? 0), open);
}
