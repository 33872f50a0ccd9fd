/**
 * The home page's script (its blocks need no framework): content windows
 * (promotions and offers that expired since the build disappear), the
 * sliders' buttons, and the popup (opened after some scrolling or time).
 */
import { applyWindows } from './windows';
import { initSliders, keepFocusInView } from './slider';
import { armPopup } from './popup';

export function initHome(doc: Document, nowMs: number = Date.now()): void {
  applyWindows(doc, nowMs);
  initSliders(doc);
  keepFocusInView(doc);
  // The popup waits for half a screen of scrolling or some time, never a key (popup.ts).
  armPopup(doc, () => nowMs);
}
