/**
 * One Tab stop for a group of controls (the ARIA toolbar pattern): Tab
 * enters the group on its current item and leaves it on the next; Left and
 * Right (and Home, End) move between the items. Used for a result card's
 * dealer buttons (Enquire, Test Drive, Finance, View Details): a page of
 * 21 cards with 7 buttons each was ~150 Tab stops between the filters and
 * the page links. The card's toggles stay Tab stops of their own
 * (ResultCard.tsx).
 *
 * Applied to the DOM after hydration: the server-rendered HTML keeps every
 * item in the Tab order, so nothing is out of reach before (or without)
 * JavaScript. Items that appear later join the group.
 */
import { useEffect, type RefObject } from 'react';

export function rovingItems(bar: Element, selector: string): HTMLElement[] {
  return [...bar.querySelectorAll<HTMLElement>(selector)].filter((el) => !el.hasAttribute('disabled'));
}

/** Wires `bar`; returns the unwiring function. */
export function roveFocus(bar: HTMLElement, selector: string): () => void {
  let current: HTMLElement | null = null;
  const sync = () => {
    const items = rovingItems(bar, selector);
    if (!current || !items.includes(current)) current = items[0] ?? null;
    for (const el of items) el.tabIndex = el === current ? 0 : -1;
  };
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target as HTMLElement;
    if (rovingItems(bar, selector).includes(target)) {
      current = target;
      sync();
    }
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const items = rovingItems(bar, selector);
    const at = items.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight' ? (at === last ? 0 : at + 1)
      : event.key === 'ArrowLeft' ? (at === 0 ? last : at - 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : -1;
    if (next < 0) return;
    event.preventDefault();
    items[next]!.focus();
  };
  sync();
  bar.addEventListener('focusin', onFocusIn);
  bar.addEventListener('keydown', onKey);
  // Buttons rendered later by child islands (Save) take their place in the group.
  const observer = typeof MutationObserver === 'undefined' ? null : new MutationObserver(sync);
  observer?.observe(bar, { childList: true, subtree: true });
  return () => {
    observer?.disconnect();
    bar.removeEventListener('focusin', onFocusIn);
    bar.removeEventListener('keydown', onKey);
  };
}

export function useRovingFocus(ref: RefObject<HTMLElement | null>, selector: string): void {
  useEffect(() => {
    const bar = ref.current;
    return bar ? roveFocus(bar, selector) : undefined;
  }, [ref, selector]);
}
